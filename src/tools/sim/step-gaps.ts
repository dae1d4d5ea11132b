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

/** Index of the first `ends[i] >= t` in [from, ends.length). */
function lowerBound(ends: Float64Array, t: number, from: number): number {
  let lo = from;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  for (let s = 1; s < S; s++) if (!(stepEnds[s] > stepEnds[s - 1])) return null;
  // a difference array: a request served on every step from s0 to s1 adds one gap to each step in (s0, s1]
  const reach = new Int32Array(S + 1);
  const longer: number[] = [];
  for (let i = from; i < to; i++) {
    const a = offsets[i];
    const b = offsets[i + 1];
    if (b - a < 2) continue;
    let s = lowerBound(stepEnds, times[a], 0);
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
      const s2 = lowerBound(stepEnds, t, s + 1);
      if (s2 === S || stepEnds[s2] !== t) return null;
      reach[r0 + 1]++;
      reach[s + 1]--;
      longer.push(t - times[k - 1]);
      r0 = s = s2;
    }
    reach[r0 + 1]++;
    reach[s + 1]--;
  }
  const perStep = new Uint32Array(S);
  let open = 0;
  for (let s = 1; s < S; s++) perStep[s] = open += reach[s];

  // every step's gap value with its count (and the longer gaps, once each), sorted together
  let m = longer.length;
  for (let s = 1; s < S; s++) if (perStep[s] > 0) m++;
  const values = new Float64Array(m);
  const counts = new Uint32Array(m);
  let j = 0;
  for (let s = 1; s < S; s++) {
    if (perStep[s] === 0) continue;
    values[j] = stepEnds[s] - stepEnds[s - 1];
    counts[j++] = perStep[s];
  }
  for (const g of longer) {
    values[j] = g;
    counts[j++] = 1;
  }
  if (!sortWithCounts(values, counts)) return null;
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

/**
 * Sort `values` ascending, `counts` moved with them: a least-significant-digit
 * radix sort on the bits of the doubles, which order like the numbers when
 * every value is +0 or positive (false, nothing sorted, otherwise).
 */
function sortWithCounts(values: Float64Array, counts: Uint32Array): boolean {
  const m = values.length;
  for (let i = 0; i < m; i++) if (!(values[i] >= 0) || Object.is(values[i], -0)) return false;
  let v: Uint32Array = new Uint32Array(values.buffer, values.byteOffset, 2 * m);
  let c: Uint32Array = counts;
  let v2: Uint32Array = new Uint32Array(2 * m);
  let c2: Uint32Array = new Uint32Array(m);
  const bucket = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    bucket.fill(0);
    for (let i = 0; i < m; i++) bucket[(v[2 * i + word] >>> shift) & 0xffff]++;
    if (bucket[(v[word] >>> shift) & 0xffff] === m) continue; // every key has this digit
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const k = bucket[d];
      bucket[d] = sum;
      sum += k;
    }
    for (let i = 0; i < m; i++) {
      const at = bucket[(v[2 * i + word] >>> shift) & 0xffff]++;
      v2[2 * at] = v[2 * i];
      v2[2 * at + 1] = v[2 * i + 1];
      c2[at] = c[i];
    }
    [v, v2] = [v2, v];
    [c, c2] = [c2, c];
  }
  if (c !== counts) {
    new Uint32Array(values.buffer, values.byteOffset, 2 * m).set(v);
    counts.set(c);
  }
  return true;
}
