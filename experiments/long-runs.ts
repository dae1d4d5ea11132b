/**
 * §11 Correlated samples and §12 long runs (Figure 9). 160,000-request
 * open-loop runs (about four simulated hours) near the sweep's peak, at 98%,
 * 95% and 90% of it, many seeds per load: whether a run collapses, and when,
 * is a random event, so each is reported over seeds. The 90% runs also
 * measure how correlated neighbouring requests are, and what that does to a
 * p99's spread. The figures draw every run, and in bold the run whose value
 * of the figure's statistic is the median of its seeds (medianRun).
 *
 * Nothing per token is kept: each run keeps its per-request TTFTs (8 bytes a
 * request) and reduces them to windows inside the job.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, inferencexLengths, poissonTimes, simulate } from '../src/sim/index.ts';
import { createRng } from '../src/rng/index.ts';
import { autocorrelation, linearPercentile, windowVsIid } from '../src/stats/index.ts';
import { num, overSeeds, seedList, shareNum, configNumbers, ttftMs } from './lib/measure.ts';
import { closedPoint, SWEEP } from './lib/sweep.ts';
import { medianRun } from './lib/representative.ts';
import { StepLog } from './lib/step-log.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  requests: 160_000,
  loadsPct: [98, 95, 90],
  /** Seeds per load: the cost of this experiment grows with it (one run takes seconds). */
  seeds: seedList(20),
  peakSlots: 256,
  /** Back-to-back windows for the p99 over time, requests. */
  window: 1000,
  collapseMs: 1000,
  /** A short benchmark: MLPerf's minimum duration. */
  shortRunS: 600,
  /** §11 on the 90% runs; i.i.d. resamples per window size. */
  correlation: { loadPct: 90, lags: [1, 2], windows: [100, 300, 1000, 3000], resamples: 1000 },
};
type Params = { loadPct: number; seed: number };

export interface WindowRow {
  /** Send time of the window's last request, s. */
  t: number;
  p99Ms: number;
}
interface Result extends Params {
  rate: number;
  /** Every window, rounded to what a figure can show (0.1 s, four significant digits). */
  windows: WindowRow[];
  collapseS: number | null;
  maxWindowS: number;
  /** Worst window of a run that went above the threshold and came back (no collapse): its time, s. */
  episodeAtS: number | null;
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
  jobs: (c) => c.loadsPct.flatMap((loadPct) => c.seeds.map((seed) => ({ id: `${loadPct}pct-s${seed}`, params: { loadPct, seed } }))),
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
          const s = windowVsIid(ttft, { windowSize, p: 0.99, rng: rng.fork(`iid-${windowSize}`), resamples: c.correlation.resamples });
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
    const worst = windows.reduce((a, w) => (w.p99Ms > a.p99Ms ? w : a), windows[0]!);
    return {
      ...p,
      rate,
      windows: windows.map((w) => ({ t: Math.round(w.t * 10) / 10, p99Ms: Number(w.p99Ms.toPrecision(4)) })),
      collapseS,
      maxWindowS: worst.p99Ms / 1000,
      episodeAtS: collapseS === null && worst.p99Ms > c.collapseMs ? worst.t : null,
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
    const windowsPerRun = Math.floor(c.requests / c.window);
    for (const load of c.loadsPct) {
      const g = results.filter((r) => r.loadPct === load);
      const k = `load${load}`;
      const collapsed = g.filter((r) => r.collapseS !== null);
      const episodes = g.filter((r) => r.episodeAtS !== null);
      n[`${k}.runs`] = num(g.length, 'runs');
      n[`${k}.load_pct`] = num(load, '%');
      n[`${k}.collapsed_runs`] = num(collapsed.length, 'runs', g.length);
      n[`${k}.collapsed_share_pct`] = shareNum(collapsed.length, g.length);
      if (collapsed.length) n[`${k}.collapse_after_h`] = overSeeds(collapsed.map((r) => r.collapseS! / 3600), 'h', null, collapsed.map((r) => r.seed));
      n[`${k}.episode_runs`] = num(episodes.length, 'runs', g.length);
      if (episodes.length) n[`${k}.episode_at_h`] = overSeeds(episodes.map((r) => r.episodeAtS! / 3600), 'h', null, episodes.map((r) => r.seed));
      // The worst window of a run that had an episode, to compare with a published run that had one (not with the median over all runs).
      if (episodes.length) n[`${k}.episode_max_window_p99_s`] = overSeeds(episodes.map((r) => r.maxWindowS), 's', windowsPerRun, episodes.map((r) => r.seed));
      n[`${k}.max_window_p99_s`] = overSeeds(g.map((r) => r.maxWindowS), 's', windowsPerRun);
      n[`${k}.preemptions`] = overSeeds(g.map((r) => r.preemptions), 'preemptions', c.requests);
      n[`${k}.duration_h`] = overSeeds(g.map((r) => r.durationS / 3600), 'h');
      n[`${k}.short_run_requests`] = num(g[0]!.shortRequests, 'requests');
      n[`${k}.worst_short_window_p99_ms`] = overSeeds(g.map((r) => r.worstShortMs), 'ms', c.window);
      const blips = g.filter((r) => r.worstShortMs > c.collapseMs);
      n[`${k}.short_run_blips`] = num(blips.length, 'runs', g.length);
      n[`${k}.collapsed_after_clean_short_run`] = num(collapsed.filter((r) => r.worstShortMs <= c.collapseMs).length, 'runs', g.length);
    }
    n['window_requests'] = num(c.window, 'requests');
    Object.assign(n, configNumbers(c, { requests: 'requests', collapseMs: 'ms' }));
    n['config.seeds'] = num(c.seeds.length, 'seeds');
    n['short_run_min'] = num(c.shortRunS / 60, 'min');
    const corrRuns = results.filter((r) => r.correlation);
    // Cost per token scales with 1 / throughput at the same price per GPU-hour.
    n['cost.load90_over_peak_pct'] = overSeeds(corrRuns.map((r) => 100 * (peakTok / r.outputTokPerS - 1)), '%');
    c.correlation.lags.forEach((lag, i) => (n[`correlation.lag${lag}`] = overSeeds(corrRuns.map((r) => r.correlation!.acf[i]!), '', c.requests)));
    c.correlation.windows.forEach((windowSize, i) => {
      const k = `correlation.w${windowSize}`;
      const s = corrRuns.map((r) => r.correlation!.spreads[i]!);
      n[`${k}.variance_ratio_x`] = overSeeds(s.map((x) => x.varianceRatio), '×', Math.floor(c.requests / windowSize));
      n[`${k}.effective_n`] = overSeeds(s.map((x) => x.effectiveSampleSize), 'requests');
      n[`${k}.window_band_lo_ms`] = overSeeds(s.map((x) => x.windowBand[0]), 'ms');
      n[`${k}.window_band_hi_ms`] = overSeeds(s.map((x) => x.windowBand[1]), 'ms');
      n[`${k}.iid_band_lo_ms`] = overSeeds(s.map((x) => x.iidBand[0]), 'ms');
      n[`${k}.iid_band_hi_ms`] = overSeeds(s.map((x) => x.iidBand[1]), 'ms');
      n[`${k}.too_narrow_x`] = overSeeds(s.map((x) => (x.windowBand[1] - x.windowBand[0]) / (x.iidBand[1] - x.iidBand[0])), '×');
      n[`${k}.window_requests`] = num(windowSize, 'requests');
    });
    n['correlation.band_pct'] = num(90, '%');
    n['correlation.iid_resamples'] = num(c.correlation.resamples, 'resamples');
    n['correlation.true_p99_ms'] = overSeeds(corrRuns.map((r) => r.correlation!.spreads[0]!.truth), 'ms', c.requests);
    // Figure 9b draws every run; in bold, per load, the run whose worst window is that load's median.
    const drawn = new Set(c.loadsPct.map((load) => medianRun(results.filter((r) => r.loadPct === load), (r) => r.maxWindowS)));
    // Figure 9a draws one run's bands: the run whose too-narrow factor at the benchmark-sized window is the median.
    const at = c.correlation.windows.indexOf(c.window);
    const factor = (r: Result) => {
      const s = r.correlation!.spreads[at]!;
      return (s.windowBand[1] - s.windowBand[0]) / (s.iidBand[1] - s.iidBand[0]);
    };
    const spreadRun = medianRun(corrRuns, factor);
    return {
      data: {
        series: results.map((r) => ({
          loadPct: r.loadPct,
          seed: r.seed,
          drawn: drawn.has(r),
          collapsed: r.collapseS !== null,
          maxWindowS: r.maxWindowS,
          windows: r.windows,
        })),
        runs: c.seeds.length,
        spreadSeed: spreadRun.seed,
        spreadFactor: factor(spreadRun),
        spreads: spreadRun.correlation!.spreads,
        // Every seed's bands, drawn faint behind the median run's.
        seedSpreads: corrRuns.map((r) => ({ seed: r.seed, spreads: r.correlation!.spreads })),
        collapseMs: c.collapseMs,
        windowRequests: c.window,
        correlationLoadPct: c.correlation.loadPct,
      },
      numbers: n,
    };
  },
  clauses: {
    arrivals: `open loop, Poisson at 90, 95 and 98% of the 256-slot closed loop’s delivered rate, 160,000 requests per run, ${config.seeds.length} seeds per load`,
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
