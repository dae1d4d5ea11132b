/**
 * AIPerf's own aggregates beside the same quantities recomputed from the file's
 * per-request data with AIPerf's definitions (of the version that wrote the file).
 */
import { agreement, values } from '../base/agreement.ts';
import { successful, type Maybe } from '../base/definitions.ts';
import type { RequestRecord } from '../base/records.ts';
import type { Agreement, Imported } from '../base/result.ts';
import { mean } from '../../stats/percentile.ts';
import { aiperfItl, aiperfPerUserThroughput, aiperfRequestLatency, aiperfTtft } from './definitions.ts';

export function aiperfAgreement(res: Imported): Agreement[] {
  const recs = successful(res.run);
  const own: Record<string, (r: RequestRecord) => Maybe> = {
    'inter_token_latency.avg': aiperfItl,
    'output_token_throughput_per_user.avg': (r) => aiperfPerUserThroughput(r),
    'ttft.avg': aiperfTtft,
    'time_to_first_token.avg': aiperfTtft,
    'request_latency.avg': aiperfRequestLatency,
  };
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    const f = own[key];
    if (!f) continue;
    const xs = values(recs, f);
    out.push(agreement(key, rep.value, rep.unit, { value: xs.length ? mean(xs) : null }));
  }
  return out;
}

