/**
 * EvalScope perf (modelscope/evalscope, `evalscope perf`): its
 * `benchmark_summary.json` (one object, `BenchmarkMetrics.create_message`)
 * and `benchmark_percentile.json` (one object per percentile row,
 * `{"Percentiles": "99%", "TTFT (ms)": …}`), written by
 * evalscope/perf/utils/db_util.py `summary_result`. Aggregates only.
 *
 * The key names carry their units, and were renamed with the units of the
 * latencies in b700f5ae (2026-04-30, "update unit to ms", v1.10.0):
 * - up to v1.9: `Average time to first token (s)`, `Time taken for tests (s)`,
 *   percentile columns `TTFT (s)`, `TPOT (s)`, `ITL (s)` in seconds, rounded
 *   to 4 decimals, at 10, 25, 50, 66, 75, 80, 90, 95, 98, 99%;
 * - from v1.10: `TTFT (ms)` (`Avg TTFT (ms)` from f77c7b52, 2026-07-24),
 *   `Test Duration (s)`, percentile columns in ms rounded to 2 decimals, at
 *   1, 5, 10, 25, 50, 75, 90, 95, 99% (`min` and `max` rows from f77c7b52).
 * Each value is read in the unit its key names. The percentiles are
 * `sorted(data)[int(n · p / 100)]` (db_util.py `calculate_percentiles`), not
 * interpolated.
 */
import type { BenchmarkRun } from '../base/records.ts';
import type { ResultInput } from '../base/input.ts';
import { isObject, readJsonDocument, Reader, type Json, type JsonObject } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Recognition, Reported } from '../base/result.ts';

export const EVALSCOPE_SOURCE = 'evalscope-perf';

/** Keys only the summary has, in either vintage. */
const SUMMARY_KEYS = ['Time taken for tests (s)', 'Test Duration (s)', 'Succeed requests', 'Success Requests'];
/** The percentile file's row label column (PercentileMetrics.PERCENTILES, both vintages). */
const LABEL = 'Percentiles';

export function isSummary(v: Json): boolean {
  return isObject(v) && SUMMARY_KEYS.some((k) => k in v);
}

export function isPercentiles(v: Json): boolean {
  return Array.isArray(v) && v.length > 0 && isObject(v[0]) && typeof v[0][LABEL] === 'string';
}

/**
 * The unit a key names: a bracketed unit (`(ms)`, `(s)`, `(req/s)`, `(tok/s)`, `(%)`, `(tok/iter)`),
 * else the count a plain name holds. null: not known, not shown.
 */
export function evalscopeUnit(key: string): { scale: number; unit: string; written?: string } | null {
  const m = /\(([^)]+)\)\s*$/.exec(key);
  if (m) {
    switch (m[1]) {
      case 's':
        return { scale: 1, unit: 's' };
      case 'ms':
        return { scale: 1e-3, unit: 's', written: 'ms' };
      case 'req/s':
        return { scale: 1, unit: '1/s' };
      case 'tok/s':
        return { scale: 1, unit: 'tokens/s' };
      case '%':
        return { scale: 1, unit: '%' };
      case 'tok/iter':
        return { scale: 1, unit: 'tokens/iteration' };
      default:
        return null;
    }
  }
  if (/^(total|succeed|success|failed|stream|non-stream) requests$/i.test(key)) return { scale: 1, unit: 'requests' };
  if (/^(number of concurrency|concurrency)$/i.test(key)) return { scale: 1, unit: 'requests' };
  if (/^(average|avg) (input|output) tokens( per request)?$/i.test(key) || /^(input|output) tokens$/i.test(key)) return { scale: 1, unit: 'tokens' };
  if (/^(average input turns per request|avg turns\/request)$/i.test(key)) return { scale: 1, unit: 'turns' };
  if (/^(avg |average )?decoded tok\/iter$/i.test(key)) return { scale: 1, unit: 'tokens/iteration' };
  if (/^(approx speculative decoding acceptance rate|spec\. accept rate)$/i.test(key)) return { scale: 1, unit: '1' };
  return null;
}

function put(out: Record<string, Reported>, unknown: string[], key: string, unitKey: string, v: Json | undefined, perRequest = false): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) return;
  const u = evalscopeUnit(unitKey);
  if (!u) {
    unknown.push(key);
    return;
  }
  // a percentile column's throughput is per request (tokens / that request's latency)
  const unit = perRequest && u.unit === 'tokens/s' ? 'tokens/s per request' : u.unit;
  out[key] = { value: v * u.scale, unit, ...(u.written ? { written: { value: v, unit: u.written } } : {}) };
}

/** `up to v1.9` or `v1.10 on`, told by the names of the keys. */
function vintage(keys: string[]): string {
  if (keys.some((k) => /\((ms)\)$/.test(k) || /^(Test Duration|Success Requests)/.test(k))) return 'key names from b700f5ae (Apr 2026, v1.10 on): latencies in ms';
  return 'key names up to v1.9 (before b700f5ae, Apr 2026): latencies in s';
}

function aggregateOnly(file: string, format: string, version: string, reported: Record<string, Reported>, notes: string[], extra: Partial<Imported> = {}): Imported {
  const run: BenchmarkRun = { records: [], source: EVALSCOPE_SOURCE, maxConcurrency: null, requestRate: null, startT: 0, endT: 0 };
  const lacks: Capability[] = ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'serverTokenCounts', 'runWindow'];
  return {
    file,
    format,
    version,
    run,
    missing: ['aggregates only: no per-request records (evalscope keeps them in benchmark_data.db beside this file), so no definition can be recomputed; the tool’s own aggregates are shown'],
    lacks,
    notes,
    clock: 'none (aggregates only)',
    lastTokenT: null,
    reported,
    failures: {},
    ...extra,
  };
}

export function importEvalscopeSummary(file: string, input: ResultInput, _opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const doc = readJsonDocument(input);
  if (!isSummary(doc)) r.fail(`not an evalscope benchmark_summary.json: no "Test Duration (s)" or "Time taken for tests (s)" key${seen.looksLike}`);
  const obj = doc as JsonObject;
  const reported: Record<string, Reported> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(obj)) put(reported, unknown, k, k, v);
  const notes: string[] = [];
  if (unknown.length) notes.push(`${unknown.length} value(s) not shown, their unit unknown to this reader: ${unknown.join(', ')}`);
  const ok = reported['Succeed requests'] ?? reported['Success Requests'];
  const failedKey = 'Failed requests' in obj ? 'Failed requests' : 'Failed Requests';
  const failed = typeof obj[failedKey] === 'number' ? (obj[failedKey] as number) : 0;
  const rate = reported['Request rate (req/s)'] ?? reported['Request Rate (req/s)'];
  if (rate && rate.value <= 0) notes.push(`${'Request rate (req/s)' in obj ? 'Request rate (req/s)' : 'Request Rate (req/s)'} = ${rate.value}: evalscope writes −1 when requests are sent as fast as the concurrency allows`);
  return aggregateOnly(file, 'evalscope-summary', `evalscope perf benchmark_summary.json, ${vintage(Object.keys(obj))}`, reported, notes, {
    ...(ok ? { completed: { key: 'Succeed requests' in obj ? 'Succeed requests' : 'Success Requests', value: ok.value, unit: 'requests' } } : {}),
    failures: failed > 0 ? { 'failed (the file keeps no reasons)': failed } : {},
  });
}

export function importEvalscopePercentiles(file: string, input: ResultInput, _opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const doc = readJsonDocument(input);
  if (!isPercentiles(doc)) r.fail(`not an evalscope benchmark_percentile.json: a list of rows with a "Percentiles" label is expected${seen.looksLike}`);
  const reported: Record<string, Reported> = {};
  const unknown: string[] = [];
  const columns = new Set<string>();
  (doc as Json[]).forEach((row, i) => {
    const o = r.object(row, `[${i}]`);
    const label = o[LABEL];
    if (typeof label !== 'string') r.fail(`[${i}].Percentiles should be a label such as "99%", found ${JSON.stringify(label)}`);
    const m = /^(\d+(?:\.\d+)?)%$/.exec(label);
    const stat = m ? `p${m[1]}` : label === 'min' || label === 'max' ? label : r.fail(`[${i}].Percentiles = "${label}": not a percentile label ("99%", "min", "max")`);
    for (const [k, v] of Object.entries(o)) {
      if (k === LABEL) continue;
      columns.add(k);
      put(reported, unknown, `${k}.${stat}`, k, v, true);
    }
  });
  const notes = [
    'percentiles as evalscope takes them: sorted values at index int(n · p / 100), not interpolated, rounded (4 decimals up to v1.9, 2 from v1.10)',
    'the (tok/s) columns are per request: each request’s tokens over its own latency',
  ];
  if (unknown.length) notes.push(`${unknown.length} value(s) not shown, their unit unknown to this reader: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`);
  return aggregateOnly(file, 'evalscope-percentile', `evalscope perf benchmark_percentile.json, ${vintage([...columns])}`, reported, notes);
}
