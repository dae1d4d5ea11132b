/**
 * LLMPerf `{model}_{in}_{out}_individual_responses.json` (token_benchmark_ray.py,
 * src/llmperf/common_metrics.py at commit f1d6bed, 2024-12-08; TOOLS.md §6.6).
 *
 * A JSON list, one object per request. Units: every `_s` field is SECONDS;
 * token counts are LLMPerf's own — `number_output_tokens` is the Llama 2
 * tokenizer's count of the generated text, whatever model produced it.
 *
 * The file has NO timestamps: only per-request durations. Each record is
 * therefore placed on its own clock (sendT = 0):
 *   sendT = 0, firstT = ttft_s, finishT = end_to_end_latency_s (after the stream closed),
 *   dueT = null, chunkTimes = null, outputTokens = number_output_tokens (Llama 2 tokens).
 */
import type { BenchmarkRun, RequestRecord } from '../metrics/records.ts';
import { isObject, parseJson, Reader, type Json } from './common.ts';
import { looksLike } from './detect.ts';
import type { ImportOptions, ImportResult, Reported } from './types.ts';

export const LLMPERF_SOURCE = 'llmperf';

/** LLMPerf writes request_output_throughput = tokens / e2e; a product this far off means a unit slip. */
const THROUGHPUT_CONSISTENCY = 0.01;

export function importLlmperf(file: string, text: string, _opts: ImportOptions = {}): ImportResult {
  const r: Reader = new Reader(file);
  const doc = parseJson(file, text);
  if (!Array.isArray(doc) || (doc.length > 0 && !(isObject(doc[0]) && ('end_to_end_latency_s' in doc[0] || 'ttft_s' in doc[0])))) {
    r.fail(`not an LLMPerf individual_responses.json: expected a list of requests with ttft_s and end_to_end_latency_s${looksLike(text)}`);
  }
  if (doc.length === 0) r.fail('holds no requests');
  const records: RequestRecord[] = [];
  const sums: Record<string, { s: number; n: number }> = {};
  const add = (k: string, v: number | null): void => {
    if (v === null) return;
    (sums[k] ??= { s: 0, n: 0 }).s += v;
    sums[k].n++;
  };
  doc.forEach((entry: Json, i: number) => {
    const where = `[${i}]`;
    const q = r.object(entry, where);
    const errorCode = q.error_code;
    const ok = (errorCode === null || errorCode === undefined) && !(typeof q.error_msg === 'string' && q.error_msg !== '');
    const ttft = r.optNumber(q.ttft_s, `${where}.ttft_s`);
    const e2e = r.optNumber(q.end_to_end_latency_s, `${where}.end_to_end_latency_s`);
    if (ttft !== null) r.duration(ttft, `${where}.ttft_s`);
    if (e2e !== null) r.duration(e2e, `${where}.end_to_end_latency_s`);
    const itl = r.optNumber(q.inter_token_latency_s, `${where}.inter_token_latency_s`);
    if (itl !== null) r.duration(itl, `${where}.inter_token_latency_s`);
    const nOut = q.number_output_tokens === undefined || q.number_output_tokens === null ? null : r.count(q.number_output_tokens, `${where}.number_output_tokens`);
    const nIn = q.number_input_tokens === undefined || q.number_input_tokens === null ? null : r.count(q.number_input_tokens, `${where}.number_input_tokens`);
    const thr = r.optNumber(q.request_output_throughput_token_per_s, `${where}.request_output_throughput_token_per_s`);
    if (ok) {
      if (e2e === null) r.fail(`${where}.end_to_end_latency_s is missing for a successful request`);
      if (ttft !== null && ttft > e2e) {
        r.fail(`${where}.ttft_s = ${ttft} s is after end_to_end_latency_s = ${e2e} s: a request cannot finish before its first token (are both in seconds?)`);
      }
      if (thr !== null && nOut !== null && nOut > 0 && e2e > 0 && Math.abs(thr * e2e - nOut) > THROUGHPUT_CONSISTENCY * nOut) {
        r.fail(
          `${where}: request_output_throughput_token_per_s × end_to_end_latency_s = ${(thr * e2e).toPrecision(4)}, not number_output_tokens = ${nOut}: end_to_end_latency_s is not in seconds?`,
        );
      }
      add('ttft_s.mean', ttft);
      add('end_to_end_latency_s.mean', e2e);
      add('inter_token_latency_s.mean', itl);
      add('request_output_throughput_token_per_s.mean', thr);
    }
    records.push({
      dueT: null,
      sendT: 0,
      chunkTimes: null,
      chunkTokens: null,
      firstT: ok && ttft !== null ? ttft : null,
      finishT: e2e ?? 0,
      inputTokens: nIn ?? NaN,
      outputTokens: ok ? nOut : null,
      ok,
      preemptions: null,
    });
  });

  const reported: Record<string, Reported> = {};
  for (const [k, { s, n }] of Object.entries(sums)) {
    reported[k] = { value: s / n, unit: k.startsWith('request_output_throughput') ? 'tokens/s' : 's' };
  }
  const run: BenchmarkRun = {
    records,
    source: LLMPERF_SOURCE,
    maxConcurrency: null,
    requestRate: null,
    startT: 0,
    endT: records.reduce((m, x) => Math.max(m, x.finishT), 0),
  };
  return {
    file,
    format: 'llmperf',
    run,
    missing: [
      'no timestamps (only per-request durations): every request is placed at t = 0 on its own clock, so throughput, concurrency, Little’s law and any time window cannot be computed',
      'no scheduled times: latency from the schedule cannot be computed (LLMPerf is a closed loop)',
      'no per-chunk times: ITL and TPOT-with-gaps cannot be computed; LLMPerf’s own inter_token_latency_s (÷ SSE message count) is shown as reported',
      'no server token counts: output tokens are LLMPerf’s Llama 2 tokenizer count of the text, so every per-token figure inherits that count',
      'no run duration in this file (it is in the _summary.json)',
    ],
    lacks: ['timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'serverTokenCounts', 'runWindow'],
    notes: ['mean values under "reported" are over successful requests, as LLMPerf’s summary computes them'],
    clock: 'none shared: each request starts at t = 0 on its own clock',
    lastTokenT: null,
    reported,
  };
}
