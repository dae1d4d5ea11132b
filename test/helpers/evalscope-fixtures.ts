/**
 * EvalScope perf files built from the WRITER's source, since no user has
 * published one (../shared/real-results/README: none in modelscope/evalscope's
 * whole history). Provenance, per file:
 *
 * - benchmark_data.db: the CREATE TABLE and the two INSERT statements of
 *   evalscope/perf/utils/db_util.py `create_result_table` and
 *   `insert_benchmark_data`, copied with their column lists, at fde259d2
 *   (2026-08-22: 14 columns, with request_id and is_stream) and at 188bf5fb
 *   (2026-04-29, the parent of b700f5ae: the 12-column table), run by sql.js.
 *   A failed request is inserted with the common columns only, as the writer
 *   does. The requests' values follow the writer's derivations
 *   (default_api.py: latency = completed − start, first_chunk_latency, the
 *   gaps between messages; benchmark_util.py `finalize`: TPOT =
 *   (latency − TTFT) / (completion_tokens − 1)).
 * - benchmark_summary.json / benchmark_percentile.json: the key names of
 *   perf_constants.py `Metrics` / `PercentileMetrics` at fde259d2 and of
 *   benchmark_util.py `Metrics` / db_util.py `PercentileMetrics` at 188bf5fb,
 *   with the rows shaped as `summary_result` writes them (`write_json_file`:
 *   a dict; a list of one dict per percentile label).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import initSqlJs from 'sql.js';

/** One request as the writer's BenchmarkData holds it after `finalize` (seconds, perf_counter clock). */
export interface FixtureRequest {
  start: number;
  ttft: number;
  gaps: number[];
  /** the usage chunk's extra time after the last content message (the end is the last message of any kind) */
  tail: number;
  prompt: number;
  completion: number;
  ok: boolean;
}

export const REQUESTS: FixtureRequest[] = [
  { start: 1000.0, ttft: 0.2, gaps: [0.05, 0.05, 0.1], tail: 0.01, prompt: 100, completion: 4, ok: true },
  { start: 1000.5, ttft: 0.3, gaps: [0.04, 0.06, 0.05, 0.05], tail: 0.0, prompt: 120, completion: 5, ok: true },
  { start: 1001.0, ttft: 0.25, gaps: [0.1], tail: 0.02, prompt: 90, completion: 2, ok: true },
  { start: 1001.5, ttft: 0, gaps: [], tail: 0, prompt: 80, completion: 0, ok: false },
];

export const latencyOf = (q: FixtureRequest): number => q.ttft + q.gaps.reduce((a, b) => a + b, 0) + q.tail;

const CREATE_FDE259D2 = `CREATE TABLE IF NOT EXISTS result(
                      request TEXT,
                      start_time REAL,
                      inter_token_latencies TEXT,
                      success INTEGER,
                      response_messages TEXT,
                      completed_time REAL,
                      latency REAL,
                      first_chunk_latency REAL,
                      prompt_tokens INTEGER,
                      completion_tokens INTEGER,
                      max_gpu_memory_cost REAL,
                      time_per_output_token REAL,
                      request_id TEXT,
                      is_stream INTEGER
                   )`;
const OK_FDE259D2 = `INSERT INTO result(
                      request, start_time, inter_token_latencies,
                      success, response_messages, completed_time,
                      request_id, is_stream,
                      latency, first_chunk_latency, prompt_tokens,
                      completion_tokens, max_gpu_memory_cost,
                      time_per_output_token
                   ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const FAILED_FDE259D2 = `INSERT INTO result(
                      request, start_time, inter_token_latencies,
                      success, response_messages, completed_time,
                      request_id, is_stream
                   ) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

const CREATE_188BF5FB = `CREATE TABLE IF NOT EXISTS result(
                      request TEXT,
                      start_time REAL,
                      inter_token_latencies TEXT,
                      success INTEGER,
                      response_messages TEXT,
                      completed_time REAL,
                      latency REAL,
                      first_chunk_latency REAL,
                      prompt_tokens INTEGER,
                      completion_tokens INTEGER,
                      max_gpu_memory_cost REAL,
                      time_per_output_token REAL
                   )`;
const OK_188BF5FB = `INSERT INTO result(
                      request, start_time, inter_token_latencies,
                      success, response_messages, completed_time,
                      latency, first_chunk_latency, prompt_tokens,
                      completion_tokens, max_gpu_memory_cost,
                      time_per_output_token
                   ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const FAILED_188BF5FB = `INSERT INTO result(
                      request, start_time, inter_token_latencies,
                      success, response_messages, completed_time
                   ) VALUES (?, ?, ?, ?, ?, ?)`;

/** The bytes of a benchmark_data.db the writer at `commit` would leave for REQUESTS. */
export async function evalscopeDb(commit: 'fde259d2' | '188bf5fb', requests: FixtureRequest[] = REQUESTS): Promise<Uint8Array> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
  const SQL = await initSqlJs({ wasmBinary: wasm as unknown as ArrayBuffer });
  const db = new SQL.Database();
  const recent = commit === 'fde259d2';
  db.run(recent ? CREATE_FDE259D2 : CREATE_188BF5FB);
  requests.forEach((q, i) => {
    const latency = latencyOf(q);
    // the request body as json.dumps writes it; response_messages as encode_data (base64 of a pickle) — any text stands in
    const common = [JSON.stringify({ model: 'm', stream: true }), q.start, JSON.stringify(q.ok ? q.gaps : []), q.ok ? 1 : 0, 'gARdlC4=', q.start + (q.ok ? latency : 0.5)];
    const ids = recent ? [`req-${i}`, 1] : [];
    if (q.ok) {
      const tpot = q.completion > 1 ? (latency - q.ttft) / (q.completion - 1) : 0;
      db.run(recent ? OK_FDE259D2 : OK_188BF5FB, [...common, ...ids, latency, q.ttft, q.prompt, q.completion, 0, tpot]);
    } else {
      db.run(recent ? FAILED_FDE259D2 : FAILED_188BF5FB, [...common, ...ids]);
    }
  });
  const bytes = db.export();
  db.close();
  return bytes;
}

/** benchmark_summary.json key names: perf_constants.py Metrics at fde259d2, benchmark_util.py Metrics at 188bf5fb. */
export function evalscopeSummary(commit: 'fde259d2' | '188bf5fb'): Record<string, number> {
  const ok = REQUESTS.filter((q) => q.ok);
  const avg = (f: (q: FixtureRequest) => number) => ok.reduce((a, q) => a + f(q), 0) / ok.length;
  const span = Math.max(...REQUESTS.map((q) => q.start + latencyOf(q))) - Math.min(...REQUESTS.map((q) => q.start));
  const ms = commit === 'fde259d2' ? 1000 : 1;
  const names = commit === 'fde259d2'
    ? ['Test Duration (s)', 'Concurrency', 'Request Rate (req/s)', 'Total Requests', 'Success Requests', 'Failed Requests', 'Req Throughput (req/s)', 'Avg Latency (s)', 'Avg Input Tokens', 'Output Throughput (tok/s)', 'Total Throughput (tok/s)', 'Avg TTFT (ms)', 'Avg TPOT (ms)', 'Avg ITL (ms)', 'Avg Output Tokens']
    : ['Time taken for tests (s)', 'Number of concurrency', 'Request rate (req/s)', 'Total requests', 'Succeed requests', 'Failed requests', 'Request throughput (req/s)', 'Average latency (s)', 'Average input tokens per request', 'Output token throughput (tok/s)', 'Total token throughput (tok/s)', 'Average time to first token (s)', 'Average time per output token (s)', 'Average inter-token latency (s)', 'Average output tokens per request'];
  const gaps = ok.flatMap((q) => q.gaps);
  const values = [span, 2, -1, REQUESTS.length, ok.length, REQUESTS.length - ok.length, ok.length / span, avg(latencyOf), avg((q) => q.prompt),
    ok.reduce((a, q) => a + q.completion, 0) / span, ok.reduce((a, q) => a + q.completion + q.prompt, 0) / span,
    avg((q) => q.ttft) * ms, avg((q) => (latencyOf(q) - q.ttft) / (q.completion - 1)) * ms, (gaps.reduce((a, b) => a + b, 0) / gaps.length) * ms, avg((q) => q.completion)];
  return Object.fromEntries(names.map((n, i) => [n, values[i]]));
}

/** benchmark_percentile.json rows: PercentileMetrics at fde259d2 (ms, min/max rows) and at 188bf5fb (s). */
export function evalscopePercentiles(commit: 'fde259d2' | '188bf5fb'): Record<string, string | number>[] {
  const recent = commit === 'fde259d2';
  const labels = recent ? ['min', '1%', '5%', '10%', '25%', '50%', '75%', '90%', '95%', '99%', 'max'] : ['10%', '25%', '50%', '66%', '75%', '80%', '90%', '95%', '98%', '99%'];
  const u = recent ? 'ms' : 's';
  return labels.map((label, i) => ({ Percentiles: label, [`TTFT (${u})`]: 0.2 + i * 0.01, [`ITL (${u})`]: 0.05, [`TPOT (${u})`]: 0.07, 'Latency (s)': 0.5, 'Input tokens': 100, 'Output tokens': 4, 'Output (tok/s)': 8, 'Input (tok/s)': 200, 'Total (tok/s)': 208, ...(recent ? { 'Decode (tok/s)': 14 } : {}) }));
}
