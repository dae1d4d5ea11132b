/**
 * Distribution-free bounds for a quantile from n i.i.d. samples. With a
 * continuous distribution, the number B of samples below the true p-quantile
 * q is Binomial(n, p), and X_(r) ≤ q ⇔ B ≥ r (ranks are 1-based). Everything
 * below follows from that one fact; none of it holds for correlated samples
 * (see windows.ts, which measures how wrong it gets).
 */
import { binomialCdf, firstRank } from './binomial.ts';

function checkP(p: number, name = 'p'): void {
  if (!(p > 0 && p < 1)) throw new RangeError(`invalid ${name}: ${p} (a fraction in (0, 1) is required)`);
}

/** P(sample maximum of n exceeds the true p-quantile) = 1 − pⁿ. n = 100, p = 0.99 → 0.634. */
export function probMaxExceeds(n: number, p: number): number {
  checkP(p);
  return -Math.expm1(n * Math.log(p));
}

/**
 * Smallest n for which the sample maximum bounds the p-quantile from above,
 * one-sided, at confidence c, i.e. 1 − pⁿ ≥ c ⇔ n ≥ ln(1−c)/ln p.
 * p = 0.99, c = 0.95 → 299; p = 0.999 → 2,995.
 */
export function minSamplesForMaxBound(p: number, c: number): number {
  checkP(p);
  checkP(c, 'confidence');
  let n = Math.ceil(Math.log(1 - c) / Math.log(p));
  // guard the float division at an exact boundary
  while (n > 1 && probMaxExceeds(n - 1, p) >= c) n--;
  while (probMaxExceeds(n, p) < c) n++;
  return n;
}

/**
 * Smallest rank s (1-based) with P(X_(s) ≥ q_p) ≥ c: a one-sided upper
 * confidence bound. null when even the maximum is not enough (n too small).
 */
export function upperBoundRank(n: number, p: number, c: number): number | null {
  checkP(p);
  checkP(c, 'confidence');
  const t = binomialCdf(n, p);
  // P(X_(s) ≥ q) = P(B ≤ s−1) = cdf(s−1): the smallest s, over k = s − 1 = 0 … n − 1
  const k = firstRank(t, 0, n - 1, t.cdf, (v) => v >= c);
  return k === null ? null : k + 1;
}

export interface RankInterval {
  /** 1-based ranks of the order statistics bounding the quantile; null when the sample cannot support that side. */
  lower: number | null;
  upper: number | null;
  /** Exact coverage P(X_(lower) ≤ q ≤ X_(upper)) under i.i.d. sampling (a missing side counts as ∓∞). */
  coverage: number;
}

/**
 * Two-sided confidence interval for the p-quantile by order statistics,
 * **equal-tailed**: each side may miss with probability at most (1−level)/2.
 *   lower r = the largest r with P(B ≤ r−1) ≤ α/2   (P(X_(r) > q) ≤ α/2)
 *   upper s = the smallest s with P(B ≥ s) ≤ α/2     (P(X_(s) < q) ≤ α/2)
 * Coverage is then ≥ level, exactly F(s−1) − F(r−1). This is the rule that
 * gives n = 1,000, p = 0.99, level 0.95 → ranks 983 and 997 (the article's
 * numbers); it is the classical conservative construction (e.g. Hahn & Meeker,
 * *Statistical Intervals*, §5.2), and unlike a "narrowest" search it never
 * trades one tail against the other.
 */
export function quantileIntervalRanks(n: number, p: number, level = 0.95): RankInterval {
  checkP(p);
  checkP(level, 'level');
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`invalid sample size: ${n}`);
  const half = (1 - level) / 2;
  const t = binomialCdf(n, p);
  // the largest r with cdf(r − 1) ≤ α/2 (k = r − 1 from n − 1 down), the smallest s with sf(s) ≤ α/2
  const k = firstRank(t, n - 1, 0, t.cdf, (v) => v <= half);
  const lower = k === null ? null : k + 1;
  const upper = firstRank(t, 1, n, t.sf, (v) => v <= half);
  const below = lower === null ? 0 : t.cdf(lower - 1); // P(X_(r) > q)
  const above = upper === null ? 0 : t.sf(upper); // P(X_(s) < q)
  return { lower, upper, coverage: 1 - below - above };
}
