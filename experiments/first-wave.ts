/**
 * §2 The first wave (Figure 2). A closed loop whose every slot opens at once:
 * the first N requests arrive together at an idle server and form a staircase
 * of prefill steps. InferenceX's recipe: prompts = 10 × N, infinite rate; its
 * warmup (2 × N) finishes before the measured run, which therefore starts from
 * an idle server too — so the warmup is not simulated.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import type { DataOf } from '../src/pipeline/types.ts';
import { defaultServerConfig, inferencexLengths, simulate, stepTime, type StepView } from '../src/sim/index.ts';
import { percentileWithInterval } from '../src/stats/index.ts';
import { closedLoopLittle, meanOf, median, num, overSeeds, pctNum, percentileOverSeeds, seedList, ttftMs, configNumbers } from './lib/measure.ts';
import { medianRun } from './lib/representative.ts';
import { StepLog } from './lib/step-log.ts';

export const config = {
  isl: 1024,
  osl: 1024,
  rangeRatio: 0.8, // InferenceX [rL, L]
  slots: [16, 64, 256],
  multiplier: 10,
  /** Longer runs at 64 slots: does collecting more requests dilute the wave? */
  extraMultipliers: [20, 50],
  extraSlots: 64,
  /** Independent runs per point: every number here is the median over them, with their spread. */
  seeds: seedList(20),
  /**
   * The point drawn in Figure 2: of its seeds, the run whose inflation (whole-run
   * p99 ÷ p99 after the wave, what the figure illustrates) is the median (medianRun).
   * `seed` is the run the explorer's preset reproduces exactly (its own numbers, seed1.*).
   */
  figure: { slots: 64, multiplier: 10, seed: 1 },
};
type Config = typeof config;
type Params = { slots: number; multiplier: number; seed: number };

interface JobResult extends Params {
  n: number;
  meanIsl: number;
  p99AllMs: number;
  p99AfterMs: number;
  medianAllMs: number;
  medianAfterMs: number;
  p99All: ReturnType<typeof pctNum>;
  p99After: ReturnType<typeof pctNum>;
  /** TTFT of every request, ms (only for the runs at the figure's point: one of them is drawn). */
  ttfts: number[] | null;
  /** Little's law over the steady window: rate × mean latency ÷ slots. */
  littleRatio: number;
}

/** `watch` sees every engine step too (the sensitivity study reads the KV pool's peak from it). */
export function runOne(c: Config, p: Params, rng: import('../src/rng/index.ts').Rng, cfg = defaultServerConfig(), watch?: (v: StepView) => void): JobResult {
  const n = p.slots * p.multiplier;
  const isl = inferencexLengths(rng.fork('isl'), n, c.isl, c.rangeRatio);
  const osl = inferencexLengths(rng.fork('osl'), n, c.osl, c.rangeRatio);
  const log = new StepLog();
  const r = simulate(cfg, { isl, osl }, { kind: 'closed', slots: p.slots }, { onStep: watch ? (v) => (log.onStep(v), watch(v)) : log.onStep });
  const all = ttftMs(r);
  const after = ttftMs(r, p.slots);
  const isFigure = p.slots === c.figure.slots && p.multiplier === c.figure.multiplier;
  const p99All = pctNum(all, 0.99, 'ms');
  const p99After = pctNum(after, 0.99, 'ms');
  return {
    ...p,
    n,
    meanIsl: meanOf(isl),
    p99AllMs: p99All.value,
    p99AfterMs: p99After.value,
    medianAllMs: median(all),
    medianAfterMs: median(after),
    p99All,
    p99After,
    ttfts: isFigure ? Array.from(all, (v) => Math.round(v * 1000) / 1000) : null,
    littleRatio: closedLoopLittle(r, (a, b) => log.tokensIn(a, b), p.slots).ratio,
  };
}

/** Prefill rate of a full step of fresh 1k prompts: budget ÷ that step's duration. */
function prefillRate(cfg = defaultServerConfig(), promptLen = 1024): number {
  const k = Math.floor(cfg.tokenBudget / promptLen);
  const dt = stepTime(cfg, k * promptLen, k, 0, k * ((promptLen * (promptLen + 1)) / 2), 0);
  return (k * promptLen) / dt;
}

const experiment = defineExperiment({
  id: 'first-wave',
  title: 'The first wave',
  config,
  jobs(c) {
    const jobs: { id: string; params: Params }[] = [];
    for (const slots of c.slots) {
      for (const seed of c.seeds) jobs.push({ id: `${slots}x${c.multiplier}-s${seed}`, params: { slots, multiplier: c.multiplier, seed } });
    }
    for (const m of c.extraMultipliers) {
      for (const seed of c.seeds) jobs.push({ id: `${c.extraSlots}x${m}-s${seed}`, params: { slots: c.extraSlots, multiplier: m, seed } });
    }
    return jobs;
  },
  runJob(c, p, ctx) {
    const out = runOne(c, p, ctx.rng);
    ctx.progress(1, 1, out.n);
    return out;
  },
  combine(c, results) {
    const numbers: Record<string, ReturnType<typeof num>> = {};
    const rate = prefillRate();
    numbers['prefill_rate_tok_per_s'] = num(rate, 'tok/s');
    const group = (slots: number, m: number) => results.filter((r) => r.slots === slots && r.multiplier === m);
    const rows: { slots: number; multiplier: number; p99All: number; p99After: number; medianAll: number; medianAfter: number }[] = [];
    for (const [slots, m] of [...c.slots.map((s) => [s, c.multiplier]), ...c.extraMultipliers.map((mm) => [c.extraSlots, mm])]) {
      const g = group(slots, m);
      const key = m === c.multiplier ? `slots${slots}` : `slots${slots}_x${m}`;
      const p99All = percentileOverSeeds(g.map((r) => r.p99All));
      const p99After = percentileOverSeeds(g.map((r) => r.p99After));
      const medianAll = overSeeds(g.map((r) => r.medianAllMs), 'ms', g[0].n);
      const medianAfter = overSeeds(g.map((r) => r.medianAfterMs), 'ms', g[0].n - slots);
      numbers[`${key}.p99_all_ms`] = p99All;
      numbers[`${key}.p99_after_wave_ms`] = p99After;
      numbers[`${key}.median_all_ms`] = medianAll;
      numbers[`${key}.median_after_wave_ms`] = medianAfter;
      numbers[`${key}.inflation_x`] = overSeeds(g.map((r) => r.p99AllMs / r.p99AfterMs), '×');
      numbers[`${key}.wave_share_pct`] = num(100 / m, '%');
      // The run drawn in the figure, with its own order-statistic intervals.
      for (const r of g.filter((x) => x.seed === c.figure.seed)) {
        numbers[`${key}.seed${r.seed}.p99_all_ms`] = r.p99All;
        numbers[`${key}.seed${r.seed}.p99_after_wave_ms`] = r.p99After;
      }
      if (m === c.multiplier) {
        numbers[`${key}.wave_formula_ms`] = overSeeds(g.map((r) => (1000 * slots * r.meanIsl) / rate), 'ms');
      }
      rows.push({ slots, multiplier: m, p99All: p99All.value, p99After: p99After.value, medianAll: medianAll.value, medianAfter: medianAfter.value });
    }
    Object.assign(numbers, configNumbers(c, { isl: 'tokens', osl: 'tokens', rangeRatio: '', multiplier: '×', extraSlots: 'slots' }));
    numbers['config.seeds'] = num(c.seeds.length, 'seeds');
    for (const s of c.slots) numbers[`slots${s}.slots`] = num(s, 'slots');
    for (const m of c.extraMultipliers) numbers[`slots${c.extraSlots}_x${m}.multiplier_x`] = num(m, '×');
    for (const s of c.slots) {
      const g = group(s, c.multiplier);
      numbers[`slots${s}.requests`] = num(g[0].n, 'requests');
      numbers[`slots${s}.mean_isl_tokens`] = overSeeds(g.map((r) => r.meanIsl), 'tokens', g[0].n);
    }
    const little = results.map((r) => r.littleRatio);
    numbers['little.max_deviation_pct'] = num(100 * Math.max(...little.map((x) => Math.abs(x - 1))), '%', little.length);
    const point = group(c.figure.slots, c.figure.multiplier);
    const fig = medianRun(point, (r) => r.p99AllMs / r.p99AfterMs);
    // Per-seed p99s at the figure's point, for the spread drawn beside its one run.
    const figureSeeds = point.map((r) => ({ seed: r.seed, p99All: r.p99AllMs, p99After: r.p99AfterMs }));
    return {
      data: {
        rows,
        seeds: figureSeeds,
        figure: { slots: fig.slots, seed: fig.seed, requests: fig.n, ttfts: fig.ttfts!, p99All: fig.p99AllMs, p99After: fig.p99AfterMs },
      },
      numbers,
    };
  },
  clauses: {
    arrivals: 'closed loop, every slot opened at t = 0 (InferenceX fixed-sequence recipe: 10 × N prompts, infinite rate)',
    clock: 'from send (after the client semaphore)',
    window: 'whole run vs the run without its first N requests',
    definitions: 'TTFT = first token − send; p99 by numpy linear interpolation, with 95% order-statistic interval',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths, uniform integers in [⌊0.8·1024⌋, 1024] in and out; no prefix cache hits',
  },
});
export default experiment;

/** The combined data: what experiments/figures/first-wave.ts draws. */
export type FirstWaveData = DataOf<typeof experiment>;
