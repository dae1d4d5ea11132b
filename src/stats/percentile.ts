/**
 * The percentile methods the seven tools use, each a small named function.
 * All take `p` as a fraction in [0, 1] (0.99 for p99) and never mutate their
 * input. `sortAsc` makes one sorted Float64Array copy; pass `{sorted: true}`
 * when the caller already sorted, so a run of 160,000 values is sorted once.
 */

export type Numbers = ArrayLike<number>;

/**
 * Below this size the engine's typed-array sort is as fast as the radix sort
 * (16,000 values: both about 1.2 ms; 4,000: 0.2 ms against 0.6 ms), and much
 * faster before the radix sort's loops are compiled, which a run's many
 * per-request series of a few thousand values never wait for.
 */
const RADIX_MIN = 16384;

/**
 * Ascending sorted copy as a Float64Array, ordered exactly like
 * `Float64Array.prototype.sort` (−0 before +0, ±∞ at the ends). Large inputs
 * (a run's pooled inter-token gaps: hundreds of thousands) use a radix
 * sort on the IEEE-754 bits, in place, faster than the comparison sort;
 * input with NaN falls back to the engine's sort.
 */
export function sortAsc(values: Numbers): Float64Array {
  return sortInPlace(Float64Array.from(values as ArrayLike<number>));
}

/** Sorts `a` itself, in the order of {@link sortAsc}, and returns it. */
export function sortInPlace(a: Float64Array): Float64Array {
  if (a.length < RADIX_MIN || !(sortFewDistinctInPlace(a) || radixSortInPlace(a))) a.sort();
  return a;
}

/**
 * How many values the few-distinct paths look at before giving up on input whose values are
 * mostly distinct (more than half of the first this many). Giving up only costs time: the
 * values are then sorted, to the same result.
 */
export const DISTINCT_PROBE = 4096;

/**
 * Sorts `a` in place when it holds few distinct values (at most one in
 * eight, and at most 2^16: a simulated run's chunk gaps repeat its handful of
 * step durations), by counting each distinct bit pattern in a hash table,
 * sorting the distinct values and writing each out as often as it occurred:
 * the same result as sorting the values, in a fraction of the time. Returns
 * false, leaving `a` untouched, when there are more distinct values or a NaN.
 */
function sortFewDistinctInPlace(a: Float64Array): boolean {
  // (gives up at DISTINCT_PROBE values too when half of them differ: a real run's distinct
  // values would otherwise be hashed up to the cap, on every large series, before the sort)
  const n = a.length;
  const cap = Math.min(1 << 16, n >>> 3);
  let size = 2;
  while (size < cap * 2) size <<= 1;
  const mask = size - 1;
  const keyLo = new Uint32Array(size);
  const keyHi = new Uint32Array(size);
  const count = new Uint32Array(size);
  const words = new Uint32Array(a.buffer, a.byteOffset, n * 2);
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    if (i === DISTINCT_PROBE && distinct > DISTINCT_PROBE / 2) return false;
    const lo = words[2 * i];
    const hi = words[2 * i + 1];
    if ((hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) | lo) !== 0) return false; // NaN
    let h = (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 15) & mask;
    for (;;) {
      const c = count[h];
      if (c === 0) {
        if (++distinct > cap) return false;
        keyLo[h] = lo;
        keyHi[h] = hi;
        count[h] = 1;
        break;
      }
      if (keyLo[h] === lo && keyHi[h] === hi) {
        count[h] = c + 1;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  const d = new Float64Array(distinct);
  const dw = new Uint32Array(d.buffer);
  const times = new Uint32Array(distinct);
  let j = 0;
  for (let h = 0; h < size; h++) {
    if (count[h] === 0) continue;
    dw[2 * j] = keyLo[h];
    dw[2 * j + 1] = keyHi[h];
    times[j] = count[h];
    j++;
  }
  // sort the distinct values with their counts: by an index array ordered like Float64Array.sort (−0 before +0)
  const idx = Array.from({ length: distinct }, (_, k) => k);
  idx.sort((x, y) => d[x] - d[y] || (Object.is(d[x], -0) ? -1 : Object.is(d[y], -0) ? 1 : 0));
  let p = 0;
  for (const k of idx) {
    const c = times[k];
    a.fill(d[k], p, p + c);
    p += c;
  }
  return true;
}

/**
 * Sorts `a` in place by the bytes of an order-preserving key, most
 * significant first (an American flag sort): a float's bits with the sign
 * bit flipped when positive, all bits flipped when negative. The keys are
 * made in the values' own buffer and permuted there, so the sort needs no
 * second buffer (a run's pooled gaps are tens of millions: a copy would be
 * the largest thing a big file's report holds). Returns false (leaving `a`
 * unsorted) if it holds a NaN.
 */
function radixSortInPlace(a: Float64Array): boolean {
  const n = a.length;
  const words = new Uint32Array(a.buffer, a.byteOffset, n * 2); // little-endian: [lo, hi] per value
  let signs = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] !== a[i]) return false;
    signs |= words[2 * i + 1];
  }
  if (signs >>> 31 === 0) {
    // no negative value and no −0 (a run's gaps): the bits are the key
    sortNonNegativeInPlace(a, words);
    return true;
  }
  for (let i = 0; i < n; i++) {
    const lo = words[2 * i];
    const hi = words[2 * i + 1];
    const neg = hi >>> 31;
    words[2 * i] = neg ? ~lo >>> 0 : lo;
    words[2 * i + 1] = neg ? ~hi >>> 0 : (hi | 0x80000000) >>> 0;
  }
  // per byte (7 = the key's top byte … 0): where each bucket starts, and the next place to fill in it
  const starts = new Uint32Array(8 * 257);
  const next = new Uint32Array(8 * 256);
  sortKeys(words, 0, n, 7, starts, next);
  for (let i = 0; i < n; i++) {
    const lo = words[2 * i];
    const hi = words[2 * i + 1];
    const pos = hi >>> 31;
    words[2 * i] = pos ? lo : ~lo >>> 0;
    words[2 * i + 1] = pos ? (hi & 0x7fffffff) >>> 0 : ~hi >>> 0;
  }
  return true;
}

/**
 * Inside a large sort of non-negative values, a bucket below this size is
 * finished by the engine's sort of that range: the engine's loops are hot by
 * then, and radix passes over a small bucket cost more than they save.
 */
const BUCKET_ENGINE_MAX = 1024;
/** The buckets of the first pass: the top 16 bits of a value whose sign bit is 0. */
const TOP_BUCKETS = 1 << 15;
/** The low 48 bits are sorted in LOW_PASSES passes of 12 bits. */
const LOW_DIGITS = 1 << 12;
const LOW_PASSES = 4;

/**
 * Sorts non-negative values (no −0, no NaN), whose bits then order like the
 * values: one pass in place on the top 16 bits (exponent and the mantissa's
 * first four bits), then each bucket on its low 48 bits, least significant
 * digit first, through a scratch buffer the size of the largest bucket.
 * Passes that stream each value to its digit's place cost less than moving
 * the values in place a byte at a time, where every swap lands at random
 * (8.6 million distinct gaps of a 200 MB vLLM file: 0.75 s in place, 0.4 s
 * so); a scratch for the whole series would cost 8 bytes a value, more than
 * AIPerf's memory goal leaves, while a bucket is a fraction of it.
 */
function sortNonNegativeInPlace(a: Float64Array, words: Uint32Array): void {
  const n = a.length;
  // ends[b + 1]: first the size of bucket b, then where it ends
  const ends = new Uint32Array(TOP_BUCKETS + 1);
  for (let i = 0; i < n; i++) ends[(words[2 * i + 1] >>> 16) + 1]++;
  const next = new Uint32Array(TOP_BUCKETS);
  let largest = 0;
  for (let b = 0; b < TOP_BUCKETS; b++) {
    if (ends[b + 1] > largest) largest = ends[b + 1];
    ends[b + 1] += ends[b];
    next[b] = ends[b];
  }
  // each value is swapped straight into its bucket; a bucket is done when its next place reaches its end
  for (let b = 0; b < TOP_BUCKETS; b++) {
    const end = ends[b + 1];
    for (let i = next[b]; i < end; i = next[b]) {
      const d = words[2 * i + 1] >>> 16;
      if (d === b) {
        next[b] = i + 1;
        continue;
      }
      const j = next[d]++;
      const x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
  }
  const scratch = new Float64Array(largest >= BUCKET_ENGINE_MAX ? largest : 0);
  const counts = new Uint32Array(LOW_PASSES * LOW_DIGITS);
  for (let b = 0; b < TOP_BUCKETS; b++) {
    const from = ends[b];
    const m = ends[b + 1] - from;
    if (m < 2) continue;
    if (m < BUCKET_ENGINE_MAX) a.subarray(from, from + m).sort();
    else sortLowBits(a, words, from, m, scratch, counts);
  }
}

/** Digit `pass` (0: the lowest 12 bits) of the low 48 bits of the value at `i`. */
function lowDigit(w: Uint32Array, i: number, pass: number): number {
  const lo = w[2 * i];
  if (pass === 0) return lo & 0xfff;
  if (pass === 1) return (lo >>> 12) & 0xfff;
  const hi = w[2 * i + 1];
  return pass === 2 ? (lo >>> 24) | ((hi & 0xf) << 8) : (hi >>> 4) & 0xfff;
}

/**
 * Sorts a[from, from + m), whose top 16 bits are equal, on the low 48 bits: a
 * stable pass per digit from the lowest, each from one buffer to the other
 * (a pass whose digit is the same in every value is skipped).
 */
function sortLowBits(a: Float64Array, words: Uint32Array, from: number, m: number, scratch: Float64Array, counts: Uint32Array): void {
  counts.fill(0);
  for (let i = from; i < from + m; i++) {
    counts[lowDigit(words, i, 0)]++;
    counts[LOW_DIGITS + lowDigit(words, i, 1)]++;
    counts[2 * LOW_DIGITS + lowDigit(words, i, 2)]++;
    counts[3 * LOW_DIGITS + lowDigit(words, i, 3)]++;
  }
  const scratchWords = new Uint32Array(scratch.buffer, 0, 2 * m);
  let inA = true;
  for (let p = 0; p < LOW_PASSES; p++) {
    const c = p * LOW_DIGITS;
    let sum = 0;
    let single = false;
    for (let d = 0; d < LOW_DIGITS; d++) {
      const k = counts[c + d];
      if (k === m) single = true;
      counts[c + d] = sum;
      sum += k;
    }
    if (single) continue;
    if (inA) for (let i = 0; i < m; i++) scratch[counts[c + lowDigit(words, from + i, p)]++] = a[from + i];
    else for (let i = 0; i < m; i++) a[from + counts[c + lowDigit(scratchWords, i, p)]++] = scratch[i];
    inA = !inA;
  }
  if (!inA) a.set(scratch.subarray(0, m), from);
}

/** Below this many keys a bucket is finished by insertion. */
const INSERTION_MAX = 32;

/**
 * Sorts the keys [from, to) (pairs of words: lo, hi) whose bytes above `byte`
 * are equal.
 */
function sortKeys(k: Uint32Array, from: number, to: number, byte: number, starts: Uint32Array, next: Uint32Array): void {
  const n = to - from;
  if (n <= INSERTION_MAX) {
    for (let i = from + 1; i < to; i++) {
      const lo = k[2 * i];
      const hi = k[2 * i + 1];
      let j = i - 1;
      while (j >= from && (k[2 * j + 1] > hi || (k[2 * j + 1] === hi && k[2 * j] > lo))) {
        k[2 * j + 2] = k[2 * j];
        k[2 * j + 3] = k[2 * j + 1];
        j--;
      }
      k[2 * j + 2] = lo;
      k[2 * j + 3] = hi;
    }
    return;
  }
  const word = byte >= 4 ? 1 : 0;
  const shift = (byte & 3) * 8;
  const s = byte * 257;
  const q = byte * 256;
  starts.fill(0, s, s + 257);
  for (let i = from; i < to; i++) starts[s + 1 + ((k[2 * i + word] >>> shift) & 255)]++;
  let single = -1;
  for (let b = 0; b < 256; b++) if (starts[s + 1 + b] === n) single = b;
  if (single < 0) {
    starts[s] = from;
    for (let b = 0; b < 256; b++) {
      starts[s + 1 + b] += starts[s + b];
      next[q + b] = starts[s + b];
    }
    // each key is swapped straight into its bucket; a bucket is done when its next place reaches its end
    for (let b = 0; b < 256; b++) {
      const end = starts[s + 1 + b];
      for (let i = next[q + b]; i < end; i = next[q + b]) {
        const lo = k[2 * i];
        const hi = k[2 * i + 1];
        const d = ((word ? hi : lo) >>> shift) & 255;
        if (d === b) {
          next[q + b] = i + 1;
          continue;
        }
        const j = next[q + d]++;
        k[2 * i] = k[2 * j];
        k[2 * i + 1] = k[2 * j + 1];
        k[2 * j] = lo;
        k[2 * j + 1] = hi;
      }
    }
  }
  if (byte === 0) return;
  if (single >= 0) return sortKeys(k, from, to, byte - 1, starts, next);
  for (let b = 0; b < 256; b++) {
    const lo = starts[s + b];
    const hi = starts[s + 1 + b];
    if (hi - lo > 1) sortKeys(k, lo, hi, byte - 1, starts, next);
  }
}

function checkP(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`invalid quantile: ${p} (a fraction in [0, 1] is required)`);
}

function prepared(values: Numbers, sorted: boolean): Float64Array | ArrayLike<number> {
  return sorted ? values : sortAsc(values);
}

/**
 * numpy's default `np.percentile(x, 100·p)` ("linear", Hyndman–Fan type 7):
 * index h = p·(n−1), interpolate between the neighbours. Used by vLLM bench
 * serve, SGLang and InferenceX (`np.percentile`), AIPerf
 * (`metric_result_from_array`, same formula) and LLMPerf (`pandas.Series.quantile`,
 * whose default is the same linear rule). Returns NaN for an empty sample.
 */
export function linearPercentile(values: Numbers, p: number, opts: { sorted?: boolean } = {}): number {
  checkP(p);
  const n = values.length;
  if (n === 0) return NaN;
  const x = prepared(values, opts.sorted ?? false);
  const h = p * (n - 1);
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const frac = h - lo;
  // numpy's _lerp: a + (b−a)·t, switched to b − (b−a)·(1−t) for t ≥ 0.5
  const a = x[lo];
  const b = x[hi];
  const diff = b - a;
  return frac >= 0.5 ? b - diff * (1 - frac) : a + diff * frac;
}

/** pandas `Series.quantile(q)` default: the same linear rule as numpy (LLMPerf's summaries). */
export const pandasQuantile = linearPercentile;

/**
 * `np.percentile(x, 100·p, method="nearest")`: index round(p·(n−1)) with
 * numpy's round-half-to-even. AIPerf's `adj_*` metrics use it (after
 * appending +inf per failed request).
 */
export function nearestPercentile(values: Numbers, p: number, opts: { sorted?: boolean } = {}): number {
  checkP(p);
  const n = values.length;
  if (n === 0) return NaN;
  const x = prepared(values, opts.sorted ?? false);
  const h = p * (n - 1);
  let i = Math.round(h);
  if (Math.abs(h - Math.trunc(h)) === 0.5 && i % 2 === 1) i -= 1; // half to even
  return x[Math.min(Math.max(i, 0), n - 1)];
}

/**
 * MLPerf LoadGen (`results.cc`): sort ascending and take `sorted[(size_t)(n·p)]`,
 * 0-based index ⌊n·p⌋ without interpolation (clamped to the last element).
 */
export function mlperfPercentile(values: Numbers, p: number, opts: { sorted?: boolean } = {}): number {
  checkP(p);
  const n = values.length;
  if (n === 0) return NaN;
  const x = prepared(values, opts.sorted ?? false);
  return x[Math.min(Math.floor(n * p), n - 1)];
}

/**
 * GuideLLM (`schemas/statistics.py`, snapshot ee7a7745): duplicate values
 * merged, weights normalised to a PDF, percentile = the smallest value whose
 * cumulative weight is ≥ q (`np.searchsorted(cumsum(p), q, side="left")`):
 * a weighted inverse CDF with no interpolation. Unweighted data is weight 1
 * each (rank ⌈q·n⌉, up to float rounding of the running sum, which this
 * function reproduces by summing normalised weights in order as numpy does).
 */
export function weightedPercentile(values: Numbers, p: number, weights?: Numbers): number {
  return weightedPercentiles(values, [p], weights)[0];
}

/** {@link weightedPercentile} at several fractions, the values sorted and merged once. */
export function weightedPercentiles(values: Numbers, ps: readonly number[], weights?: Numbers): number[] {
  for (const p of ps) checkP(p);
  const n = values.length;
  if (n === 0) return ps.map(() => NaN);
  if (weights && weights.length !== n) throw new RangeError(`weights length ${weights.length} ≠ values length ${n}`);
  const merged = mergedByValue(values, weights) ?? mergedByValueInOrder(values, weights);
  const { v, w, total } = merged;
  if (!(total > 0)) return ps.map(() => NaN);
  // each p: the first value whose running sum reaches it (one pass serves all, smallest p first)
  const order = ps.map((_, j) => j).sort((a, b) => ps[a] - ps[b]);
  const out = ps.map(() => v[v.length - 1]);
  let j = 0;
  let cum = 0;
  for (let k = 0; k < v.length && j < order.length; k++) {
    cum += w[k] / total;
    while (j < order.length && cum >= ps[order[j]]) out[order[j++]] = v[k];
  }
  return out;
}

interface Merged {
  /** the distinct values, ascending */
  v: ArrayLike<number>;
  /** the summed weight of each */
  w: ArrayLike<number>;
  total: number;
}

/**
 * Duplicates merged, their weights summed, in ascending order of value and,
 * among equal values, of index (so the sums run in a stable sort's order).
 */
function mergedByValueInOrder(values: Numbers, weights?: Numbers): Merged {
  const n = values.length;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => values[a] - values[b]);
  const v: number[] = [];
  const w: number[] = [];
  let total = 0;
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    const wi = weights ? weights[i] : 1;
    total += wi;
    if (v.length > 0 && v[v.length - 1] === values[i]) w[w.length - 1] += wi;
    else {
      v.push(values[i]);
      w.push(wi);
    }
  }
  return { v, w, total };
}

/**
 * The same merge without the comparator sort, when the order of the sums cannot
 * matter: whole, non-negative weights (GuideLLM's are token counts, or 1)
 * whose total is exact, and no NaN. The values are sorted in the engine's
 * order with their weights beside them ({@link sortedWithWeights}), and each
 * run of equal values adds up its weights; the place of the zeros keeps the
 * form of the first zero in `values`, as the merge by index keeps it. Null otherwise.
 */
function mergedByValue(values: Numbers, weights?: Numbers): Merged | null {
  const n = values.length;
  let total = 0;
  let unit = true;
  for (let i = 0; i < n; i++) {
    const x = values[i];
    const wi = weights ? weights[i] : 1;
    if (x !== x || !Number.isInteger(wi) || wi < 0) return null;
    total += wi;
    if (wi !== 1) unit = false;
  }
  // every partial sum is at most the total, so a safe total means every sum was exact
  if (!Number.isSafeInteger(total)) return null;
  if (unit) return mergedCounts(values, sortAsc(values), total);
  const { sorted, sortedWeights: w } = sortedWithWeights(values, weights!);
  let d = 0;
  for (let k = 0; k < n; k++) {
    if (d === 0 || sorted[k] !== sorted[d - 1]) {
      sorted[d] = sorted[k];
      // + 0: a weight of −0 counts as the +0 a sum from 0 gives
      w[d++] = w[k] + 0;
    } else w[d - 1] += w[k];
  }
  const v = sorted.subarray(0, d);
  keepFirstZeroForm(values, v);
  return { v, w: w.subarray(0, d), total };
}

/**
 * {@link mergedByValue} when every weight is 1: each distinct value's weight is
 * the length of its run in the sorted values, counted in one pass (no search
 * per value).
 */
function mergedCounts(values: Numbers, sorted: Float64Array, total: number): Merged {
  const n = sorted.length;
  const w = new Float64Array(n);
  let d = 0;
  for (let k = 0; k < n; k++) {
    if (d === 0 || sorted[k] !== sorted[d - 1]) {
      sorted[d] = sorted[k];
      w[d++] = 1;
    } else w[d - 1]++;
  }
  const v = sorted.subarray(0, d);
  keepFirstZeroForm(values, v);
  return { v, w: w.subarray(0, d), total };
}

/**
 * Of the values that compare equal, only −0 and +0 differ in form: the place
 * of the zeros among the distinct values `v` takes the form of the first zero
 * in `values`, as the merge by index keeps it.
 */
function keepFirstZeroForm(values: Numbers, v: Float64Array): void {
  const zero = v.indexOf(0);
  if (zero < 0) return;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === 0) {
      v[zero] = values[i];
      return;
    }
  }
}

/**
 * `values` ascending in the order of {@link sortAsc} (−0 before +0), each with
 * its weight beside it, by the values' order-preserving bits (as
 * {@link radixSortInPlace} makes them): one pass on the top 16 bits into
 * buckets, then each bucket on its low 48 bits, least significant byte first,
 * the weights carried through every pass. Finding each value's place among
 * the sorted ones afterwards, by a search per value, read places at random in
 * arrays too large for the cache and cost several times the sort; so would
 * byte passes over the whole series, where a bucket's fit in the cache.
 */
function sortedWithWeights(values: Numbers, weights: Numbers): { sorted: Float64Array; sortedWeights: Float64Array } {
  const n = values.length;
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  const w = Float64Array.from(weights);
  // ends[b + 1]: first the size of bucket b (the key's top 16 bits), then where it ends
  const ends = new Uint32Array((1 << 16) + 1);
  for (let i = 0; i < n; i++) {
    bits[0] = values[i];
    const neg = words[1] >>> 31;
    lo[i] = neg ? ~words[0] >>> 0 : words[0];
    const h = neg ? ~words[1] >>> 0 : (words[1] | 0x80000000) >>> 0;
    hi[i] = h;
    ends[(h >>> 16) + 1]++;
  }
  for (let b = 0; b < 1 << 16; b++) ends[b + 1] += ends[b];
  const next = ends.slice(0, 1 << 16);
  const lo2 = new Uint32Array(n);
  const hi2 = new Uint32Array(n);
  const w2 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const j = next[hi[i] >>> 16]++;
    lo2[j] = lo[i];
    hi2[j] = hi[i];
    w2[j] = w[i];
  }
  const counts = new Uint32Array(6 * 256);
  for (let b = 0; b < 1 << 16; b++) {
    const from = ends[b];
    const to = ends[b + 1];
    if (to - from > INSERTION_MAX) sortBucketLowBits(lo2, hi2, w2, lo, hi, w, from, to, counts);
    else if (to - from > 1) insertionSortWithWeights(lo2, hi2, w2, from, to);
  }
  const sorted = new Float64Array(n);
  const out = new Uint32Array(sorted.buffer);
  for (let i = 0; i < n; i++) {
    const pos = hi2[i] >>> 31;
    out[2 * i] = pos ? lo2[i] : ~lo2[i] >>> 0;
    out[2 * i + 1] = pos ? (hi2[i] & 0x7fffffff) >>> 0 : ~hi2[i] >>> 0;
  }
  return { sorted, sortedWeights: w2 };
}

/**
 * Sorts keys [from, to) of (lo, hi), whose top 16 bits are equal, with their
 * weights, on the low 48 bits: a stable pass per byte from the lowest, each
 * into the same range of the scratch arrays and back (a pass whose byte is
 * the same in every key is skipped); the result ends in (lo, hi, w).
 */
function sortBucketLowBits(lo: Uint32Array, hi: Uint32Array, w: Float64Array, lo2: Uint32Array, hi2: Uint32Array, w2: Float64Array, from: number, to: number, counts: Uint32Array): void {
  const m = to - from;
  counts.fill(0);
  for (let i = from; i < to; i++) {
    const l = lo[i];
    const h = hi[i];
    counts[l & 255]++;
    counts[256 + ((l >>> 8) & 255)]++;
    counts[512 + ((l >>> 16) & 255)]++;
    counts[768 + (l >>> 24)]++;
    counts[1024 + (h & 255)]++;
    counts[1280 + ((h >>> 8) & 255)]++;
  }
  let [sl, sh, sw, dl, dh, dw] = [lo, hi, w, lo2, hi2, w2];
  for (let p = 0; p < 6; p++) {
    const c = p * 256;
    let sum = from;
    let single = false;
    for (let d = 0; d < 256; d++) {
      const k = counts[c + d];
      if (k === m) single = true;
      counts[c + d] = sum;
      sum += k;
    }
    if (single) continue;
    const key = p < 4 ? sl : sh;
    const shift = 8 * (p & 3);
    for (let i = from; i < to; i++) {
      const j = counts[c + ((key[i] >>> shift) & 255)]++;
      dl[j] = sl[i];
      dh[j] = sh[i];
      dw[j] = sw[i];
    }
    [sl, sh, sw, dl, dh, dw] = [dl, dh, dw, sl, sh, sw];
  }
  if (sl !== lo) {
    lo.set(sl.subarray(from, to), from);
    hi.set(sh.subarray(from, to), from);
    w.set(sw.subarray(from, to), from);
  }
}

/** Insertion sort of keys [from, to) of (lo, hi), with their weights (a small bucket). */
function insertionSortWithWeights(lo: Uint32Array, hi: Uint32Array, w: Float64Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const l = lo[i];
    const h = hi[i];
    const x = w[i];
    let j = i - 1;
    while (j >= from && (hi[j] > h || (hi[j] === h && lo[j] > l))) {
      lo[j + 1] = lo[j];
      hi[j + 1] = hi[j];
      w[j + 1] = w[j];
      j--;
    }
    lo[j + 1] = l;
    hi[j + 1] = h;
    w[j + 1] = x;
  }
}

/** Weighted mean Σ w·v / Σ w (GuideLLM's token-weighted means). */
export function weightedMean(values: Numbers, weights: Numbers): number {
  let sw = 0;
  let swv = 0;
  for (let i = 0; i < values.length; i++) {
    sw += weights[i];
    swv += weights[i] * values[i];
  }
  return sw > 0 ? swv / sw : NaN;
}

/** Arithmetic mean; NaN for an empty sample. */
export function mean(values: Numbers): number {
  const n = values.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  return s / n;
}

/** Standard deviation with `ddof` (0: numpy's `np.std`, the population form; 1: pandas' sample form). */
export function std(values: Numbers, ddof: 0 | 1 = 0): number {
  const n = values.length;
  if (n - ddof <= 0) return NaN;
  const m = mean(values);
  let s = 0;
  for (let i = 0; i < n; i++) s += (values[i] - m) * (values[i] - m);
  return Math.sqrt(s / (n - ddof));
}

/** Median by numpy's rule (linear at p = 0.5). */
export function median(values: Numbers, opts: { sorted?: boolean } = {}): number {
  return linearPercentile(values, 0.5, opts);
}

export type PercentileMethod = 'numpy-linear' | 'pandas-linear' | 'numpy-nearest' | 'mlperf-floor' | 'guidellm-weighted';

/** The method by name (for tables and the CLI). */
export function percentileBy(method: PercentileMethod, values: Numbers, p: number, opts: { sorted?: boolean } = {}): number {
  switch (method) {
    case 'numpy-linear':
    case 'pandas-linear':
      return linearPercentile(values, p, opts);
    case 'numpy-nearest':
      return nearestPercentile(values, p, opts);
    case 'mlperf-floor':
      return mlperfPercentile(values, p, opts);
    case 'guidellm-weighted':
      return weightedPercentile(values, p);
    default:
      throw new RangeError(`invalid percentile method: ${String(method)}`);
  }
}
