/**
 * Every percentile the site publishes carries its sample size and an
 * order-statistic interval (equal-tailed ranks, see orderstats.ts). When the
 * sample cannot support a side, that side is ±Infinity and `supported` is
 * false, with the reason — the site prints "no bound" rather than a number.
 */
import { percentileBy, sortAsc, type Numbers, type PercentileMethod } from './percentile.ts';
import { quantileIntervalRanks } from './orderstats.ts';

export interface PercentileWithInterval {
  value: number;
  n: number;
  p: number;
  level: number;
  /** [X_(r), X_(s)]; ±Infinity where the sample is too small for that side. */
  interval: [number, number];
  /** 1-based ranks r and s of the bounding order statistics (null: unsupported side). */
  ranks: [number | null, number | null];
  /** Exact i.i.d. coverage of the interval. */
  coverage: number;
  supported: boolean;
  method: PercentileMethod;
  reason?: string;
}

export function percentileWithInterval(
  values: Numbers,
  p: number,
  level = 0.95,
  method: PercentileMethod = 'numpy-linear',
  opts: { sorted?: boolean } = {},
): PercentileWithInterval {
  const n = values.length;
  if (n === 0) {
    return {
      value: NaN, n, p, level, interval: [-Infinity, Infinity], ranks: [null, null], coverage: 0,
      supported: false, method, reason: 'empty sample',
    };
  }
  const sorted = opts.sorted ? values : sortAsc(values);
  const value = method === 'guidellm-weighted' ? percentileBy(method, sorted, p) : percentileBy(method, sorted, p, { sorted: true });
  const r = quantileIntervalRanks(n, p, level);
  const lo = r.lower === null ? -Infinity : sorted[r.lower - 1];
  const hi = r.upper === null ? Infinity : sorted[r.upper - 1];
  const supported = r.lower !== null && r.upper !== null;
  const out: PercentileWithInterval = {
    value, n, p, level, interval: [lo, hi], ranks: [r.lower, r.upper], coverage: r.coverage, supported, method,
  };
  if (!supported) {
    out.reason = `n = ${n} cannot bound p${+(p * 100).toFixed(3)} ${r.upper === null ? 'from above' : 'from below'} at ${level * 100}% (i.i.d. order statistics)`;
  }
  return out;
}
