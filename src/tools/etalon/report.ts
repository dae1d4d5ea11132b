/** Etalon's row of `stopwatches metrics`: the fluidity index, when both deadlines are given. */
import type { BenchmarkRun } from '../base/records.ts';
import { R, type ReportOptions, type ReportRow } from '../base/report-rows.ts';
import { etalonServiceFluidity } from './definitions.ts';

export function etalonReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const rows: ReportRow[] = [];
  if (opts.etalon) {
    const f = etalonServiceFluidity(run, opts.etalon);
    rows.push({ tool: 'etalon', metric: 'fluidity-index (service level)', value: f.value, unit: '1', n: f.total, note: `deadlines TTFT ${opts.etalon.ttftS} s, TBT ${opts.etalon.tbtS} s; n = token deadlines`, quantity: 'other', stat: 'fluidity index', needs: [R, 'firstToken', 'chunkTimes'] });
  } else {
    rows.push({ tool: 'etalon', metric: 'fluidity-index', value: null, unit: '1', n: 0, note: 'give --ttft-deadline and --tbt-deadline (s)', quantity: 'other', stat: 'fluidity index', needs: [R, 'firstToken', 'chunkTimes'] });
  }
  return rows;
}
