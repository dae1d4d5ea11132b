/**
 * Exact binomial probabilities without overflow. The pmf is built by the
 * ratio recurrence pmf(k+1)/pmf(k) = (n−k)/(k+1) · p/(1−p), outward from the
 * mode (weight 1), then normalised: no factorials, no Γ, O(n) for the whole
 * table, exact to ~1e-12 relative for n in the hundreds of thousands. Far
 * tails underflow to 0, never to NaN.
 *
 * Only the part that does not underflow to 0 is kept (near p = 0 or 1 a few
 * hundred σ; near p = ½ the subnormal tails reach further): a percentile's
 * interval over a run's pooled chunk gaps has n in the tens of millions, and
 * three tables of n + 1 doubles each were the largest thing the run's report
 * held. Every probability is the same double the full table gives: the same
 * sums in the same order, zeros added outside the window.
 */

function check(n: number, p: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`invalid binomial n: ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`invalid binomial p: ${p}`);
}

/** The pmf where it is not 0: pmf(k) = w[k − lo] for lo ≤ k ≤ lo + w.length − 1, and 0 outside. */
function pmfWindow(n: number, p: number): { lo: number; w: Float64Array } {
  check(n, p);
  if (p === 0) return { lo: 0, w: Float64Array.of(1) };
  if (p === 1) return { lo: n, w: Float64Array.of(1) };
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const odds = p / (1 - p);
  let total = 1;
  const up: number[] = [];
  for (let k = mode, x = 1; k < n; k++) {
    const next = (x * (n - k)) / (k + 1) * odds;
    if (next === 0) break;
    up.push(next);
    total += next;
    x = next;
  }
  const down: number[] = [];
  for (let k = mode, x = 1; k > 0; k--) {
    const prev = (x * k) / (n - k + 1) / odds;
    if (prev === 0) break;
    down.push(prev);
    total += prev;
    x = prev;
  }
  const w = new Float64Array(down.length + 1 + up.length);
  for (let j = 0; j < down.length; j++) w[down.length - 1 - j] = down[j] / total;
  w[down.length] = 1 / total;
  for (let j = 0; j < up.length; j++) w[down.length + 1 + j] = up[j] / total;
  return { lo: mode - down.length, w };
}

/** pmf(0..n) of Binomial(n, p) as a Float64Array of n+1 probabilities summing to 1. */
export function binomialPmf(n: number, p: number): Float64Array {
  const { lo, w } = pmfWindow(n, p);
  const pmf = new Float64Array(n + 1);
  pmf.set(w, lo);
  return pmf;
}

/** cdf(k) = P(X ≤ k) and sf(k) = P(X ≥ k) for 0 ≤ k ≤ n; both are constant below `lo` and above `hi`. */
export interface BinomialTable {
  cdf(k: number): number;
  sf(k: number): number;
  lo: number;
  hi: number;
}

/** The cdf and survival function. Upper tails are summed from the right so they keep their precision. */
export function binomialCdf(n: number, p: number): BinomialTable {
  const { lo, w } = pmfWindow(n, p);
  const m = w.length;
  const hi = lo + m - 1;
  const cdf = new Float64Array(m);
  let s = 0;
  for (let j = 0; j < m; j++) cdf[j] = s += w[j];
  const cdfTop = s;
  const sf = w; // summed in place: the pmf is not needed after
  s = 0;
  for (let j = m - 1; j >= 0; j--) sf[j] = s += w[j];
  const sfBottom = s;
  return {
    lo,
    hi,
    cdf: (k) => (k < lo ? 0 : k > hi ? cdfTop : cdf[k - lo]),
    sf: (k) => (k > hi ? 0 : k < lo ? sfBottom : sf[k - lo]),
  };
}

/**
 * The first k from `from` towards `to` (inclusive, step ±1) whose value
 * satisfies `test`, or null; runs of k outside [t.lo, t.hi], where the value
 * cannot change, are tested once.
 */
export function firstRank(t: BinomialTable, from: number, to: number, value: (k: number) => number, test: (v: number) => boolean): number | null {
  if (from <= to) {
    for (let k = from; k <= to; ) {
      if (test(value(k))) return k;
      if (k > t.hi) return null;
      k = k < t.lo ? t.lo : k + 1;
    }
  } else {
    for (let k = from; k >= to; ) {
      if (test(value(k))) return k;
      if (k < t.lo) return null;
      k = k > t.hi ? t.hi : k - 1;
    }
  }
  return null;
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  return binomialCdf(n, p).sf(k);
}
