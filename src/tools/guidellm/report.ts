/**
 * GuideLLM's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun, Capability } from '../base/records.ts';
import { FIRST, PER_TOKEN, R, type ReportOptions, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { successful } from '../base/definitions.ts';
import { guidellmConcurrency, guidellmMetrics, guidellmRequestsPerSecond, guidellmTimePerOutputTokenMean, type GuidellmVersion } from './definitions.ts';

export function guidellmReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const rows: ReportRow[] = [];
  const recs = successful(run);
  const version = opts.definitions?.guidellm as GuidellmVersion | undefined;
  const allRequests = opts.guidellmRequests === 'all';
  const g = guidellmMetrics(run, { version: version, ...(allRequests ? { measureStart: -Infinity, measureEnd: Infinity } : {}) });
  const pre03 = version === 'up-to-0.3';
  const GW: Capability[] = allRequests ? [] : ['timeline', 'runWindow'];
  rows.push({ tool: 'guidellm', metric: `time_per_output_token_ms (${pre03 ? 'mean, up to 0.3' : 'token-weighted mean'})`, value: g.timePerOutputTokenMs.mean, unit: 'ms', n: g.timePerOutputTokenMs.n, quantity: 'TPOT', stat: pre03 ? 'mean (last − first)/n' : 'mean, token-weighted', needs: [...PER_TOKEN, ...GW] });
  rows.push({ tool: 'guidellm', metric: `inter_token_latency_ms (${pre03 ? 'mean, up to 0.3' : 'token-weighted mean'})`, value: g.interTokenLatencyMs.mean, unit: 'ms', n: g.interTokenLatencyMs.n, quantity: 'ITL', stat: pre03 ? 'mean (last − first)/(n − 1)' : 'mean, token-weighted', needs: [...PER_TOKEN, ...GW] });
  rows.push({ tool: 'guidellm', metric: 'p99 time_to_first_token_ms (inverse CDF)', value: g.timeToFirstTokenMs.percentiles['99'], unit: 'ms', n: g.timeToFirstTokenMs.n, quantity: 'TTFT', stat: 'p99', needs: [...FIRST, ...GW] });
  rows.push({ tool: 'guidellm', metric: 'mean time_to_first_token_ms', value: g.timeToFirstTokenMs.mean, unit: 'ms', n: g.timeToFirstTokenMs.n, quantity: 'TTFT', stat: 'mean', needs: [...FIRST, ...GW] });
  rows.push({ tool: 'guidellm', metric: 'mean request_latency', value: g.requestLatencyS.mean, unit: 's', n: g.requestLatencyS.n, quantity: 'E2E', stat: 'mean', needs: [...[R], ...GW] });
  rows.push({ tool: 'guidellm', metric: 'request_concurrency (time-weighted in the window)', value: guidellmConcurrency(run, version), unit: '1', n: recs.length, quantity: 'throughput', stat: 'concurrency, time in window / D', needs: [R, 'timeline', 'runWindow'] });
  rows.push({ tool: 'guidellm', metric: 'requests_per_second (ended in window / window)', value: guidellmRequestsPerSecond(run), unit: 'req/s', n: recs.length, quantity: 'throughput', stat: 'requests / duration', needs: [R, 'timeline', 'runWindow'] });
  return rows;
}

type GuidellmSpeed = 'time_per_output_token_ms (mean)';

export const guidellmSpeeds: SpeedSpec<GuidellmSpeed> = {
  needs: {
    // its rows aggregate the requests in the run window, which needs send times on one clock
    'time_per_output_token_ms (mean)': [...PER_TOKEN, 'timeline', 'runWindow'],
  },
  rows: (run) => {
    const rows: SpeedRowOf<GuidellmSpeed>[] = [];
    const inv = (ms: number | null) => (ms !== null && ms > 0 ? 1000 / ms : null);
    const t = guidellmTimePerOutputTokenMean(run); // the one statistic the row reads, not its percentiles
    rows.push({ tool: 'guidellm', metric: 'time_per_output_token_ms (mean)', formula: '1000 / [Σ(last_i − start_i)/Σ n_i ·1000]', tokPerS: inv(t.mean), n: t.n, primary: true });
    return rows;
  },
};
