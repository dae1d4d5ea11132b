/**
 * §5 Timeline and echo (Figure 4). The first-wave run over time: output
 * throughput in time bins, running and waiting requests. Throughput over the
 * whole run (start and drain included) against the steady window's.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import type { DataOf } from '../src/pipeline/types.ts';
import { defaultServerConfig, inferencexLengths, simulate } from '../src/sim/index.ts';
import { autocorrelation } from '../src/stats/index.ts';
import { num, overSeeds, seedList, steadyWindow, configNumbers } from './lib/measure.ts';
import { StepLog } from './lib/step-log.ts';

const config = {
  slots: 64,
  isl: 1024,
  osl: 1024,
  rangeRatio: 0.8,
  /** Requests per slot: the InferenceX recipe (10) and a single wave (1). */
  multipliers: [10, 1],
  /** Independent runs per request count: the numbers are medians over them, with their spread. */
  seeds: seedList(20),
  binS: 0.5,
  /** Echo period searched between these lags, s. */
  echoLagS: [2, 30] as [number, number],
  figureSeed: 1,
};
type Params = { multiplier: number; seed: number };

interface Result extends Params {
  wholeTokPerS: number;
  steadyTokPerS: number | null;
  echoPeriodS: number | null;
  timeline: { t: number; tokensPerS: number; running: number; waiting: number }[] | null;
}

const experiment = defineExperiment({
  id: 'timeline',
  title: 'Timeline and echo',
  config,
  jobs: (c) => c.multipliers.flatMap((multiplier) => c.seeds.map((seed) => ({ id: `x${multiplier}-s${seed}`, params: { multiplier, seed } }))),
  runJob(c, p: Params, ctx): Result {
    const n = c.slots * p.multiplier;
    const rng = ctx.rng;
    const isl = inferencexLengths(rng.fork('isl'), n, c.isl, c.rangeRatio);
    const osl = inferencexLengths(rng.fork('osl'), n, c.osl, c.rangeRatio);
    const log = new StepLog();
    const r = simulate(defaultServerConfig(), { isl, osl }, { kind: 'closed', slots: c.slots }, { onStep: log.onStep });
    ctx.progress(1, 1, n);
    const whole = log.totalTokens() / r.makespan;
    const w = steadyWindow(r);
    const steady = w.end > w.start ? log.tokensIn(w.start, w.end) / (w.end - w.start) : null;
    const tl = log.timeline(c.binS);
    // Echo: the lag (within echoLagS) at which the binned throughput of the steady window best repeats itself.
    let echo: number | null = null;
    if (steady !== null) {
      const series = tl.filter((b) => b.t >= w.start && b.t + c.binS <= w.end).map((b) => b.tokensPerS);
      let best = -Infinity;
      for (let k = Math.round(c.echoLagS[0] / c.binS); k <= Math.round(c.echoLagS[1] / c.binS) && k < series.length / 2; k++) {
        const a = autocorrelation(series, k);
        if (a > best) {
          best = a;
          echo = k * c.binS;
        }
      }
    }
    return {
      ...p,
      wholeTokPerS: whole,
      steadyTokPerS: steady,
      echoPeriodS: echo,
      timeline: p.seed === c.figureSeed && p.multiplier === c.multipliers[0] ? tl : null,
    };
  },
  combine(c, results: Result[]) {
    const ten = results.filter((r) => r.multiplier === c.multipliers[0]);
    const one = results.filter((r) => r.multiplier === c.multipliers[1]);
    const steadyBySeed = new Map(ten.map((r) => [r.seed, r.steadyTokPerS!]));
    const numbers = {
      'x10.whole_tok_per_s': overSeeds(ten.map((r) => r.wholeTokPerS), 'tok/s'),
      'x10.steady_tok_per_s': overSeeds(ten.map((r) => r.steadyTokPerS!), 'tok/s'),
      'x10.whole_below_steady_pct': overSeeds(ten.map((r) => 100 * (1 - r.wholeTokPerS / r.steadyTokPerS!)), '%'),
      // A single wave has no steady window of its own: compare with the 10× run of the same seed.
      'x1.whole_below_steady_pct': overSeeds(one.map((r) => 100 * (1 - r.wholeTokPerS / steadyBySeed.get(r.seed)!)), '%'),
      'x10.echo_period_s': overSeeds(ten.map((r) => r.echoPeriodS!), 's'),
      bin_s: num(c.binS, 's'),
      ...configNumbers(c, { slots: 'slots', isl: 'tokens', osl: 'tokens' }),
      'x10.multiplier_x': num(c.multipliers[0], '×'),
      'config.seeds': num(c.seeds.length, 'seeds'),
      'x10.requests': num(c.slots * c.multipliers[0], 'requests'),
    };
    const fig = ten.find((r) => r.timeline)!;
    return { data: { timeline: fig.timeline!, steady: fig.steadyTokPerS!, whole: fig.wholeTokPerS }, numbers };
  },
  clauses: {
    arrivals: 'closed loop, 64 slots opened at t = 0; 640 requests (10×) or 64 (a single wave)',
    clock: 'server step ends (tokens counted when emitted)',
    window: 'whole run (first send to last token) vs steady window (first completion to last send)',
    definitions: 'throughput = output tokens emitted in the window ÷ its length',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths, uniform integers in [819, 1024] in and out',
  },
});
export default experiment;

/** The combined data: what experiments/figures/timeline.ts draws. */
export type TimelineData = DataOf<typeof experiment>;
