/**
 * Windows of a run: which requests a statistic may use (steady state), and
 * how much a percentile over back-to-back windows really moves compared with
 * what i.i.d. theory promises.
 */
import type { Rng } from '../rng/index.ts';
import { linearPercentile, percentileBy, sortAsc, type Numbers, type PercentileMethod } from './percentile.ts';

// ---------------------------------------------------------------- windows vs i.i.d.

export interface WindowSpread {
  windowSize: number;
  p: number;
  /** the percentile over all values */
  truth: number;
  /** percentile of each back-to-back window (the run's order) */
  windows: Float64Array;
  /** percentile of each i.i.d. resample of windowSize drawn with replacement from the whole run */
  iid: Float64Array;
  varWindows: number;
  varIid: number;
  /** varWindows / varIid: > 1 when neighbouring requests are correlated */
  varianceRatio: number;
  /** windowSize / varianceRatio: the i.i.d. sample size a window is worth (a quantile's variance ∝ 1/n) */
  effectiveSampleSize: number;
  /** middle-90% band (5th–95th percentile, numpy linear) of the window values and of the i.i.d. values */
  windowBand: [number, number];
  iidBand: [number, number];
}

function variance(x: Float64Array): number {
  const n = x.length;
  if (n < 2) return NaN;
  let m = 0;
  for (let i = 0; i < n; i++) m += x[i];
  m /= n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m);
  return s / (n - 1);
}

/**
 * p-quantile over back-to-back windows of `windowSize` values vs the same
 * statistic over i.i.d. resamples of the same size. The resampling draws from
 * `rng` (explicit, never global); `resamples` defaults to the number of
 * windows, but at least 200 so the i.i.d. band is itself stable.
 */
export function windowVsIid(
  values: Numbers,
  opts: { windowSize: number; p: number; rng: Rng; resamples?: number; method?: PercentileMethod },
): WindowSpread {
  const { windowSize, p, rng } = opts;
  const method = opts.method ?? 'numpy-linear';
  const n = values.length;
  if (!Number.isInteger(windowSize) || windowSize < 2) throw new RangeError(`invalid window size: ${windowSize}`);
  const nWin = Math.floor(n / windowSize);
  if (nWin < 2) throw new RangeError(`${n} values make ${nWin} windows of ${windowSize}; at least 2 are needed`);
  const buf = new Float64Array(windowSize);
  const windows = new Float64Array(nWin);
  for (let w = 0; w < nWin; w++) {
    for (let j = 0; j < windowSize; j++) buf[j] = values[w * windowSize + j];
    buf.sort();
    windows[w] = percentileBy(method, buf, p, { sorted: true });
  }
  const resamples = opts.resamples ?? Math.max(200, nWin);
  const iid = new Float64Array(resamples);
  for (let s = 0; s < resamples; s++) {
    for (let j = 0; j < windowSize; j++) buf[j] = values[rng.int(0, n - 1)];
    buf.sort();
    iid[s] = percentileBy(method, buf, p, { sorted: true });
  }
  const varWindows = variance(windows);
  const varIid = variance(iid);
  const varianceRatio = varWindows / varIid;
  const sw = sortAsc(windows);
  const si = sortAsc(iid);
  return {
    windowSize, p,
    truth: percentileBy(method, sortAsc(values), p, { sorted: true }),
    windows, iid, varWindows, varIid, varianceRatio,
    effectiveSampleSize: windowSize / varianceRatio,
    windowBand: [linearPercentile(sw, 0.05, { sorted: true }), linearPercentile(sw, 0.95, { sorted: true })],
    iidBand: [linearPercentile(si, 0.05, { sorted: true }), linearPercentile(si, 0.95, { sorted: true })],
  };
}

// ---------------------------------------------------------------- steady state

/**
 * Indices of the requests left after the first wave: the first `waveSize`
 * requests by send time (ties by index) are dropped — in a closed loop of N
 * slots these are the N sent together at t = 0, whose TTFTs queue behind
 * each other's prompts.
 */
export function afterFirstWave(sendT: Numbers, waveSize: number): Uint32Array {
  const n = sendT.length;
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => sendT[a] - sendT[b] || a - b);
  const keep = idx.slice(Math.min(waveSize, n)).sort((a, b) => a - b);
  return Uint32Array.from(keep);
}

export interface ConcurrencyWindow {
  start: number;
  end: number;
  peak: number;
  threshold: number;
  /** time-weighted mean concurrency inside the window */
  averageConcurrency: number;
}

/**
 * SGLang's steady-state window (`python/sglang/benchmark/steady_state.py`,
 * 41f869b4351b, driven by `steady_state_serving.py --steady-state-concurrency-ratio f`):
 * concurrency is the step function of the intervals [start_i, start_i + latency_i);
 * threshold = max(1, ⌈peak·f⌉); the window is the **longest** contiguous span
 * with concurrency ≥ threshold (the first such span on a tie). null when the
 * run is empty.
 */
export function sglangSteadyWindow(starts: Numbers, ends: Numbers, ratio: number): ConcurrencyWindow | null {
  const n = starts.length;
  if (n === 0) return null;
  if (!(ratio > 0 && ratio <= 1)) throw new RangeError(`invalid concurrency ratio: ${ratio}`);
  // events: +1 at start, −1 at end; at equal times ends first ([s, e) intervals)
  const times = new Float64Array(2 * n);
  const deltas = new Int8Array(2 * n);
  const order = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) {
    times[2 * i] = starts[i];
    deltas[2 * i] = 1;
    times[2 * i + 1] = ends[i];
    deltas[2 * i + 1] = -1;
  }
  for (let i = 0; i < 2 * n; i++) order[i] = i;
  order.sort((a, b) => times[a] - times[b] || deltas[a] - deltas[b]);
  // piecewise-constant segments [t_k, t_{k+1}) with level c_k
  const segT: number[] = [];
  const segC: number[] = [];
  let c = 0;
  let peak = 0;
  for (let k = 0; k < order.length; k++) {
    const e = order[k];
    c += deltas[e];
    const t = times[e];
    if (k + 1 < order.length && times[order[k + 1]] === t) continue;
    segT.push(t);
    segC.push(c);
    if (c > peak) peak = c;
  }
  const threshold = Math.max(1, Math.ceil(peak * ratio));
  let best: [number, number] | null = null;
  let runStart = -1;
  for (let k = 0; k < segT.length; k++) {
    const above = segC[k] >= threshold;
    if (above && runStart < 0) runStart = k;
    else if (!above && runStart >= 0) {
      // the span of segments runStart..k−1 ends where segment k begins
      const s = segT[runStart];
      const e = segT[k];
      if (best === null || e - s > best[1] - best[0]) best = [s, e];
      runStart = -1;
    }
  }
  if (best === null) return null;
  let area = 0;
  for (let k = 0; k + 1 < segT.length; k++) {
    const a = Math.max(segT[k], best[0]);
    const b = Math.min(segT[k + 1], best[1]);
    if (b > a) area += segC[k] * (b - a);
  }
  const dur = best[1] - best[0];
  return { start: best[0], end: best[1], peak, threshold, averageConcurrency: dur > 0 ? area / dur : NaN };
}

export type TransientMode = 'prefer_duration' | 'duration' | 'requests';

/**
 * GuideLLM's warmup/cooldown (`TransientPhaseConfig`, snapshot ee7a7745 and
 * the newer `schemas/benchmark/transient.py` layout): a value < 1 is a
 * fraction of the run (of its duration, or of its request count), a value ≥ 1
 * is seconds or requests. Returns the measurement window. **chosen** for the
 * request-count form (GuideLLM's code for it was not read): the window starts
 * at the send time of the first request after the warmup count and ends at
 * the finish time of the last request before the cooldown count.
 */
export function guidellmWindow(
  sendT: Numbers,
  finishT: Numbers,
  opts: { warmup?: number; cooldown?: number; mode?: TransientMode; runStart?: number; runEnd?: number },
): { measureStart: number; measureEnd: number } {
  const n = sendT.length;
  if (n === 0) throw new RangeError('empty run');
  const warm = opts.warmup ?? 0;
  const cool = opts.cooldown ?? 0;
  if (warm < 0 || cool < 0) throw new RangeError(`invalid warmup/cooldown: ${warm}/${cool}`);
  let t0 = Infinity;
  let t1 = -Infinity;
  for (let i = 0; i < n; i++) {
    t0 = Math.min(t0, sendT[i]);
    t1 = Math.max(t1, finishT[i]);
  }
  const runStart = opts.runStart ?? t0;
  const runEnd = opts.runEnd ?? t1;
  const mode = opts.mode ?? 'prefer_duration';
  if (mode === 'requests') {
    const k = warm < 1 ? Math.floor(warm * n) : Math.floor(warm);
    const m = cool < 1 ? Math.floor(cool * n) : Math.floor(cool);
    const s = sortAsc(sendT);
    const f = sortAsc(finishT);
    return {
      measureStart: k === 0 ? runStart : s[Math.min(k, n - 1)],
      measureEnd: m === 0 ? runEnd : f[Math.max(n - 1 - m, 0)],
    };
  }
  const dur = runEnd - runStart;
  const w = warm < 1 ? warm * dur : warm;
  const c = cool < 1 ? cool * dur : cool;
  return { measureStart: runStart + w, measureEnd: runEnd - c };
}

/** GuideLLM keeps every request that **overlaps** the window: end ≥ measureStart ∧ start ≤ measureEnd. */
export function overlapping(sendT: Numbers, finishT: Numbers, measureStart: number, measureEnd: number): Uint32Array {
  const keep = new Uint32Array(sendT.length);
  let k = 0;
  for (let i = 0; i < sendT.length; i++) if (finishT[i] >= measureStart && sendT[i] <= measureEnd) keep[k++] = i;
  return k === keep.length ? keep : keep.slice(0, k);
}
