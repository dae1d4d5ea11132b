/**
 * §3 Mean TTFT by request count (Figure 3). Closed loops where every slot
 * opens at once, fixed 1,000 in / 1,000 out (the AIPerf / NIM replay), with the
 * request count at 2×, 3×, 10× and 30× the concurrency. The fewer requests per
 * slot, the larger the share of the sample that belongs to the first wave.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { closedLoopLittle, mean, median, num, ttftMs, configNumbers } from './lib/measure.ts';
import { StepLog } from './lib/step-log.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  isl: 1000,
  osl: 1000,
  concurrency: [25, 50, 75, 100, 125, 150, 175, 200],
  multipliers: [2, 3, 10, 30],
};
type Params = { slots: number; multiplier: number };
interface Row extends Params {
  n: number;
  meanAllMs: number;
  medianAllMs: number;
  meanAfterMs: number;
  medianAfterMs: number;
  littleRatio: number;
}

const experiment = defineExperiment({
  id: 'request-count',
  title: 'Mean TTFT by request count',
  config,
  jobs: (c) =>
    c.multipliers.flatMap((multiplier) =>
      c.concurrency.map((slots) => ({ id: `${slots}x${multiplier}`, params: { slots, multiplier } })),
    ),
  runJob(c, p: Params, ctx): Row {
    const n = p.slots * p.multiplier;
    const log = new StepLog();
    const r = simulate(
      defaultServerConfig(),
      { isl: fixedLengths(n, c.isl), osl: fixedLengths(n, c.osl) },
      { kind: 'closed', slots: p.slots },
      { onStep: log.onStep },
    );
    ctx.progress(1, 1, n);
    const all = ttftMs(r);
    const after = ttftMs(r, p.slots);
    return {
      ...p,
      n,
      meanAllMs: mean(all),
      medianAllMs: median(all),
      meanAfterMs: mean(after),
      medianAfterMs: median(after),
      littleRatio: p.multiplier >= 10 ? closedLoopLittle(r, (a, b) => log.tokensIn(a, b), p.slots).ratio : NaN,
    };
  },
  combine(c, rows: Row[]) {
    const numbers: Record<string, NumberValue> = {};
    for (const r of rows) {
      const k = `x${r.multiplier}.slots${r.slots}`;
      numbers[`${k}.mean_all_ms`] = num(r.meanAllMs, 'ms', r.n);
      numbers[`${k}.median_all_ms`] = num(r.medianAllMs, 'ms', r.n);
      numbers[`${k}.mean_after_wave_ms`] = num(r.meanAfterMs, 'ms', r.n - r.slots);
    }
    for (const m of c.multipliers) {
      const g = rows.filter((r) => r.multiplier === m);
      const after = g.map((r) => r.meanAfterMs);
      numbers[`x${m}.mean_after_wave_min_ms`] = num(Math.min(...after), 'ms', g.length);
      numbers[`x${m}.mean_after_wave_max_ms`] = num(Math.max(...after), 'ms', g.length);
      numbers[`x${m}.wave_share_pct`] = num(100 / m, '%');
      // How much of the whole-run mean's climb from the fewest to the most users the first wave accounts for: the climb left without it, against the climb with it.
      const [lo, hi] = [Math.min(...c.concurrency), Math.max(...c.concurrency)].map((s) => g.find((r) => r.slots === s)!);
      numbers[`x${m}.climb_from_wave_pct`] = num(100 * (1 - (hi.meanAfterMs - lo.meanAfterMs) / (hi.meanAllMs - lo.meanAllMs)), '%');
    }
    // Steady state at each concurrency: the mean after the wave in the longest run.
    const longest = Math.max(...c.multipliers);
    const top = Math.max(...c.concurrency);
    const at = (m: number, s: number) => rows.find((r) => r.multiplier === m && r.slots === s)!;
    numbers[`x${longest}.slots${top}.above_steady_pct`] = num(
      100 * (at(longest, top).meanAllMs / at(longest, top).meanAfterMs - 1),
      '%',
    );
    Object.assign(numbers, configNumbers(c, { isl: 'tokens', osl: 'tokens' }));
    numbers['config.min_slots'] = num(Math.min(...c.concurrency), 'slots');
    numbers['config.max_slots'] = num(Math.max(...c.concurrency), 'slots');
    for (const m of c.multipliers) numbers[`x${m}.multiplier_x`] = num(m, '×');
    const little = rows.filter((r) => Number.isFinite(r.littleRatio)).map((r) => r.littleRatio);
    numbers['little.max_deviation_pct'] = num(100 * Math.max(...little.map((x) => Math.abs(x - 1))), '%', little.length);
    return { data: { rows, multipliers: c.multipliers, longest }, numbers };
  },
  clauses: {
    arrivals: 'closed loop, every slot opened at t = 0, request count = 2, 3, 10 or 30 × concurrency',
    clock: 'from send (after the client semaphore)',
    window: 'whole run vs the run without its first N requests',
    definitions: 'TTFT = first token − send; arithmetic mean and median over requests',
    tokens: 'server token counts',
    prompts: 'fixed 1,000 tokens in and 1,000 out (AIPerf / NIM replay); no prefix cache hits',
  },
});
export default experiment;

/** The combined data: what experiments/figures/request-count.ts draws. */
export type RequestCountData = DataOf<typeof experiment>;
