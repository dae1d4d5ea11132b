/**
 * The series several tools' summaries read, built once per run and sorted
 * once, whoever asks first. A run's pooled chunk gaps are its largest series
 * (every gap of every request: millions on a long run), and vLLM, SGLang
 * (OpenAI-compatible backends), InferenceX and AIPerf each pool exactly the
 * same gaps; each tool then takes its own statistics of the one sorted copy.
 *
 * A series is a Float64Array owned here and never written after it is built
 * (a run's records are not changed once read), so its sorted copy can be
 * kept beside it (the pooled gaps are kept sorted: they are their own copy);
 * summarize() and the intervals sort any other array afresh.
 */
import type { BenchmarkRun } from './records.ts';
import { sortAsc, sortInPlace } from '../../stats/percentile.ts';

const gapsOf = new WeakMap<BenchmarkRun, Float64Array>();
/** Every series handed out here, with its sorted copy once one was asked for. */
const sortedOf = new WeakMap<Float64Array, Float64Array | null>();

/**
 * Every gap between consecutive chunks of each successful request (the pooled
 * ITL of vLLM and InferenceX, SGLang's ITL for OpenAI-compatible backends,
 * AIPerf's inter_chunk_latency), in ascending order: every statistic the
 * tools take of it (percentiles, mean and std of the sorted values, counts,
 * the maximum) reads it sorted, so it is sorted once, in place, and is its
 * own sorted copy.
 */
export function pooledChunkGaps(run: BenchmarkRun): Float64Array {
  let gaps = gapsOf.get(run);
  if (gaps) return gaps;
  let n = 0;
  for (const r of run.records) if (r.ok && r.chunkTimes && r.chunkTimes.length > 1) n += r.chunkTimes.length - 1;
  gaps = new Float64Array(n);
  let j = 0;
  for (const r of run.records) {
    const c = r.chunkTimes;
    if (!r.ok || !c) continue;
    for (let k = 1; k < c.length; k++) gaps[j++] = c[k] - c[k - 1];
  }
  sortInPlace(gaps);
  gapsOf.set(run, gaps);
  sortedOf.set(gaps, gaps);
  return gaps;
}

/**
 * Ascending values: a series' shared sorted copy (sorted on first use; never
 * write to it), or a fresh sorted copy of any other array.
 */
export function sortedValues(values: ArrayLike<number>): Float64Array {
  if (!(values instanceof Float64Array) || !sortedOf.has(values)) return sortAsc(values);
  let s = sortedOf.get(values);
  if (!s) {
    s = sortAsc(values);
    sortedOf.set(values, s);
  }
  return s;
}

const memo = new WeakMap<Float64Array, Map<string, unknown>>();

/**
 * What `compute` gives for a series, computed once per series and key (its
 * statistics in one unit, say); for any other array, computed afresh.
 */
export function oncePerSeries<T>(values: ArrayLike<number>, key: string, compute: () => T): T {
  if (!(values instanceof Float64Array) || !sortedOf.has(values)) return compute();
  let m = memo.get(values);
  if (!m) memo.set(values, (m = new Map()));
  if (!m.has(key)) m.set(key, compute());
  return m.get(key) as T;
}
