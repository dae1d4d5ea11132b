/**
 * `for (let j = 0; j < count; j++) sum += x` without the loop, to the last
 * bit. A sorted series that repeats few values millions of times (a simulated
 * run's chunk gaps: one value per engine step) has its mean and variance
 * summed in order, one addition per element, and those sums must not move by
 * a bit; this gives the same double in a few steps per power of two the sum
 * crosses.
 *
 * Why it is exact: while the sum stays in one binade [2^e, 2^(e+1)) every
 * double there is a multiple of u = 2^(e−52), so `sum + x` rounds x to a
 * multiple of u in the same direction every time — the same increment δ each
 * addition — unless x falls exactly halfway between two multiples (then the
 * rounding goes to the even neighbour, which alternates: those additions are
 * done one at a time). The run of equal increments ends before the sum
 * would leave the binade; that addition is done on its own.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** Little-endian hosts (every one Node and the browsers run on): the sign and exponent are in the high word. */
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** Biased exponent of a double (0 for zero and subnormals, 2047 for Infinity and NaN). */
function biasedExponent(v: number): number {
  f64[0] = v;
  return (u32[HI] >>> 20) & 0x7ff;
}

/** 2^k for a k that gives a normal double. */
function pow2(k: number): number {
  u32[HI] = (k + 1023) << 20;
  u32[1 - HI] = 0;
  return f64[0];
}

const TWO53 = 2 ** 53;

/** The binade the last sum was in: [binLo, binHi) with ulp binU (one sum crosses few of them: kept between calls). */
let binLo = 1;
let binHi = 2;
let binU = 2 ** -52;

/** The double that `count` additions of `x` to `sum`, one after another, give. */
export function addRepeated(sum: number, x: number, count: number): number {
  let s = sum;
  let c = count;
  // the shortcut below reasons about non-negative normal doubles; anything else is added one by one
  if (!(x >= 0 && s >= 0 && x < Infinity && s < Infinity)) {
    for (; c > 0; c--) s += x;
    return s;
  }
  if (x === 0) return c > 0 ? s + x : s;
  while (c > 0) {
    // a sum below x: one addition (at most ~1075 in a row: each at least doubles the sum)
    if (x >= s) {
      s += x;
      c--;
      continue;
    }
    if (!(s >= binLo && s < binHi)) {
      const be = biasedExponent(s);
      // too small or too large to reason about its ulp: one addition
      if (be < 60 || be > 2000) {
        s += x;
        c--;
        continue;
      }
      binLo = pow2(be - 1023);
      binHi = 2 * binLo;
      binU = pow2(be - 1023 - 52);
    }
    const u = binU;
    const X = x / u; // exact: a division by a power of two, X < 2^53
    const q = Math.floor(X);
    const r = X - q; // exact
    if (r === 0.5) {
      // halfway: ties go to even, which depends on the sum; one at a time
      s += x;
      c--;
      continue;
    }
    const D = r < 0.5 ? q : q + 1;
    if (D === 0) return s; // x below half an ulp: the sum no longer moves
    const S = s / u; // an integer in [2^52, 2^53)
    // additions j = 0, 1, … stay in the binade while S + j·D + X < 2^53; X < q + 1, so S + j·D + q + 1 ≤ 2^53 suffices
    const room = TWO53 - S - q - 1;
    if (room >= 0) {
      let k = Math.floor(room / D);
      if (k * D > room) k--;
      const m = Math.min(c, k + 1);
      s = (S + m * D) * u;
      c -= m;
    }
    if (c > 0) {
      s += x;
      c--;
    }
  }
  return s;
}
