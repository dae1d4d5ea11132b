/**
 * §8 The cliff (Figure 7). Open-loop Poisson arrivals at loads around the
 * closed-loop sweep's peak rate, many seeds per load: the share of runs whose
 * p99 TTFT exceeds one second, with a Wilson score 95% interval — the share is
 * a coin with few tosses, so the interval is printed with it.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { wilsonInterval } from '../src/stats/index.ts';
import { num, shareNum, configNumbers, LEVEL } from './lib/measure.ts';
import { closedPoint, openRun, p99 } from './lib/sweep.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  loadsPct: [90, 95, 98, 100, 102],
  seedsPerLoad: 40,
  firstSeed: 1001,
  requests: 8000,
  peakSlots: 256,
  collapseMs: 1000,
};
type Params = { loadPct: number; seed: number };
interface Result extends Params {
  p99Ms: number;
  preemptions: number;
}

const experiment = defineExperiment({
  id: 'cliff',
  title: 'The cliff',
  config,
  timeoutSeconds: 1800,
  jobs: (c) =>
    c.loadsPct.flatMap((loadPct) =>
      Array.from({ length: c.seedsPerLoad }, (_, k) => ({ id: `${loadPct}pct-s${k}`, params: { loadPct, seed: c.firstSeed + k } })),
    ),
  runJob(c, p: Params, ctx): Result {
    const rate = (closedPoint(c.peakSlots).rate * p.loadPct) / 100;
    const o = openRun(rate, c.requests, p.seed);
    ctx.progress(1, 1, c.requests);
    return { ...p, p99Ms: p99(o.ttftMs), preemptions: o.preemptions };
  },
  combine(c, results: Result[]) {
    const n: Record<string, NumberValue> = {};
    const bars = c.loadsPct.map((load) => {
      const g = results.filter((r) => r.loadPct === load);
      const bad = g.filter((r) => r.p99Ms > c.collapseMs);
      const w = wilsonInterval(bad.length, g.length, LEVEL);
      n[`load${load}.collapsed`] = num(bad.length, 'runs', g.length);
      n[`load${load}.collapsed_share_pct`] = shareNum(bad.length, g.length);
      const fine = g.filter((r) => r.p99Ms <= c.collapseMs);
      if (fine.length) {
        n[`load${load}.fine_p99_min_ms`] = num(Math.min(...fine.map((r) => r.p99Ms)), 'ms', fine.length);
        n[`load${load}.fine_p99_max_ms`] = num(Math.max(...fine.map((r) => r.p99Ms)), 'ms', fine.length);
      }
      return { load, share: 100 * w.p, lo: 100 * w.lo, hi: 100 * w.hi, runs: g.length, collapsed: bad.length };
    });
    n['runs_per_load'] = num(c.seedsPerLoad, 'runs');
    for (const load of c.loadsPct) n[`load${load}.load_pct`] = num(load, '%');
    Object.assign(n, configNumbers(c, { collapseMs: 'ms', peakSlots: 'slots' }));
    n['config.loads'] = num(c.loadsPct.length, 'loads');
    n['config.confidence_pct'] = num(100 * LEVEL, '%');
    n['requests_per_run'] = num(c.requests, 'requests');
    return { data: { bars, runs: results.map((r) => ({ load: r.loadPct, p99: r.p99Ms })) }, numbers: n };
  },
  clauses: {
    arrivals: 'open loop, Poisson at 90–102% of the 256-slot closed loop’s delivered rate; 40 seeds per load',
    clock: 'from send (= due)',
    window: 'first and last 10% of each run’s requests dropped',
    definitions: 'collapsed = p99 TTFT (numpy linear) above 1 s; share with Wilson score 95% interval',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths in [819, 1,024] in and out; 8,000 requests per run',
  },
});
export default experiment;

/** The combined data: what experiments/figures/cliff.ts draws. */
export type CliffData = DataOf<typeof experiment>;
