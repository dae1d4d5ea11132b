/**
 * GuideLLM's own aggregates beside the same quantities recomputed from the file's
 * per-request data with GuideLLM's definitions (of the version that wrote the file).
 */
import { agreement, type Recompute } from '../base/agreement.ts';
import { successful } from '../base/definitions.ts';
import type { Agreement, Imported } from '../base/result.ts';
import { guidellmConcurrency, guidellmMetrics, guidellmRequestsPerSecond } from './definitions.ts';

export function guidellmAgreement(res: Imported): Agreement[] {
  const pre03 = res.definitions !== undefined && 'guidellm' in res.definitions && res.definitions.guidellm === 'up-to-0.3';
  const version = pre03 ? 'up-to-0.3' : '0.4+';
  const g = guidellmMetrics(res.run, { version });
  const pick = (key: string): Recompute | null => {
    const [name, stat] = key.split('.');
    const summary =
      name === 'time_to_first_token_ms' ? g.timeToFirstTokenMs : name === 'time_per_output_token_ms' ? g.timePerOutputTokenMs : name === 'inter_token_latency_ms' ? g.interTokenLatencyMs : name === 'request_latency' ? g.requestLatencyS : null;
    const scale = name.endsWith('_ms') ? 1e-3 : 1;
    if (summary) {
      const v = stat === 'mean' ? summary.mean : stat === 'median' ? summary.median : stat === 'p99' ? summary.percentiles['99'] : null;
      return { value: v === null ? null : v * scale };
    }
    if (key === 'request_totals.successful') return { value: successful(res.run).length };
    if (key === 'request_concurrency.mean') return { value: guidellmConcurrency(res.run, version) };
    if (key === 'requests_per_second.mean') {
      return pre03
        ? { value: null, reason: 'up to 0.3 GuideLLM averaged a series of per-interval rates, which the file does not keep' }
        : { value: guidellmRequestsPerSecond(res.run) };
    }
    return null;
  };
  const sample = res.sampledFrom === undefined ? undefined : `the file keeps a sample of the requests (sample_requests); GuideLLM’s own figure covers all ${res.sampledFrom}`;
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    const r = pick(key);
    if (r) out.push(agreement(key, rep.value, rep.unit, { ...r, why: r.why ?? sample }));
  }
  return out;
}

