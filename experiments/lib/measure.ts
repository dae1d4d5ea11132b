/**
 * Small helpers shared by the experiments: per-request latencies from a
 * simulator result, and NumberValues that carry their sample size and interval.
 */
import type { SimResult } from '../../src/sim/index.ts';
import type { NumberValue } from '../../src/pipeline/types.ts';
import { mean, median, percentileWithInterval, wilsonInterval } from '../../src/stats/index.ts';
import { num } from './num.ts';

export { num };

/** Confidence level of every interval the experiments publish. */
export const LEVEL = 0.95;

/** Time to first token from the send, ms, for requests [from, to). */
export function ttftMs(r: SimResult, from = 0, to = r.n): Float64Array {
  const out = new Float64Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = (r.firstT[i] - r.sendT[i]) * 1000;
  return out;
}

/** Time to first token from the due time (the client's schedule), ms. */
export function ttftFromDueMs(r: SimResult, from = 0, to = r.n): Float64Array {
  const out = new Float64Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = (r.firstT[i] - r.dueT[i]) * 1000;
  return out;
}

/** End-to-end latency from the send, s. */
export function e2eS(r: SimResult, from = 0, to = r.n): Float64Array {
  const out = new Float64Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = r.finishT[i] - r.sendT[i];
  return out;
}

/**
 * Time per output token of request i, s: (finish − first token) / (output tokens − 1),
 * vLLM's per-request TPOT; 0 for a request with one output token (it has no gap).
 */
export function tpotS(r: SimResult, i: number): number {
  return r.osl[i] > 1 ? (r.finishT[i] - r.firstT[i]) / (r.osl[i] - 1) : 0;
}

/** Mean TPOT of the requests `idx` that have one (more than one output token), ms. */
export function meanTpotMs(r: SimResult, idx: ArrayLike<number>): number {
  let s = 0;
  let k = 0;
  for (let j = 0; j < idx.length; j++) {
    const i = idx[j];
    if (r.osl[i] > 1) {
      s += tpotS(r, i);
      k++;
    }
  }
  return (1000 * s) / k;
}

/** Indices of requests whose send time lies in [start, end]. */
export function sentWithin(r: SimResult, start: number, end: number): number[] {
  const idx: number[] = [];
  for (let i = 0; i < r.n; i++) if (r.sendT[i] >= start && r.sendT[i] <= end) idx.push(i);
  return idx;
}

export function pick(values: ArrayLike<number>, idx: readonly number[]): Float64Array {
  const out = new Float64Array(idx.length);
  for (let k = 0; k < idx.length; k++) out[k] = values[idx[k]];
  return out;
}

/** A percentile (numpy linear) with its distribution-free 95% order-statistic interval. */
export function pctNum(values: ArrayLike<number>, p: number, unit: string): NumberValue {
  const q = percentileWithInterval(values, p, LEVEL);
  return {
    value: q.value,
    unit,
    n: q.n,
    interval: q.supported ? q.interval : null,
    level: LEVEL,
    intervalKind: q.supported ? 'order-statistic 95% (i.i.d.)' : `no bound: ${q.reason}`,
  };
}

export function meanNum(values: ArrayLike<number>, unit: string): NumberValue {
  return { value: mean(values), unit, n: values.length, interval: null };
}

export function medianNum(values: ArrayLike<number>, unit: string): NumberValue {
  return pctNum(values, 0.5, unit);
}


export { overSeeds, percentileOverSeeds, seedList } from './seeds.ts';

/** A share of runs (or requests) with its Wilson score 95% interval, in %. */
export function shareNum(successes: number, n: number): NumberValue {
  const w = wilsonInterval(successes, n, LEVEL);
  return { value: 100 * w.p, unit: '%', n, interval: [100 * w.lo, 100 * w.hi], level: LEVEL, intervalKind: `Wilson score ${100 * LEVEL}%` };
}

export { mean, median };

/**
 * The closed loop's steady window (docs/experiments.md, open vs closed; chosen): from the first
 * completion to the last send. Its request rate is the output tokens emitted in
 * the window ÷ the window's length ÷ the mean output length.
 */
export function steadyWindow(r: SimResult): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (let i = 0; i < r.n; i++) {
    if (r.finishT[i] < start) start = r.finishT[i];
    if (r.sendT[i] > end) end = r.sendT[i];
  }
  return { start, end };
}

export function meanOf(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s / xs.length;
}

/**
 * Little's law on a closed loop's steady window: rate × mean latency should
 * equal the slots it keeps in flight. Rate by the chosen estimator (tokens in
 * the window ÷ window ÷ mean output length); latency = mean E2E of the requests
 * that finished inside the window.
 */
export function closedLoopLittle(
  r: SimResult,
  tokensIn: (start: number, end: number) => number,
  slots: number,
): { rate: number; meanE2E: number; inFlight: number; ratio: number } {
  const { start, end } = steadyWindow(r);
  const rate = tokensIn(start, end) / (end - start) / meanOf(r.osl);
  let s = 0;
  let k = 0;
  for (let i = 0; i < r.n; i++) {
    if (r.finishT[i] > start && r.finishT[i] <= end) {
      s += r.finishT[i] - r.sendT[i];
      k++;
    }
  }
  const meanE2E = s / k;
  return { rate, meanE2E, inFlight: rate * meanE2E, ratio: (rate * meanE2E) / slots };
}

/**
 * The experiment's own settings as numbers (`config.<name>`), so prose cites
 * them by id like any result instead of typing them. Only the fields named in
 * `units` are echoed, each with its unit.
 */
export function configNumbers(config: Record<string, unknown>, units: Record<string, string>): Record<string, NumberValue> {
  const out: Record<string, NumberValue> = {};
  for (const [key, unit] of Object.entries(units)) {
    const v = config[key];
    if (typeof v !== 'number') throw new Error(`configNumbers: config.${key} is not a number`);
    out[`config.${key.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}`] = num(v, unit);
  }
  return out;
}
