/**
 * AIPerf's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun } from '../base/records.ts';
import { fromSummary, LAST, PER_TOKEN, R, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { collect, successful } from '../base/definitions.ts';
import { mean } from '../../stats/percentile.ts';
import { aiperfE2eNormalizedInteractivity, aiperfE2eOutputTokenThroughput, aiperfMetrics, aiperfPerUserThroughput } from './definitions.ts';

export function aiperfReport(run: BenchmarkRun): ReportRow[] {
  const rows: ReportRow[] = [];
  const a = aiperfMetrics(run);
  fromSummary(rows, 'aiperf', 'inter_token_latency', a.interTokenLatency, 'TPOT', PER_TOKEN, ['mean']);
  // AIPerf's per-user throughputs are among the per-user speeds below
  rows.push({ tool: 'aiperf', metric: 'avg_effective_latency', value: a.effectiveLatency.mean, unit: 'ms', n: a.effectiveLatency.n, quantity: 'E2E', stat: 'mean from the credit', needs: [...LAST, 'schedule'], ...(a.effectiveLatency.excluded ? { note: a.effectiveLatency.excluded } : {}) });
  rows.push({ tool: 'aiperf', metric: 'request_throughput', value: a.requestThroughput, unit: 'req/s', n: a.requestCount, note: `D = max(end) − min(start) = ${a.durationS.toFixed(3)} s`, quantity: 'throughput', stat: 'requests / (last end − first start)', needs: [R, 'timeline', 'lastToken'] });
  return rows;
}

type AiperfSpeed = 'e2e_output_token_throughput (avg)' | 'output_token_throughput_per_user (avg)' | 'e2e_normalized_interactivity p90';

export const aiperfSpeeds: SpeedSpec<AiperfSpeed> = {
  needs: {
    'e2e_output_token_throughput (avg)': [R, 'firstToken', 'lastToken', 'outputTokens'],
    'output_token_throughput_per_user (avg)': PER_TOKEN,
    'e2e_normalized_interactivity p90': [R, 'firstToken', 'lastToken', 'outputTokens'],
  },
  rows: (run) => {
    const rows: SpeedRowOf<AiperfSpeed>[] = [];
    const recs = successful(run);
    const e2e = collect(recs, aiperfE2eOutputTokenThroughput);
    rows.push({ tool: 'aiperf', metric: 'e2e_output_token_throughput (avg)', formula: 'mean_i[OSL_i / request_latency_i]', tokPerS: e2e.values.length ? mean(e2e.values) : null, n: e2e.values.length, primary: true });
    const pu = collect(recs, aiperfPerUserThroughput);
    rows.push({ tool: 'aiperf', metric: 'output_token_throughput_per_user (avg)', formula: 'mean_i[1 / ITL_i], ITL_i = (latency − ttft)/(OSL − 1)', tokPerS: pu.values.length ? mean(pu.values) : null, n: pu.values.length, primary: false });
    rows.push({ tool: 'aiperf', metric: 'e2e_normalized_interactivity p90', formula: '1 / p90_i(latency_i / OSL_i)', tokPerS: aiperfE2eNormalizedInteractivity(run, 0.9), n: recs.length, primary: false });
    return rows;
  },
};
