/**
 * SGLang's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun } from '../base/records.ts';
import { fromSummary, FIRST, R, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { sglangMetrics, sglangTpotSummary } from './definitions.ts';

export function sglangReport(run: BenchmarkRun): ReportRow[] {
  const rows: ReportRow[] = [];
  const s = sglangMetrics(run);
  fromSummary(rows, 'sglang', 'tpot_ms', s.tpot, 'TPOT', [R, 'firstToken', 'outputTokens'], ['mean']);
  fromSummary(rows, 'sglang', 'e2e_latency_ms', s.e2eLatency, 'E2E', FIRST, ['mean']);
  rows.push({ tool: 'sglang', metric: 'concurrency (Σ e2e / D)', value: s.concurrency, unit: '1', n: s.completed, quantity: 'throughput', stat: 'concurrency Σ e2e / D', needs: [...FIRST, 'runWindow'] });
  return rows;
}

type SglangSpeed = 'mean_tpot_ms';

export const sglangSpeeds: SpeedSpec<SglangSpeed> = {
  needs: {
    mean_tpot_ms: [R, 'firstToken', 'outputTokens'],
  },
  rows: (run) => {
    const rows: SpeedRowOf<SglangSpeed>[] = [];
    const inv = (ms: number | null) => (ms !== null && ms > 0 ? 1000 / ms : null);
    const tpot = sglangTpotSummary(run); // the one summary the row reads
    rows.push({ tool: 'sglang', metric: 'mean_tpot_ms', formula: '1000 / mean_i[(end_line − first)/(output_len_i − 1)]', tokPerS: inv(tpot.mean), n: tpot.n, primary: true });
    return rows;
  },
};
