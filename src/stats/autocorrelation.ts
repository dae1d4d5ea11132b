/**
 * Sample autocorrelation at lag k (the usual estimator, as in Box & Jenkins):
 *   r_k = Σ_{t<n−k} (x_t − x̄)(x_{t+k} − x̄) / Σ_t (x_t − x̄)²
 * Values in the order the requests were issued. NaN when undefined.
 */
export function autocorrelation(values: ArrayLike<number>, k: number): number {
  const n = values.length;
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`invalid lag: ${k}`);
  if (n <= k || n < 2) return NaN;
  let m = 0;
  for (let i = 0; i < n; i++) m += values[i];
  m /= n;
  let den = 0;
  for (let i = 0; i < n; i++) den += (values[i] - m) * (values[i] - m);
  if (den === 0) return NaN;
  let num = 0;
  for (let i = 0; i + k < n; i++) num += (values[i] - m) * (values[i + k] - m);
  return num / den;
}
