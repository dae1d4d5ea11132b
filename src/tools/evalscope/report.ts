/**
 * EvalScope perf's rows of `stopwatches metrics`: its per-request metrics
 * (./definitions.ts) with its own percentile (sorted values at int(n · p / 100)),
 * in seconds. Shown on runs read from evalscope's own database (the reader
 * names its definitions): it is not one of the article's seven stopwatches.
 */
import type { BenchmarkRun, Capability } from '../base/records.ts';
import { FIRST, R, type Quantity, type ReportOptions, type ReportRow } from '../base/report-rows.ts';
import { successful, type Maybe } from '../base/definitions.ts';
import { evalscopeItls, evalscopeLatency, evalscopePercentile, evalscopeTpot, evalscopeTtft } from './definitions.ts';

export function evalscopeReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  if (opts.definitions?.evalscope === undefined) return [];
  const ok = successful(run);
  const rows: ReportRow[] = [];
  const add = (name: string, xs: number[], quantity: Quantity, needs: Capability[]) => {
    const mean = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
    const stats: [string, number | null][] = [['mean', mean], ['median', evalscopePercentile(xs, 50)], ['p90', evalscopePercentile(xs, 90)], ['p99', evalscopePercentile(xs, 99)]];
    for (const [stat, value] of stats) rows.push({ tool: 'evalscope', metric: `${name} ${stat}`, value, unit: 's', n: xs.length, quantity, stat, needs, ...(value === null ? { note: 'no values' } : {}) });
  };
  const values = (f: (r: (typeof ok)[number]) => Maybe) => ok.map(f).flatMap((m) => (m.value === null ? [] : [m.value]));
  add('TTFT', values(evalscopeTtft), 'TTFT', [...FIRST, 'chunkTimes']);
  add('ITL', ok.flatMap(evalscopeItls), 'ITL', [R, 'chunkTimes']);
  add('TPOT', values(evalscopeTpot), 'TPOT', [...FIRST, 'chunkTimes', 'outputTokens']);
  add('Latency', values(evalscopeLatency), 'E2E', [R]);
  return rows;
}
