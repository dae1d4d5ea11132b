/**
 * MLPerf LoadGen output files (mlcommons/inference loadgen/{loadgen.cc,
 * logging.h, logging.cc}, LoadGen v6.0.17; TOOLS.md §7.5).
 *
 * `mlperf_log_detail.txt`: lines `:::MLLOG {json}`, each a key and a value.
 * It holds only LoadGen's settings and aggregates (`result_*` keys, latencies in
 * NANOSECONDS) — no per-sample records. We import the aggregates (ns → s) and
 * an empty record list.
 *
 * `mlperf_log_trace.json`: a Chrome trace. Per sample, an async pair of events
 * named "Sample" (`ph` "b"/"e", `id` = sample sequence id) whose `ts` is in
 * MICROSECONDS from the trace origin: the "b" event sits at the sample's
 * SCHEDULED time and carries args `issue_start_ns` and `complete_ns`, both
 * NANOSECONDS after the scheduled time. In the Server scenario each first token
 * adds a "Token_Latency" counter event at the same `ts` (the scheduled time)
 * with args `issue_delay` and `issue_to_done` (ns); other scenarios trace an
 * async "Token" pair per sample instead.
 *
 * Mapping to RequestRecord (t = 0 at the trace origin):
 *   dueT = b.ts µs; sendT = dueT + issue_start_ns; finishT = dueT + complete_ns;
 *   firstT = dueT + issue_delay + issue_to_done of the Token_Latency counter at
 *   the same ts (only when that ts is unique to one sample), or the "Token" pair.
 * The trace has no token counts (n_tokens goes to the accuracy log only).
 */
import type { BenchmarkRun, RequestRecord } from '../metrics/records.ts';
import { fail, isObject, parseJson, Reader, type Json, type JsonObject } from './common.ts';
import { looksLike } from './detect.ts';
import type { ImportOptions, ImportResult, Reported } from './types.ts';

export const MLPERF_SOURCE = 'mlperf-loadgen';

/** A trace timestamp beyond this (in µs, ≈ 116 days) is surely nanoseconds written as microseconds. */
const MAX_TRACE_TS_US = 1e13;

export function importMlperfDetail(file: string, text: string, _opts: ImportOptions = {}): ImportResult {
  const r: Reader = new Reader(file);
  const values = new Map<string, Json>();
  const lines = text.split(/\r?\n/);
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i].trim();
    if (s === '') continue;
    if (!s.startsWith(':::MLLOG')) {
      fail(file, `line ${i + 1} does not start with ":::MLLOG"; not an mlperf_log_detail.txt${looksLike(text)}`);
    }
    const v = parseJson(file, s.slice(':::MLLOG'.length).trim(), `JSON on line ${i + 1}`);
    if (!isObject(v) || typeof v.key !== 'string') fail(file, `line ${i + 1}: an MLLOG entry needs a "key"`);
    values.set(v.key, v.value ?? null);
    n++;
  }
  if (n === 0) fail(file, 'is empty');

  const reported: Record<string, Reported> = {};
  for (const [k, v] of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    if (!k.startsWith('result_') && !k.startsWith('effective_')) continue;
    if (/_ns$/.test(k) || (k.startsWith('result_') && /latency|per_output_token|time_to_output_token/.test(k))) {
      if (v < 0) fail(file, `${k} = ${v} is negative; times must be ≥ 0`);
      if (v / 1e9 > 3600 * 24) fail(file, `${k} = ${v} ns is over a day: is it in nanoseconds?`);
      reported[k] = { value: v / 1e9, unit: 's' };
    } else if (/_ms$/.test(k)) reported[k] = { value: v / 1e3, unit: 's' };
    else if (/samples_per_sec/.test(k) || /qps/.test(k)) reported[k] = { value: v, unit: '1/s' };
    else if (/tokens_per_second/.test(k)) reported[k] = { value: v, unit: 'tokens/s' };
    else reported[k] = { value: v, unit: '' };
  }
  const scenario = values.get('effective_scenario') ?? values.get('requested_scenario');
  const qps = values.get('effective_target_qps');
  const run: BenchmarkRun = {
    records: [],
    source: MLPERF_SOURCE,
    maxConcurrency: null,
    requestRate: scenario === 'Server' && typeof qps === 'number' ? qps : null,
    startT: 0,
    endT: 0,
  };
  const validity = values.get('result_validity');
  return {
    file,
    format: 'mlperf-detail',
    run,
    missing: [
      'no per-sample records (the detail log holds only LoadGen’s aggregates): no definition can be recomputed; use mlperf_log_trace.json for per-sample times',
      'no run window in per-request form; LoadGen’s own rates are shown as reported',
    ],
    lacks: ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'runWindow'],
    notes: [
      `scenario ${typeof scenario === 'string' ? scenario : 'unknown'}; result_validity ${typeof validity === 'string' ? validity : 'not logged'}`,
      'LoadGen measures every latency from the scheduled time (coordinated-omission-free by construction)',
    ],
    clock: 'none (aggregates only)',
    lastTokenT: null,
    reported,
  };
}

interface SampleEv {
  id: number;
  ts: number;
  args: JsonObject;
  endTs: number | null;
}

export function importMlperfTrace(file: string, text: string, _opts: ImportOptions = {}): ImportResult {
  const r: Reader = new Reader(file);
  const doc = parseJson(file, text);
  const events = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.traceEvents) ? doc.traceEvents : null;
  if (!events) r.fail(`not a LoadGen mlperf_log_trace.json: no traceEvents list${looksLike(text)}`);

  const samples = new Map<number, SampleEv>();
  const tokenPairs = new Map<number, { ts: number; args: JsonObject }>();
  const tokenCounters = new Map<number, number[]>(); // scheduled ts (µs) → first-token offsets (ns)
  const tsOf = (e: JsonObject, where: string): number => {
    const ts = r.number(e.ts, `${where}.ts`);
    if (ts < 0) r.fail(`${where}.ts = ${ts} is negative; trace times are µs after the trace origin`);
    if (ts > MAX_TRACE_TS_US) r.fail(`${where}.ts = ${ts} is implausible in microseconds (nanoseconds?)`);
    return ts;
  };
  events.forEach((raw, i) => {
    if (!isObject(raw)) return;
    const e = raw;
    const where = `traceEvents[${i}]`;
    if (e.name === 'Sample' && (e.ph === 'b' || e.ph === 'e')) {
      const id = r.number(e.id, `${where}.id`);
      if (e.ph === 'b') {
        samples.set(id, { id, ts: tsOf(e, where), args: r.object(e.args, `${where}.args`), endTs: samples.get(id)?.endTs ?? null });
      } else {
        const s = samples.get(id);
        if (s) s.endTs = tsOf(e, where);
        else samples.set(id, { id, ts: NaN, args: {}, endTs: tsOf(e, where) });
      }
    } else if (e.name === 'Token' && e.ph === 'b') {
      tokenPairs.set(r.number(e.id, `${where}.id`), { ts: tsOf(e, where), args: r.object(e.args, `${where}.args`) });
    } else if (e.name === 'Token_Latency' && e.ph === 'C') {
      const a = r.object(e.args, `${where}.args`);
      const off = r.number(a.issue_delay, `${where}.args.issue_delay`) + r.number(a.issue_to_done, `${where}.args.issue_to_done`);
      if (off < 0) r.fail(`${where}.args: issue_delay + issue_to_done = ${off} ns is negative`);
      const ts = tsOf(e, where);
      const list = tokenCounters.get(ts) ?? [];
      list.push(off);
      tokenCounters.set(ts, list);
    }
  });
  if (samples.size === 0) r.fail('has no "Sample" events (was tracing off, or is this another trace?)');

  const byTs = new Map<number, number>();
  for (const s of samples.values()) byTs.set(s.ts, (byTs.get(s.ts) ?? 0) + 1);

  let ambiguous = 0;
  let withFirst = 0;
  const records: RequestRecord[] = [];
  const ordered = [...samples.values()].sort((a, b) => a.ts - b.ts || a.id - b.id);
  for (const s of ordered) {
    const where = `Sample ${s.id}`;
    if (!Number.isFinite(s.ts)) r.fail(`${where} has an end event but no begin event`);
    const ns = (k: string): number | null => {
      const v = s.args[k];
      if (v === undefined || v === null) return null;
      const x = r.number(v, `${where}.args.${k}`);
      if (x < 0) r.fail(`${where}.args.${k} = ${x} is negative; times after the scheduled time must be ≥ 0`);
      r.duration(x / 1e9, `${where}.args.${k} (${x} ns)`, 'nanoseconds');
      return x;
    };
    const issue = ns('issue_start_ns');
    const complete = ns('complete_ns');
    const dueT = s.ts / 1e6;
    if (issue !== null && complete !== null && complete < issue) {
      r.fail(`${where}: complete_ns (${complete}) is before issue_start_ns (${issue}): the sample finishes before it was sent`);
    }
    let finishT: number;
    if (complete !== null) {
      finishT = dueT + complete / 1e9;
      if (s.endTs !== null && Math.abs(s.endTs / 1e6 - finishT) > 1e-3 + 1e-3 * (finishT - dueT)) {
        r.fail(`${where}: complete_ns (${complete} ns after the schedule) disagrees with its end event (${(s.endTs - s.ts).toFixed(1)} µs): check the units`);
      }
    } else if (s.endTs !== null) finishT = s.endTs / 1e6;
    else r.fail(`${where} has neither complete_ns nor an end event`);
    let firstT: number | null = null;
    const pair = tokenPairs.get(s.id);
    if (pair && typeof pair.args.complete_ns === 'number') firstT = dueT + pair.args.complete_ns / 1e9;
    else {
      const offs = tokenCounters.get(s.ts);
      if (offs && byTs.get(s.ts) === 1) firstT = dueT + Math.min(...offs) / 1e9;
      else if (offs) ambiguous++;
    }
    if (firstT !== null) {
      withFirst++;
      if (firstT > finishT + 1e-6) r.fail(`${where}: the first token (${(firstT - dueT).toPrecision(4)} s) comes after completion (${(finishT - dueT).toPrecision(4)} s)`);
    }
    records.push({
      dueT,
      sendT: issue !== null ? dueT + issue / 1e9 : dueT,
      chunkTimes: null,
      chunkTokens: null,
      firstT,
      finishT,
      inputTokens: NaN,
      outputTokens: null,
      ok: true,
      preemptions: null,
    });
  }

  const missing = [
    'no token counts (LoadGen keeps n_tokens out of the trace): TPOT and every per-token speed cannot be computed',
    'no prompt lengths: input token throughput cannot be computed',
    'no per-chunk times: ITL and TPOT-with-gaps cannot be computed',
  ];
  const lacks: ImportResult['lacks'] = ['chunkTimes', 'chunkTokens', 'inputTokens', 'outputTokens', 'serverTokenCounts'];
  const notes = [
    'LoadGen has no failed samples; every record is ok',
    'run window: trace origin to the last completion (LoadGen’s own rates divide by the time until the last-issued query finished)',
  ];
  if (withFirst === 0) {
    missing.push('no first-token events (no Token_Latency counters or Token events): TTFT cannot be computed');
    lacks.push('firstToken');
  } else if (withFirst < records.length) {
    notes.push(`first-token time known for ${withFirst} of ${records.length} samples${ambiguous ? ` (${ambiguous} shared a scheduled time with another sample, so their Token_Latency counters could not be told apart)` : ''}`);
  }
  notes.push('first-token times are matched to samples by scheduled time (Token_Latency counters carry no sample id)');

  const run: BenchmarkRun = {
    records,
    source: MLPERF_SOURCE,
    maxConcurrency: null,
    requestRate: null,
    startT: 0,
    endT: records.reduce((m, x) => Math.max(m, x.finishT), 0),
  };
  return {
    file,
    format: 'mlperf-trace',
    run,
    missing,
    lacks,
    notes,
    clock: 'seconds after the LoadGen trace origin',
    lastTokenT: null,
    reported: {},
  };
}
