/**
 * EvalScope perf's per-request database `benchmark_data.db` (SQLite), table
 * `result`, as db_util.py `create_result_table` / `insert_benchmark_data`
 * write it: `start_time`, `completed_time` (perf_counter seconds, one clock),
 * `latency`, `first_chunk_latency`, `time_per_output_token` (seconds, derived
 * by the tool), `inter_token_latencies` (a JSON list of the gaps between
 * messages, seconds), `prompt_tokens`, `completion_tokens` (server usage when
 * sent), `success`; `request_id` from 4250718a (2026-07-17) and `is_stream`
 * from fbfb6255 (2026-07-21). A failed request keeps only the common columns.
 *
 * Each record: sendT = start_time, firstT = sendT + first_chunk_latency,
 * chunkTimes = firstT then + each gap, finishT = completed_time, all shifted
 * so the first send is t = 0.
 */
import type { ResultInput } from '../base/input.ts';
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { chunkTimesFromGaps, fail, MAX_PLAUSIBLE_REQUEST_S } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Recognition } from '../base/result.ts';
import type { SqlCell, SqliteTables } from '../base/sqlite-tables.ts';
import { EVALSCOPE_SOURCE } from './reader.ts';

/** The columns every version of the `result` table has (db_util.py `DatabaseColumns`, 2024 on). */
const REQUIRED = ['start_time', 'inter_token_latencies', 'success', 'completed_time', 'latency', 'first_chunk_latency', 'prompt_tokens', 'completion_tokens', 'time_per_output_token'];

export function isEvalscopeDb(tables: SqliteTables): boolean {
  const t = tables.result;
  return t !== undefined && REQUIRED.every((c) => t.columns.includes(c));
}

/** Opened as text (not through its bytes), an SQLite file cannot be read: say how it is read. */
export function importEvalscopeDbText(file: string, _input: ResultInput, _opts: ImportOptions, _seen: Recognition): Imported {
  fail(file, 'is an SQLite database; it is read from its bytes, as `stopwatches metrics FILE` does');
}

export function importEvalscopeDb(file: string, tables: SqliteTables, _opts: ImportOptions): Imported {
  if (!isEvalscopeDb(tables)) {
    const have = tables.result ? `its result table has ${tables.result.columns.join(', ')}` : `it has no result table (tables: ${Object.keys(tables).join(', ') || 'none'})`;
    fail(file, `not an evalscope benchmark_data.db: ${have}; expected the columns ${REQUIRED.join(', ')}`);
  }
  const { columns, rows } = tables.result;
  if (rows.length === 0) fail(file, 'the result table has no rows: the run recorded no request, so there is nothing to compute');
  const col = (name: string) => columns.indexOf(name);
  const at = (i: number, name: string) => `result row ${i + 1}, ${name}`;
  const num = (row: SqlCell[], i: number, name: string, opt = false): number | null => {
    const v = row[col(name)];
    if (v === null || v === undefined) {
      if (opt) return null;
      fail(file, `${at(i, name)} is empty`);
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(file, `${at(i, name)} = ${String(v)}: a number is needed here`);
    return v;
  };
  const seconds = (row: SqlCell[], i: number, name: string): number => {
    const s = num(row, i, name)!;
    if (s < 0 || s > MAX_PLAUSIBLE_REQUEST_S) fail(file, `${at(i, name)} = ${s} s is implausible for one request: the column holds seconds`);
    return s;
  };
  const streamCol = col('is_stream');
  const failures: Record<string, number> = {};
  const raw = rows.map((row, i) => {
    const ok = num(row, i, 'success') === 1;
    const start = num(row, i, 'start_time')!;
    const end = num(row, i, 'completed_time')!;
    if (end < start) fail(file, `${at(i, 'completed_time')} is before its start_time`);
    if (!ok) {
      failures['failed (the database keeps no reason)'] = (failures['failed (the database keeps no reason)'] ?? 0) + 1;
      return { ok, start, end, ttft: null, gaps: null, input: NaN, output: null as number | null, stream: false };
    }
    const ttft = seconds(row, i, 'first_chunk_latency');
    const latency = seconds(row, i, 'latency');
    // the tool's latency is completed − start; a mismatch means the columns are not what they should be
    if (Math.abs(end - start - latency) > 1e-6 * Math.max(1, latency)) fail(file, `${at(i, 'latency')} = ${latency} s but completed_time − start_time = ${end - start} s`);
    const itlText = row[col('inter_token_latencies')];
    let gaps: number[] = [];
    if (typeof itlText === 'string' && itlText !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(itlText);
      } catch {
        fail(file, `${at(i, 'inter_token_latencies')} is not a JSON list`);
      }
      if (!Array.isArray(parsed) || parsed.some((g) => typeof g !== 'number' || !(g >= 0))) fail(file, `${at(i, 'inter_token_latencies')} should be a list of gaps ≥ 0 in seconds`);
      gaps = parsed as number[];
    }
    // is_stream exists from fbfb6255; before it, a request with gaps or a TTFT below its latency was streamed
    const stream = streamCol >= 0 ? row[streamCol] === 1 : gaps.length > 0 || ttft < latency;
    const input = num(row, i, 'prompt_tokens', true);
    const output = num(row, i, 'completion_tokens', true);
    return { ok, start, end, ttft, gaps, input: input ?? NaN, output, stream };
  });
  const t0 = Math.min(...raw.map((x) => x.start));
  const records: RequestRecord[] = raw.map((x) => {
    const sendT = x.start - t0;
    const firstT = x.ok && x.stream && x.ttft !== null ? sendT + x.ttft : null;
    return {
      dueT: null,
      sendT,
      chunkTimes: firstT !== null ? chunkTimesFromGaps(firstT, x.gaps ?? []) : null,
      chunkTokens: null,
      firstT,
      finishT: x.end - t0,
      inputTokens: x.input,
      outputTokens: x.ok ? x.output : null,
      ok: x.ok,
      preemptions: null,
    };
  });
  const ok = raw.filter((x) => x.ok);
  const lacks = new Set<Capability>(['schedule', 'chunkTokens']);
  const missing = [
    'no scheduled times: the database keeps when each request was sent, not when it was due',
    'no per-chunk token counts: a message’s tokens are not kept',
  ];
  const notes: string[] = [];
  const unary = ok.filter((x) => !x.stream).length;
  if (unary === ok.length) {
    lacks.add('chunkTimes').add('firstToken');
    missing.push('no request was streamed: TTFT, ITL and TPOT cannot be computed');
  } else if (unary > 0) notes.push(`${unary} of ${ok.length} successful requests were not streamed: they have no TTFT or ITL`);
  if (ok.some((x) => Number.isNaN(x.input))) lacks.add('inputTokens');
  if (ok.some((x) => x.output === null)) lacks.add('outputTokens');
  notes.push('the first token is the first SSE message with choices (a role chunk with empty content counts); the end is the last message of any kind, the usage chunk included');
  const version = columns.includes('is_stream') ? 'with is_stream (fbfb6255, Jul 2026, on)' : columns.includes('request_id') ? 'with request_id (4250718a, Jul 2026)' : 'the 12-column table (2024 to Jul 2026)';
  const run: BenchmarkRun = { records, source: EVALSCOPE_SOURCE, maxConcurrency: null, requestRate: null, startT: 0, endT: Math.max(...records.map((r) => r.finishT)) };
  return {
    file,
    format: 'evalscope-db',
    version: `evalscope perf benchmark_data.db, ${version}`,
    definitions: { evalscope: 'default_api.py @fde259d2' },
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: 'time.perf_counter() seconds, shifted so the first send is t = 0',
    lastTokenT: null,
    reported: {},
    failures,
  };
}
