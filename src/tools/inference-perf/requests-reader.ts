/**
 * inference-perf's `per_request_lifecycle_metrics.json` (written with
 * `report.request_lifecycle.per_request: true`): a JSON list, one object per
 * request, `{start_time, end_time, request, response, info, error}`
 * (reportgen/base.py `generate_reports`; `info` since eb3102f, 2025-06-17).
 * Times are `time.perf_counter()` seconds, one clock for the whole run; the
 * file keeps no `scheduled_time`, so the schedule delay is not in it.
 *
 * `info` (a `model_dump` of apis/base.py `InferenceInfo`) has had three layouts:
 *  1. `info.output_token_times` (eb3102f 2025-06-17 … v0.4.0): `input_tokens`,
 *     `output_tokens`, and one time per streamed chunk;
 *  2. `info.response_info.*` (3b882ba 2026-04-24, v0.5.0): `input_tokens` and
 *     `response_info` {`response_chunks`, `chunk_times`, `output_tokens`,
 *     `output_token_times`};
 *  3. `info.response_metrics.*` (f23cb85 2026-05-11, v0.6.0 on):
 *     `request_metrics.text.input_tokens` and `response_metrics`
 *     {`output_tokens`, `server_usage`, `chunk_times`, `output_token_times`}.
 * In 2 and 3, `output_token_times` starts as a copy of `chunk_times` and is
 * replaced by one time per token when the report step re-tokenizes the chunks,
 * so it tells how many tokens each chunk carried when it differs.
 */
import type { ResultInput } from '../base/input.ts';
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { isObject, readJsonDocument, Reader, type Json, type JsonObject } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Recognition } from '../base/result.ts';
import type { InferencePerfVersion } from './definitions.ts';
import { INFERENCE_PERF_SOURCE } from './lifecycle-reader.ts';

export type Layout = 'output_token_times' | 'response_info' | 'response_metrics';

export const LAYOUTS: Record<Layout, { label: string; definitions: InferencePerfVersion }> = {
  output_token_times: { label: 'info.output_token_times (eb3102f, Jun 2025, to v0.4.0): one time per chunk', definitions: 'chunks' },
  response_info: { label: 'info.response_info.* (3b882ba, Apr 2026, v0.5.0)', definitions: 'tokens' },
  response_metrics: { label: 'info.response_metrics.* (f23cb85, May 2026, v0.6.0 on)', definitions: 'tokens' },
};

/** Whether one parsed value looks like a per-request lifecycle list. */
export function isPerRequest(v: Json): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  const x = v[0];
  return isObject(x) && 'start_time' in x && 'end_time' in x && 'info' in x && 'error' in x;
}

function layoutOf(info: JsonObject): Layout | null {
  if ('response_metrics' in info || 'request_metrics' in info) return 'response_metrics';
  if ('response_info' in info) return 'response_info';
  if ('output_token_times' in info) return 'output_token_times';
  return null;
}

/** How many of `tokenTimes` fall on each chunk time, or null when they are not chunk times repeated in order. */
function tokensPerChunk(chunks: number[], tokenTimes: number[]): number[] | null {
  const out = chunks.map(() => 0);
  let k = 0;
  for (const t of tokenTimes) {
    while (k < chunks.length && chunks[k] !== t) k++;
    if (k === chunks.length) return null;
    out[k]++;
  }
  return out;
}

export function importInferencePerfRequests(file: string, input: ResultInput, _opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const doc = readJsonDocument(input);
  if (!isPerRequest(doc)) r.fail(`not an inference-perf per-request file: a list of {start_time, end_time, info, error} objects is expected${seen.looksLike}`);
  const items = doc as Json[];
  let layout: Layout | null = null;
  const failures: Record<string, number> = {};
  const raw: { start: number; end: number; ok: boolean; chunks: number[] | null; tokens: number[] | null; input: number; output: number | null; server: number | null }[] = [];
  let unary = 0;
  for (let i = 0; i < items.length; i++) {
    const at = `[${i}]`;
    const x = r.object(items[i], at);
    const start = r.number(x.start_time, `${at}.start_time`);
    const end = r.number(x.end_time, `${at}.end_time`);
    r.duration(end - start, `${at}.end_time − start_time`);
    const ok = x.error === null || x.error === undefined;
    if (!ok) {
      const e = r.object(x.error, `${at}.error`);
      const why = typeof e.error_type === 'string' ? e.error_type : 'error';
      failures[why] = (failures[why] ?? 0) + 1;
    }
    const info = x.info === null || x.info === undefined ? null : r.object(x.info, `${at}.info`);
    const here = info ? layoutOf(info) : null;
    if (here) {
      if (layout && here !== layout) r.fail(`${at}.info has the ${here} layout but earlier records the ${layout} one: records of two inference-perf versions in one file`);
      layout = here;
    }
    let chunks: number[] | null = null;
    let tokenTimes: number[] | null = null;
    let input = NaN;
    let output: number | null = null;
    let server: number | null = null;
    const times = (v: Json | undefined, where: string) => (v === undefined || v === null ? null : r.array(v, where).map((t, k) => r.number(t, `${where}[${k}]`)));
    if (info && here === 'output_token_times') {
      chunks = times(info.output_token_times, `${at}.info.output_token_times`);
      input = r.count(info.input_tokens ?? 0, `${at}.info.input_tokens`);
      output = r.count(info.output_tokens ?? 0, `${at}.info.output_tokens`);
    } else if (info && here) {
      const resp = here === 'response_info' ? info.response_info : info.response_metrics;
      const rm = isObject(info.request_metrics) && isObject(info.request_metrics.text) ? info.request_metrics.text : null;
      input = r.count(rm ? rm.input_tokens : info.input_tokens ?? 0, rm ? `${at}.info.request_metrics.text.input_tokens` : `${at}.info.input_tokens`);
      if (resp !== null && resp !== undefined) {
        const where = `${at}.info.${here}`;
        const o = r.object(resp, where);
        output = r.count(o.output_tokens ?? 0, `${where}.output_tokens`);
        chunks = times(o.chunk_times, `${where}.chunk_times`);
        tokenTimes = times(o.output_token_times, `${where}.output_token_times`);
        if (isObject(o.server_usage) && typeof o.server_usage.completion_tokens === 'number') server = o.server_usage.completion_tokens;
      }
    }
    if (ok && chunks === null) unary++;
    let tokens: number[] | null = null;
    if (chunks && tokenTimes && tokenTimes.length !== chunks.length) {
      tokens = tokensPerChunk(chunks, tokenTimes);
      if (!tokens) r.fail(`${at}: output_token_times are not the chunk_times repeated per token; the file is inconsistent`);
    }
    raw.push({ start, end, ok, chunks, tokens, input, output, server });
  }
  if (layout === null) r.fail('no record has an info object: the file was written before inference-perf kept per-request info (eb3102f, Jun 2025), so there is nothing to compute');
  const t0 = Math.min(...raw.map((x) => x.start));
  const records: RequestRecord[] = raw.map((x) => {
    const chunkTimes = x.ok && x.chunks ? Float64Array.from(x.chunks, (t) => t - t0) : null;
    return {
      dueT: null,
      sendT: x.start - t0,
      chunkTimes,
      chunkTokens: chunkTimes && x.tokens ? x.tokens : null,
      firstT: chunkTimes && chunkTimes.length > 0 ? chunkTimes[0] : null,
      finishT: x.end - t0,
      inputTokens: x.input,
      outputTokens: x.ok ? x.output : null,
      ok: x.ok,
      preemptions: null,
    };
  });
  const ok = raw.filter((x) => x.ok);
  const lacks = new Set<Capability>(['schedule']);
  const missing = ['no scheduled times: the per-request file keeps no scheduled_time, so the wait behind the schedule (load_summary.schedule_delay in the lifecycle reports) cannot be recomputed'];
  const notes: string[] = [`layout ${LAYOUTS[layout].label}`];
  if (!records.some((x) => x.chunkTokens)) lacks.add('chunkTokens');
  if (unary === ok.length && ok.length > 0) {
    lacks.add('chunkTimes').add('firstToken');
    missing.push('no chunk times (non-streamed requests): TTFT, ITL and TPOT cannot be computed');
  }
  const serverAgrees = ok.length > 0 && ok.every((x) => x.server !== null && x.server === x.output);
  if (!serverAgrees) {
    lacks.add('serverTokenCounts');
    notes.push('output tokens are inference-perf’s own count of the streamed text (its default for TPOT and NTPOT), not the server’s usage count');
  }
  const run: BenchmarkRun = {
    records,
    source: INFERENCE_PERF_SOURCE,
    maxConcurrency: null,
    requestRate: null,
    startT: 0,
    endT: Math.max(...records.map((x) => x.finishT)),
  };
  return {
    file,
    format: 'inference-perf-requests',
    version: `inference-perf per-request file, layout ${LAYOUTS[layout].label}`,
    definitions: { 'inference-perf': LAYOUTS[layout].definitions },
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
