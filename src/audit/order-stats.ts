/**
 * A percentile of an already sorted series with its distribution-free 95%
 * interval (order statistics, src/stats/orderstats.ts), without sorting
 * again: every finding passes the run's sorted series.
 */
import { quantileIntervalRanks } from '../stats/orderstats.ts';
import { linearPercentile } from '../stats/percentile.ts';

export const LEVEL = 0.95;

export interface SortedPercentile {
  value: number;
  n: number;
  /** [X_(r), X_(s)]; a side the sample cannot support is null. */
  lower: number | null;
  upper: number | null;
}

export function percentileOfSorted(sorted: ArrayLike<number>, p: number): SortedPercentile {
  const n = sorted.length;
  if (n === 0) return { value: NaN, n, lower: null, upper: null };
  const r = quantileIntervalRanks(n, p, LEVEL);
  return {
    value: linearPercentile(sorted, p, { sorted: true }),
    n,
    lower: r.lower === null ? null : sorted[r.lower - 1],
    upper: r.upper === null ? null : sorted[r.upper - 1],
  };
}

/** Whether x lies outside the percentile's interval, on a side the sample supports. */
export function outside(x: number, s: SortedPercentile): boolean {
  return (s.lower !== null && x < s.lower) || (s.upper !== null && x > s.upper);
}

/** The values (in issue order) whose flag is 0. */
export function withoutFlagged(values: ArrayLike<number>, flags: ArrayLike<number>): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (!flags[i]) out.push(values[i]);
  return Float64Array.from(out);
}
