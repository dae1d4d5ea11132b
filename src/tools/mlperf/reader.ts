/**
 * MLPerf LoadGen output files (mlcommons/inference loadgen/{loadgen.cc,
 * logging.h, logging.cc, results.cc}, LoadGen 4.0 to 6.0).
 *
 * Every LoadGen from 4.0 to 6.0 writes the trace's `LogDetail`/`LogSummary`
 * string args as `""text""`, so no real trace is valid JSON: that exact
 * pattern is repaired (../base/json-text.ts), nothing else. The detail log's 64-bit
 * seeds are kept exactly, and each `result_*` key is typed by what it is:
 * `*_ns` and `result_time_to_output_token_*` are nanoseconds, `*_count` a
 * number of queries, `*_per_sec` a rate, `*tokens_per_second` a token rate.
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
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { inputLines, type ResultInput } from '../base/input.ts';
import { fail, isObject, parseJson, Reader, reportedOf, type Json, type JsonObject, type KeyUnit } from '../base/reading.ts';
import { isBigIntText, parseJsonExact, repairLoadgenQuotes, stripBom } from '../base/json-text.ts';
import type { ImportOptions, Imported, Reported, Recognition } from '../base/result.ts';

export const MLPERF_SOURCE = 'mlperf-loadgen';

/** A trace timestamp beyond this (in µs, ≈ 116 days) is surely nanoseconds written as microseconds. */
const MAX_TRACE_TS_US = 1e13;

/**
 * The unit LoadGen computes each key in (loadgen/results.cc @b66003e1,
 * PerformanceSummary::LogDetail and LogSummary; test_settings_internal.cc for
 * the settings), to SI, with the written unit kept. Names do not always say
 * it: `result_token_throughput` is token_count / (mean latency in ns × sample
 * count), tokens per NANOSECOND, while `…_with_loadgen_overhead` divides by
 * seconds; `early_stopping_latency_ss` and `…_ms` are both nanoseconds;
 * `result_time_to_output_token_*` and `requested_server_t*_latency` are ns
 * without a suffix; the over-latency count counts samples.
 */
export function mlperfKeyUnit(key: string): KeyUnit {
  const ns: KeyUnit = { scale: 1e-9, unit: 's', written: 'ns' };
  if (key === 'result_token_throughput') return { scale: 1e9, unit: 'tokens/s', written: 'tokens/ns' };
  if (/_ns$|latency_ns|^result_time_to_output_token_(min|max|mean)$|^early_stopping_latency_(ss|ms)$|^requested_server_t(t|p)ot_latency$|^generated_query_duration$|\(ns\)$|_percentile_estimate$/.test(key)) return ns;
  if (/_ms$|\(ms\)$/.test(key)) return { scale: 1e-3, unit: 's', written: 'ms' };
  if (/overlatency_query_count$/.test(key)) return { scale: 1, unit: 'samples' };
  if (/(query_count|_queries|queries_discarded|queries_processed)$/.test(key)) return { scale: 1, unit: 'queries' };
  if (/samples_per_query$/.test(key)) return { scale: 1, unit: 'samples per query' };
  if (/(sample_count|performance_count|total_count)$/.test(key)) return { scale: 1, unit: 'samples' };
  if (/samples_per_sec(ond)?$/.test(key)) return { scale: 1, unit: 'samples/s' };
  if (/qps/.test(key)) return { scale: 1, unit: 'queries/s' };
  if (/tokens_per_second|token_throughput|^tps/.test(key)) return { scale: 1, unit: 'tokens/s' };
  if (/(percentile|probability)$/.test(key)) return { scale: 1, unit: '1' };
  if (/^num_errors$/.test(key)) return { scale: 1, unit: 'errors' };
  return { scale: 1, unit: '' };
}

/** LoadGen's early-stopping text (" * Early stopping 90.0th percentile estimate: 272739682" …) → its numbers, keyed under `prefix`. */
function earlyStoppingNumbers(text: string, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  const processed = /Processed(?: at least \d+ queries)? \((\d+)\)|Processed (\d+) queries/.exec(text);
  if (processed) out[`${prefix}_queries_processed`] = Number(processed[1] ?? processed[2]);
  const discard = /Would discard (\d+) highest latency queries/.exec(text);
  if (discard) out[`${prefix}_queries_discarded`] = Number(discard[1]);
  for (const m of text.matchAll(/Early stopping ([\d.]+)th percentile estimate: (\d+)/g)) out[`${prefix}_${m[1]}th_percentile_estimate`] = Number(m[2]);
  return out;
}

/** LoadGen's warning when `sample_concatenate_permutation` is set (logging.cc): the samples per query may not be the setting's. */
const CONCAT_WARNING = 'LoadGen warns that sample_concatenate_permutation was set to true, so the samples per query may differ from the setting (the detail log’s generated_samples_per_query has the real value)';

function noEntry(r: Reader, opts: ImportOptions): void {
  if (opts.entry !== undefined && opts.entry !== 0) r.fail(`--entry ${opts.entry}: a LoadGen log holds one run; leave --entry out`);
}

const AGGREGATES_ONLY: Pick<Imported, 'lacks' | 'lastTokenT' | 'clock'> = {
  lacks: ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'runWindow'],
  lastTokenT: null,
  clock: 'none (aggregates only)',
};

export function importMlperfDetail(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  noEntry(r, opts);
  const values = new Map<string, Json | { bigint: string }>();
  let n = 0;
  for (const line of inputLines(input)) {
    const s = line.text.trim();
    const i = line.number - 1;
    if (s === '') continue;
    if (!s.startsWith(':::MLLOG')) {
      fail(file, `line ${i + 1} does not start with ":::MLLOG"; not an mlperf_log_detail.txt${seen.looksLike}`);
    }
    let v;
    try {
      v = parseJsonExact(s.slice(':::MLLOG'.length).trim());
    } catch (err) {
      fail(file, `line ${i + 1}: invalid JSON after :::MLLOG${line.last ? ' (the file ends inside this line: truncated?)' : ''}: ${(err as Error).message.split('\n')[0]}`);
    }
    if (!isObject(v as Json) || typeof (v as JsonObject).key !== 'string') fail(file, `line ${i + 1}: an MLLOG entry needs a "key"`);
    const o = v as JsonObject;
    values.set(o.key as string, o.value ?? null);
    n++;
  }
  if (n === 0) fail(file, 'is empty');

  const reported: Record<string, Reported> = {};
  for (const [k, v] of values) {
    if (!/^(result_|effective_|early_stopping_latency_|num_errors$)/.test(k)) continue;
    if (isBigIntText(v)) {
      reported[k] = { value: Number(v.bigint), unit: '', exact: v.bigint };
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const u = mlperfKeyUnit(k);
    if (u.unit === 's') {
      if (v < 0) fail(file, `${k} = ${v} is negative; times must be ≥ 0`);
      if (v * u.scale > 3600 * 24 && !/^effective_(max|min|target)_duration_ms$/.test(k)) fail(file, `${k} = ${v} is over a day in ${u.written === 'ns' ? 'nanoseconds' : 'milliseconds'}: is the unit right?`);
    }
    reported[k] = { ...reportedOf(v, u), ...(Number.isInteger(v) && !Number.isSafeInteger(v) ? { exact: String(v) } : {}) };
  }
  // the early-stopping results are sentences; their numbers are kept, each under its section (TTFT and TPOT apart)
  for (const [k, prefix] of [['early_stopping_result', 'early_stopping'], ['early_stopping_ttft_result', 'early_stopping_ttft'], ['early_stopping_tpot_result', 'early_stopping_tpot']] as const) {
    const t = values.get(k);
    if (typeof t !== 'string') continue;
    for (const [key, v] of Object.entries(earlyStoppingNumbers(t, prefix))) reported[key] = reportedOf(v, mlperfKeyUnit(key));
  }
  if (![...values.keys()].some((k) => k.startsWith('result_'))) {
    fail(file, `holds ${n} MLLOG line${n === 1 ? '' : 's'} and no result_* entry: LoadGen logs its results at the end of a run, so this log is cut off or the run did not finish`);
  }
  const scenario = values.get('effective_scenario') ?? values.get('requested_scenario');
  const qps = values.get('effective_target_qps');
  const version = values.get('loadgen_version');
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
    version: `MLPerf LoadGen ${typeof version === 'string' ? version : '(version not logged)'}`,
    run,
    missing: [
      'no per-sample records (the detail log holds only LoadGen’s aggregates): no definition can be recomputed; mlperf_log_trace.json of the same run has per-sample times',
    ],
    ...AGGREGATES_ONLY,
    notes: [
      `scenario ${typeof scenario === 'string' ? scenario : 'unknown'}; result_validity ${typeof validity === 'string' ? validity : 'not logged'}`,
      'LoadGen measures every latency from the scheduled time (coordinated-omission-free by construction)',
      ...(values.get('effective_sample_concatenate_permutation') === true || values.get('requested_sample_concatenate_permutation') === true
        ? [`${CONCAT_WARNING}; in this log generated_samples_per_query is ${JSON.stringify(values.get('generated_samples_per_query') ?? 'not logged')}`]
        : []),
      ...(values.get('early_stopping_ttft_result') === '' && typeof values.get('early_stopping_tpot_result') === 'string' && values.get('early_stopping_tpot_result') !== ''
        ? ['LoadGen did not evaluate TTFT early stopping: it skips it when the TPOT one fails (results.cc: TPOT && TTFT)']
        : []),
    ],
    reported,
    failures: {},
    ...(typeof values.get('result_query_count') === 'number' ? { completed: { key: 'result_query_count', value: values.get('result_query_count') as number, unit: 'queries' } } : {}),
  };
}

/** `mlperf_log_summary.txt`: the human-readable `Name (unit) : value` lines. */
export function importMlperfSummary(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  noEntry(r, opts);
  const body = stripBom(input.text());
  if (!/MLPerf Results Summary/.test(body)) r.fail(`not an mlperf_log_summary.txt: no "MLPerf Results Summary" header${seen.looksLike}`);
  // LoadGen ends every line; a last line without its end was cut off, and a number in it may have lost digits
  const lines = body.split(/\r?\n/);
  const last = lines[lines.length - 1];
  if (last.trim() !== '' && /:\s*\S/.test(last)) {
    r.fail(`the file ends inside line ${lines.length} ("${last.trim().slice(0, 60)}") without a line end: it looks cut off, and its value may have lost digits; use the complete file`);
  }
  const reported: Record<string, Reported> = {};
  const settings: Record<string, string> = {};
  // "TTFT Early Stopping Result:" and "TPOT Early Stopping Result:" open sections whose lines have the same shape
  let section: string | null = null;
  let sectionText = '';
  const flush = (): void => {
    if (section !== null) for (const [key, v] of Object.entries(earlyStoppingNumbers(sectionText, section))) reported[key] = reportedOf(v, mlperfKeyUnit(key));
    section = null;
    sectionText = '';
  };
  for (const line of body.split(/\r?\n/)) {
    const head = /^\s*(?:(TTFT|TPOT) )?Early Stopping Result:\s*$/.exec(line);
    if (head) {
      flush();
      section = head[1] ? `early_stopping_${head[1].toLowerCase()}` : 'early_stopping';
      continue;
    }
    if (section !== null) {
      if (/^\s*\*/.test(line)) {
        sectionText += ` ${line}`;
        continue;
      }
      flush();
    }
    const m = /^\s*([^:=*\s][^:]*?)\s*:\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const name = m[1].trim();
    const raw = m[2];
    if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) {
      const key = name.replace(/\s*\((ns|ms)\)$/, '_$1').replace(/\s+/g, '_').toLowerCase();
      const u = mlperfKeyUnit(key);
      reported[key] = { ...reportedOf(Number(raw), u), ...(/^\d{16,}$/.test(raw) && !Number.isSafeInteger(Number(raw)) ? { exact: raw } : {}) };
    } else settings[name] = raw;
  }
  flush();
  if (Object.keys(reported).length === 0) r.fail('has the summary header but no "name : number" lines');
  const scenario = settings.Scenario;
  return {
    file,
    format: 'mlperf-summary',
    version: 'MLPerf LoadGen summary (version not written in this file)',
    run: { records: [], source: MLPERF_SOURCE, maxConcurrency: null, requestRate: null, startT: 0, endT: 0 },
    missing: ['aggregates only (the human-readable summary): no definition can be recomputed; mlperf_log_trace.json of the same run has per-sample times'],
    ...AGGREGATES_ONLY,
    notes: [
      `scenario ${scenario ?? 'unknown'}; result ${settings['Result is'] ?? 'not given'}`,
      ...(/WARNING: sample_concatenate_permutation was set to true/.test(body) ? [CONCAT_WARNING] : []),
      ...(/TTFT Early Stopping Result:\s*\n\s*TPOT Early Stopping Result:/.test(body) ? ['LoadGen did not evaluate TTFT early stopping: it skips it when the TPOT one fails (results.cc: TPOT && TTFT)'] : []),
    ],
    reported,
    failures: {},
    ...(reported.early_stopping_tpot_queries_processed ?? reported.early_stopping_queries_processed
      ? { completed: { key: 'early-stopping “Processed … queries” line', value: (reported.early_stopping_tpot_queries_processed ?? reported.early_stopping_queries_processed).value, unit: 'queries' } }
      : {}),
  };
}

interface SampleEv {
  id: number;
  ts: number;
  args: JsonObject;
  endTs: number | null;
}

export function importMlperfTrace(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  noEntry(r, opts);
  const { text: repairedText, repaired } = repairLoadgenQuotes(stripBom(input.text()));
  const doc = parseJson(file, repairedText);
  const events = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.traceEvents) ? doc.traceEvents : null;
  if (!events) r.fail(`not a LoadGen mlperf_log_trace.json: no traceEvents list${seen.looksLike}`);

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
  const lacks: Imported['lacks'] = ['chunkTimes', 'chunkTokens', 'inputTokens', 'outputTokens', 'serverTokenCounts'];
  const notes = [
    ...(repaired ? [`${repaired} LogDetail/LogSummary args written as ""text"" by LoadGen were read as strings (that pattern only)`] : []),
    'LoadGen has no failed samples; every record is ok',
    'run window: trace origin to the last completion (LoadGen’s own rates divide by the time until the last-issued query finished)',
  ];
  if (withFirst === 0) {
    missing.push('no first-token events (no Token_Latency counters or Token events): TTFT cannot be computed');
    lacks.push('firstToken');
  } else if (withFirst < records.length) {
    notes.push(`first-token time known for ${withFirst} of ${records.length} samples${ambiguous ? ` (${ambiguous} shared a scheduled time with another sample, so their Token_Latency counters could not be told apart)` : ''}`);
  }
  if (withFirst > 0 && tokenCounters.size > 0) notes.push('first-token times are matched to samples by scheduled time (Token_Latency counters carry no sample id)');

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
    version: 'MLPerf LoadGen trace (4.0 to 6.0 write the same events)',
    failures: {},
    run,
    missing,
    lacks,
    notes,
    clock: 'seconds after the LoadGen trace origin',
    lastTokenT: null,
    reported: {},
  };
}
