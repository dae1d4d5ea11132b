/**
 * §6 The metronome (Figure 5) and range-ratio semantics. When every request
 * has the same lengths, a group admitted in one step also completes in one
 * step, so its replacements arrive as a group too: the closed loop locks into
 * cohorts whose members all wait for the cohort's combined prefill. Lengths
 * drawn from a range break the lock.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import {
  defaultServerConfig,
  fixedLengths,
  inferencexBounds,
  inferencexLengths,
  simulate,
  type ServerConfig,
  type StepView,
  vllmRangeBounds,
  vllmRangeLengths,
} from '../src/sim/index.ts';
import { createRng, type Rng } from '../src/rng/index.ts';
import { median, num, overSeeds, pctNum, percentileOverSeeds, seedList, ttftMs, configNumbers } from './lib/measure.ts';
import { percentileWithInterval } from '../src/stats/index.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

export const config = {
  slots: 64,
  multiplier: 20,
  length: 1024,
  rangeRatio: 0.8,
  /** Seeds of the ranged runs (fixed lengths draw nothing: one run says it all). */
  seeds: seedList(20),
  /** Draws per distribution for the range-ratio histograms. */
  histogramDraws: 100_000,
  histogramSeed: 11,
};
type Config = typeof config;
type Params = { lengths: 'fixed' | 'ranged'; seed: number };
interface Result extends Params {
  n: number;
  medianMs: number;
  p99Ms: number;
  p99: NumberValue;
  median: NumberValue;
  cohortMean: number;
  cohortMax: number;
  cohorts: number;
  /** Steady-state TTFTs for the figure (first seed only). */
  ttfts: number[] | null;
}

/** Sizes of groups of steady-state requests sent at the same instant (arrival cohorts). */
function cohortSizes(sendT: Float64Array, from: number): number[] {
  const counts = new Map<number, number>();
  for (let i = from; i < sendT.length; i++) counts.set(sendT[i], (counts.get(sendT[i]) ?? 0) + 1);
  return [...counts.values()];
}

/** One closed-loop run of the metronome: steady-state TTFT and cohorts. Exported for the sensitivity study, whose `watch` sees every engine step. */
export function metronomeRun(c: Config, p: Params, rng: Rng, cfg: ServerConfig = defaultServerConfig(), watch?: (v: StepView) => void): Result {
  const n = c.slots * c.multiplier;
  const isl = p.lengths === 'fixed' ? fixedLengths(n, c.length) : inferencexLengths(rng.fork('isl'), n, c.length, c.rangeRatio);
  const osl = p.lengths === 'fixed' ? fixedLengths(n, c.length) : inferencexLengths(rng.fork('osl'), n, c.length, c.rangeRatio);
  const r = simulate(cfg, { isl, osl }, { kind: 'closed', slots: c.slots }, watch ? { onStep: watch } : {});
  const steady = ttftMs(r, c.slots);
  const sizes = cohortSizes(r.sendT, c.slots);
  return {
    ...p,
    n: steady.length,
    medianMs: median(steady),
    p99Ms: percentileWithInterval(steady, 0.99).value,
    median: pctNum(steady, 0.5, 'ms'),
    p99: pctNum(steady, 0.99, 'ms'),
    cohortMean: sizes.reduce((a, b) => a + b, 0) / sizes.length,
    cohortMax: Math.max(...sizes),
    cohorts: sizes.length,
    ttfts: p.seed === c.seeds[0] ? Array.from(steady, (v) => Math.round(v * 1000) / 1000) : null,
  };
}

const experiment = defineExperiment({
  id: 'metronome',
  title: 'The metronome',
  config,
  jobs: (c) => [
    { id: 'fixed', params: { lengths: 'fixed' as const, seed: c.seeds[0] } },
    ...c.seeds.map((seed) => ({ id: `ranged-s${seed}`, params: { lengths: 'ranged' as const, seed } })),
  ],
  runJob(c, p: Params, ctx) {
    const out = metronomeRun(c, p, ctx.rng);
    ctx.progress(1, 1, c.slots * c.multiplier);
    return out;
  },
  combine(c, results: Result[]) {
    const fixed = results.find((r) => r.lengths === 'fixed')!;
    const ranged = results.filter((r) => r.lengths === 'ranged');
    const numbers: Record<string, NumberValue> = {
      'fixed.median_ms': fixed.median,
      'fixed.p99_ms': fixed.p99,
      'fixed.cohort_mean': num(fixed.cohortMean, 'requests', fixed.cohorts),
      'fixed.cohort_max': num(fixed.cohortMax, 'requests', fixed.cohorts),
      'ranged.median_ms': percentileOverSeeds(ranged.map((r) => r.median)),
      'ranged.p99_ms': percentileOverSeeds(ranged.map((r) => r.p99)),
      'ranged.cohort_mean': overSeeds(ranged.map((r) => r.cohortMean), 'requests'),
      'fixed_over_ranged.median_x': overSeeds(ranged.map((r) => fixed.medianMs / r.medianMs), '×'),
      'config.seeds': num(c.seeds.length, 'seeds'),
      ...configNumbers(c, { slots: 'slots', multiplier: '×', length: 'tokens', rangeRatio: '' }),
      'config.requests': num(c.slots * c.multiplier, 'requests'),
      'prompts_per_step': num(Math.floor(defaultServerConfig().tokenBudget / c.length), 'prompts'),
    };
    // Range-ratio semantics: the same flag value, two tools, two distributions.
    const rng = createRng(c.histogramSeed);
    const up = vllmRangeLengths(rng.fork('vllm'), c.histogramDraws, c.length, c.rangeRatio);
    const ix = inferencexLengths(rng.fork('inferencex'), c.histogramDraws, c.length, c.rangeRatio);
    const [uLo, uHi] = vllmRangeBounds(c.length, c.rangeRatio);
    const [iLo, iHi] = inferencexBounds(c.length, c.rangeRatio);
    numbers['range.vllm_lo_tokens'] = num(uLo, 'tokens');
    numbers['range.vllm_hi_tokens'] = num(uHi, 'tokens');
    numbers['range.inferencex_lo_tokens'] = num(iLo, 'tokens');
    numbers['range.inferencex_hi_tokens'] = num(iHi, 'tokens');
    numbers['range.vllm_lo_pct'] = num((100 * uLo) / c.length, '%');
    numbers['range.vllm_hi_pct'] = num((100 * uHi) / c.length, '%');
    numbers['range.inferencex_lo_pct'] = num((100 * iLo) / c.length, '%');
    const binW = 64;
    const hist = (xs: Int32Array, tool: string) => {
      const m = new Map<number, number>();
      for (const x of xs) {
        const b = Math.floor(x / binW) * binW;
        m.set(b, (m.get(b) ?? 0) + 1);
      }
      return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([x, count]) => ({ x, x2: x + binW, share: count / xs.length, tool }));
    };
    const rangedTtfts = ranged.find((r) => r.ttfts)!.ttfts!;
    return {
      data: {
        fixed: fixed.ttfts!,
        ranged: rangedTtfts,
        histograms: [...hist(up, `upstream vLLM, ratio ${c.rangeRatio}`), ...hist(ix, `InferenceX, ratio ${c.rangeRatio}`)],
        length: c.length,
      },
      numbers,
    };
  },
  clauses: {
    arrivals: 'closed loop, 64 slots opened at t = 0, 1,280 requests (20×)',
    clock: 'from send',
    window: 'steady state: without the first 64 requests',
    definitions: 'TTFT = first token − send; median and p99 by numpy linear interpolation; a cohort = requests sent at the same instant',
    tokens: 'server token counts',
    prompts: 'fixed 1,024 / 1,024 (range ratio 0) vs InferenceX lengths in [819, 1,024]',
  },
});
export default experiment;

/** The combined data: what experiments/figures/metronome.ts draws. */
export type MetronomeData = DataOf<typeof experiment>;
