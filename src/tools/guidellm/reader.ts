/**
 * GuideLLM `benchmarks.json` (GenerativeBenchmarksReport; src/guidellm/schemas/
 * request_stats.py, benchmark/schemas/*, snapshot ee7a7745 2026-08-07 and the
 * newer schemas/base/request_stats.py 31c74ea27242), and the report written
 * up to 0.3.x (benchmark/benchmark.py at v0.3.1; per request flat `start_time`, `first_token_time`,
 * `last_token_time`, `end_time` and `scheduler_info.targeted_start_time`),
 * whose TPOT is defined differently (./definitions.ts).
 *
 * Measured window: a benchmark's `start_time`/`end_time` exclude warmup and
 * cooldown; GuideLLM's own metrics keep the requests that overlap the window,
 * and so do we (the others are counted in a note), with t = 0 at `start_time`.
 * Schedule: only rate profiles (constant, poisson) have per-request due times;
 * in synchronous, concurrent and throughput profiles every targeted start is
 * the scheduler's start, so dueT stays null there.
 *
 * Units: `info.timings.*` are EPOCH SECONDS (time.time()); `request_latency` is
 * seconds; fields ending in `_ms` are milliseconds. One file can hold several
 * benchmarks (a sweep): one is taken at a time (`entry`).
 *
 * Mapping to RequestRecord (t = 0 at the benchmark's start_time):
 *   dueT    = timings.targeted_start        (the strategy's intended start; null if absent)
 *   sendT   = timings.request_start         (just before the HTTP stream opens)
 *   firstT  = timings.first_token_iteration
 *   finishT = timings.request_end           (after the [DONE] line)
 *   lastTokenT (side list) = timings.last_token_iteration (GuideLLM's TPOT/ITL end here)
 *   chunkTimes = null                        (GuideLLM keeps only the count, token_iterations)
 *   outputTokens = output_tokens / output_metrics (server usage by default, else iteration count)
 * Requests come from requests.successful (ok) and requests.errored / incomplete (not ok).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import type { ResultInput } from '../base/input.ts';
import { isObject, readJsonDocument, Reader, selectRun, type Json, type JsonObject } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Reported, Recognition } from '../base/result.ts';

export const GUIDELLM_SOURCE = 'guidellm';

export function importGuidellm(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const doc = readJsonDocument(input);
  if (!isObject(doc) || !Array.isArray(doc.benchmarks)) {
    r.fail(`not a GuideLLM benchmarks.json: no "benchmarks" list at the top level${seen.looksLike}`);
  }
  const benchmarks = doc.benchmarks;
  if (benchmarks.length === 0) r.fail('benchmarks is empty: the report holds no benchmark, so there is nothing to compute');
  // The request schema tells the versions apart (0.4 added info.timings; `metadata` came later still)
  const pre03 = !benchmarks.some(hasTimings);
  const guidellmVersion = isObject(doc.metadata) && typeof doc.metadata.guidellm_version === 'string' ? doc.metadata.guidellm_version : null;
  const version = pre03 ? 'GuideLLM up to 0.3.x (flat request times, scheduler_info)' : `GuideLLM ${guidellmVersion ?? '0.4 or later'} (info.timings)`;
  const label = (e: Json, i: number): string => {
    const st = isObject(e) ? strategyTypeOf(e) : '';
    return `benchmark ${i}${st ? `: ${st}` : ''}`;
  };
  return selectRun(file, benchmarks, opts.entry, 'benchmarks (a sweep)', (e, index) => readBenchmark(r, e, index, benchmarks.length, pre03, version), label);
}

function readBenchmark(r: Reader, raw: Json, index: number, count: number, pre03: boolean, version: string): Imported {
  const file = r.file;
  const at = `benchmarks[${index}]`;
  const b = r.object(raw, at);
  const { maxConcurrency, requestRate, type } = strategyOf(b);
  const hasSchedule = requestRate !== null && Number.isFinite(requestRate);

  const start = r.number(b.start_time, `${at}.start_time`);
  const end = r.number(b.end_time, `${at}.end_time`);
  if (end < start) r.fail(`${at}.end_time is before start_time: the benchmark ends before it starts`);
  if (start < 0) r.fail(`${at}.start_time = ${start} is negative; it is epoch seconds`);
  if (start > 1e11) r.fail(`${at}.start_time = ${start} is too large for epoch seconds (milliseconds?)`);

  const reqs = r.object(b.requests, `${at}.requests`);
  const failures: Record<string, number> = {};
  let outside = 0;
  const groups: [string, boolean][] = [['successful', true], ['errored', false], ['incomplete', false]];
  const records: RequestRecord[] = [];
  const lastTokenT: (number | null)[] = [];
  let anyTarget = false;
  let anyInput = false;
  let anyOutput = false;
  for (const [group, ok] of groups) {
    const list = reqs[group];
    if (list === undefined || list === null) continue;
    r.array(list, `${at}.requests.${group}`).forEach((entry, i) => {
      const where = `${at}.requests.${group}[${i}]`;
      const q = r.object(entry, where);
      const t = readTimings(r, q, where);
      if (!ok) failures[group] = (failures[group] ?? 0) + 1;
      const rel = (x: number | null, name: string): number | null => {
        if (x === null) return null;
        const s = x - start;
        // Epoch seconds: a request more than an hour away from its benchmark's start is another unit.
        if (Math.abs(s) > 1e6) r.fail(`${where}: ${name} = ${x} is ${s.toPrecision(3)} s from the benchmark start; timings are epoch seconds (milliseconds?)`);
        return s;
      };
      const sendT = rel(t.request_start, 'request_start');
      if (sendT === null) {
        // an errored or incomplete request may never have been sent: it is counted, not placed
        if (ok) r.fail(`${where}: no request_start timing for a successful request`);
        return;
      }
      const finishT = rel(t.request_end, 'request_end') ?? sendT;
      const firstT = ok ? rel(t.first_token_iteration, 'first_token_iteration') : null;
      const lastT = ok ? rel(t.last_token_iteration, 'last_token_iteration') : null;
      const dueT = hasSchedule ? rel(t.targeted_start, 'targeted_start') : null;
      anyTarget ||= dueT !== null;
      if (finishT < sendT) r.fail(`${where}: request_end is ${(sendT - finishT).toPrecision(3)} s before request_start: the request finishes before it was sent`);
      r.duration(finishT - sendT, `${where}: request_end − request_start`);
      if (firstT !== null && firstT < sendT) r.fail(`${where}: first_token_iteration is before request_start`);
      if (firstT !== null && firstT > finishT + 1e-9) r.fail(`${where}: first_token_iteration is after request_end: the request finishes before its first token`);
      if (lastT !== null && firstT !== null && lastT < firstT) r.fail(`${where}: last_token_iteration is before first_token_iteration`);
      const inputTokens = tokens(r, q, where, ['prompt_tokens'], 'input_metrics');
      const outputTokens = tokens(r, q, where, ['output_tokens'], 'output_metrics');
      anyInput ||= inputTokens !== null;
      anyOutput ||= outputTokens !== null;
      // GuideLLM's metrics keep the requests that overlap the measured window [0, end − start]
      if (finishT <= 0 || sendT >= end - start) {
        outside++;
        return;
      }
      records.push({
        dueT,
        sendT,
        chunkTimes: null,
        chunkTokens: null,
        firstT,
        finishT,
        inputTokens: inputTokens ?? NaN,
        outputTokens: ok ? outputTokens : null,
        ok,
        preemptions: null,
        lastTokenT: lastT,
      });
      lastTokenT.push(lastT);
    });
  }
  // Keep records in send order (GuideLLM groups them by status).
  const order = records.map((_, i) => i).sort((a, b) => records[a].sendT - records[b].sendT || a - b);
  const sortedRecords = order.map((i) => records[i]);
  const sortedLast = order.map((i) => lastTokenT[i]);

  if (sortedRecords.length === 0 && outside === 0) r.fail(`${at}.requests are empty: the run has no requests, so there is nothing to compute`);
  if (sortedRecords.length === 0) r.fail(`${at}: no request overlaps the measured window, so there is nothing to compute`);
  const missing: string[] = [
    'no per-chunk times (GuideLLM keeps first and last token times and a count): ITL gaps and TPOT-with-gaps cannot be computed; per-request TPOT uses last_token_iteration',
  ];
  const lacks = new Set<Capability>(['chunkTimes', 'chunkTokens']);
  if (!hasSchedule) {
    missing.push(`no per-request schedule: in a ${type || 'closed-loop'} profile every targeted start is the scheduler’s start, not a due time, so latency from the schedule cannot be computed`);
    lacks.add('schedule');
  } else if (!anyTarget) {
    missing.push('no targeted_start: scheduled times are unknown, so latency from the schedule cannot be computed');
    lacks.add('schedule');
  }
  if (!anyInput) {
    missing.push('no prompt token counts');
    lacks.add('inputTokens');
  }
  if (!anyOutput) {
    missing.push('no output token counts: per-token speeds cannot be computed');
    lacks.add('outputTokens').add('serverTokenCounts');
  }
  const notes: string[] = [];
  const warm = typeof b.warmup_duration === 'number' ? b.warmup_duration : 0;
  const cool = typeof b.cooldown_duration === 'number' ? b.cooldown_duration : 0;
  if (outside > 0 || warm > 0 || cool > 0) {
    notes.push(`measured window ${(end - start).toFixed(1)} s${warm > 0 || cool > 0 ? ` (warmup ${warm.toFixed(1)} s and cooldown ${cool.toFixed(1)} s around it)` : ''}: ${outside} request(s) entirely outside it are left out, as GuideLLM’s own metrics leave them out`);
  }
  if (count > 1) notes.push(`benchmark ${index} of ${count} in the file`);
  const counted = reportedOf(b, pre03)['request_totals.successful']?.value;
  const kept = sortedRecords.filter((x) => x.ok).length;
  const sampled = counted !== undefined && counted > kept + outside ? counted : undefined;
  if (sampled !== undefined) notes.push(`the file keeps ${kept + outside} of the ${sampled} successful requests GuideLLM measured (sample_requests): what we recompute covers that sample`);

  const run: BenchmarkRun = { records: sortedRecords, source: GUIDELLM_SOURCE, maxConcurrency, requestRate, startT: 0, endT: end - start };
  return {
    file,
    format: 'guidellm',
    version,
    definitions: { guidellm: pre03 ? 'up-to-0.3' : '0.4+' },
    ...(sampled !== undefined ? { sampledFrom: sampled } : {}),
    failures,
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: `seconds after ${at}.start_time (epoch ${start} s)`,
    lastTokenT: sortedLast,
    reported: reportedOf(b, pre03),
  };
}

/** Does any request of this benchmark carry `info.timings` (the schema from 0.4 on)? */
function hasTimings(b: Json): boolean {
  if (!isObject(b) || !isObject(b.requests)) return false;
  for (const group of Object.values(b.requests)) {
    if (!Array.isArray(group)) continue;
    for (const q of group) if (isObject(q) && isObject(q.info) && isObject(q.info.timings)) return true;
  }
  return false;
}

type Timings = Record<'targeted_start' | 'request_start' | 'first_token_iteration' | 'last_token_iteration' | 'request_end', number | null>;

function readTimings(r: Reader, q: JsonObject, where: string): Timings {
  const info = isObject(q.info) ? q.info : null;
  const t = info && isObject(info.timings) ? info.timings : null;
  if (t) {
    const get = (k: string): number | null => r.optNumber(t[k], `${where}.info.timings.${k}`);
    return {
      targeted_start: get('targeted_start'),
      request_start: get('request_start'),
      first_token_iteration: get('first_token_iteration'),
      last_token_iteration: get('last_token_iteration'),
      request_end: get('request_end'),
    };
  }
  // Reports up to 0.3.x: flat start_time / first_token_time / last_token_time / end_time, scheduler_info.targeted_start_time.
  const get = (k: string): number | null => r.optNumber(q[k], `${where}.${k}`);
  if (get('start_time') === null) r.fail(`${where}: no info.timings (nor start_time); is this a GuideLLM request entry?`);
  const si = isObject(q.scheduler_info) ? q.scheduler_info : null;
  return {
    targeted_start: si ? r.optNumber(si.targeted_start_time, `${where}.scheduler_info.targeted_start_time`) : null,
    request_start: get('start_time'),
    first_token_iteration: get('first_token_time'),
    last_token_iteration: get('last_token_time'),
    request_end: get('end_time'),
  };
}

function tokens(r: Reader, q: JsonObject, where: string, direct: string[], metricsKey: string): number | null {
  for (const k of direct) if (q[k] !== undefined && q[k] !== null) return r.count(q[k], `${where}.${k}`);
  const m = q[metricsKey];
  if (isObject(m)) {
    for (const k of ['total_tokens', 'text_tokens']) if (m[k] !== undefined && m[k] !== null) return r.count(m[k], `${where}.${metricsKey}.${k}`);
  }
  return null;
}

function strategyObject(b: JsonObject): JsonObject | null {
  const cfg = isObject(b.config) ? b.config : {};
  const args = isObject(b.args) ? b.args : {};
  return (isObject(cfg.strategy) ? cfg.strategy : isObject(b.strategy) ? b.strategy : isObject(args.strategy) ? args.strategy : null) as JsonObject | null;
}

function strategyTypeOf(b: JsonObject): string {
  const s = strategyObject(b);
  return s ? String(s.type_ ?? s.type ?? '') : '';
}

function strategyOf(b: JsonObject): { maxConcurrency: number | null; requestRate: number | null; type: string } {
  const s = strategyObject(b);
  if (!s) return { maxConcurrency: null, requestRate: null, type: '' };
  const type = strategyTypeOf(b);
  const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  if (type === 'synchronous') return { maxConcurrency: 1, requestRate: null, type };
  if (type === 'concurrent') return { maxConcurrency: num(s.streams), requestRate: null, type };
  if (type === 'throughput') return { maxConcurrency: num(s.max_concurrency), requestRate: Infinity, type };
  return { maxConcurrency: num(s.max_concurrency), requestRate: num(s.rate), type };
}

/** GuideLLM's own summaries (metrics.<name>.successful.{mean,median,p99}), in SI units. */
function reportedOf(b: JsonObject, _pre03: boolean): Record<string, Reported> {
  const out: Record<string, Reported> = {};
  const totals = isObject(b.metrics) && isObject(b.metrics.request_totals) ? b.metrics.request_totals : isObject(b.request_totals) ? b.request_totals : null;
  if (totals && typeof totals.successful === 'number') out['request_totals.successful'] = { value: totals.successful, unit: 'requests' };
  if (!isObject(b.metrics)) return out;
  for (const [name, summary] of Object.entries(b.metrics)) {
    if (!isObject(summary) || !isObject(summary.successful)) continue;
    const s = summary.successful;
    const [scale, unit] = name.endsWith('_ms')
      ? [1e-3, 's']
      : name === 'request_latency'
        ? [1, 's']
        : name === 'requests_per_second'
          ? [1, '1/s']
          : name.endsWith('per_second')
            ? [1, 'tokens/s']
            : name === 'request_concurrency'
              ? [1, 'requests']
              : [1, ''];
    const put = (stat: string, v: Json | undefined): void => {
      if (typeof v === 'number' && Number.isFinite(v)) out[`${name}.${stat}`] = { value: v * scale, unit };
    };
    put('mean', s.mean);
    put('median', s.median);
    if (isObject(s.percentiles)) put('p99', s.percentiles.p99);
  }
  return out;
}
