/**
 * The agreement table: each aggregate the tool wrote into the file beside the
 * same quantity recomputed from the file's own per-request data with that
 * tool's definition (of the version that wrote the file). Close agreement is
 * what lets a reader trust the rest of the metrics table; a difference above
 * {@link AGREEMENT_TOLERANCE} carries the reason we know for it. Each tool's
 * format names its own check (ResultFormat.agreement); these are the parts
 * they share.
 */
import { collect, summarize, type Maybe } from './definitions.ts';
import type { RequestRecord } from './records.ts';
import type { Agreement } from './result.ts';

/** Differences up to 1% are rounding, float noise or percentile interpolation; above it a reason is given. */
export const AGREEMENT_TOLERANCE = 0.01;

export type Recompute = { value: number | null; reason?: string; why?: string };

export function agreement(key: string, reported: number, unit: string, r: Recompute): Agreement {
  const relDiff = r.value === null || reported === 0 ? null : Math.abs(r.value - reported) / Math.abs(reported);
  const a: Agreement = { key, reported, recomputed: r.value, unit, relDiff };
  if (r.value === null) a.reason = r.reason ?? 'cannot be recomputed from this file';
  else if (relDiff !== null && relDiff > AGREEMENT_TOLERANCE) a.reason = r.why ?? 'no known difference of definition or window explains it';
  return a;
}

export const values = (recs: readonly RequestRecord[], f: (r: RequestRecord) => Maybe): Float64Array => collect(recs, f).values;

/** A numpy-style statistic (`mean`, `median`, `std`, `p99` …) of values in seconds. */
export function numpyStat(xs: ArrayLike<number>, stat: string, method: 'numpy-linear' = 'numpy-linear'): number | null {
  if (xs.length === 0) return null;
  const p = /^p(\d+(?:\.\d+)?)$/.exec(stat);
  const s = summarize(xs, { percents: p ? [Number(p[1])] : [], method, ddof: 0 });
  if (stat === 'mean') return s.mean;
  if (stat === 'median') return s.median;
  if (stat === 'std') return s.std;
  return p ? s.percentiles[String(Number(p[1]))] : null;
}

