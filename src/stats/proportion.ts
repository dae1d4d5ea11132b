/** Standard normal quantile Φ⁻¹(u) (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(u: number): number {
  if (!(u > 0 && u < 1)) throw new RangeError(`invalid probability: ${u}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lowP = 0.02425;
  if (u < lowP) {
    const q = Math.sqrt(-2 * Math.log(u));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (u > 1 - lowP) return -normalQuantile(1 - u);
  const q = u - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * Wilson score interval for a proportion x/n at a two-sided level
 * (E. B. Wilson, JASA 1927). Unlike the Wald interval it stays inside [0, 1]
 * and is sensible at x = 0 (0/10 at 95% → [0, 0.2775]).
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): { p: number; lo: number; hi: number } {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`invalid sample size: ${n}`);
  if (!(successes >= 0 && successes <= n)) throw new RangeError(`invalid success count: ${successes} of ${n}`);
  const z = normalQuantile(1 - (1 - level) / 2);
  const z2 = z * z;
  const ph = successes / n;
  const denom = 1 + z2 / n;
  const center = (ph + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((ph * (1 - ph)) / n + z2 / (4 * n * n));
  return { p: ph, lo: Math.max(0, center - half), hi: Math.min(1, center + half) };
}

/**
 * Fisher's exact test of two proportions, k1 of n1 against k2 of n2,
 * two-sided: the probability, with both margins fixed (hypergeometric), of a
 * table no more likely than the one observed, as R's fisher.test computes
 * it. For counts of runs, where a normal approximation says nothing at 0 of 14.
 */
export function fisherExact(k1: number, n1: number, k2: number, n2: number): number {
  for (const [k, n] of [[k1, n1], [k2, n2]] as const) {
    if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`invalid count: ${k} of ${n}`);
  }
  const total = k1 + k2;
  const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);
  // Probability that the first sample holds x of the `total` successes.
  const logP = (x: number) => logChoose(n1, x) + logChoose(n2, total - x) - logChoose(n1 + n2, total);
  const observed = logP(k1);
  let p = 0;
  for (let x = Math.max(0, total - n2); x <= Math.min(n1, total); x++) {
    const lp = logP(x);
    // R's tolerance: a probability within a factor 1 + 1e-7 of the observed one counts as no more likely (log(1 + 1e-7) ≈ 1e-7).
    if (lp <= observed + 1e-7) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}
