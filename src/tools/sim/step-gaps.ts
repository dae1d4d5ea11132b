/**
 * A simulated run's pooled chunk gaps, in ascending order, counted on the
 * simulator's step clock instead of sorted. Every token is emitted at the end
 * of a step, and a decoding request emits one at the end of every step that
 * serves it, so almost every gap runs from one step's end to the next: all the
 * gaps of a step are one value, and millions of gaps are a count per step
 * (plus the few that span several steps: a preempted request's recompute).
 * Sorting the tens of thousands of step values and repeating each as often as
 * it was counted gives the same array as sorting every gap, bit for bit: each
 * gap is the same subtraction of the same two times.
 *
 * What is taken from the simulator (kernel-event.ts, kernel-stepwise.ts: a
 * request's tokens are emitted at the ends of the steps that serve it, one per
 * step): a request whose first and last tokens are L steps apart was served on
 * each of them, so only those two are looked up (reading every token time
 * again would cost as much as the simulator's own copy of them). A request
 * left out of some step is followed token by token, and a time that is no
 * step's end gives up (null): the gaps are then sorted as usual.
 * test/series.test.ts holds the result equal to the sort, bit for bit.
 */
import type { Runs } from '../base/series.ts';

/** Index of the first `ends[i] >= t` in [lo, hi), where ends[hi] >= t (or hi is the length). */
function searchUp(ends: Float64Array, t: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first `ends[i] >= t`, searched outwards from `near` (the previous
 * request's first step) in steps that double: requests in send order start
 * close together, so the search reads a few neighbouring ends instead of
 * halving tens of thousands, each halving a read from far away in memory.
 */
function stepNear(ends: Float64Array, t: number, near: number): number {
  const S = ends.length;
  if (S === 0) return 0;
  if (ends[near] < t) {
    let lo = near + 1;
    let step = 1;
    while (lo + step < S && ends[lo + step] < t) {
      lo += step + 1;
      step *= 2;
    }
    return searchUp(ends, t, lo, Math.min(lo + step, S));
  }
  let hi = near;
  let step = 1;
  while (hi - step >= 0 && !(ends[hi - step] < t)) {
    hi -= step;
    step *= 2;
  }
  return searchUp(ends, t, Math.max(hi - step, 0), hi);
}

/**
 * Every gap between consecutive token times of requests [from, to), as
 * ascending values with their counts; null when a token time is not one of
 * `stepEnds` (then the gaps are sorted the ordinary way).
 *
 * @param times token times, request i's at offsets[i] .. offsets[i + 1]
 * @param stepEnds end time of every step, ascending (each step's t + dt)
 */
export function gapRunsOnStepClock(
  times: Float64Array,
  offsets: Int32Array,
  from: number,
  to: number,
  stepEnds: Float64Array,
): Runs | null {
  const S = stepEnds.length;
  // a difference array: a request served on every step from s0 to s1 adds one gap to each step in (s0, s1]
  const reach = new Int32Array(S + 1);
  const longer: number[] = [];
  let near = 0;
  for (let i = from; i < to; i++) {
    const a = offsets[i];
    const b = offsets[i + 1];
    if (b - a < 2) continue;
    let s = (near = stepNear(stepEnds, times[a], near));
    if (s === S || stepEnds[s] !== times[a]) return null;
    // L tokens, at most one per step and each at a step's end, from step s to step s + L − 1: those steps' ends
    const last = s + (b - a) - 1;
    if (last < S && stepEnds[last] === times[b - 1]) {
      reach[s + 1]++;
      reach[last + 1]--;
      continue;
    }
    // a request left out of some step (preempted, or past the token budget): token by token
    let r0 = s;
    for (let k = a + 1; k < b; k++) {
      const t = times[k];
      if (s + 1 < S && stepEnds[s + 1] === t) {
        s++;
        continue;
      }
      const s2 = searchUp(stepEnds, t, s + 1, S);
      if (s2 === S || stepEnds[s2] !== t) return null;
      reach[r0 + 1]++;
      reach[s + 1]--;
      longer.push(t - times[k - 1]);
      r0 = s = s2;
    }
    reach[r0 + 1]++;
    reach[s + 1]--;
  }
  // in one pass over the steps: the ends are checked to rise (the searches above assumed it), and every
  // step that ends a gap gives its length with its count (the longer gaps follow, once each)
  const values = new Float64Array(Math.max(S - 1, 0) + longer.length);
  const counts = new Uint32Array(values.length);
  let j = 0;
  let open = 0;
  for (let s = 1; s < S; s++) {
    if (!(stepEnds[s] > stepEnds[s - 1])) return null;
    open += reach[s];
    if (open === 0) continue;
    values[j] = stepEnds[s] - stepEnds[s - 1];
    counts[j++] = open;
  }
  for (const g of longer) {
    values[j] = g;
    counts[j++] = 1;
  }
  const m = j;
  if (!sortWithCounts(values.subarray(0, m), counts.subarray(0, m))) return null;
  // steps of equal length: one run each
  let d = 0;
  for (let k = 0; k < m; k++) {
    if (d > 0 && values[k] === values[d - 1]) counts[d - 1] += counts[k];
    else {
      values[d] = values[k];
      counts[d++] = counts[k];
    }
  }
  return { values: values.subarray(0, d), counts: counts.subarray(0, d) };
}

/** A run of values sharing their high word up to this long is put in order by insertion; a longer one, a byte at a time. */
const RUN_INSERTION_MAX = 32;

/**
 * Sort `values` ascending, `counts` moved with them, when every value is +0
 * or positive (the bits of such doubles order like the numbers; false,
 * nothing sorted, otherwise). Two radix passes order the values by their high
 * words (sign, exponent, the mantissa's first 20 bits), then each run of one
 * high word is ordered by the low words. A run's step lengths are tens of
 * thousands of distinct values over a few binades, so such runs are a value
 * or two long: this moves each value about three times, where passes over
 * all 64 bits moved it four times to random places (71,000 steps: 6 → 4 ms).
 */
function sortWithCounts(values: Float64Array, counts: Uint32Array): boolean {
  const m = values.length;
  let v: Uint32Array = new Uint32Array(values.buffer, values.byteOffset, 2 * m);
  for (let i = 0; i < m; i++) if (!(values[i] >= 0) || v[2 * i + 1] >>> 31) return false;
  let c: Uint32Array = counts;
  let v2: Uint32Array = new Uint32Array(2 * m);
  let c2: Uint32Array = new Uint32Array(m);
  const bucket = new Uint32Array(65536);
  for (let shift = 0; shift < 32; shift += 16) {
    bucket.fill(0);
    for (let i = 0; i < m; i++) bucket[(v[2 * i + 1] >>> shift) & 0xffff]++;
    if (bucket[(v[1] >>> shift) & 0xffff] === m) continue; // every key has this digit
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const k = bucket[d];
      bucket[d] = sum;
      sum += k;
    }
    for (let i = 0; i < m; i++) {
      const at = bucket[(v[2 * i + 1] >>> shift) & 0xffff]++;
      v2[2 * at] = v[2 * i];
      v2[2 * at + 1] = v[2 * i + 1];
      c2[at] = c[i];
    }
    [v, v2] = [v2, v];
    [c, c2] = [c2, c];
  }
  for (let i = 0; i < m; ) {
    const hi = v[2 * i + 1];
    let j = i + 1;
    while (j < m && v[2 * j + 1] === hi) j++;
    if (j - i > RUN_INSERTION_MAX) sortByLowWord(v, c, v2, c2, i, j, bucket);
    else if (j - i > 1) insertByLowWord(v, c, i, j);
    i = j;
  }
  if (c !== counts) {
    new Uint32Array(values.buffer, values.byteOffset, 2 * m).set(v);
    counts.set(c);
  }
  return true;
}

/** Orders values [from, to) of one high word by their low words, counts moved with them. */
function insertByLowWord(v: Uint32Array, c: Uint32Array, from: number, to: number): void {
  for (let k = from + 1; k < to; k++) {
    const lo = v[2 * k];
    const ck = c[k];
    let h = k;
    for (; h > from && v[2 * (h - 1)] > lo; h--) {
      v[2 * h] = v[2 * (h - 1)];
      c[h] = c[h - 1];
    }
    v[2 * h] = lo;
    c[h] = ck;
  }
}

/**
 * The same for a long run: four stable passes of a byte of the low word, from
 * the lowest, through the other buffers and back (an even number of passes
 * leaves the run where it was); `digits` is scratch of at least 256 counts.
 */
function sortByLowWord(v: Uint32Array, c: Uint32Array, v2: Uint32Array, c2: Uint32Array, from: number, to: number, digits: Uint32Array): void {
  let a = v;
  let ca = c;
  let b = v2;
  let cb = c2;
  for (let shift = 0; shift < 32; shift += 8) {
    digits.fill(0, 0, 256);
    for (let k = from; k < to; k++) digits[(a[2 * k] >>> shift) & 0xff]++;
    let sum = from;
    for (let d = 0; d < 256; d++) {
      const x = digits[d];
      digits[d] = sum;
      sum += x;
    }
    for (let k = from; k < to; k++) {
      const at = digits[(a[2 * k] >>> shift) & 0xff]++;
      b[2 * at] = a[2 * k];
      b[2 * at + 1] = a[2 * k + 1];
      cb[at] = ca[k];
    }
    [a, b] = [b, a];
    [ca, cb] = [cb, ca];
  }
}
