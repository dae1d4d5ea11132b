/**
 * §7 Open vs closed (Figure 6). A closed-loop concurrency sweep, measured in
 * its steady window; then, at each point, Poisson arrivals at exactly the rate
 * the closed loop delivered. At the sweep's peak, many seeds of the open loop:
 * some fall into a preemption spiral the closed loop can never enter.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { num, overSeeds, pctNum, shareNum, configNumbers } from './lib/measure.ts';
import { closedPoint, openRun, p99, SWEEP, OPEN_DROP_SHARE } from './lib/sweep.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  slots: [1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 256, 320],
  /** Open-loop requests per point (first and last 10% dropped). */
  openRequests: 8000,
  openSeed: 1,
  /** The sweep's peak point, and the seeds run there. */
  peakSlots: 256,
  peakSeeds: Array.from({ length: 15 }, (_, i) => 101 + i),
  /** A run whose p99 TTFT exceeds this has collapsed. */
  collapseMs: 1000,
};
type Params = { kind: 'point'; slots: number } | { kind: 'peak'; seed: number };

interface PointResult {
  kind: 'point';
  slots: number;
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
  jobs: (c) => [
    ...c.slots.map((slots) => ({ id: `point-${slots}`, params: { kind: 'point' as const, slots } })),
    ...c.peakSeeds.map((seed) => ({ id: `peak-s${seed}`, params: { kind: 'peak' as const, seed } })),
  ],
  runJob(c, p: Params, ctx): PointResult | PeakResult {
    if (p.kind === 'peak') {
      const rate = closedPoint(c.peakSlots).rate;
      const o = openRun(rate, c.openRequests, p.seed);
      ctx.progress(1, 1, c.openRequests);
      return { kind: 'peak', seed: p.seed, rate, p99Ms: p99(o.ttftMs), preemptions: o.preemptions };
    }
    const cp = closedPoint(p.slots);
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
    const o = p.slots <= c.peakSlots ? openRun(cp.rate, c.openRequests, c.openSeed) : null;
    ctx.progress(1, 1, p.slots * 20 + (o ? c.openRequests : 0));
    return {
      kind: 'point',
      slots: p.slots,
      closed,
      open: o && { p99: pctNum(o.ttftMs, 0.99, 'ms'), tpotMeanMs: o.tpotMeanMs, inSystem: o.inSystem, littlePredicted: o.littlePredicted, preemptions: o.preemptions },
    };
  },
  combine(c, results) {
    const points = results.filter((r): r is PointResult => r.kind === 'point');
    const peaks = results.filter((r): r is PeakResult => r.kind === 'peak');
    const n: Record<string, NumberValue> = {};
    for (const pt of points) {
      const k = `slots${pt.slots}`;
      n[`${k}.closed.rate_req_per_s`] = num(pt.closed.rate, 'req/s');
      n[`${k}.closed.output_tok_per_s`] = num(pt.closed.tokPerS, 'tok/s');
      n[`${k}.closed.p99_ttft_ms`] = pt.closed.p99;
      n[`${k}.closed.mean_tpot_ms`] = num(pt.closed.tpotMeanMs, 'ms', pt.closed.p99.n);
      n[`${k}.closed.mean_e2e_s`] = num(pt.closed.meanE2E, 's');
      n[`${k}.closed.little_in_flight`] = num(pt.closed.inFlight, 'requests');
      n[`${k}.closed.preemptions`] = num(pt.closed.preemptions, 'preemptions');
      if (pt.open) {
        n[`${k}.open.p99_ttft_ms`] = pt.open.p99;
        n[`${k}.open.mean_tpot_ms`] = num(pt.open.tpotMeanMs, 'ms', pt.open.p99.n);
        n[`${k}.open.in_system`] = num(pt.open.inSystem, 'requests', pt.open.p99.n);
        n[`${k}.open.little_predicted`] = num(pt.open.littlePredicted, 'requests', pt.open.p99.n);
        n[`${k}.open.preemptions`] = num(pt.open.preemptions, 'preemptions');
        n[`${k}.open_over_closed_p99_x`] = num(pt.open.p99.value / pt.closed.p99.value, '×');
        n[`${k}.open_over_closed_tpot_pct`] = num(100 * (pt.open.tpotMeanMs / pt.closed.tpotMeanMs - 1), '%');
      }
    }
    const peak = points.reduce((a, b) => (b.closed.rate > a.closed.rate ? b : a));
    n['peak.slots'] = num(peak.slots, 'slots');
    n['peak.rate_req_per_s'] = num(peak.closed.rate, 'req/s');
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
    const tpotDiffs = points.filter((pt) => pt.open).map((pt) => Math.abs(100 * (pt.open!.tpotMeanMs / pt.closed.tpotMeanMs - 1)));
    n['tpot.max_abs_diff_pct'] = num(Math.max(...tpotDiffs), '%', tpotDiffs.length);
    Object.assign(n, configNumbers(c, { openRequests: 'requests', peakSlots: 'slots', collapseMs: 'ms' }));
    n['config.peak_seeds'] = num(c.peakSeeds.length, 'seeds');
    n['config.min_slots'] = num(Math.min(...c.slots), 'slots');
    n['config.max_slots'] = num(Math.max(...c.slots), 'slots');
    n['config.prompts_per_slot'] = num(SWEEP.multiplier, '×');
    n['config.drop_pct'] = num(100 * OPEN_DROP_SHARE, '%');
    for (const pt of points) n[`slots${pt.slots}.slots`] = num(pt.slots, 'slots');
    n['peak_open.p99_mean_ms'] = overSeeds(peaks.map((r) => r.p99Ms), 'ms');
    const sweep = points.map((pt) => ({
      slots: pt.slots,
      rate: pt.closed.rate,
      closed: pt.closed.p99.value,
      open: pt.open?.p99.value ?? null,
    }));
    return {
      data: { sweep, peaks: peaks.map((r) => ({ seed: r.seed, p99: r.p99Ms, collapsed: r.p99Ms > c.collapseMs })), peakRate: peak.closed.rate },
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
