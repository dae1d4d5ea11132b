/**
 * A report row is refused on a file exactly when the file lacks something the
 * row's function reads (ReportRow.needs). This checks the declarations against
 * the functions: perturb one kind of data in a simulated run, and every row
 * that does not declare it must keep its value.
 */
import { describe, expect, it } from 'vitest';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { fromSimResult } from '../src/metrics/index.ts';
import { metricsReport, type ReportRow } from '../src/metrics/report.ts';
import type { BenchmarkRun, Capability, RequestRecord } from '../src/tools/base/records.ts';

function baseRun(): BenchmarkRun {
  const n = 48;
  const times = Array.from({ length: n }, (_, i) => i * 0.05);
  const client = { kind: 'capped' as const, times, cap: 8 };
  const r = simulate(defaultServerConfig(), { isl: fixedLengths(n, 256), osl: fixedLengths(n, 24) }, client, { recordTokens: true });
  const run = fromSimResult(r, { client });
  // distinct input and output counts per request, so scaling them is visible
  run.records.forEach((x, i) => {
    x.inputTokens = 200 + i;
  });
  return run;
}

const map = (run: BenchmarkRun, f: (r: RequestRecord, i: number) => RequestRecord, window?: Partial<BenchmarkRun>): BenchmarkRun => ({
  ...run,
  ...window,
  records: run.records.map((r, i) => f({ ...r, chunkTimes: r.chunkTimes ? r.chunkTimes.slice() : null }, i)),
});

/** One perturbation per capability, and the capabilities a row may declare to be allowed to change with it. */
const PERTURB: [Capability, (run: BenchmarkRun) => BenchmarkRun, Capability[]][] = [
  ['schedule', (run) => map(run, (r) => ({ ...r, dueT: r.dueT === null ? null : r.dueT - 0.25 })), ['schedule']],
  [
    'chunkTimes',
    (run) => map(run, (r) => {
      const c = r.chunkTimes!;
      for (let k = 1; k < c.length - 1; k++) c[k] = c[0] + ((c[c.length - 1] - c[0]) * k * k) / (c.length - 1) ** 2;
      return r;
    }),
    ['chunkTimes'],
  ],
  ['lastToken', (run) => map(run, (r) => {
    const c = r.chunkTimes!;
    if (c.length > 1) c[c.length - 1] = (c[c.length - 2] + c[c.length - 1]) / 2;
    return r;
  }), ['lastToken', 'chunkTimes']],
  ['firstToken', (run) => map(run, (r) => {
    const c = r.chunkTimes!;
    if (c.length > 1) c[0] = (c[0] + c[1]) / 2;
    return { ...r, firstT: c[0] };
  }), ['firstToken', 'chunkTimes']],
  ['outputTokens', (run) => map(run, (r) => ({ ...r, outputTokens: r.outputTokens === null ? null : r.outputTokens * 2, requestedOutputTokens: null })), ['outputTokens']],
  ['inputTokens', (run) => map(run, (r) => ({ ...r, inputTokens: r.inputTokens * 2 })), ['inputTokens']],
  ['runWindow', (run) => ({ ...run, startT: run.startT - 1, endT: run.endT + 3 }), ['runWindow']],
  [
    'timeline',
    (run) => map(run, (r, i) => {
      const d = (i % 5) * 0.7;
      return { ...r, dueT: r.dueT === null ? null : r.dueT + d, sendT: r.sendT + d, firstT: r.firstT === null ? null : r.firstT + d, finishT: r.finishT + d, chunkTimes: r.chunkTimes!.map((t) => t + d) };
    }),
    ['timeline', 'schedule'],
  ],
];

const same = (a: number | null, b: number | null): boolean => (a === null || Number.isNaN(a) ? b === null || Number.isNaN(b) : b !== null && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)));

describe('report rows declare what their function reads', () => {
  const run = baseRun();
  const opts = { llama2Inflation: 1.2, etalon: { ttftS: 1, tbtS: 0.05 } };
  const base = metricsReport(run, opts);
  it('the base run gives a value on most rows', () => {
    expect(base.filter((r) => r.value !== null).length).toBeGreaterThan(40);
  });
  it.each(PERTURB.map(([c, f, allowed]) => [c, f, allowed] as const))('perturbing %s moves only rows that declare it', (cap, f, allowed) => {
    const moved = metricsReport(f(run), opts);
    const undeclared: string[] = [];
    let changed = 0;
    base.forEach((row: ReportRow, i) => {
      const m = moved[i];
      expect(m.metric).toBe(row.metric);
      if (same(row.value, m.value)) return;
      changed++;
      if (!row.needs.some((c) => allowed.includes(c))) undeclared.push(`${row.tool} ${row.metric}`);
    });
    expect(undeclared, `rows that read ${cap} without declaring it`).toEqual([]);
    expect(changed, `the ${cap} perturbation changes something`).toBeGreaterThan(0);
  });
});
