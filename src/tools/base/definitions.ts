/**
 * Shared vocabulary of the definitions: a per-request value that may be
 * undefined *with a reason* (never a silent 0 or a division by zero), the
 * summary statistics the tools print, and the few record accessors every
 * definition needs. Each tool module decides which of these it applies.
 */
import type { BenchmarkRun, RequestRecord } from './records.ts';
import { linearPercentile, type Numbers, type PercentileMethod } from '../../stats/percentile.ts';
import { oncePerSeries, seriesRuns, shareSeries, sortedValues } from './series.ts';
import { addRepeated } from '../../stats/repeated-sum.ts';
import { percentileBy } from '../../stats/percentile.ts';
import { keepOn, keptOn } from './kept.ts';

/** A value, or no value with the reason the definition does not apply. */
export type Maybe = { value: number; reason?: undefined } | { value: null; reason: string };

export const some = (value: number): Maybe => ({ value });
export const none = (reason: string): Maybe => ({ value: null, reason });

/**
 * The records a tool's statistics use: every tool we model drops failed requests.
 * Every tool's report asks for them, so one filtered list per run is kept on
 * the records (kept.ts) and shared (a run's records are not changed once read);
 * hence read-only.
 */
export function successful(run: BenchmarkRun): readonly RequestRecord[] {
  return keptOn<readonly RequestRecord[]>(run.records, successful) ?? keepOn(run.records, successful, run.records.filter((r) => r.ok));
}

/** Arrival times of the output-carrying chunks; a record without chunk times but with a first token is one chunk. */
export function chunkTimes(r: RequestRecord): Float64Array | null {
  if (r.chunkTimes) return r.chunkTimes;
  return null;
}

/** Time of the first output chunk (chunkTimes[0], else firstT). */
export function firstChunkT(r: RequestRecord): number | null {
  if (r.chunkTimes && r.chunkTimes.length > 0) return r.chunkTimes[0];
  return r.firstT;
}

/**
 * Time of the last output chunk; without chunk times, the record's lastTokenT
 * when the source kept it, else the finish time stands in (callers that
 * import files refuse such rows: the `lastToken` capability).
 */
export function lastChunkT(r: RequestRecord): number | null {
  if (r.chunkTimes && r.chunkTimes.length > 0) return r.chunkTimes[r.chunkTimes.length - 1];
  if (r.chunkTimes && r.chunkTimes.length === 0) return null;
  if (r.firstT === null) return null;
  return r.lastTokenT ?? r.finishT;
}

/** Output tokens the stream itself carried: the chunks' token counts summed, else one per chunk; null without chunks. */
export function streamedTokens(r: RequestRecord): number | null {
  if (r.chunkTokens) return r.chunkTokens.reduce((a, b) => a + b, 0);
  if (r.chunkTimes) return r.chunkTimes.length;
  return null;
}

/** Output tokens: the server's usage count (even 0), else {@link streamedTokens}. */
export function serverTokens(r: RequestRecord): number | null {
  if (r.outputTokens !== null) return r.outputTokens;
  return streamedTokens(r);
}

/** Gaps between consecutive chunks of one request (one gap per message, whatever it carried). */
export function chunkGaps(r: RequestRecord): number[] {
  const c = r.chunkTimes;
  if (!c) return [];
  const out: number[] = [];
  for (let k = 1; k < c.length; k++) out.push(c[k] - c[k - 1]);
  return out;
}

export type Unit = 's' | 'ms' | 'ns' | 'tok/s' | 'req/s' | 'tok' | 'req' | '1';

/** mean / median / std / percentiles of a sample, the way one tool prints them. */
export interface Summary {
  unit: Unit;
  n: number;
  mean: number | null;
  median: number | null;
  std: number | null;
  /** keyed by the percent, e.g. {"99": …, "99.9": …} */
  percentiles: Record<string, number | null>;
  method: PercentileMethod;
  /** requests (or gaps) left out and why, e.g. "2 one-token answers have no TPOT" */
  excluded?: string;
}

/**
 * Summarise values given in seconds into `unit` (ms: ×1000). numpy/pandas
 * style: mean, median (linear), std with `ddof`, percentiles by `method`.
 */
export function summarize(
  valuesS: ArrayLike<number>,
  opts: { unit?: Unit; scale?: number; percents: number[]; method?: PercentileMethod; ddof?: 0 | 1; excluded?: string },
): Summary {
  const scale = opts.scale ?? (opts.unit === 'ms' ? 1000 : 1);
  const method = opts.method ?? 'numpy-linear';
  const ddof = opts.ddof ?? 0;
  // sorted, then scaled, and the moments of that (once per shared series: the same for every tool that asks);
  // the scaled values are read through a view, not copied (a run's pooled gaps are tens of millions)
  const { x, mean: m, median, std: sd } = oncePerSeries(valuesS, `summary ×${scale} ddof ${ddof}`, () => {
    const sorted = sortedValues(valuesS);
    const x = sortedScaled(sorted, scale);
    const n = sorted.length;
    const runs = seriesRuns(valuesS);
    let sum = 0;
    let ss = 0;
    let mu: number;
    if (runs) {
      // the same additions in the same order, a run of equal values at a time (addRepeated is exact)
      const { values: v, counts: c } = runs;
      for (let k = 0; k < v.length; k++) sum = addRepeated(sum, v[k] * scale, c[k]);
      mu = sum / n;
      for (let k = 0; k < v.length; k++) ss = addRepeated(ss, (v[k] * scale - mu) * (v[k] * scale - mu), c[k]);
    } else {
      for (let i = 0; i < n; i++) sum += sorted[i] * scale;
      mu = sum / n;
      for (let i = 0; i < n; i++) ss += (sorted[i] * scale - mu) * (sorted[i] * scale - mu);
    }
    return { x, mean: n ? mu : null, median: medianOfSorted(x), std: n - ddof > 0 ? Math.sqrt(ss / (n - ddof)) : null };
  });
  const n = x.length;
  const percentiles: Record<string, number | null> = {};
  for (const p of opts.percents) percentiles[String(p)] = n ? percentileBy(method, x, p / 100, { sorted: true }) : null;
  const s: Summary = { unit: opts.unit ?? 's', n, mean: m, median, std: sd, percentiles, method };
  if (opts.excluded) s.excluded = opts.excluded;
  return s;
}

/**
 * The median of values given in seconds, in `unit`, exactly as {@link summarize}
 * reports it, without its other statistics (a shared series is not summed for it).
 */
export function medianOf(valuesS: ArrayLike<number>, opts: { unit?: Unit; scale?: number }): number | null {
  return medianOfSorted(sortedScaled(sortedValues(valuesS), opts.scale ?? (opts.unit === 'ms' ? 1000 : 1)));
}

function medianOfSorted(x: Numbers): number | null {
  return x.length ? linearPercentile(x, 0.5, { sorted: true }) : null;
}

function sortedScaled(sorted: Numbers, scale: number): Numbers {
  return scale === 1 ? sorted : scaledView(sorted, scale);
}

/** `values[i] × scale` read on demand: what a percentile reads of a sorted series in another unit, without a copy. */
function scaledView(values: Numbers, scale: number): Numbers {
  return new Proxy(values, {
    get: (t, k) => (k === 'length' ? t.length : typeof k === 'string' ? t[Number(k)] * scale : undefined),
  }) as unknown as Numbers;
}

/** What {@link collect} gives: the defined values in record order, and the undefined ones counted by reason. */
export interface Collected {
  /** Never written once collected (a shared series: see collectAll). */
  readonly values: Float64Array;
  readonly excluded?: string;
}

type Definition = (r: RequestRecord) => Maybe;

/**
 * A definition's value for every record of a list at once: the same
 * arithmetic as its per-record form, in the same order (so the same bits),
 * written into `out` (one value a record, in record order). It returns false,
 * having written whatever it had, as soon as it meets a record the per-record
 * form gives no value for: that form then runs and counts the reasons.
 *
 * Why a second form: on a run where every record has a value (a simulated
 * run, most files) the per-record form makes a Maybe, often three, for each
 * record and each definition, through a call the compiler cannot inline; the
 * whole form is one loop that makes no object. The per-record form stays the
 * definition (its reasons, its documentation); the two are compared bit for
 * bit on the golden traces and the real files (test/whole-forms.test.ts).
 */
export type WholeForm<O = undefined> = (records: readonly RequestRecord[], out: Float64Array, option: O) => boolean;

const wholeFormOf = new WeakMap<(r: RequestRecord, option: never) => Maybe, WholeForm<never>>();

/** Give definition `f` its whole form (see {@link WholeForm}); returns `f`. A definition with an option gets it through {@link withOption}. */
export function withWholeForm<F extends (r: RequestRecord, option: never) => Maybe>(f: F, whole: F extends (r: RequestRecord, option: infer O) => Maybe ? WholeForm<O> : never): F {
  wholeFormOf.set(f, whole as WholeForm<never>);
  return f;
}

/** The whole form of a definition, if it has one (what collectAll tries first; the test of the forms reads it too). */
export function wholeFormOfDefinition(f: Definition): ((records: readonly RequestRecord[], out: Float64Array) => boolean) | undefined {
  return wholeFormOf.get(f) as ((records: readonly RequestRecord[], out: Float64Array) => boolean) | undefined;
}

/**
 * Collect the defined values of a per-request definition, counting the
 * undefined ones by reason. On a big run each collection is a pass over every
 * record, and several tools' reports and speeds collect the same definition
 * over the same records (TPOT for the report and for the per-user speed), so
 * what one collection gives is kept on the list of records, per definition
 * (the function itself: a closure made for one call is never asked for again,
 * and goes with the list), and shared, read-only (kept.ts).
 */
export function collect(records: readonly RequestRecord[], f: Definition): Collected {
  return collectAll(records, [f])[0];
}

/**
 * {@link collect} of several definitions in one pass over the records: a big
 * run's records do not fit in any cache, and reading them once for a tool's
 * five definitions costs about what reading them once for one does.
 *
 * Values a collection shares with an earlier one over the same records (the
 * tools' TTFTs are one subtraction, their TPOTs often one formula) come back
 * as that collection's very array, and every collected array is a shared
 * series (series.ts): sorted once, on first use, and summarised once per
 * unit, whichever tool asks. The sorted copy is held as long as the records
 * are: 8 bytes a request per distinct series, small beside a run's chunk times.
 */
export function collectAll(records: readonly RequestRecord[], fs: readonly Definition[]): Collected[] {
  const out: (Collected | undefined)[] = fs.map((f) => keptOn<Collected>(records, f));
  const todo: number[] = [];
  for (let k = 0; k < fs.length; k++) if (out[k] === undefined && !todo.some((j) => fs[j] === fs[k])) todo.push(k);
  if (todo.length > 0) {
    const m = todo.length;
    const defs = todo.map((k) => fs[k]);
    // at most one value a record, in a buffer of that size (a growing array leaves every smaller copy to the collector)
    const values = defs.map(() => new Float64Array(records.length));
    const n = new Array<number>(m).fill(0);
    const reasons = defs.map(() => new Map<string, number>());
    // the whole forms first; the definitions without one, or with a record it gives no value for, record by record
    const byRecord: number[] = [];
    for (let j = 0; j < m; j++) {
      if (wholeFormOfDefinition(defs[j])?.(records, values[j])) n[j] = records.length;
      else byRecord.push(j);
    }
    if (byRecord.length > 0) {
      for (const r of records) {
        for (let b = 0; b < byRecord.length; b++) {
          const j = byRecord[b];
          const v = defs[j](r);
          if (v.value === null) reasons[j].set(v.reason, (reasons[j].get(v.reason) ?? 0) + 1);
          else values[j][n[j]++] = v.value;
        }
      }
    }
    for (let j = 0; j < m; j++) {
      const vs = sameAsEarlier(records, n[j] === records.length ? values[j] : values[j].slice(0, n[j]));
      keepOn<Collected>(records, defs[j], reasons[j].size === 0 ? { values: vs } : { values: vs, excluded: [...reasons[j]].map(([k, n]) => `${n} × ${k}`).join('; ') });
    }
  }
  return fs.map((f, k) => out[k] ?? keptOn<Collected>(records, f)!);
}

/** `values`, or an earlier collection's array over the same records that holds the same numbers (bit for bit), as a shared series. */
function sameAsEarlier(records: readonly RequestRecord[], values: Float64Array): Float64Array {
  const byKey = keptOn<Map<string, Float64Array[]>>(records, sameAsEarlier) ?? keepOn(records, sameAsEarlier, new Map<string, Float64Array[]>());
  const key = `${values.length} ${fingerprint(values)}`;
  const earlier = byKey.get(key) ?? [];
  for (const e of earlier) if (sameBits(e, values)) return e;
  earlier.push(values);
  byKey.set(key, earlier);
  shareSeries(values);
  return values;
}

const bits64 = new Float64Array(1);
const bits32 = new Uint32Array(bits64.buffer);

/** A hash of the values' bits (a few of them: equal arrays are told apart by {@link sameBits}). */
function fingerprint(values: Float64Array): number {
  let h = 0x811c9dc5;
  const step = Math.max(1, values.length >>> 8);
  for (let i = 0; i < values.length; i += step) {
    bits64[0] = values[i];
    h = Math.imul(h ^ bits32[0], 0x01000193);
    h = Math.imul(h ^ bits32[1], 0x01000193);
  }
  return h >>> 0;
}

/** Equal as doubles bit for bit (−0 is not +0; a NaN is the NaN of the same bits). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y ? x === 0 && 1 / x !== 1 / y : !(x !== x && y !== y && sameNaN(x, y))) return false;
  }
  return true;
}

function sameNaN(x: number, y: number): boolean {
  bits64[0] = x;
  const lo = bits32[0];
  const hi = bits32[1];
  bits64[0] = y;
  return lo === bits32[0] && hi === bits32[1];
}

const boundOf = new WeakMap<(r: RequestRecord, option: never) => Maybe, Map<string, (r: RequestRecord) => Maybe>>();

/**
 * `(r) => f(r, option)`, the same function each time for the same definition
 * and option, so that a second collection of it over the same records is the
 * first one's (collect() keeps what it gave per function).
 */
export function withOption<O extends string>(f: (r: RequestRecord, option: O) => Maybe, option: O): (r: RequestRecord) => Maybe {
  let byOption = boundOf.get(f);
  if (!byOption) boundOf.set(f, (byOption = new Map()));
  let g = byOption.get(option);
  if (!g) {
    byOption.set(option, (g = (r) => f(r, option)));
    const whole = wholeFormOf.get(f) as WholeForm<O> | undefined;
    if (whole) wholeFormOf.set(g, (records, out) => whole(records, out, option));
  }
  return g;
}

/** Service-level objectives in milliseconds (vLLM's `--goodput ttft:ms tpot:ms e2el:ms`). */
export interface Slo {
  ttftMs?: number;
  tpotMs?: number;
  e2elMs?: number;
}
