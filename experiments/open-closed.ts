/**
 * §7 Open vs closed (Figure 6). A closed-loop concurrency sweep, measured in
 * its steady window; then, at each point, Poisson arrivals at exactly the rate
 * the closed loop delivered. At the sweep's peak, many seeds of the open loop:
 * some fall into a preemption spiral the closed loop can never enter.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { num, overSeeds, pctNum, percentileOverSeeds, seedList, shareNum, configNumbers } from './lib/measure.ts';
import { closedPoint, openRun, p99, SWEEP, OPEN_DROP_SHARE } from './lib/sweep.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  slots: [1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 256, 320],
  /** Open-loop requests per point (first and last 10% dropped). */
  openRequests: 8000,
  /**
   * Seeds per sweep point: seed s runs the closed loop with its own lengths,
   * then its open twin at the rate that closed run delivered. Every number of a
   * point is the median over the seeds, with their spread.
   */
  seeds: seedList(20),
  /** The sweep's peak point, and the seeds of the open runs at seed 1's peak rate (the cliff's reference). */
  peakSlots: 256,
  peakSeeds: seedList(20, 101),
  /** A run whose p99 TTFT exceeds this has collapsed. */
  collapseMs: 1000,
};
type Params = { kind: 'point'; slots: number; seed: number } | { kind: 'peak'; seed: number };

interface PointResult {
  kind: 'point';
  slots: number;
  seed: number;
  closed: { rate: number; tokPerS: number; p99: NumberValue; tpotMeanMs: number; meanE2E: number; inFlight: number; preemptions: number };
  open: { p99: NumberValue; tpotMeanMs: number; inSystem: number; littlePredicted: number; preemptions: number } | null;
}
interface PeakResult {
  kind: 'peak';
  seed: number;
  rate: number;
  p99Ms: number;
  preemptions: number;
}

const experiment = defineExperiment({
  id: 'open-closed',
  title: 'Open vs closed',
  config,
  timeoutSeconds: 1800,
  // The cliff's runs at the peak rate join the count of every open run near the peak.
  needs: ['cliff'],
  jobs: (c) => [
    ...c.slots.flatMap((slots) => c.seeds.map((seed) => ({ id: `point-${slots}-s${seed}`, params: { kind: 'point' as const, slots, seed } }))),
    ...c.peakSeeds.map((seed) => ({ id: `peak-s${seed}`, params: { kind: 'peak' as const, seed } })),
  ],
  runJob(c, p: Params, ctx): PointResult | PeakResult {
    if (p.kind === 'peak') {
      const rate = closedPoint(c.peakSlots).rate;
      const o = openRun(rate, c.openRequests, p.seed);
      ctx.progress(1, 1, c.openRequests);
      return { kind: 'peak', seed: p.seed, rate, p99Ms: p99(o.ttftMs), preemptions: o.preemptions };
    }
    const cp = closedPoint(p.slots, undefined, p.seed);
    const closed = {
      rate: cp.rate,
      tokPerS: cp.tokPerS,
      p99: pctNum(cp.ttftMs, 0.99, 'ms'),
      tpotMeanMs: cp.tpotMeanMs,
      meanE2E: cp.meanE2E,
      inFlight: cp.littleInFlight,
      preemptions: cp.preemptions,
    };
    // Past the peak the closed loop delivers less; its open-loop twin is the peak's, run separately.
    const o = p.slots <= c.peakSlots ? openRun(cp.rate, c.openRequests, p.seed) : null;
    ctx.progress(1, 1, p.slots * 20 + (o ? c.openRequests : 0));
    return {
      kind: 'point',
      slots: p.slots,
      seed: p.seed,
      closed,
      open: o && { p99: pctNum(o.ttftMs, 0.99, 'ms'), tpotMeanMs: o.tpotMeanMs, inSystem: o.inSystem, littlePredicted: o.littlePredicted, preemptions: o.preemptions },
    };
  },
  combine(c, results, deps) {
    const points = results.filter((r): r is PointResult => r.kind === 'point');
    const peaks = results.filter((r): r is PeakResult => r.kind === 'peak');
    const n: Record<string, NumberValue> = {};
    const size = (pts: PointResult[]) => pts[0]!.closed.p99.n;
    for (const slots of c.slots) {
      const g = points.filter((pt) => pt.slots === slots);
      const k = `slots${slots}`;
      const over = (f: (pt: PointResult) => number, unit: string, sampleSize: number | null = null) => overSeeds(g.map(f), unit, sampleSize);
      n[`${k}.closed.rate_req_per_s`] = over((pt) => pt.closed.rate, 'req/s');
      n[`${k}.closed.output_tok_per_s`] = over((pt) => pt.closed.tokPerS, 'tok/s');
      n[`${k}.closed.p99_ttft_ms`] = percentileOverSeeds(g.map((pt) => pt.closed.p99));
      n[`${k}.closed.mean_tpot_ms`] = over((pt) => pt.closed.tpotMeanMs, 'ms', size(g));
      n[`${k}.closed.mean_e2e_s`] = over((pt) => pt.closed.meanE2E, 's');
      n[`${k}.closed.little_in_flight`] = over((pt) => pt.closed.inFlight, 'requests');
      n[`${k}.closed.preemptions`] = over((pt) => pt.closed.preemptions, 'preemptions');
      const open = g.filter((pt) => pt.open);
      if (open.length) {
        const o = (pt: PointResult) => pt.open!;
        const overOpen = (f: (pt: PointResult) => number, unit: string, sampleSize: number | null = null) => overSeeds(open.map(f), unit, sampleSize);
        n[`${k}.open.p99_ttft_ms`] = percentileOverSeeds(open.map((pt) => o(pt).p99));
        n[`${k}.open.mean_tpot_ms`] = overOpen((pt) => o(pt).tpotMeanMs, 'ms', o(open[0]!).p99.n);
        n[`${k}.open.in_system`] = overOpen((pt) => o(pt).inSystem, 'requests', o(open[0]!).p99.n);
        n[`${k}.open.little_predicted`] = overOpen((pt) => o(pt).littlePredicted, 'requests', o(open[0]!).p99.n);
        n[`${k}.open.preemptions`] = overOpen((pt) => o(pt).preemptions, 'preemptions');
        // Per seed, open twin against its own closed run; then the median of those ratios.
        n[`${k}.open_over_closed_p99_x`] = overOpen((pt) => o(pt).p99.value / pt.closed.p99.value, '×');
        n[`${k}.open_over_closed_tpot_pct`] = overOpen((pt) => 100 * (o(pt).tpotMeanMs / pt.closed.tpotMeanMs - 1), '%');
        n[`${k}.open_minus_closed_in_flight`] = overOpen((pt) => o(pt).inSystem - pt.closed.inFlight, 'requests');
        // When the closed p99 splits into two modes: the runs of its upper mode, and in how many of them the open twin's p99 is the lower.
        const upperMode = n[`${k}.closed.p99_ttft_ms`]!.spread?.modes?.[1];
        if (upperMode && open.length === g.length) {
          const upper = g.filter((pt) => pt.closed.p99.value >= upperMode.min);
          n[`${k}.closed_upper_mode.runs`] = num(upper.length, 'runs', g.length);
          n[`${k}.closed_upper_mode.open_better_runs`] = num(upper.filter((pt) => o(pt).p99.value < pt.closed.p99.value).length, 'runs', upper.length);
        }
      }
    }
    const rateOf = (slots: number) => n[`slots${slots}.closed.rate_req_per_s`]!.value;
    const peakSlots = c.slots.reduce((a, b) => (rateOf(b) > rateOf(a) ? b : a));
    n['peak.slots'] = num(peakSlots, 'slots');
    n['peak.rate_req_per_s'] = n[`slots${peakSlots}.closed.rate_req_per_s`]!;
    // The open runs below, the cliff and the long runs take their loads from seed 1's peak rate: one fixed reference.
    const reference = points.find((pt) => pt.slots === c.peakSlots && pt.seed === SWEEP.seed)!;
    n['peak.reference_rate_req_per_s'] = num(reference.closed.rate, 'req/s');
    const collapsed = peaks.filter((r) => r.p99Ms > c.collapseMs);
    const fine = peaks.filter((r) => r.p99Ms <= c.collapseMs);
    n['peak_open.runs'] = num(peaks.length, 'runs');
    n['peak_open.collapsed'] = num(collapsed.length, 'runs', peaks.length);
    n['peak_open.collapsed_share_pct'] = shareNum(collapsed.length, peaks.length);
    if (fine.length) {
      n['peak_open.fine_p99_min_ms'] = num(Math.min(...fine.map((r) => r.p99Ms)), 'ms', fine.length);
      n['peak_open.fine_p99_max_ms'] = num(Math.max(...fine.map((r) => r.p99Ms)), 'ms', fine.length);
    }
    if (collapsed.length) {
      n['peak_open.collapsed_p99_min_s'] = num(Math.min(...collapsed.map((r) => r.p99Ms)) / 1000, 's', collapsed.length);
      n['peak_open.collapsed_p99_max_s'] = num(Math.max(...collapsed.map((r) => r.p99Ms)) / 1000, 's', collapsed.length);
      n['peak_open.collapsed_preemptions_min'] = num(Math.min(...collapsed.map((r) => r.preemptions)), 'preemptions', collapsed.length);
      n['peak_open.collapsed_preemptions_max'] = num(Math.max(...collapsed.map((r) => r.preemptions)), 'preemptions', collapsed.length);
    }
    n['peak_open.fine'] = num(fine.length, 'runs', peaks.length);
    // Every open run at or near the peak rate: the twins at the peak point (each at its own seed's peak), the runs
    // above at the reference rate, and the cliff's at 100% of it. One share over all of them, and how far from the
    // reference the farthest of their rates lies.
    const twins = points.filter((pt) => pt.slots === c.peakSlots && pt.open);
    const twinsCollapsed = twins.filter((pt) => pt.open!.p99.value > c.collapseMs).length;
    n[`slots${c.peakSlots}.open.collapsed`] = num(twinsCollapsed, 'runs', twins.length);
    const cliffRuns = deps.number('cliff.runs_per_load').value;
    const cliffCollapsed = deps.number('cliff.load100.collapsed').value;
    const nearRuns = twins.length + peaks.length + cliffRuns;
    const nearCollapsed = twinsCollapsed + collapsed.length + cliffCollapsed;
    n['near_peak.runs'] = num(nearRuns, 'runs');
    n['near_peak.collapsed'] = num(nearCollapsed, 'runs', nearRuns);
    n['near_peak.collapsed_share_pct'] = shareNum(nearCollapsed, nearRuns);
    n['near_peak.rate_off_reference_max_pct'] = num(100 * Math.max(...twins.map((pt) => Math.abs(pt.closed.rate / reference.closed.rate - 1))), '%', twins.length);
    // Over the sweep points, of the median-over-seeds TPOT difference.
    const tpotDiffs = c.slots.filter((s) => n[`slots${s}.open_over_closed_tpot_pct`]).map((s) => Math.abs(n[`slots${s}.open_over_closed_tpot_pct`]!.value));
    n['tpot.max_abs_diff_pct'] = num(Math.max(...tpotDiffs), '%', tpotDiffs.length);
    Object.assign(n, configNumbers(c, { openRequests: 'requests', peakSlots: 'slots', collapseMs: 'ms' }));
    n['config.peak_seeds'] = num(c.peakSeeds.length, 'seeds');
    n['config.min_slots'] = num(Math.min(...c.slots), 'slots');
    n['config.max_slots'] = num(Math.max(...c.slots), 'slots');
    n['config.prompts_per_slot'] = num(SWEEP.multiplier, '×');
    n['config.drop_pct'] = num(100 * OPEN_DROP_SHARE, '%');
    n['config.seeds'] = num(c.seeds.length, 'seeds');
    for (const slots of c.slots) n[`slots${slots}.slots`] = num(slots, 'slots');
    const q = (id: string) => {
      const v = n[id];
      return v ? { v: v.value, q1: v.spread?.q1 ?? v.value, q3: v.spread?.q3 ?? v.value } : null;
    };
    const sweep = c.slots.map((slots) => ({
      slots,
      rate: rateOf(slots),
      closed: q(`slots${slots}.closed.p99_ttft_ms`)!,
      open: q(`slots${slots}.open.p99_ttft_ms`),
    }));
    return {
      data: { sweep, seeds: c.seeds.length, peaks: peaks.map((r) => ({ seed: r.seed, p99: r.p99Ms, collapsed: r.p99Ms > c.collapseMs })), peakRate: reference.closed.rate },
      numbers: n,
    };
  },
  clauses: {
    arrivals: 'closed: N slots opened at t = 0, 20 × N prompts; open: Poisson at the closed loop’s delivered rate',
    clock: 'from send (= due for the open loop)',
    window: 'closed: requests sent between the first completion and the last send; open: first and last 10% of requests dropped',
    definitions: 'p99 by numpy linear interpolation with 95% order-statistic interval; TPOT = (finish − first token)/(output − 1), mean over requests; rate = output tokens in the window ÷ window ÷ mean output length',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths in [819, 1,024] in and out',
  },
});
export default experiment;

/** The combined data: what experiments/figures/open-closed.ts draws. */
export type OpenClosedData = DataOf<typeof experiment>;
