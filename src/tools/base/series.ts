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
 * can count its gaps as runs of equal values (the simulator, on its step
 * clock) hands them over instead of having them sorted: the series is then a
 * read-only view of the runs, never expanded into millions of numbers, and a
 * mean or a variance of it is summed a run at a time.
 */
import type { BenchmarkRun } from './records.ts';
import { sortAsc, sortInPlace } from '../../stats/percentile.ts';

const gapsOf = new WeakMap<BenchmarkRun, ArrayLike<number>>();
const builderOf = new WeakMap<BenchmarkRun, () => Runs | null>();

/** A sorted series as runs of equal values: values[k], ascending, repeated counts[k] times. */
export interface Runs {
  values: Float64Array;
  counts: Uint32Array;
}
const runsOf = new WeakMap<ArrayLike<number>, Runs>();

/** Every series handed out here, with its sorted copy once one was asked for. */
const sortedOf = new WeakMap<ArrayLike<number>, ArrayLike<number> | null>();

/**
 * Every gap between consecutive chunks of each successful request (the pooled
 * ITL of vLLM and InferenceX, SGLang's ITL for OpenAI-compatible backends,
 * AIPerf's inter_chunk_latency), in ascending order: every statistic the
 * tools take of it (percentiles, mean and std of the sorted values, counts,
 * the maximum) reads it sorted, so it is sorted once, in place, and is its
 * own sorted copy (a view of the runs, when the run's source counted them).
 */
export function pooledChunkGaps(run: BenchmarkRun): ArrayLike<number> {
  let gaps = gapsOf.get(run);
  if (gaps) return gaps;
  const runs = builderOf.get(run)?.() ?? null;
  gaps = runs ? runsView(runs) : sortedPooledGaps(run);
  if (runs) runsOf.set(gaps, runs);
  gapsOf.set(run, gaps);
  sortedOf.set(gaps, gaps);
  return gaps;
}

/**
 * The run's pooled chunk gaps as its source can count them, as runs of equal
 * values in ascending order, without sorting (the simulator: every token is
 * emitted at the end of a step of one shared clock, so the gaps are counted
 * per step). `build` runs when a tool first asks and must give exactly the
 * values {@link pooledChunkGaps} would sort, or null to leave it to the sort.
 */
export function pooledChunkGapsFrom(run: BenchmarkRun, build: () => Runs | null): void {
  builderOf.set(run, build);
}

/** A shared series' runs of equal values, when its source built it from them; null for any other array. */
export function seriesRuns(values: ArrayLike<number>): Runs | null {
  return runsOf.get(values) ?? null;
}

/**
 * The runs read as the array they stand for (values[i], length, iteration),
 * without building it: an index is found among the runs' ends (a statistic
 * reads a few; summarize() sums the runs themselves).
 */
function runsView(runs: Runs): ArrayLike<number> {
  const { values, counts } = runs;
  const ends = new Float64Array(values.length);
  let n = 0;
  for (let k = 0; k < values.length; k++) ends[k] = n += counts[k];
  const at = (i: number): number | undefined => {
    if (!(Number.isInteger(i) && i >= 0 && i < n)) return undefined;
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
    for (let k = 0; k < values.length; k++) for (let c = 0; c < counts[k]; c++) yield values[k];
  }
  return new Proxy(Object.freeze({ length: n }), {
    get: (_t, key) => (key === 'length' ? n : key === Symbol.iterator ? each : typeof key === 'string' ? at(Number(key)) : undefined),
  }) as ArrayLike<number>;
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
 * The largest value, as `v > max` over the values finds it (NaN never wins;
 * −Infinity for none): a shared series' last number when it is sorted, else one pass.
 */
export function largest(values: ArrayLike<number>): number {
  const runs = runsOf.get(values);
  // runs hold no NaN and no −0 (step-gaps.ts refuses them): the last value is the largest
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
