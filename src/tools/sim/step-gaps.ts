/**
 * A simulated run's pooled chunk gaps, counted on the simulator's step clock
 * instead of listed. Every token is emitted at the end of a step, and a
 * decoding request emits one at the end of every step that serves it, so
 * almost every gap runs from one step's end to the next: all the gaps of a
 * step are one value, and millions of gaps are a count per step (plus the few
 * that span several steps: a preempted request's recompute). The tally of the
 * tens of thousands of step lengths stands for the same numbers as the list
 * of every gap, bit for bit: each gap is the same subtraction of the same two
 * times (stats/runs.ts sorts the tally, or selects one rank from it).
 *
 * What is taken from the simulator (kernel-event.ts, kernel-stepwise.ts: a
 * request's tokens are emitted at the ends of the steps that serve it, one per
 * step): a request whose first and last tokens are L steps apart was served on
 * each of them, so only those two are looked up (reading every token time
 * again would cost as much as the simulator's own copy of them). A request
 * left out of some step is followed token by token, and a time that is no
 * step's end gives up (null): the gaps are then listed and sorted as usual.
 * test/series.test.ts holds the result equal to the sort, bit for bit.
 */
import type { Tally } from '../../stats/runs.ts';

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
 * Every gap between consecutive token times of requests [from, to), as a
 * tally of positive values with their counts, in step order; null when a
 * token time is not one of `stepEnds` or the ends do not rise (then the gaps
 * are sorted the ordinary way).
 *
 * @param times token times, request i's at offsets[i] .. offsets[i + 1]
 * @param stepEnds end time of every step, ascending (each step's t + dt)
 */
export function gapTallyOnStepClock(
  times: Float64Array,
  offsets: Int32Array,
  from: number,
  to: number,
  stepEnds: Float64Array,
): Tally | null {
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
  // in one pass over the steps: the ends are checked to rise (the searches above assumed it, and it makes
  // every gap positive), and every step that ends a gap gives its length with its count (the longer gaps
  // follow, once each)
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
  return { values: values.subarray(0, j), counts: counts.subarray(0, j) };
}
