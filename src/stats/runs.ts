/**
 * A series held as values with counts, values[k] standing for counts[k] equal
 * numbers: what a source that can count its values hands over instead of
 * listing them (a simulated run's chunk gaps, counted per engine step: tens
 * of thousands of values standing for millions of gaps).
 *
 * A {@link Tally} is in any order and may count one value in several places,
 * as it was counted. {@link Runs} are ascending, one per distinct value: what
 * a sum taken in ascending order reads, a run at a time. One order statistic
 * (a median) needs neither: it is selected from the tally, the way numpy's
 * median partitions an array rather than sorting it.
 *
 * Every value is +0 or positive and finite, and no value is −0: the bits of
 * such doubles order like the numbers, and equal values have equal bits.
 */

/** Ascending distinct values, values[k] counted counts[k] times. */
export interface Runs {
  values: Float64Array;
  counts: Uint32Array;
}

/** Values with counts in any order, a value possibly counted more than once; owned by whoever sorts or selects from it. */
export interface Tally {
  values: Float64Array;
  counts: Uint32Array;
}

/** How many numbers a tally or runs stand for. */
export function countOf(t: Tally | Runs): number {
  let n = 0;
  for (let k = 0; k < t.counts.length; k++) n += t.counts[k];
  return n;
}

/** A run of values sharing their high word up to this long is put in order by insertion; a longer one, a byte at a time. */
const RUN_INSERTION_MAX = 32;

/**
 * The tally as runs, its arrays reused (the tally is not read again).
 *
 * Two radix passes order the values by their high words (sign, exponent, the
 * mantissa's first 20 bits), then each stretch of one high word is ordered by
 * the low words and its equal values merged. A run's step lengths are tens of
 * thousands of distinct values over a few binades, so such stretches are a
 * value or two long. Both passes' digits are counted in the one pass that
 * checks the values, and the merge writes the result where the values already
 * are: four passes over the values, where sorting and then merging made eight.
 */
export function runsOf(t: Tally): Runs {
  const { values, counts } = t;
  const m = values.length;
  let v: Uint32Array = new Uint32Array(values.buffer, values.byteOffset, 2 * m);
  const low = new Uint32Array(65536);
  const high = new Uint32Array(65536);
  for (let i = 0; i < m; i++) {
    const w = v[2 * i + 1];
    if (!(values[i] >= 0 && values[i] < Infinity) || w >>> 31) throw new RangeError(`runsOf: a tally holds ${Object.is(values[i], -0) ? '-0' : values[i]}, not a finite value ≥ +0`);
    low[w & 0xffff]++;
    high[w >>> 16]++;
  }
  let c: Uint32Array = counts;
  let v2: Uint32Array = new Uint32Array(2 * m);
  let c2: Uint32Array = new Uint32Array(m);
  for (const [shift, bucket] of [[0, low], [16, high]] as const) {
    if (m === 0 || bucket[(v[1] >>> shift) & 0xffff] === m) continue; // every key has this digit
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
  // each stretch of one high word put in order, then its equal values merged into one run, written at d <= i
  let d = 0;
  for (let i = 0; i < m; ) {
    const hi = v[2 * i + 1];
    let j = i + 1;
    while (j < m && v[2 * j + 1] === hi) j++;
    if (j - i > RUN_INSERTION_MAX) sortByLowWord(v, c, v2, c2, i, j, low);
    else if (j - i > 1) insertByLowWord(v, c, i, j);
    for (let k = i; k < j; k++) {
      if (d > 0 && v[2 * d - 1] === hi && v[2 * (d - 1)] === v[2 * k]) c[d - 1] += c[k];
      else {
        v[2 * d] = v[2 * k];
        v[2 * d + 1] = hi;
        c[d++] = c[k];
      }
    }
    i = j;
  }
  return { values: new Float64Array(v.buffer, v.byteOffset, d), counts: c.subarray(0, d) };
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
 * The same for a long stretch: four stable passes of a byte of the low word,
 * from the lowest, through the other buffers and back (an even number of
 * passes leaves the stretch where it was); `digits` is scratch of at least 256 counts.
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

/** The value at one rank of a tally, and the ranks [first, end) its numbers hold: a neighbouring rank inside them is the same value. */
export interface Ranked {
  value: number;
  first: number;
  end: number;
}

/** Above this many values, a rank is first narrowed to the values of one bucket of bits (see {@link selectRank}). */
const BUCKET_SELECT_MIN = 1 << 14;

/**
 * The number at rank `r` (0 for the smallest) of the numbers a tally stands
 * for, in ascending order; null when `r` is not one of its ranks. May
 * permute the tally (its order is free).
 *
 * A large tally is read once to count its numbers by the top 16 bits of each
 * value (sign, exponent and the mantissa's first four bits, which order like
 * the values when none is negative), and once more to copy out the values of
 * the bucket that holds the rank: a run's step lengths span a few binades, so
 * that bucket holds a small share of them. What is left, or a small tally, is partitioned: see
 * {@link partitionSelect}.
 */
export function selectRank(t: Tally, r: number, maxRounds = 64): Ranked | null {
  const { values, counts } = t;
  const m = values.length;
  if (!(Number.isInteger(r) && r >= 0)) return null;
  if (m < BUCKET_SELECT_MIN) return partitionSelect(t, r, maxRounds);
  const w = new Uint32Array(values.buffer, values.byteOffset, 2 * m);
  const numbers = new Float64Array(65536);
  const members = new Uint32Array(65536);
  let signed = 0;
  for (let i = 0; i < m; i++) {
    const top = w[2 * i + 1] >>> 16;
    numbers[top] += counts[i];
    members[top]++;
    signed |= top & 0x8000;
  }
  // a negative value's bits order the other way (and -0's after every positive one): partitioned whole
  if (signed) return partitionSelect(t, r, maxRounds);
  let below = 0;
  let b = 0;
  while (b < 65536 && r >= below + numbers[b]) below += numbers[b++];
  if (b === 65536) return null;
  const inside: Tally = { values: new Float64Array(members[b]), counts: new Uint32Array(members[b]) };
  for (let i = 0, k = 0; i < m; i++) {
    if (w[2 * i + 1] >>> 16 !== b) continue;
    inside.values[k] = values[i];
    inside.counts[k++] = counts[i];
  }
  const got = partitionSelect(inside, r - below, maxRounds);
  return got && { value: got.value, first: got.first + below, end: got.end + below };
}

/**
 * {@link selectRank} by partitioning; permutes the tally (its order is free).
 * Each round splits the values in three around the median of three of them,
 * keeps the part that holds the rank and counts what lies below it, until the
 * rank falls among the pivot's copies: about three passes over the values.
 */
function partitionSelect(t: Tally, r: number, maxRounds: number): Ranked | null {
  const { values: v, counts: c } = t;
  let lo = 0;
  let hi = v.length;
  let base = 0; // numbers below [lo, hi)
  let rounds = 0;
  while (lo < hi) {
    // splits that keep nearly everything cannot go on long: past maxRounds, the runs of what is left are made instead
    if (++rounds > maxRounds) return rankInRuns(runsOf({ values: v.slice(lo, hi), counts: c.slice(lo, hi) }), r - base, base);
    const a = v[lo];
    const b = v[(lo + hi) >>> 1];
    const d = v[hi - 1];
    const p = a < b ? (b < d ? b : a < d ? d : a) : a < d ? a : b < d ? d : b;
    // [lo, lt) < p, [lt, i) = p, (gt, hi) > p
    let lt = lo;
    let i = lo;
    let gt = hi - 1;
    let below = 0;
    let equal = 0;
    while (i <= gt) {
      const x = v[i];
      const cx = c[i];
      if (x < p) {
        v[i] = v[lt];
        c[i] = c[lt];
        v[lt] = x;
        c[lt] = cx;
        below += cx;
        lt++;
        i++;
      } else if (x > p) {
        v[i] = v[gt];
        c[i] = c[gt];
        v[gt] = x;
        c[gt] = cx;
        gt--;
      } else {
        equal += cx;
        i++;
      }
    }
    if (r - base < below) hi = lt;
    else if (r - base < below + equal) return { value: p, first: base + below, end: base + below + equal };
    else {
      base += below + equal;
      lo = gt + 1;
    }
  }
  return null;
}

function rankInRuns(runs: Runs, r: number, base: number): Ranked | null {
  let first = 0;
  for (let k = 0; k < runs.values.length; k++) {
    const end = first + runs.counts[k];
    if (r < end) return { value: runs.values[k], first: base + first, end: base + end };
    first = end;
  }
  return null;
}
