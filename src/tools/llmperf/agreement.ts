/**
 * LLMPerf's own aggregates beside the same quantities recomputed from the file's
 * per-request data with LLMPerf's definitions (of the version that wrote the file).
 */
import { agreement, values, type Recompute } from '../base/agreement.ts';
import { successful } from '../base/definitions.ts';
import type { Agreement, Imported } from '../base/result.ts';
import { mean } from '../../stats/percentile.ts';
import { llmperfInterTokenLatencyPerToken } from './definitions.ts';

export function llmperfAgreement(res: Imported): Agreement[] {
  const recs = successful(res.run);
  const v = res.definitions !== undefined && 'llmperf' in res.definitions ? res.definitions.llmperf : 'afd137a-or-later';
  const before = v === 'before-afd137a';
  const f1d6bed = v === 'f1d6bed';
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    let r: Recompute | null = null;
    if (key === 'ttft_s.mean') r = { value: mean(recs.map((x) => (x.firstT ?? x.sendT) - x.sendT)) };
    else if (key === 'end_to_end_latency_s.mean') r = { value: mean(recs.map((x) => x.finishT - x.sendT)) };
    else if (key === 'request_output_throughput_token_per_s.mean') {
      r = before
        ? { value: null, reason: 'before afd137a this is SSE messages / e2e, and the file keeps no message count' }
        : { value: mean(recs.filter((x) => x.outputTokens !== null && x.finishT > x.sendT).map((x) => x.outputTokens! / (x.finishT - x.sendT))) };
    } else if (key === 'inter_token_latency_s.mean') {
      r = f1d6bed
        ? { value: null, reason: 'from f1d6bed this divides by the SSE message count, which the file does not keep' }
        : {
            value: mean(values(recs, llmperfInterTokenLatencyPerToken)),
            why: before
              ? 'the file keeps no last-chunk time: the end of the stream stands in'
              : 'recomputed as afd137a–03872a4 did (÷ tokens, the stream end standing in for the last chunk); from f1d6bed LLMPerf divides by the SSE message count, which the file does not keep',
          };
    }
    if (r) out.push(agreement(key, rep.value, rep.unit, r));
  }
  return out;
}

