/**
 * §11 Correlated samples and §12 long runs (Figure 9). 160,000-request
 * open-loop runs (about four simulated hours) near the sweep's peak: three at
 * 98%, two at 95%, one at 90%. The 90% run also measures how correlated
 * neighbouring requests are, and what that does to a p99's spread.
 *
 * Nothing per token is kept: each run keeps its per-request TTFTs (8 bytes a
 * request) and reduces them to windows inside the job.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, inferencexLengths, poissonTimes, simulate } from '../src/sim/index.ts';
import { createRng } from '../src/rng/index.ts';
import { autocorrelation, linearPercentile, windowVsIid } from '../src/stats/index.ts';
import { num, overSeeds, configNumbers, ttftMs } from './lib/measure.ts';
import { closedPoint, SWEEP } from './lib/sweep.ts';
import { StepLog } from './lib/step-log.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  requests: 160_000,
  runs: [
    { loadPct: 98, seed: 1 },
    { loadPct: 98, seed: 2 },
    { loadPct: 98, seed: 3 },
    { loadPct: 95, seed: 1 },
    { loadPct: 95, seed: 2 },
    { loadPct: 90, seed: 1 },
  ],
  peakSlots: 256,
  /** Back-to-back windows for the p99 over time, requests. */
  window: 1000,
  collapseMs: 1000,
  /** A short benchmark: MLPerf's minimum duration. */
  shortRunS: 600,
  /** §11 on the 90% run. */
  correlation: { loadPct: 90, lags: [1, 2], windows: [100, 300, 1000, 3000] },
};
type Params = { loadPct: number; seed: number };

export interface WindowRow {
  /** Send time of the window's last request, s. */
  t: number;
  p99Ms: number;
}
interface Result extends Params {
  rate: number;
  windows: WindowRow[];
  collapseS: number | null;
  worstShortMs: number;
  shortRequests: number;
  preemptions: number;
  durationS: number;
  outputTokPerS: number;
  correlation: null | {
    acf: number[];
    spreads: { windowSize: number; varianceRatio: number; effectiveSampleSize: number; windowBand: [number, number]; iidBand: [number, number]; truth: number }[];
  };
}

const experiment = defineExperiment({
  id: 'long-runs',
  title: 'Correlated samples and long runs',
  config,
  timeoutSeconds: 3600,
  jobs: (c) => c.runs.map((r) => ({ id: `${r.loadPct}pct-s${r.seed}`, params: r })),
  runJob(c, p: Params, ctx): Result {
    const peak = closedPoint(c.peakSlots).rate;
    const rate = (peak * p.loadPct) / 100;
    const n = c.requests;
    const rng = createRng(p.seed).fork(`long-${p.loadPct}`);
    const times = poissonTimes(rng.fork('arrivals'), n, rate);
    const isl = inferencexLengths(rng.fork('isl'), n, SWEEP.isl, SWEEP.rangeRatio);
    const osl = inferencexLengths(rng.fork('osl'), n, SWEEP.osl, SWEEP.rangeRatio);
    const log = new StepLog();
    let lastReport = 0;
    const r = simulate(defaultServerConfig(), { isl, osl }, { kind: 'open', times }, {
      onStep: (v) => {
        log.onStep(v);
        if (v.done - lastReport >= 2000) {
          lastReport = v.done;
          ctx.progress(v.done, n, v.done);
        }
      },
    });
    ctx.progress(n, n, n);
    const ttft = ttftMs(r);
    const windows: WindowRow[] = [];
    const buf = new Float64Array(c.window);
    for (let w = 0; w + c.window <= n; w += c.window) {
      buf.set(ttft.subarray(w, w + c.window));
      windows.push({ t: r.sendT[w + c.window - 1], p99Ms: linearPercentile(buf, 0.99) });
    }
    // Collapse: the start of the first window after which every window's p99 stays above the threshold.
    let collapseS: number | null = null;
    for (let k = windows.length - 1; k >= 0 && windows[k].p99Ms > c.collapseMs; k--) collapseS = k === 0 ? 0 : windows[k - 1].t;
    const short = windows.filter((w) => w.t <= c.shortRunS);
    const tokens = log.tokensIn(r.sendT[Math.floor(n * 0.1)], r.sendT[Math.floor(n * 0.9)]);
    const outputTokPerS = tokens / (r.sendT[Math.floor(n * 0.9)] - r.sendT[Math.floor(n * 0.1)]);
    let correlation: Result['correlation'] = null;
    if (p.loadPct === c.correlation.loadPct) {
      correlation = {
        acf: c.correlation.lags.map((k) => autocorrelation(ttft, k)),
        spreads: c.correlation.windows.map((windowSize) => {
          const s = windowVsIid(ttft, { windowSize, p: 0.99, rng: rng.fork(`iid-${windowSize}`) });
          return {
            windowSize,
            varianceRatio: s.varianceRatio,
            effectiveSampleSize: s.effectiveSampleSize,
            windowBand: s.windowBand,
            iidBand: s.iidBand,
            truth: s.truth,
          };
        }),
      };
    }
    return {
      ...p,
      rate,
      windows: windows.map((w) => ({ t: Math.round(w.t * 1000) / 1000, p99Ms: Math.round(w.p99Ms * 1000) / 1000 })),
      collapseS,
      worstShortMs: Math.max(...short.map((w) => w.p99Ms)),
      shortRequests: Math.round(rate * c.shortRunS),
      preemptions: r.preemptions,
      durationS: r.makespan,
      outputTokPerS,
      correlation,
    };
  },
  combine(c, results: Result[]) {
    const n: Record<string, NumberValue> = {};
    const peakTok = closedPoint(c.peakSlots).tokPerS;
    for (const r of results) {
      const k = `load${r.loadPct}.seed${r.seed}`;
      n[`${k}.collapsed`] = num(r.collapseS === null ? 0 : 1, 'boolean');
      if (r.collapseS !== null) n[`${k}.collapse_after_min`] = num(r.collapseS / 60, 'min');
      n[`${k}.max_window_p99_s`] = num(Math.max(...r.windows.map((w) => w.p99Ms)) / 1000, 's', r.windows.length);
      n[`${k}.preemptions`] = num(r.preemptions, 'preemptions', c.requests);
      n[`${k}.duration_h`] = num(r.durationS / 3600, 'h');
      n[`${k}.worst_short_window_p99_ms`] = num(r.worstShortMs, 'ms', c.window);
    }
    for (const load of [...new Set(results.map((r) => r.loadPct))]) {
      const g = results.filter((r) => r.loadPct === load);
      n[`load${load}.runs`] = num(g.length, 'runs');
      n[`load${load}.collapsed_runs`] = num(g.filter((r) => r.collapseS !== null).length, 'runs', g.length);
      n[`load${load}.short_run_requests`] = num(g[0].shortRequests, 'requests');
      n[`load${load}.worst_short_window_p99_ms`] = num(Math.max(...g.map((r) => r.worstShortMs)), 'ms', g.length);
    }
    n['window_requests'] = num(c.window, 'requests');
    Object.assign(n, configNumbers(c, { requests: 'requests', collapseMs: 'ms' }));
    for (const load of [...new Set(results.map((r) => r.loadPct))]) n[`load${load}.load_pct`] = num(load, '%');
    n['short_run_min'] = num(c.shortRunS / 60, 'min');
    const base = results.find((r) => r.correlation)!;
    // Cost per token scales with 1 / throughput at the same price per GPU-hour.
    n['cost.load90_over_peak_pct'] = num(100 * (peakTok / base.outputTokPerS - 1), '%');
    const corr = base.correlation!;
    c.correlation.lags.forEach((lag, i) => (n[`correlation.lag${lag}`] = num(corr.acf[i], '', c.requests)));
    for (const s of corr.spreads) {
      const k = `correlation.w${s.windowSize}`;
      n[`${k}.variance_ratio_x`] = num(s.varianceRatio, '×', Math.floor(c.requests / s.windowSize));
      n[`${k}.effective_n`] = num(s.effectiveSampleSize, 'requests');
      n[`${k}.window_band_lo_ms`] = num(s.windowBand[0], 'ms');
      n[`${k}.window_band_hi_ms`] = num(s.windowBand[1], 'ms');
      n[`${k}.iid_band_lo_ms`] = num(s.iidBand[0], 'ms');
      n[`${k}.iid_band_hi_ms`] = num(s.iidBand[1], 'ms');
      n[`${k}.too_narrow_x`] = num((s.windowBand[1] - s.windowBand[0]) / (s.iidBand[1] - s.iidBand[0]), '×');
    }
    n['correlation.band_pct'] = num(90, '%');
    for (const s of corr.spreads) n[`correlation.w${s.windowSize}.window_requests`] = num(s.windowSize, 'requests');
    n['correlation.true_p99_ms'] = num(corr.spreads[0].truth, 'ms', c.requests);
    return {
      data: {
        series: results.map((r) => ({ label: `${r.loadPct}% seed ${r.seed}`, loadPct: r.loadPct, windows: r.windows })),
        spreads: corr.spreads,
        collapseMs: c.collapseMs,
      },
      numbers: n,
    };
  },
  clauses: {
    arrivals: 'open loop, Poisson at 90, 95 and 98% of the 256-slot closed loop’s delivered rate, 160,000 requests per run',
    clock: 'from send (= due)',
    window: 'back-to-back windows of 1,000 requests over the whole run; correlation over the whole 90% run',
    definitions: 'p99 by numpy linear interpolation; collapse = the first window after which every window’s p99 exceeds 1 s; variance ratio = var(windowed p99) ÷ var(p99 of i.i.d. resamples of the same size)',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths in [819, 1,024] in and out',
  },
});
export default experiment;

/** The combined data: what experiments/figures/long-runs.ts draws. */
export type LongRunsData = DataOf<typeof experiment>;
