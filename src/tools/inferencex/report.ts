/**
 * InferenceX's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun } from '../base/records.ts';
import { PER_TOKEN, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { inferencexInteractivity, inferencexMetrics, inferencexTpotSummary } from './definitions.ts';

export function inferencexReport(run: BenchmarkRun): ReportRow[] {
  const rows: ReportRow[] = [];
  const x = inferencexMetrics(run);
  const intvty = (metric: string, stat: string, value: number | null, note?: string): void => {
    rows.push({ tool: 'inferencex', metric, value, unit: 'tok/s', n: x.tpot.n, quantity: 'per-user speed', stat, needs: PER_TOKEN, ...(note ? { note } : {}) });
  };
  // mean and median interactivity are among the per-user speeds below
  intvty('p99_intvty', '1000 / p99 TPOT', x.intvty.p99, '1000 / p99 TPOT: the slow tail, inverted');
  return rows;
}

type InferencexSpeed = 'median_intvty' | 'mean_intvty';

export const inferencexSpeeds: SpeedSpec<InferencexSpeed> = {
  needs: {
    median_intvty: PER_TOKEN,
    mean_intvty: PER_TOKEN,
  },
  rows: (run) => {
    const rows: SpeedRowOf<InferencexSpeed>[] = [];
    // the TPOT statistics the rows read, not everything inferencexMetrics prints
    const tpot = inferencexTpotSummary(run);
    const x = { tpot, intvty: inferencexInteractivity(tpot) };
    rows.push({ tool: 'inferencex', metric: 'median_intvty', formula: '1000 / median_i TPOT_i (ms)', tokPerS: x.intvty.median, n: x.tpot.n, primary: true });
    rows.push({ tool: 'inferencex', metric: 'mean_intvty', formula: '1000 / mean_i TPOT_i (ms)', tokPerS: x.intvty.mean, n: x.tpot.n, primary: false });
    return rows;
  },
};
