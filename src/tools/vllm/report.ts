/**
 * vLLM's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun, Capability } from '../base/records.ts';
import { fromSummary, fmtInterval, FIRST, LAST, PER_TOKEN, R, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { percentileWithInterval } from '../../stats/interval.ts';
import { vllmMetrics, vllmTpotSummary } from './definitions.ts';
import { medianOf } from '../base/definitions.ts';
import { countAbove, pooledChunkGaps, sortedValues } from '../base/series.ts';

export function vllmReport(run: BenchmarkRun): ReportRow[] {
  const rows: ReportRow[] = [];
  const v = vllmMetrics(run, { percentiles: [90, 99] });
  fromSummary(rows, 'vllm', 'ttft_ms', v.ttft, 'TTFT', FIRST);
  fromSummary(rows, 'vllm', 'tpot_ms', v.tpot, 'TPOT', PER_TOKEN);
  fromSummary(rows, 'vllm', 'itl_ms', v.itl, 'ITL', [R, 'chunkTimes']);
  fromSummary(rows, 'vllm', 'e2el_ms', v.e2el, 'E2E', LAST);
  fromSummary(rows, 'vllm', 'client_queue_time_ms', v.clientQueueTime, 'queue', [R, 'schedule'], ['mean']);
  fromSummary(rows, 'vllm', 'e2el_including_client_queue_ms', v.e2elIncludingClientQueue, 'E2E', [...LAST, 'schedule'], ['mean']);
  rows[rows.length - 1].stat = 'mean incl. client queue';
  // interval on the pooled ITL p99 (the site's rule: every percentile with its interval)
  const itls = pooledChunkGaps(run); // vllmItls of every successful request
  if (itls.length) {
    const pi = percentileWithInterval(sortedValues(itls), 0.99, 0.95, 'numpy-linear', { sorted: true });
    const row = rows.find((r) => r.tool === 'vllm' && r.metric === 'p99_itl_ms');
    if (row) row.note = `${fmtInterval(pi.interval[0], pi.interval[1], 1000)} (i.i.d. assumption; gaps are not independent)`;
    const big = countAbove(itls, 0.1);
    rows.push({ tool: 'vllm', metric: 'share of ITL gaps > 100 ms', value: big / itls.length, unit: '1', n: itls.length, quantity: 'ITL', stat: 'share of gaps > 100 ms', needs: [R, 'chunkTimes'] });
  }
  const W: Capability[] = [R, 'runWindow'];
  rows.push({ tool: 'vllm', metric: 'request_throughput', value: v.requestThroughput, unit: 'req/s', n: v.completed, note: `D = ${v.durationS.toFixed(3)} s`, quantity: 'throughput', stat: 'requests / duration', needs: W });
  rows.push({ tool: 'vllm', metric: 'output_throughput', value: v.outputThroughput, unit: 'tok/s', n: v.completed, quantity: 'throughput', stat: 'output tokens / duration', needs: [...W, 'outputTokens'] });
  rows.push({ tool: 'vllm', metric: 'total_token_throughput', value: v.totalTokenThroughput, unit: 'tok/s', n: v.completed, quantity: 'throughput', stat: 'all tokens / duration', needs: [...W, 'outputTokens', 'inputTokens'] });
  return rows;
}

type VllmSpeed = 'median_itl_ms' | 'mean_tpot_ms';

export const vllmSpeeds: SpeedSpec<VllmSpeed> = {
  needs: {
    median_itl_ms: [R, 'chunkTimes'],
    mean_tpot_ms: PER_TOKEN,
  },
  rows: (run) => {
    const rows: SpeedRowOf<VllmSpeed>[] = [];
    const inv = (ms: number | null) => (ms !== null && ms > 0 ? 1000 / ms : null);
    // what the rows read (the ITL median, the TPOT summary), not everything vllmMetrics prints
    const itls = pooledChunkGaps(run); // vllmItls of every successful request
    const tpot = vllmTpotSummary(run, [99]);
    rows.push({ tool: 'vllm', metric: 'median_itl_ms', formula: '1000 / median of pooled chunk gaps', tokPerS: inv(medianOf(itls, { unit: 'ms' })), n: itls.length, primary: true });
    rows.push({ tool: 'vllm', metric: 'mean_tpot_ms', formula: '1000 / mean_i[(last − first)/(n_i − 1)]', tokPerS: inv(tpot.mean), n: tpot.n, primary: false });
    return rows;
  },
};
