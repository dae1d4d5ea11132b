/**
 * MLPerf LoadGen's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun, Capability } from '../base/records.ts';
import { R, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { successful } from '../base/definitions.ts';
import { mlperfMetrics, mlperfTpotMean } from './definitions.ts';

export function mlperfReport(run: BenchmarkRun): ReportRow[] {
  const rows: ReportRow[] = [];
  const recs = successful(run);
  const m = mlperfMetrics(run);
  const SCHED: Capability[] = [R, 'schedule'];
  rows.push({ tool: 'mlperf', metric: 'result_first_token_mean_latency_ns', value: m.firstTokenLatency.meanNs, unit: 'ns', n: m.firstTokenLatency.n, note: 'from the scheduled time', quantity: 'TTFT', stat: 'mean from the schedule', needs: [...SCHED, 'firstToken'] });
  rows.push({ tool: 'mlperf', metric: 'result_first_token_99.00_percentile_latency_ns', value: m.firstTokenLatency.percentilesNs['99'], unit: 'ns', n: m.firstTokenLatency.n, note: 'sorted[⌊n·0.99⌋]', quantity: 'TTFT', stat: 'p99 from the schedule', needs: [...SCHED, 'firstToken'] });
  rows.push({ tool: 'mlperf', metric: 'result_mean_latency_ns', value: m.latency.meanNs, unit: 'ns', n: m.latency.n, note: 'from the scheduled time', quantity: 'E2E', stat: 'mean from the schedule', needs: SCHED });
  rows.push({ tool: 'mlperf', metric: 'result_99.00_percentile_latency_ns', value: m.latency.percentilesNs['99'], unit: 'ns', n: m.latency.n, note: 'sorted[⌊n·0.99⌋]', quantity: 'E2E', stat: 'p99 from the schedule', needs: SCHED });
  const tp = m.timePerOutputToken;
  rows.push({ tool: 'mlperf', metric: 'result_time_to_output_token_mean', value: tp.meanNs, unit: 'ns', n: tp.n, note: 'the signed mean (Σ / n)', quantity: 'TPOT', stat: 'mean', needs: [...SCHED, 'firstToken', 'outputTokens'] });
  if (tp.loadgenMeanNs !== tp.meanNs) {
    // an erroneous run's negative TPOT sum: LoadGen's own division prints another number, shown as such beside the signed mean
    rows.push({ tool: 'mlperf', metric: 'result_time_to_output_token_mean (LoadGen’s arithmetic)', value: tp.loadgenMeanNs, unit: 'ns', n: tp.n, note: `what LoadGen would print: its int64 sum is divided by the size_t sample count (results.cc), so the negative sum wraps; the signed mean is ${tp.meanNs} ns`, quantity: 'TPOT', stat: 'mean as LoadGen prints it', needs: [...SCHED, 'firstToken', 'outputTokens'] });
  }
  rows.push({ tool: 'mlperf', metric: 'result_time_per_output_token_99.00_percentile_ns', value: m.timePerOutputToken.percentilesNs['99'], unit: 'ns', n: m.timePerOutputToken.n, quantity: 'TPOT', stat: 'p99', needs: [...SCHED, 'firstToken', 'outputTokens'] });
  rows.push({ tool: 'mlperf', metric: 'result_completed_samples_per_sec', value: recs.length > 1 ? m.completedSamplesPerSec : null, unit: 'req/s', n: recs.length, quantity: 'throughput', stat: 'requests / duration', needs: [R, 'timeline', 'schedule'] });
  rows.push({ tool: 'mlperf', metric: 'result_completed_tokens_per_second', value: m.completedTokensPerSec, unit: 'tok/s', n: recs.length, quantity: 'throughput', stat: 'output tokens / duration', needs: [R, 'timeline', 'schedule', 'outputTokens'] });
  // LoadGen logs an error per one-token answer and its summary calls such a run erroneous, whatever the numbers.
  if (m.numErrors) rows.push({ tool: 'mlperf', metric: 'num_errors', value: m.numErrors, unit: 'errors', n: recs.length, quantity: 'other', stat: 'LoadGen errors: an erroneous run', needs: [R, 'outputTokens'], note: m.errors.join('; ') });
  return rows;
}

type MlperfSpeed = 'result_time_to_output_token_mean';

export const mlperfSpeeds: SpeedSpec<MlperfSpeed> = {
  needs: {
    result_time_to_output_token_mean: [R, 'schedule', 'firstToken', 'outputTokens'],
  },
  rows: (run) => {
    const rows: SpeedRowOf<MlperfSpeed>[] = [];
    // what the row reads (the integer mean of the TPOTs, the errors), not everything mlperfMetrics prints
    const m = mlperfTpotMean(run);
    const mt = m.meanNs;
    const flag = m.numErrors ? { flag: `LoadGen would log ${m.numErrors} error(s): ${m.errors.join('; ')}` } : {};
    rows.push({ tool: 'mlperf', metric: 'result_time_to_output_token_mean', formula: '1e9 / mean_i[(lat_i − ftl_i)/(n_i − 1)] (int64 ns, from the scheduled time)', tokPerS: mt !== null && mt > 0 ? 1e9 / mt : null, n: m.n, primary: true, ...(mt !== null && mt > 0 ? {} : { reason: mt === null ? 'no scheduled times or no TPOT' : `LoadGen's mean TPOT is ${mt} ns (not positive)` }), ...flag });
    return rows;
  },
};
