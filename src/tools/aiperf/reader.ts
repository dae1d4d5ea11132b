/**
 * NVIDIA AIPerf per-request export `profile_export.jsonl` (`--export-level
 * records`; docs/tutorials/working-with-profile-exports.md and
 * src/aiperf/metrics/types/*, 2026 versions), the Oct 2025 schema of the same
 * file, and the aggregate export `profile_export_aiperf.json`.
 *
 * Oct 2025 (ai-dynamo/aiperf examples/artifacts at 7c31f57): the request start
 * is `metadata.timestamp_ns` (no request_start_ns, no credit_issued_ns), the
 * phase is `metadata.credit_phase`, and the metric tags are `ttft`,
 * `request_latency`, `inter_chunk_latency`, `output_sequence_length`.
 * Cancelled requests (`error.code` 499) carry no metrics and count as failed.
 *
 * One JSON object per line: `metadata` (timestamps in integer NANOSECONDS since
 * the Unix epoch: credit_issued_ns, request_start_ns, request_ack_ns,
 * request_end_ns; benchmark_phase, was_cancelled), `metrics` ({tag: {value,
 * unit}} in display units, normally `ms` for times — we convert by the unit each
 * metric states), `error` (null on success).
 *
 * Epoch nanoseconds (~1.8e18) do not fit a double exactly (steps of 256 ns), so
 * they are read as BigInt and made relative to the earliest credit/start in the
 * file before conversion to seconds.
 *
 * Mapping to RequestRecord (t = 0 at the earliest timestamp in the file):
 *   dueT    = credit_issued_ns    (the credit: when the load generator released the request)
 *   sendT   = request_start_ns
 *   firstT  = sendT + time_to_first_token
 *   chunkTimes = firstT, then + each inter_chunk_latency gap (content chunks only)
 *   finishT = sendT + request_latency (last content chunk), else request_end_ns
 *   inputTokens  = input_sequence_length;  outputTokens = output_sequence_length
 *     (AIPerf's count: client tokenizer by default, server usage only with --use-server-token-count)
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { inputLines, type ResultInput } from '../base/input.ts';
import { MAX_PLAUSIBLE_REQUEST_S, fail, isCount, isJsonLines, isObject, parseJson, readJsonDocument, Reader, reportedOf, type Json, type JsonObject, type KeyUnit } from '../base/reading.ts';
import { parsePythonJson, stripBom } from '../base/json-text.ts';
import type { Capability, ImportOptions, Imported, Reported, Recognition } from '../base/result.ts';

export const AIPERF_SOURCE = 'aiperf';

const NS_KEYS = ['credit_issued_ns', 'request_start_ns', 'request_ack_ns', 'request_end_ns', 'cancellation_time_ns', 'timestamp_ns'];

/** Metric tags of the two schemas: the 2026 name first, the Oct 2025 name second. */
const TAGS = {
  ttft: ['time_to_first_token', 'ttft'],
  latency: ['request_latency'],
  icl: ['inter_chunk_latency'],
  isl: ['input_sequence_length'],
  osl: ['output_sequence_length'],
} as const;

/** Seconds per unit of the time units AIPerf writes. */
const TIME_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, sec: 1 };

/** Quote the nanosecond integers so JSON.parse keeps every digit. */
const NS_NUMBER = new RegExp(`("(?:${NS_KEYS.join('|')})"\\s*:\\s*)(-?\\d+)`, 'g');
function protectNs(line: string): string {
  return line.replace(NS_NUMBER, '$1"$2"');
}

const NS_QUOTED = NS_KEYS.map((k) => `"${k}"`);
const JSON_BLANK = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * One record line parsed as {@link protectNs} then JSON.parse would parse it,
 * without rewriting the line when that is certain to give the same: the line
 * is parsed as it is, and each nanosecond stamp of its metadata is replaced by
 * the integer's digits, taken from the line where its key occurs once. Any
 * other line (a key twice, a stamp not written as a plain integer, text
 * JSON.parse refuses) takes the rewrite, so it reads, or fails, as before.
 */
function parseRecordLine(file: string, s: string, line: number): Json {
  let v: Json;
  try {
    v = JSON.parse(s) as Json;
  } catch {
    return parseJson(file, protectNs(s), `JSON on line ${line}`);
  }
  const meta = isObject(v) ? v.metadata : undefined;
  if (!isObject(meta)) return parseJson(file, protectNs(s), `JSON on line ${line}`);
  for (let j = 0; j < NS_KEYS.length; j++) {
    const x = meta[NS_KEYS[j]];
    if (x === undefined || x === null || typeof x === 'string') continue;
    const digits = typeof x === 'number' ? nsDigits(s, NS_QUOTED[j]) : null;
    if (digits === null) return parseJson(file, protectNs(s), `JSON on line ${line}`);
    meta[NS_KEYS[j]] = digits;
  }
  return v;
}

/** The integer written after `key` (quoted), when the key occurs once in the line and the number is a plain integer; else null. */
function nsDigits(s: string, key: string): string | null {
  const at = s.indexOf(key);
  if (at < 0 || s.indexOf(key, at + 1) >= 0) return null;
  let i = at + key.length;
  while (JSON_BLANK(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) !== 58) return null;
  i++;
  while (JSON_BLANK(s.charCodeAt(i))) i++;
  const start = i;
  if (s.charCodeAt(i) === 45) i++;
  const first = i;
  for (let c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i));
  if (i === first) return null;
  const c = s.charCodeAt(i);
  // the integer must be the whole number (1.5e18 is not one: the rewrite turns it into text JSON.parse refuses)
  return c === 44 || c === 125 || c === 93 || JSON_BLANK(c) ? s.slice(start, i) : null;
}

/**
 * What one profiling record contributes, kept as it is read (the line's
 * parsed JSON is dropped at once): times in seconds as the metrics state
 * them, nanosecond stamps as exact integers until the file's origin is known.
 */
interface Raw {
  line: number;
  start: bigint | null;
  credit: bigint | null;
  end: bigint | null;
  ok: boolean;
  ttft: number | null;
  latency: number | null;
  /** The inter-chunk gaps at [1 …], [0] left for the first chunk's time: they become the chunk times in place. */
  icl: Float64Array | null;
  isl: number | null;
  osl: number | null;
}

/** Doubles per buffer of chunk times (1 MiB). */
const SLAB = 1 << 17;

export function importAiperf(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  if (opts.entry !== undefined && opts.entry !== 0) r.fail(`--entry ${opts.entry}: an AIPerf export holds one run; leave --entry out`);
  const whole = input.whole ? parseWhole(stripBom(input.head)) : isJsonLines(input) ? null : asObject(readJsonDocument(input));
  if (whole !== null && isAggregateExport(whole)) return importAggregate(r, whole);
  if (whole !== null && !(isObject(whole.metadata) && isObject(whole.metrics))) {
    r.fail(`not an AIPerf export: one JSON document that is neither the aggregate export nor a profile_export.jsonl record${seen.looksLike}`);
  }

  // every record's gaps (then its chunk times) a view of a few large buffers: a buffer per record costs more than its times
  let slab = new Float64Array(0);
  let used = 0;
  const slots = (n: number): Float64Array => {
    if (used + n > slab.length) {
      slab = new Float64Array(Math.max(n, SLAB));
      used = 0;
    }
    return slab.subarray(used, (used += n));
  };
  /** A time metric in seconds, converted by its stated unit; null when absent. */
  const timeMetric = (metrics: JsonObject, line: number, tags: readonly string[]): number | Float64Array | null => {
    const tag = presentTag(metrics, tags);
    const m = metrics[tag];
    if (m === undefined || m === null) return null;
    const o = isObject(m) ? m : r.object(m, `line ${line}: metrics.${tag}`);
    const unit = typeof o.unit === 'string' ? o.unit : '';
    const scale = TIME_UNITS[unit];
    if (scale === undefined) r.fail(`line ${line}: metrics.${tag}.unit = ${JSON.stringify(o.unit)}; expected a time unit (ns, us, ms, s)`);
    // the checks of r.number and r.duration, with their messages made only for a value that fails them (badTime)
    if (Array.isArray(o.value)) {
      const gaps = o.value;
      // kept until the origin is known, one slot ahead for the first chunk's time (see Raw.icl)
      const out = slots(gaps.length + 1);
      for (let k = 0; k < gaps.length; k++) {
        const g = gaps[k];
        out[k + 1] = typeof g === 'number' && Number.isFinite(g) && g * scale >= 0 && g * scale <= MAX_PLAUSIBLE_REQUEST_S ? g * scale : badTime(r, `line ${line}: metrics.${tag}.value[${k}]`, g, scale, unit);
      }
      return out;
    }
    const g = o.value;
    return typeof g === 'number' && Number.isFinite(g) && g * scale >= 0 && g * scale <= MAX_PLAUSIBLE_REQUEST_S ? g * scale : badTime(r, `line ${line}: metrics.${tag}.value`, g, scale, unit);
  };
  const countMetric = (metrics: JsonObject, line: number, tags: readonly string[]): number | null => {
    const tag = presentTag(metrics, tags);
    const m = metrics[tag];
    if (m === undefined || m === null) return null;
    const v = isObject(m) ? m.value : r.object(m, `line ${line}: metrics.${tag}`).value;
    return isCount(v) ? v : r.count(v, `line ${line}: metrics.${tag}.value`);
  };

  const notes: string[] = [];
  const phases = new Map<string, number>();
  const failures: Record<string, number> = {};
  const own: Record<string, { sum: number; n: number }> = {};
  let oct2025 = false;
  let lines = 0;
  const kept: Raw[] = [];
  for (const l of inputLines(input)) {
    const s = l.text.trim();
    if (s === '') continue;
    lines++;
    const line = l.number;
    const v = parseRecordLine(file, s, line);
    if (!isObject(v) || !isObject(v.metadata) || !isObject(v.metrics)) {
      fail(file, `line ${line} is not an AIPerf profile_export record (needs "metadata" and "metrics" objects)${seen.looksLike}`);
    }
    const meta = v.metadata;
    const ns: Record<string, bigint | null> = {};
    for (const k of NS_KEYS) {
      const x = meta[k];
      if (x === undefined || x === null) ns[k] = null;
      else if (typeof x === 'string' && /^-?\d+$/.test(x)) {
        ns[k] = BigInt(x);
        if (ns[k]! < 0n) fail(file, `line ${line}: metadata.${k} = ${x} is negative; timestamps are ns since the epoch`);
      } else fail(file, `line ${line}: metadata.${k} should be an integer of nanoseconds, found ${JSON.stringify(x)}`);
    }
    const phase = phaseOf(meta);
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
    if (phase !== 'profiling') continue;
    const metrics = v.metrics;
    const error = v.error ?? null;
    oct2025 ||= ns.request_start_ns === null && ns.timestamp_ns !== null;
    const start = ns.request_start_ns ?? ns.timestamp_ns;
    const ok = error === null && meta.was_cancelled !== true;
    if (!ok) {
      const e = isObject(error) ? error : {};
      const why = e.code === 499 || meta.was_cancelled === true ? 'cancelled (499)' : [e.code, e.type].filter((x) => x !== undefined && x !== null).join(' ') || 'error';
      failures[why] = (failures[why] ?? 0) + 1;
    }
    const ttft = timeMetric(metrics, line, TAGS.ttft) as number | null;
    const latency = timeMetric(metrics, line, TAGS.latency) as number | null;
    const icl = timeMetric(metrics, line, TAGS.icl);
    const isl = countMetric(metrics, line, TAGS.isl);
    const osl = countMetric(metrics, line, TAGS.osl);
    if (ok) for (const tag of OWN_PER_REQUEST) {
      const m = metrics[tag];
      if (isObject(m) && typeof m.value === 'number') {
        const o = (own[tag] ??= { sum: 0, n: 0 });
        o.sum += m.value;
        o.n++;
      }
    }
    kept.push({ line, start, credit: ns.credit_issued_ns, end: ns.request_end_ns, ok, ttft, latency, icl: icl instanceof Float64Array ? icl : null, isl, osl });
  }
  if (lines === 0) fail(file, 'is empty');
  for (const [p, c] of phases) if (p !== 'profiling') notes.push(`${c} record(s) of phase "${p}" dropped (only "profiling" records are measured)`);
  if (kept.length === 0) fail(file, 'has no records of phase "profiling" (only warmup): the run has no requests, so there is nothing to compute');

  let origin: bigint | null = null;
  for (const x of kept) {
    for (const t of [x.credit, x.start]) {
      if (t !== null && (origin === null || t < origin)) origin = t;
    }
  }
  if (origin === null) fail(file, 'no record has metadata.request_start_ns (nor the Oct 2025 metadata.timestamp_ns)');
  const sec = (t: bigint): number => Number(t - origin!) / 1e9;

  let anyCredit = false;
  let anyIcl = false;
  let anyIsl = false;
  let anyOsl = false;
  const records: RequestRecord[] = [];
  for (const x of kept) {
    const start = x.start;
    if (start === null) fail(file, `line ${x.line}: metadata.request_start_ns (or timestamp_ns) is missing`);
    const end = x.end;
    if (end !== null && end < start) {
      fail(file, `line ${x.line}: request_end_ns is before request_start_ns by ${Number(start - end) / 1e9} s: the request finishes before it was sent`);
    }
    const credit = x.credit;
    if (credit !== null && credit > start) {
      fail(file, `line ${x.line}: credit_issued_ns is after request_start_ns: a request cannot be sent before it is due`);
    }
    anyCredit ||= credit !== null;
    const sendT = sec(start);
    const { ok, ttft, latency, icl, isl, osl } = x;
    anyIsl ||= isl !== null;
    anyOsl ||= osl !== null;
    if (ttft !== null && latency !== null && latency + 1e-9 < ttft) {
      fail(file, `line ${x.line}: request_latency (${latency} s) is shorter than time_to_first_token (${ttft} s): a request cannot finish before its first token`);
    }
    const firstT = ok && ttft !== null ? sendT + ttft : null;
    let chunkTimes: Float64Array | null = null;
    if (firstT !== null && icl !== null) {
      chunkTimes = icl; // the prefix sums of chunkTimesFromGaps, in the gaps' own array
      chunkTimes[0] = firstT;
      let t = firstT;
      for (let k = 1; k < chunkTimes.length; k++) chunkTimes[k] = t += chunkTimes[k];
      anyIcl = true;
    } else if (firstT !== null && latency !== null && osl !== null && osl <= 1) {
      chunkTimes = Float64Array.of(firstT); // one chunk: AIPerf writes no inter-chunk list
    }
    x.icl = null; // the gaps are chunkTimes now, or dropped
    const finishT = latency !== null ? sendT + latency : end !== null ? sec(end) : sendT;
    records.push({
      dueT: credit !== null ? sec(credit) : null,
      sendT,
      chunkTimes,
      chunkTokens: null,
      firstT,
      finishT,
      inputTokens: isl ?? NaN,
      outputTokens: osl,
      ok,
      preemptions: null,
    });
  }

  const missing: string[] = [];
  const lacks = new Set<Capability>();
  if (!anyCredit) {
    missing.push('no credit_issued_ns: scheduled times are unknown, so latency from the schedule (AIPerf’s effective_latency) cannot be computed');
    lacks.add('schedule');
  } else {
    notes.push('dueT is AIPerf’s credit_issued_ns; whether a credit is stamped at the scheduled time or after a --concurrency ceiling admits it is not settled by the code we read (docs/definitions.md)');
  }
  if (!anyIcl) {
    missing.push('no inter_chunk_latency: no per-chunk times (was --streaming off?), so ITL and TPOT-with-gaps cannot be computed');
    lacks.add('chunkTimes');
  }
  missing.push('no per-chunk token counts: a chunk’s tokens are assumed to be the request’s output tokens spread evenly');
  lacks.add('chunkTokens');
  if (!anyIsl) {
    missing.push('no input_sequence_length: prompt tokens are unknown');
    lacks.add('inputTokens');
  }
  if (!anyOsl) {
    missing.push('no output_sequence_length: output tokens are unknown, so per-token speeds cannot be computed');
    lacks.add('outputTokens');
  }
  missing.push('output tokens are AIPerf’s count (client tokenizer unless the run used --use-server-token-count), not necessarily the server’s');
  lacks.add('serverTokenCounts');
  missing.push('no run duration in the per-request export: the window is taken as first send to last finish (AIPerf’s own benchmark_duration)');
  lacks.add('runWindow');

  const startT = records.reduce((m, x) => Math.min(m, x.sendT), Infinity);
  const endT = records.reduce((m, x) => Math.max(m, x.finishT), -Infinity);
  const run: BenchmarkRun = { records, source: AIPERF_SOURCE, maxConcurrency: null, requestRate: null, startT, endT };
  const reported: Record<string, Reported> = {};
  for (const [tag, { sum, n }] of Object.entries(own)) {
    const unit = OWN_UNITS[tag];
    reported[`${tag}.avg`] = { value: (sum / n) * unit.scale, unit: unit.unit };
  }
  if (Object.keys(own).length) notes.push('values under "reported" are means of AIPerf’s own per-record metrics over successful records');
  return {
    file,
    format: 'aiperf',
    version: oct2025 ? 'AIPerf, Oct 2025 schema (metadata.timestamp_ns, tags ttft / request_latency)' : 'AIPerf, request_start_ns schema (2026)',
    failures,
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: `seconds after the earliest credit/start in the file (epoch ${origin} ns)`,
    lastTokenT: null,
    reported,
  };
}

/** The first of a metric's tags the record holds (not null), else the first tag. */
function presentTag(metrics: JsonObject, tags: readonly string[]): string {
  for (const t of tags) if (metrics[t] !== undefined && metrics[t] !== null) return t;
  return tags[0];
}

/** A time value that fails the checks, through r.number and r.duration: their message, with the value's path. */
function badTime(r: Reader, at: string, g: Json, scale: number, unit: string): number {
  return r.duration(r.number(g, at) * scale, `${at} (${g} ${unit})`, unit);
}

function phaseOf(meta: JsonObject): string {
  const p = meta.benchmark_phase ?? meta.credit_phase;
  return typeof p === 'string' ? p : 'profiling';
}

/** AIPerf's own per-record metrics whose mean we set beside our recomputation. */
const OWN_PER_REQUEST = ['inter_token_latency', 'output_token_throughput_per_user', 'ttft', 'time_to_first_token', 'request_latency'];

const OWN_UNITS: Record<string, { scale: number; unit: string }> = {
  inter_token_latency: { scale: 1e-3, unit: 's' },
  output_token_throughput_per_user: { scale: 1, unit: 'tokens/s per user' },
  ttft: { scale: 1e-3, unit: 's' },
  time_to_first_token: { scale: 1e-3, unit: 's' },
  request_latency: { scale: 1e-3, unit: 's' },
};

/**
 * Units of the aggregate export as AIPerf writes them (each metric's `unit`,
 * from its MetricUnit / MetricOverTimeUnit: aiperf/common/enums/metric_enums.py),
 * to SI; the written unit is kept beside. A unit not listed is kept as written.
 */
const AGG_UNITS: Record<string, KeyUnit> = {
  ms: { scale: 1e-3, unit: 's', written: 'ms' },
  ns: { scale: 1e-9, unit: 's', written: 'ns' },
  us: { scale: 1e-6, unit: 's', written: 'us' },
  sec: { scale: 1, unit: 's' },
  s: { scale: 1, unit: 's' },
  tokens: { scale: 1, unit: 'tokens' },
  requests: { scale: 1, unit: 'requests' },
  'requests/sec': { scale: 1, unit: '1/s' },
  'tokens/sec': { scale: 1, unit: 'tokens/s' },
  'tokens/sec/user': { scale: 1, unit: 'tokens/s per user' },
  ratio: { scale: 1, unit: '1' },
  '%': { scale: 1, unit: '%' },
  count: { scale: 1, unit: 'count' },
  KB: { scale: 1, unit: 'KB' },
};

/** The statistics of one aggregate metric that are reported, in this order (AIPerf writes p1 … p99, min, max, std, count, sum). */
const AGG_STATS = ['avg', 'p50', 'p90', 'p99'];

/**
 * GenAI-Perf writes the same `{tag: {unit, avg, p…}}` objects
 * (perf_analyzer genai-perf/genai_perf/export_data/json_exporter.py @263c5f6e),
 * told apart by its config: sections `perf_analyzer`, `model_names` (later
 * versions) or its flat CLI arguments `service_kind`, `profile_export_file`
 * (0.0.x); AIPerf's has `endpoint`, `input`, `loadgen`, `cli_command`.
 */
function isGenaiPerfConfig(c: Json | undefined): boolean {
  return isObject(c) && ['perf_analyzer', 'model_names', 'service_kind', 'profile_export_file'].some((k) => k in c);
}

function parseWhole(body: string): JsonObject | null {
  try {
    return asObject(parsePythonJson(body));
  } catch {
    return null; // JSON lines, or broken: the line reader names the line
  }
}

const asObject = (v: Json): JsonObject | null => (isObject(v) ? v : null);

const isMetricResult = (v: Json | undefined): boolean => isObject(v) && typeof v.unit === 'string' && 'avg' in v;

/**
 * The aggregate export: metrics under `records` (Oct 2025 development
 * versions) or at the top level (`JsonExportData` from mid-Oct 2025 on,
 * aiperf/common/models/export_models.py), each `{unit, avg, p1 … p99, std}`.
 */
export function isAggregateExport(v: Json): boolean {
  // a profile_export.jsonl record has `metadata` and `metrics`; the 0.8 export (schema 1.1) has a top-level `metadata` of its own
  if (!isObject(v) || isObject(v.metrics)) return false;
  if (isObject(v.records) && Object.values(v.records).some(isMetricResult)) return true;
  return ['request_latency', 'time_to_first_token', 'request_throughput', 'ttft'].some((k) => isMetricResult(v[k]));
}

/** `profile_export_aiperf.json`: {tag: {unit, avg, p50, p99, …}} (under `records` or at the top level), input_config, error_summary. */
function importAggregate(r: Reader, doc: JsonObject): Imported {
  const reported: Record<string, Reported> = {};
  const recs: JsonObject = isObject(doc.records) ? doc.records : Object.fromEntries(Object.entries(doc).filter(([, v]) => isMetricResult(v)));
  for (const [tag, m] of Object.entries(recs)) {
    if (!isObject(m) || /timestamp/.test(tag)) continue; // epoch timestamps are not quantities
    const u = AGG_UNITS[String(m.unit)] ?? { scale: 1, unit: String(m.unit ?? '') };
    for (const stat of AGG_STATS) {
      const v = m[stat];
      if (typeof v === 'number' && Number.isFinite(v)) reported[`${tag}.${stat}`] = reportedOf(v, u);
    }
  }
  const failures: Record<string, number> = {};
  if (Array.isArray(doc.error_summary)) {
    for (const e of doc.error_summary) {
      if (!isObject(e) || typeof e.count !== 'number') continue;
      const d = isObject(e.error_details) ? e.error_details : {};
      const why = d.code === 499 ? 'cancelled (499)' : [d.code, d.type].filter((v) => v !== undefined && v !== null).join(' ') || 'error';
      failures[why] = (failures[why] ?? 0) + e.count;
    }
  }
  const cfg = isObject(doc.input_config) && isObject(doc.input_config.loadgen) ? doc.input_config.loadgen : {};
  return {
    file: r.file,
    format: 'aiperf',
    version: isGenaiPerfConfig(doc.input_config)
      ? 'GenAI-Perf aggregate export (profile_export_genai_perf.json: the same metric objects, AIPerf’s predecessor)'
      : `AIPerf${typeof doc.aiperf_version === 'string' ? ` ${doc.aiperf_version}` : ''} aggregate export (profile_export_aiperf.json${typeof doc.schema_version === 'string' ? `, schema ${doc.schema_version}` : ''})`,
    run: { records: [], source: AIPERF_SOURCE, maxConcurrency: typeof cfg.concurrency === 'number' ? cfg.concurrency : null, requestRate: null, startT: 0, endT: 0 },
    missing: ['aggregates only (profile_export_aiperf.json): no definition can be recomputed; the per-request profile_export.jsonl of the same run can be'],
    lacks: ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'runWindow'],
    notes: [],
    clock: 'none (aggregates only)',
    lastTokenT: null,
    reported,
    failures,
    ...(reported['request_count.avg'] ? { completed: { key: 'request_count', value: reported['request_count.avg'].value, unit: 'requests' } } : {}),
  };
}
