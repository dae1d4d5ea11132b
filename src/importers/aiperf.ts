/**
 * NVIDIA AIPerf per-request export `profile_export.jsonl` (`--export-level
 * records`; docs/tutorials/working-with-profile-exports.md and
 * src/aiperf/metrics/types/*, 2026 versions; TOOLS.md §4.6).
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
import type { BenchmarkRun, RequestRecord } from '../metrics/records.ts';
import { chunkTimesFromGaps, fail, isObject, parseJson, Reader, type Json, type JsonObject } from './common.ts';
import { looksLike } from './detect.ts';
import type { Capability, ImportOptions, ImportResult, Reported } from './types.ts';

export const AIPERF_SOURCE = 'aiperf';

const NS_KEYS = ['credit_issued_ns', 'request_start_ns', 'request_ack_ns', 'request_end_ns', 'cancellation_time_ns'];

/** Seconds per unit of the time units AIPerf writes. */
const TIME_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, sec: 1 };

/** Quote the nanosecond integers so JSON.parse keeps every digit. */
function protectNs(line: string): string {
  return line.replace(new RegExp(`("(?:${NS_KEYS.join('|')})"\\s*:\\s*)(-?\\d+)`, 'g'), '$1"$2"');
}

interface Raw {
  line: number;
  meta: JsonObject;
  metrics: JsonObject;
  error: Json;
  ns: Record<string, bigint | null>;
}

export function importAiperf(file: string, text: string, _opts: ImportOptions = {}): ImportResult {
  const r: Reader = new Reader(file);
  const raws: Raw[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i].trim();
    if (s === '') continue;
    const v = parseJson(file, protectNs(s), `JSON on line ${i + 1}`);
    if (!isObject(v) || !isObject(v.metadata) || !isObject(v.metrics)) {
      fail(file, `line ${i + 1} is not an AIPerf profile_export record (needs "metadata" and "metrics" objects)${looksLike(text)}`);
    }
    const ns: Record<string, bigint | null> = {};
    for (const k of NS_KEYS) {
      const x = v.metadata[k];
      if (x === undefined || x === null) ns[k] = null;
      else if (typeof x === 'string' && /^-?\d+$/.test(x)) {
        ns[k] = BigInt(x);
        if (ns[k]! < 0n) fail(file, `line ${i + 1}: metadata.${k} = ${x} is negative; timestamps are ns since the epoch`);
      } else fail(file, `line ${i + 1}: metadata.${k} should be an integer of nanoseconds, found ${JSON.stringify(x)}`);
    }
    raws.push({ line: i + 1, meta: v.metadata, metrics: v.metrics, error: v.error ?? null, ns });
  }
  if (raws.length === 0) fail(file, 'is empty');

  const notes: string[] = [];
  const phases = new Map<string, number>();
  for (const x of raws) {
    const p = typeof x.meta.benchmark_phase === 'string' ? x.meta.benchmark_phase : 'profiling';
    phases.set(p, (phases.get(p) ?? 0) + 1);
  }
  const kept = raws.filter((x) => (x.meta.benchmark_phase ?? 'profiling') === 'profiling');
  for (const [p, c] of phases) if (p !== 'profiling') notes.push(`${c} record(s) of phase "${p}" dropped (only "profiling" records are measured)`);
  if (kept.length === 0) fail(file, 'has no records of benchmark_phase "profiling"');

  let origin: bigint | null = null;
  for (const x of kept) {
    for (const k of ['credit_issued_ns', 'request_start_ns']) {
      const t = x.ns[k];
      if (t !== null && (origin === null || t < origin)) origin = t;
    }
  }
  if (origin === null) fail(file, 'no record has metadata.request_start_ns');
  const sec = (t: bigint): number => Number(t - origin!) / 1e9;

  /** A time metric in seconds, converted by its stated unit; null when absent. */
  const timeMetric = (x: Raw, tag: string): number | number[] | null => {
    const m = x.metrics[tag];
    if (m === undefined || m === null) return null;
    const where = `line ${x.line}: metrics.${tag}`;
    const o = r.object(m, where);
    const unit = typeof o.unit === 'string' ? o.unit : '';
    const scale = TIME_UNITS[unit];
    if (scale === undefined) r.fail(`${where}.unit = ${JSON.stringify(o.unit)}; expected a time unit (ns, us, ms, s)`);
    if (Array.isArray(o.value)) return o.value.map((g, k) => r.duration(r.number(g, `${where}.value[${k}]`) * scale, `${where}.value[${k}] (${g} ${unit})`, unit));
    return r.duration(r.number(o.value, `${where}.value`) * scale, `${where}.value (${o.value} ${unit})`, unit);
  };
  const countMetric = (x: Raw, tag: string): number | null => {
    const m = x.metrics[tag];
    if (m === undefined || m === null) return null;
    return r.count(r.object(m, `line ${x.line}: metrics.${tag}`).value, `line ${x.line}: metrics.${tag}.value`);
  };

  let anyCredit = false;
  let anyIcl = false;
  let anyIsl = false;
  let anyOsl = false;
  const records: RequestRecord[] = [];
  for (const x of kept) {
    const start = x.ns.request_start_ns;
    if (start === null) fail(file, `line ${x.line}: metadata.request_start_ns is missing`);
    const end = x.ns.request_end_ns;
    if (end !== null && end < start) {
      fail(file, `line ${x.line}: request_end_ns is before request_start_ns by ${Number(start - end) / 1e9} s: the request finishes before it was sent`);
    }
    const credit = x.ns.credit_issued_ns;
    if (credit !== null && credit > start) {
      fail(file, `line ${x.line}: credit_issued_ns is after request_start_ns: a request cannot be sent before it is due`);
    }
    anyCredit ||= credit !== null;
    const sendT = sec(start);
    const ok = x.error === null && x.meta.was_cancelled !== true;
    const ttft = timeMetric(x, 'time_to_first_token') as number | null;
    const latency = timeMetric(x, 'request_latency') as number | null;
    const icl = timeMetric(x, 'inter_chunk_latency');
    const isl = countMetric(x, 'input_sequence_length');
    const osl = countMetric(x, 'output_sequence_length');
    anyIsl ||= isl !== null;
    anyOsl ||= osl !== null;
    if (ttft !== null && latency !== null && latency + 1e-9 < ttft) {
      fail(file, `line ${x.line}: request_latency (${latency} s) is shorter than time_to_first_token (${ttft} s): a request cannot finish before its first token`);
    }
    const firstT = ok && ttft !== null ? sendT + ttft : null;
    let chunkTimes: number[] | null = null;
    if (firstT !== null && Array.isArray(icl)) {
      chunkTimes = chunkTimesFromGaps(firstT, icl);
      anyIcl = true;
    } else if (firstT !== null && latency !== null && osl !== null && osl <= 1) {
      chunkTimes = [firstT]; // one chunk: AIPerf writes no inter-chunk list
    }
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
    notes.push('dueT is AIPerf’s credit_issued_ns; whether a credit is stamped at the scheduled time or after a --concurrency ceiling admits it is UNVERIFIED (TOOLS.md §4.4)');
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
  return {
    file,
    format: 'aiperf',
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: `seconds after the earliest credit/start in the file (epoch ${origin} ns)`,
    lastTokenT: null,
    reported,
  };
}
