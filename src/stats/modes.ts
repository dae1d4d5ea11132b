/**
 * Are a handful of values (one per seed) two groups rather than one? The
 * article's kind of tail statistic can land in one of two regimes depending on
 * the draws, and a median over seeds then describes neither; this test says
 * when, and reports both groups.
 *
 * Scale. Positive values (a latency, a rate, a ratio) are read on the Box–Cox
 * power scale under which they look most normal, from a grid closed under
 * x → 1/x, so the answer does not depend on the unit, on a ratio against its
 * inverse, or on whether a tail is lognormal or normal; other values (a change
 * in per cent, a correlation) as they are. Both statistics below are ratios of
 * differences, so they do not move under a change of unit or origin.
 *
 * Statistics. For every split of the sorted values that leaves at least
 * `modesMinGroup(n)` seeds on each side:
 *
 *   gap  the gap between the two sides over the pooled within-side standard
 *        deviation: a few seeds far from the rest (18 + 2, 17 + 3);
 *   fit  the log-likelihood ratio of two normal groups, each with its own
 *        variance, against one: a tight group beside a spread-out one. Read
 *        only where both sides have MODES_FIT_MIN_GROUP seeds and the gap is
 *        at least MODES_FIT_MIN_GAP, since one far seed in a side of five
 *        inflates its variance without being a group; each side's variance is
 *        shrunk towards the pooled one, so near-ties cannot make it infinite.
 *
 * Two modes when the largest of either reaches its threshold.
 *
 * Ties. A value held by a quarter of the seeds or more at the bottom or top of
 * the range is a floor or a cap (a share stuck at its minimum, a count at
 * zero): those seeds are censored there, the split between them and the rest
 * is not a mode, and the test reads the values between floor and cap. Values
 * that take exactly two distinct values, each in at least `modesMinGroup(n)`
 * seeds (the two rates of a coarse sweep), are two modes: no value between
 * them, the median included, is any seed's.
 *
 * Error rates, measured by test/stats.test.ts (2,000 samples of 20 per case,
 * seeded; the bounds are pinned there): false alarms 0.8% on lognormal samples
 * with σ = 1, 1.1% with σ = 1.5, 0.6% on normal ones with a coefficient of
 * variation of 0.15 or 0.3; power, with the groups' means seven within-group
 * standard deviations apart, 98% for 13 + 7, 92% for 18 + 2, 91% for 17 + 3;
 * and 97% for a tight group of 14 beside a group of 6 eight times as spread,
 * their means two of the spread group's deviations apart.
 */
import { linearPercentile } from './percentile.ts';

/** One group of values: its range, median and size. */
export interface Mode {
  min: number;
  median: number;
  max: number;
  seeds: number;
}

/** Values below which no bimodality test is tried: with fewer, a gap between groups of three says nothing. */
export const MODES_MIN_SEEDS = 10;

/** From this many seeds on, a group of two is accepted: two seeds of twenty can be a regime of their own, two of ten cannot be told from a tail. */
export const MODES_PAIR_FROM = 20;

/** Smallest group the test accepts among n seeds. */
export function modesMinGroup(n: number): number {
  return n >= MODES_PAIR_FROM ? 2 : 3;
}

/**
 * Thresholds of the two statistics: each the 99.5% point of its largest value
 * over the splits of 200,000 lognormal samples of 20 (seeded), so that one or
 * the other is reached by about 1% of one-group samples.
 */
export const MODES_GAP_THRESHOLD = 1.98;
export const MODES_FIT_THRESHOLD = 38.2;

/** Smallest side on which the fit statistic compares variances. */
export const MODES_FIT_MIN_GROUP = 5;

/** Smallest gap, in pooled standard deviations, at a split the fit statistic reads. */
export const MODES_FIT_MIN_GAP = 1;

/** Weight, in seeds, of the pooled variance in each side's variance (the fit statistic's guard against a side of near-ties). */
const SHRINK_SEEDS = 0.5;

/** Box–Cox powers tried (0 is the log): closed under x → 1/x (λ → −λ). */
export const MODES_POWERS = [-2, -1, -0.5, 0, 0.5, 1, 2] as const;

/**
 * Positive values on the Box–Cox scale (power λ, log at 0) under which they
 * look most normal (largest profile likelihood). Each value is first divided
 * by their geometric mean (which leaves the choice unchanged and makes the
 * log-Jacobian term zero), and the power is taken through expm1, so values
 * that differ in the fifth digit keep their differences.
 */
export function boxCox(x: readonly number[]): number[] {
  const n = x.length;
  const logs = x.map(Math.log);
  const logMean = logs.reduce((a, v) => a + v, 0) / n;
  const u = logs.map((v) => v - logMean);
  let best: number[] = u;
  let bestVar = Infinity;
  for (const lambda of MODES_POWERS) {
    const y = lambda === 0 ? u : u.map((v) => Math.expm1(lambda * v) / lambda);
    const mean = y.reduce((a, v) => a + v, 0) / n;
    const variance = y.reduce((a, v) => a + (v - mean) ** 2, 0) / n;
    // With the geometric mean at 1 the profile likelihood is −n/2 · log(variance): the smallest variance wins.
    if (variance < bestVar) [best, bestVar] = [y, variance];
  }
  return best;
}

function sortAsc(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** The two statistics' largest values over the splits, and where each is reached (the index of the upper side's first value). */
export interface ModeStatistics {
  gap: number;
  gapAt: number;
  fit: number;
  fitAt: number;
}

/**
 * The statistics of sorted values on the scale the test reads them (see the
 * header), or null when no split may be tried (too few values, or every split
 * leaves a side of one repeated value).
 */
export function modeStatistics(sorted: readonly number[], m = modesMinGroup(sorted.length)): ModeStatistics | null {
  const n = sorted.length;
  if (n < MODES_MIN_SEEDS) return null;
  const y = sorted[0]! > 0 ? boxCox(sorted) : [...sorted];
  const sum = [0];
  const sq = [0];
  for (const v of y) {
    sum.push(sum[sum.length - 1]! + v);
    sq.push(sq[sq.length - 1]! + v * v);
  }
  const ss = (from: number, to: number) => Math.max(0, sq[to]! - sq[from]! - (sum[to]! - sum[from]!) ** 2 / (to - from));
  const total = ss(0, n) / n;
  let out: ModeStatistics | null = null;
  for (let k = m; k <= n - m; k++) {
    if (sorted[0] === sorted[k - 1] || sorted[k] === sorted[n - 1]) continue;
    const ssLow = ss(0, k);
    const ssHigh = ss(k, n);
    const pooled = (ssLow + ssHigh) / (n - 2);
    const gap = (y[k]! - y[k - 1]!) / Math.sqrt(pooled);
    const vLow = (ssLow + SHRINK_SEEDS * pooled) / (k + SHRINK_SEEDS);
    const vHigh = (ssHigh + SHRINK_SEEDS * pooled) / (n - k + SHRINK_SEEDS);
    // A variance needs more than two seeds behind it, and a split with no gap is a tail, not a group (one far seed inflates its side's variance):
    // the fit is read only where both sides have MODES_FIT_MIN_GROUP seeds and the gap is at least MODES_FIT_MIN_GAP pooled deviations.
    const fit = Math.min(k, n - k) >= MODES_FIT_MIN_GROUP && gap >= MODES_FIT_MIN_GAP ? n * Math.log(total) - k * Math.log(vLow) - (n - k) * Math.log(vHigh) : 0;
    out ??= { gap, gapAt: k, fit, fitAt: k };
    if (gap > out.gap) [out.gap, out.gapAt] = [gap, k];
    if (fit > out.fit) [out.fit, out.fitAt] = [fit, k];
  }
  return out;
}

function mode(xs: number[]): Mode {
  return { min: xs[0]!, median: linearPercentile(xs, 0.5, { sorted: true }), max: xs[xs.length - 1]!, seeds: xs.length };
}

/** A value held by at least this share of the seeds at the bottom or top of their range is a floor or a cap: those seeds are censored there, not a group. */
export const MODES_FLOOR_SHARE = 0.25;

/** Two groups, lower first, or null (the method is in this file's header). */
export function twoModes(values: readonly number[]): [Mode, Mode] | null {
  const x = sortAsc(values);
  const n = x.length;
  if (n < MODES_MIN_SEEDS) return null;
  const m = modesMinGroup(n);
  const distinct = [...new Set(x)];
  if (distinct.length === 2) {
    const at = x.indexOf(distinct[1]!);
    return at >= m && n - at >= m ? [mode(x.slice(0, at)), mode(x.slice(at))] : null;
  }
  // A floor (many seeds at exactly the lowest value) or a cap is no side of a split: the test reads the values between them.
  const tied = (v: number) => x.filter((y) => y === v).length;
  const floor = tied(x[0]!) >= MODES_FLOOR_SHARE * n ? tied(x[0]!) : 0;
  const cap = tied(x[n - 1]!) >= MODES_FLOOR_SHARE * n ? tied(x[n - 1]!) : 0;
  const s = modeStatistics(x.slice(floor, n - cap), m);
  if (!s) return null;
  // Where both statistics pass, the split is the gap's (the fit's largest value can sit one seed off a clear gap).
  const at = s.gap >= MODES_GAP_THRESHOLD ? s.gapAt : s.fit >= MODES_FIT_THRESHOLD ? s.fitAt : -1;
  if (at < 0) return null;
  return [mode(x.slice(0, floor + at)), mode(x.slice(floor + at))];
}
