/**
 * llm-d's Benchmark Report v0.2.1 (YAML or JSON; llm-d/llm-d-benchmark
 * @8bc9f1d, llmdbenchmark/analysis/benchmark_report/): the report llm-d's
 * harness converts every workload generator's output into. Aggregates only.
 * The document is checked against the schema's rules first (./schema.ts), so
 * a value is shown only with the unit the report declares for it, converted
 * to SI: `ms` and `ms/token` → s, `queries/s` → 1/s, lengths in `count` →
 * tokens.
 */
import type { ResultInput } from '../base/input.ts';
import type { BenchmarkRun } from '../base/records.ts';
import { isObject, parseJson, Reader, type Json, type JsonObject } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Recognition, Reported } from '../base/result.ts';
import { stripBom } from '../base/json-text.ts';
import { parseYaml } from '../base/yaml-text.ts';
import { brProblem, STAT_KEYS, type BrUnit } from './schema.ts';

export const LLMD_SOURCE = 'llm-d-benchmark-report';

/** Whether a parsed value is a benchmark report (any version: the reader says which it reads). */
export function isBenchmarkReport(v: Json): boolean {
  return isObject(v) && typeof v.version === 'string' && /^0\.\d/.test(v.version) && isObject(v.run) && isObject(v.results);
}

/** A report value in SI units: `s` for times (per token or not), `1/s` for request rates, tokens for lengths. */
function si(unit: BrUnit, path: string): { scale: number; unit: string } {
  switch (unit) {
    case 'ms':
    case 'ms/token':
      return { scale: 1e-3, unit: 's' };
    case 's':
    case 's/token':
      return { scale: 1, unit: 's' };
    case 'queries/s':
      return { scale: 1, unit: '1/s' };
    case 'count':
      return { scale: 1, unit: /(input|output)_length$/.test(path) ? 'tokens' : /multimodal\.image/.test(path) ? 'images' : /multimodal\.video\.count/.test(path) ? 'videos' : /multimodal\.video\.frames/.test(path) ? 'frames' : /multimodal\.audio/.test(path) ? 'audios' : '1' };
    case 'percent':
      return { scale: 1, unit: '%' };
    case 'fraction':
    case 'ratio':
      return { scale: 1, unit: '1' };
    default:
      return { scale: 1, unit };
  }
}

/** Every Statistics under `results.request_performance.aggregate`, flattened: `latency.time_to_first_token.p99` → 0.05 s. */
function aggregates(agg: JsonObject): Record<string, Reported> {
  const out: Record<string, Reported> = {};
  const walk = (v: Json, path: string) => {
    if (!isObject(v)) return;
    if (typeof v.units === 'string' && typeof v.mean === 'number') {
      const { scale, unit } = si(v.units as BrUnit, path);
      // the number as the report wrote it, under the unit it declares, where that is not the SI one
      const asWritten = v.units !== unit && !(v.units === 'count');
      for (const k of STAT_KEYS) {
        if (typeof v[k] !== 'number') continue;
        const x = v[k] as number;
        out[`${path}.${k}`] = { value: x * scale, unit, ...(asWritten ? { written: { value: x, unit: v.units as string } } : {}) };
      }
      return;
    }
    for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  walk(agg, '');
  const req = isObject(agg.requests) ? agg.requests : null;
  if (req) for (const k of ['total', 'failures', 'incomplete']) if (typeof req[k] === 'number') out[`requests.${k}`] = { value: req[k] as number, unit: 'requests' };
  return out;
}

/** ISO-8601 duration `PT49.97S`, `PT1H2M3S` → seconds, or null. */
export function isoDurationS(d: string): number | null {
  const m = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(d);
  if (!m || d === 'P' || d === 'PT') return null;
  const [, D, H, M, S] = m.map((x) => (x === undefined ? 0 : Number(x)));
  return D * 86400 + H * 3600 + M * 60 + S;
}

const g = (x: number): string => String(+x.toPrecision(4));

export function importBenchmarkReport(file: string, input: ResultInput, _opts: ImportOptions, seen: Recognition): Imported {
  const text = input.text();
  const r: Reader = new Reader(file);
  const head = stripBom(text).trimStart()[0];
  const doc = head === '{' ? parseJson(file, text) : parseYaml(file, text);
  if (!isBenchmarkReport(doc)) r.fail(`not an llm-d benchmark report: no version, run and results at the top level${seen.looksLike}`);
  const obj = doc as JsonObject;
  if (obj.version !== '0.2.1' && obj.version !== '0.2') r.fail(`version ${obj.version}: this reader knows the benchmark report v0.2.1 (and v0.2, a subset of it); convert the report with llm-d-benchmark's benchmark_report tools`);
  // v0.2 is valid under v0.2.1 (schema_v0_2_1.py: every field added is optional)
  const problem = brProblem({ ...obj, version: '0.2.1' });
  if (problem) r.fail(`breaks the benchmark report v${obj.version} schema at ${problem}`);
  const results = obj.results as JsonObject;
  const rp = isObject(results.request_performance) ? results.request_performance : null;
  const agg = rp && isObject(rp.aggregate) ? rp.aggregate : null;
  const reported = agg ? aggregates(agg) : {};
  const notes: string[] = [];
  const run = obj.run as JsonObject;
  const time = isObject(run.time) ? run.time : null;
  if (time && typeof time.duration === 'string' && typeof time.start === 'string' && typeof time.end === 'string') {
    const d = isoDurationS(time.duration);
    const span = (Date.parse(time.end) - Date.parse(time.start)) / 1000;
    if (d !== null && Number.isFinite(span) && span > 0 && Math.abs(d - span) / span > 0.05) notes.push(`run.time.duration ${time.duration} (${g(d)} s) is not run.time.end − run.time.start (${g(span)} s): one of them is not this run’s`);
  }
  const lat = (k: string) => reported[`latency.${k}.mean`]?.value;
  const e2e = lat('request_latency');
  const ttft = lat('time_to_first_token');
  if (e2e !== undefined && ttft !== undefined && e2e < ttft) notes.push(`request_latency mean ${g(e2e)} s is below time_to_first_token mean ${g(ttft)} s: a request’s latency includes its first token, so these numbers are not from one run`);
  else if (e2e !== undefined && e2e > 0 && e2e === lat('time_per_output_token')) notes.push(`request_latency mean equals time_per_output_token mean (${g(e2e)} s): true only if every answer were one token long; check where the report’s numbers came from`);
  const load = isObject(obj.scenario) && isObject(obj.scenario.load) && isObject(obj.scenario.load.standardized) ? obj.scenario.load.standardized : null;
  const tool = load && typeof load.tool === 'string' ? `${load.tool}${typeof load.tool_version === 'string' ? ` ${load.tool_version}` : ''}` : null;
  const generator = typeof results.profiling === 'object' && isObject(results.profiling) && isObject(results.profiling.stopwatches) ? 'written by stopwatches' : null;
  const benchRun: BenchmarkRun = {
    records: [],
    source: LLMD_SOURCE,
    maxConcurrency: load && typeof load.concurrency === 'number' && Number.isFinite(load.concurrency) ? load.concurrency : null,
    requestRate: load && typeof load.rate_qps === 'number' ? load.rate_qps : null,
    startT: 0,
    endT: 0,
  };
  const failed = reported['requests.failures']?.value ?? 0;
  const lacks: Capability[] = ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'serverTokenCounts', 'runWindow'];
  return {
    file,
    format: 'br-v0.2.1',
    version: `llm-d benchmark report v${obj.version}${tool ? ` (load generator: ${tool})` : ''}${generator ? `, ${generator}` : ''}`,
    run: benchRun,
    missing: ['aggregates only: a benchmark report keeps no per-request records, so no definition can be recomputed; the report’s own aggregates are shown'],
    lacks,
    notes,
    clock: 'none (aggregates only)',
    lastTokenT: null,
    reported,
    ...(reported['requests.total'] ? { completed: { key: 'requests.total − requests.failures', value: reported['requests.total'].value - failed, unit: 'requests' } } : {}),
    failures: failed > 0 ? { 'failed (the report keeps no reasons)': failed } : {},
  };
}
