/**
 * The series several tools' summaries read, built once per run and sorted
 * once, whoever asks first. A run's pooled chunk gaps are its largest series
 * (every gap of every request: millions on a long run), and vLLM, SGLang
 * (OpenAI-compatible backends), InferenceX and AIPerf each pool exactly the
 * same gaps; each tool then takes its own statistics of the one sorted copy.
 *
 * A series is an array owned here and never written after it is built (a
 * run's records are not changed once read), so its sorted copy can be kept
 * beside it (the pooled gaps are kept sorted: they are their own copy);
 * summarize() and the intervals sort any other array afresh. A source that
 * can count its gaps (the simulator, on its step clock) hands over a tally
 * instead of having them sorted: the series is then a read-only view of the
 * counted values, never expanded into millions of numbers. One number of it
 * (a median) is selected from the tally; a statistic that reads the series in
 * order (a mean or a variance, summed a run at a time) has the tally sorted
 * into runs first, once. Gaps that repeat (a coarse clock, requests repeated)
 * are counted into runs so from any source.
 */
import type { BenchmarkRun } from './records.ts';
import { DISTINCT_PROBE, sortAsc, sortInPlace } from '../../stats/percentile.ts';
import { countOf, runsOf, selectRank, type Ranked, type Runs, type Tally } from '../../stats/runs.ts';

const gapsOf = new WeakMap<BenchmarkRun, ArrayLike<number>>();
const builderOf = new WeakMap<BenchmarkRun, () => Tally | null>();

/** A series of counted values: its runs once made (from the tally, or as counted), else the tally. */
interface Counted {
  tally: Tally | null;
  runs: Runs | null;
}
const countedOf = new WeakMap<ArrayLike<number>, Counted>();

/** Every series handed out here, with its sorted copy once one was asked for. */
const sortedOf = new WeakMap<ArrayLike<number>, ArrayLike<number> | null>();

/**
 * Every gap between consecutive chunks of each successful request (the pooled
 * ITL of vLLM and InferenceX, SGLang's ITL for OpenAI-compatible backends,
 * AIPerf's inter_chunk_latency), in ascending order: every statistic the
 * tools take of it (percentiles, mean and std of the sorted values, counts,
 * the maximum) reads it sorted, so it is sorted once, in place, and is its
 * own sorted copy. When the run's source counted the gaps, or they repeat
 * ({@link countedGapRuns}), it is a view of the counted values instead, put
 * in order only if a statistic reads them in order.
 */
export function pooledChunkGaps(run: BenchmarkRun): ArrayLike<number> {
  let gaps = gapsOf.get(run);
  if (gaps) return gaps;
  const build = builderOf.get(run);
  // a source that can count its gaps is asked, and only it; any other run's gaps are counted when they repeat
  const tally = build ? build() : null;
  const runs = build ? null : countedGapRuns(run);
  if (tally || runs) {
    const counted: Counted = { tally, runs };
    gaps = countedView(counted, countOf((tally ?? runs)!));
    countedOf.set(gaps, counted);
  } else gaps = sortedPooledGaps(run);
  gapsOf.set(run, gaps);
  sortedOf.set(gaps, gaps);
  return gaps;
}

/**
 * The run's pooled chunk gaps as its source can count them, without listing
 * them (the simulator: every token is emitted at the end of a step of one
 * shared clock, so the gaps are counted per step). `build` runs when a tool
 * first asks and must give a tally of exactly the values {@link
 * pooledChunkGaps} would sort, or null to leave it to the sort (the gaps are
 * then not counted either: a test builds the sorted series so).
 */
export function pooledChunkGapsFrom(run: BenchmarkRun, build: () => Tally | null): void {
  builderOf.set(run, build);
}

/** A shared series' runs of equal values, when its source counted it (made from the tally on the first call); null for any other array. */
export function seriesRuns(values: ArrayLike<number>): Runs | null {
  const counted = countedOf.get(values);
  return counted ? runsOfCounted(counted) : null;
}

function runsOfCounted(counted: Counted): Runs {
  if (!counted.runs) {
    counted.runs = runsOf(counted.tally!);
    counted.tally = null; // its arrays are the runs' now
  }
  return counted.runs;
}

/**
 * The counted values read as the array they stand for (values[i], length,
 * iteration), without building it. An index is selected from the tally while
 * there is one (a median reads two neighbouring indices, most often one
 * value's copies: selected once), and found among the runs' ends once they
 * are made; iteration reads the runs.
 */
function countedView(counted: Counted, n: number): ArrayLike<number> {
  let ends: Float64Array | null = null;
  let last: Ranked | null = null;
  const at = (i: number): number | undefined => {
    if (!(Number.isInteger(i) && i >= 0 && i < n)) return undefined;
    if (counted.tally) {
      if (!(last && last.first <= i && i < last.end)) last = selectRank(counted.tally, i);
      return last?.value;
    }
    const { values, counts } = counted.runs!;
    if (!ends) {
      ends = new Float64Array(values.length);
      let e = 0;
      for (let k = 0; k < values.length; k++) ends[k] = e += counts[k];
    }
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid] > i) hi = mid;
      else lo = mid + 1;
    }
    return values[lo];
  };
  function* each(): Generator<number> {
    const { values, counts } = runsOfCounted(counted);
    for (let k = 0; k < values.length; k++) for (let c = 0; c < counts[k]; c++) yield values[k];
  }
  return new Proxy(Object.freeze({ length: n }), {
    get: (_t, key) => (key === 'length' ? n : key === Symbol.iterator ? each : typeof key === 'string' ? at(Number(key)) : undefined),
  }) as ArrayLike<number>;
}

/** Below this many gaps the engine's sort is as quick as counting them (see RADIX_MIN in percentile.ts). */
const COUNT_MIN = 1 << 14;
/** The most distinct gaps counted (a table of twice as many slots, 12 bytes each): beyond, they are sorted. */
const COUNT_MAX_DISTINCT = 1 << 18;

/**
 * The run's pooled chunk gaps as runs of equal values, counted straight from
 * the records' chunk times, when they repeat: at most one distinct value in
 * eight (and {@link COUNT_MAX_DISTINCT}). A run whose chunk times sit on a
 * coarse clock, or that repeats its requests, has millions of gaps but few
 * values, and its sorted copy would be the largest thing the report holds (8
 * bytes a gap) and the longest to sort and to sum. Counting gives the same
 * series the sort gives, bit for bit: the same subtraction of the same two
 * times per gap, and runs hold no NaN, no −0 and no infinity (a gap that is
 * one of those, or too many distinct ones, gives null: the gaps are then
 * sorted, as before). Gives up as soon as it knows, and at DISTINCT_PROBE
 * gaps when half of them differ, so a run of distinct gaps (a real run's)
 * pays for a few thousand of them.
 */
function countedGapRuns(run: BenchmarkRun): Runs | null {
  let n = 0;
  for (const r of run.records) if (r.ok && r.chunkTimes && r.chunkTimes.length > 1) n += r.chunkTimes.length - 1;
  if (n < COUNT_MIN) return null;
  const cap = Math.min(COUNT_MAX_DISTINCT, n >>> 3);
  // open addressing on the gap's bits; a count of 0 is an empty slot
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const slot = (g: number, mask: number): number => {
    bits[0] = g;
    return (Math.imul(words[0] ^ Math.imul(words[1], 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
  };
  let size = 1 << 10;
  let keys = new Float64Array(size);
  let counts = new Uint32Array(size);
  let distinct = 0;
  let seen = 0;
  for (const r of run.records) {
    const c = r.chunkTimes;
    if (!r.ok || !c) continue;
    for (let k = 1; k < c.length; k++) {
      if (++seen === DISTINCT_PROBE && distinct > DISTINCT_PROBE / 2) return null;
      const g = c[k] - c[k - 1];
      // finite and not −0: then === is equality of the bits
      if (!(Math.abs(g) < Infinity) || (g === 0 && 1 / g < 0)) return null;
      const mask = size - 1;
      let h = slot(g, mask);
      while (counts[h] !== 0 && keys[h] !== g) h = (h + 1) & mask;
      if (counts[h] !== 0) {
        counts[h]++;
        continue;
      }
      if (++distinct > cap) return null;
      keys[h] = g;
      counts[h] = 1;
      if (distinct * 2 > size) {
        // grow: every value to its slot in a table twice the size
        const oldKeys = keys;
        const oldCounts = counts;
        size *= 2;
        keys = new Float64Array(size);
        counts = new Uint32Array(size);
        for (let i = 0; i < oldKeys.length; i++) {
          if (oldCounts[i] === 0) continue;
          let j = slot(oldKeys[i], size - 1);
          while (counts[j] !== 0) j = (j + 1) & (size - 1);
          keys[j] = oldKeys[i];
          counts[j] = oldCounts[i];
        }
      }
    }
  }
  const values = new Float64Array(distinct);
  let j = 0;
  for (let i = 0; i < size; i++) if (counts[i] !== 0) values[j++] = keys[i];
  values.sort();
  const times = new Uint32Array(distinct);
  for (let k = 0; k < distinct; k++) {
    let h = slot(values[k], size - 1);
    while (keys[h] !== values[k] || counts[h] === 0) h = (h + 1) & (size - 1);
    times[k] = counts[h];
  }
  return { values, counts: times };
}

function sortedPooledGaps(run: BenchmarkRun): Float64Array {
  let n = 0;
  for (const r of run.records) if (r.ok && r.chunkTimes && r.chunkTimes.length > 1) n += r.chunkTimes.length - 1;
  const gaps = new Float64Array(n);
  let j = 0;
  for (const r of run.records) {
    const c = r.chunkTimes;
    if (!r.ok || !c) continue;
    for (let k = 1; k < c.length; k++) gaps[j++] = c[k] - c[k - 1];
  }
  return sortInPlace(gaps);
}

/**
 * Makes `values` a shared series: an array its owner never writes again,
 * whose sorted copy and statistics ({@link sortedValues}, {@link oncePerSeries})
 * are then made once and kept as long as it is.
 */
export function shareSeries(values: ArrayLike<number>): void {
  if (!sortedOf.has(values)) sortedOf.set(values, null);
}

/**
 * Ascending values: a series' shared sorted copy (sorted on first use; never
 * write to it), or a fresh sorted copy of any other array.
 */
export function sortedValues(values: ArrayLike<number>): ArrayLike<number> {
  if (!sortedOf.has(values)) return sortAsc(values);
  let s = sortedOf.get(values);
  if (!s) {
    s = sortAsc(values);
    sortedOf.set(values, s);
  }
  return s;
}

/**
 * How many values are greater than `x` (NaN never is): a shared series'
 * runs are counted a run at a time, any other array one value at a time.
 */
export function countAbove(values: ArrayLike<number>, x: number): number {
  const runs = seriesRuns(values);
  let count = 0;
  if (runs) {
    for (let k = 0; k < runs.values.length; k++) if (runs.values[k] > x) count += runs.counts[k];
    return count;
  }
  for (let i = 0; i < values.length; i++) if (values[i] > x) count++;
  return count;
}

/**
 * The largest value, as `v > max` over the values finds it (NaN never wins;
 * −Infinity for none): a shared series' last number when it is sorted, else one pass.
 */
export function largest(values: ArrayLike<number>): number {
  const runs = seriesRuns(values);
  // runs hold no NaN and no −0 (stats/runs.ts): the last value is the largest
  if (runs) return runs.values.length ? runs.values[runs.values.length - 1] : -Infinity;
  if (sortedOf.get(values) === values) {
    let i = values.length - 1;
    while (i >= 0 && values[i] !== values[i]) i--; // NaN sorts last
    // a zero could be −0 after +0, where the pass keeps the first: leave that to the pass
    if (i < 0 || values[i] !== 0) return i < 0 ? -Infinity : values[i];
  }
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  return max;
}

const memo = new WeakMap<ArrayLike<number>, Map<string, unknown>>();

/**
 * What `compute` gives for a series, computed once per series and key (its
 * statistics in one unit, say); for any other array, computed afresh.
 */
export function oncePerSeries<T>(values: ArrayLike<number>, key: string, compute: () => T): T {
  if (!sortedOf.has(values)) return compute();
  let m = memo.get(values);
  if (!m) memo.set(values, (m = new Map()));
  if (!m.has(key)) m.set(key, compute());
  return m.get(key) as T;
}
