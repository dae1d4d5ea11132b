/**
 * LLMPerf (ray-project/llmperf) result files: `{model}_{in}_{out}_individual_responses.json`
 * (a list, one object per request) and `{model}_{in}_{out}_summary.json` (aggregates).
 *
 * Units: every `_s` field is SECONDS; `number_output_tokens` is the Llama 2
 * tokenizer's count of the generated text, whatever model produced it.
 *
 * Versions (token_benchmark_ray.py history; the summary's `"version":
 * "2023-08-31"` never changed, so the file's numbers tell them apart):
 *   before afd137a (Dec 2023 – Apr 2024): request_output_throughput_token_per_s =
 *     SSE messages / e2e, so throughput × e2e is the message count, not the token count;
 *     inter_token_latency_s = (last content chunk − start) / Llama-2 tokens.
 *   afd137a … 03872a4: throughput = Llama-2 tokens / e2e; ITL as before.
 *   f1d6bed (Dec 2024) on: ITL divided by the SSE message count instead.
 * See ./definitions.ts for the definitions.
 *
 * The file has NO timestamps: only per-request durations. Each record is
 * therefore placed on its own clock (sendT = 0):
 *   firstT = ttft_s, finishT = end_to_end_latency_s (after the stream closed),
 *   dueT = null, chunkTimes = null, outputTokens = number_output_tokens (Llama 2 tokens).
 * Failed requests (error_code set, e.g. HTTP 429) are kept as not ok and counted.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import type { ResultInput } from '../base/input.ts';
import { LLMPERF_VERSION_LABELS, type LlmperfVersion } from './definitions.ts';
import { collectReported, isObject, noSuccessMessage, readJsonDocument, Reader, type Json, type JsonObject } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Reported, Recognition } from '../base/result.ts';

export const LLMPERF_SOURCE = 'llmperf';

/** Relative slack when telling the versions apart by throughput × latency = tokens. */
const PRODUCT_TOLERANCE = 0.01;

export function importLlmperf(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const doc = readJsonDocument(input);
  if (opts.entry !== undefined && opts.entry !== 0) r.fail(`--entry ${opts.entry}: an LLMPerf file holds one run; leave --entry out`);
  if (isObject(doc) && Object.keys(doc).some((k) => k.startsWith('results_'))) return importSummary(r, doc);
  if (!Array.isArray(doc) || (doc.length > 0 && !(isObject(doc[0]) && ('end_to_end_latency_s' in doc[0] || 'ttft_s' in doc[0])))) {
    r.fail(`not an LLMPerf result: expected a list of requests with ttft_s and end_to_end_latency_s, or a summary with results_* keys${seen.looksLike}`);
  }
  if (doc.length === 0) r.fail('the list is empty: the run has no requests, so there is nothing to compute');
  return importIndividual(r, doc);
}

/** Which version wrote per-request values, from throughput × e2e and ITL × tokens of the successful requests. */
export function llmperfVersionOf(reqs: { thr: number | null; e2e: number; ttft: number | null; itl: number | null; nOut: number | null }[]): LlmperfVersion | 'afd137a-or-later' {
  let messages = 0;
  let tokens = 0;
  let perMessage = 0;
  let perToken = 0;
  for (const q of reqs) {
    if (q.thr !== null && q.nOut && q.e2e > 0) {
      const product = q.thr * q.e2e;
      if (Math.abs(product - q.nOut) <= PRODUCT_TOLERANCE * q.nOut) tokens++;
      else if (Math.abs(product - Math.round(product)) < 0.01) messages++;
    }
    if (q.itl !== null && q.nOut && q.e2e > 0) {
      // Σ gaps ≤ e2e: dividing by tokens gives itl·L ≤ e2e; dividing by fewer messages gives more
      if (q.itl * q.nOut <= q.e2e * (1 + PRODUCT_TOLERANCE)) perToken++;
      else perMessage++;
    }
  }
  if (messages > tokens) return 'before-afd137a';
  if (perMessage > perToken) return 'f1d6bed';
  return 'afd137a-or-later';
}

function importIndividual(r: Reader, doc: Json[]): Imported {
  const records: RequestRecord[] = [];
  const failures: Record<string, number> = {};
  const sums: Record<string, { s: number; n: number }> = {};
  const add = (k: string, v: number | null): void => {
    if (v === null) return;
    (sums[k] ??= { s: 0, n: 0 }).s += v;
    sums[k].n++;
  };
  const okValues: { thr: number | null; e2e: number; ttft: number | null; itl: number | null; nOut: number | null }[] = [];
  doc.forEach((entry: Json, i: number) => {
    const where = `[${i}]`;
    const q = r.object(entry, where);
    const errorCode = q.error_code;
    const failed = (errorCode !== null && errorCode !== undefined) || (typeof q.error_msg === 'string' && q.error_msg !== '');
    const ttft = r.optNumber(q.ttft_s, `${where}.ttft_s`);
    const e2e = r.optNumber(q.end_to_end_latency_s, `${where}.end_to_end_latency_s`);
    if (ttft !== null) r.duration(ttft, `${where}.ttft_s`);
    if (e2e !== null) r.duration(e2e, `${where}.end_to_end_latency_s`);
    const itl = r.optNumber(q.inter_token_latency_s, `${where}.inter_token_latency_s`);
    if (itl !== null) r.duration(itl, `${where}.inter_token_latency_s`);
    const nOut = q.number_output_tokens === undefined || q.number_output_tokens === null ? null : r.count(q.number_output_tokens, `${where}.number_output_tokens`);
    const nIn = q.number_input_tokens === undefined || q.number_input_tokens === null ? null : r.count(q.number_input_tokens, `${where}.number_input_tokens`);
    const thr = r.optNumber(q.request_output_throughput_token_per_s, `${where}.request_output_throughput_token_per_s`);
    if (failed) {
      const why = errorCode !== null && errorCode !== undefined && errorCode !== '' ? llmperfErrorLabel(errorCode) : String(q.error_msg).slice(0, 60);
      failures[why] = (failures[why] ?? 0) + 1;
    } else {
      if (e2e === null) r.fail(`${where}.end_to_end_latency_s is missing for a successful request`);
      if (ttft !== null && ttft > e2e) {
        r.fail(`${where}.ttft_s = ${ttft} s is after end_to_end_latency_s = ${e2e} s: a request cannot finish before its first token (are both in seconds?)`);
      }
      // throughput × e2e is the token count (from afd137a) or the SSE message count (before),
      // and a message carries at least one token: far above the token count, a unit slipped
      if (thr !== null && nOut !== null && nOut > 0 && e2e > 0 && thr * e2e > nOut * (1 + PRODUCT_TOLERANCE) + 3) {
        r.fail(
          `${where}: request_output_throughput_token_per_s × end_to_end_latency_s = ${(thr * e2e).toPrecision(4)}, not number_output_tokens = ${nOut} (nor a message count at most that): end_to_end_latency_s is not in seconds?`,
        );
      }
      add('ttft_s.mean', ttft);
      add('end_to_end_latency_s.mean', e2e);
      add('inter_token_latency_s.mean', itl);
      add('request_output_throughput_token_per_s.mean', thr);
      add('number_output_tokens.mean', nOut);
      okValues.push({ thr, e2e, ttft, itl, nOut });
    }
    records.push({
      dueT: null,
      sendT: 0,
      chunkTimes: null,
      chunkTokens: null,
      firstT: !failed && ttft !== null ? ttft : null,
      finishT: e2e ?? 0,
      inputTokens: nIn ?? NaN,
      outputTokens: failed ? null : nOut,
      ok: !failed,
      preemptions: null,
    });
  });
  if (okValues.length === 0) r.fail(noSuccessMessage(failures));
  const version = llmperfVersionOf(okValues);

  const reported: Record<string, Reported> = {};
  for (const [k, { s, n }] of Object.entries(sums)) {
    reported[k] = { value: s / n, unit: k.startsWith('request_output_throughput') ? 'tokens/s' : k.startsWith('number_') ? 'tokens' : 's' };
  }
  const run: BenchmarkRun = {
    records,
    source: LLMPERF_SOURCE,
    maxConcurrency: null,
    requestRate: null,
    startT: 0,
    endT: records.reduce((m, x) => Math.max(m, x.finishT), 0),
  };
  const notes = ['values under "reported" are means of the file’s own per-request values over successful requests, as LLMPerf’s summary computes them'];
  if (version === 'before-afd137a') {
    notes.push('throughput × end_to_end_latency is a whole number of SSE messages, not number_output_tokens: written before llmperf commit afd137a, whose definitions are applied');
  }
  return {
    file: r.file,
    format: 'llmperf',
    version: `LLMPerf ${LLMPERF_VERSION_LABELS[version]} (told by the per-request values)`,
    definitions: { llmperf: version },
    run,
    missing: [
      'no timestamps (only per-request durations): every request is placed at t = 0 on its own clock, so throughput, concurrency, Little’s law and any time window cannot be computed',
      'no scheduled times: latency from the schedule cannot be computed (LLMPerf is a closed loop)',
      'no per-chunk times: ITL and TPOT-with-gaps cannot be computed; LLMPerf’s own inter_token_latency_s is shown as reported',
      'no server token counts: output tokens are LLMPerf’s Llama 2 tokenizer count of the text, so every per-token figure inherits that count',
      'no run duration in this file (it is in the _summary.json)',
    ],
    lacks: ['timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'serverTokenCounts', 'runWindow'],
    notes,
    clock: 'none shared: each request starts at t = 0 on its own clock',
    lastTokenT: null,
    outputTokenizer: 'llama-2',
    reported,
    failures,
  };
}

/** `_summary.json`: results_<metric>_{mean,min,max,stddev,quantiles_pNN} and run counts. */
function importSummary(r: Reader, doc: JsonObject): Imported {
  const reported = collectReported(doc, (k) => {
    if (!k.startsWith('results_')) return null;
    if (/_s_(mean|min|max|stddev|quantiles_p\d+)$/.test(k) && !/token_per_s/.test(k)) return { scale: 1, unit: 's' };
    if (/token_per_s/.test(k)) return { scale: 1, unit: 'tokens/s' };
    if (/number_(input|output)_tokens/.test(k)) return { scale: 1, unit: 'tokens' };
    if (/requests_per_min$/.test(k)) return { scale: 1 / 60, unit: '1/s', written: '1/min' };
    if (/error_rate$/.test(k)) return { scale: 1, unit: '1' };
    if (/num_|number_errors/.test(k)) return { scale: 1, unit: 'requests' };
    return null;
  });
  // min/max are written as strings by some versions ("94")
  for (const [k, v] of Object.entries(doc)) {
    if (typeof v === 'string' && /^results_number_(input|output)_tokens_(min|max)$/.test(k) && /^\d+$/.test(v)) reported[k] = { value: Number(v), unit: 'tokens' };
  }
  const failures: Record<string, number> = {};
  const freq = doc.results_error_code_frequency;
  if (typeof freq === 'string') {
    // a Python dict's repr: `{429.0: 130}`, `{-1: 3}` (the sign is the code's)
    for (const m of freq.matchAll(/(-?\d+)(?:\.0)?\s*:\s*(\d+)/g)) failures[llmperfErrorLabel(Number(m[1]))] = Number(m[2]);
  }
  const thr = reported.results_request_output_throughput_token_per_s_mean?.value;
  const e2e = reported.results_end_to_end_latency_s_mean?.value;
  const L = reported.results_number_output_tokens_mean?.value;
  const byNumbers = thr && e2e && L ? (thr * e2e < 0.8 * L ? 'messages' : 'tokens') : null;
  const ts = typeof doc.timestamp === 'number' && Number.isFinite(doc.timestamp) ? doc.timestamp : null;
  const { version, why } = summaryVersion(byNumbers, ts);
  const lacks: Capability[] = ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'runWindow'];
  return {
    file: r.file,
    format: 'llmperf',
    version: `LLMPerf ${LLMPERF_VERSION_LABELS[version]} (summary "version": ${JSON.stringify(doc.version ?? null)}; ${why})`,
    definitions: { llmperf: version },
    run: { records: [], source: LLMPERF_SOURCE, maxConcurrency: typeof doc.num_concurrent_requests === 'number' ? doc.num_concurrent_requests : null, requestRate: null, startT: 0, endT: 0 },
    missing: ['aggregates only (the _summary.json): no definition can be recomputed without the per-request _individual_responses.json'],
    lacks,
    notes: byNumbers === 'tokens' && version === 'before-afd137a'
      ? ['mean throughput × mean latency equals the mean token count, so this file cannot tell the two throughput definitions apart (before afd137a it counts SSE messages, which equal tokens when each message carries one): on this file they coincide']
      : [],
    clock: 'none (aggregates only)',
    lastTokenT: null,
    outputTokenizer: 'llama-2',
    reported,
    failures,
    ...(typeof doc.results_num_completed_requests === 'number' ? { completed: { key: 'results_num_completed_requests', value: doc.results_num_completed_requests, unit: 'requests' } } : {}),
  };
}

/** The commits whose definitions differ, by date (token_benchmark_ray.py history): a run cannot use a commit made after it. */
const AFD137A_EPOCH_S = Date.UTC(2024, 3, 7) / 1000;
const F1D6BED_EPOCH_S = Date.UTC(2024, 11, 9) / 1000;

/** The version of a summary from its numbers and its own `timestamp` (the run's time: an upper bound on the commit it ran). */
function summaryVersion(byNumbers: 'messages' | 'tokens' | null, ts: number | null): { version: LlmperfVersion | 'afd137a-or-later'; why: string } {
  const day = ts === null ? null : new Date(ts * 1000).toISOString().slice(0, 10);
  if (ts !== null && ts < AFD137A_EPOCH_S) return { version: 'before-afd137a', why: `run on ${day} (its timestamp), before commit afd137a existed` };
  if (byNumbers === 'messages') return { version: 'before-afd137a', why: 'told by mean throughput × mean latency (a message count, not the token count)' };
  if (ts !== null && ts < F1D6BED_EPOCH_S) return { version: 'afd137a', why: `run on ${day} (its timestamp), before f1d6bed; mean throughput × mean latency is the token count` };
  return { version: 'afd137a-or-later', why: byNumbers === 'tokens' ? 'told by mean throughput × mean latency (the token count)' : 'the file has no throughput and latency to tell it by' };
}

/**
 * What an LLMPerf error code is (ray_clients/*_client.py @f1d6bed): the HTTP
 * status when the server answered with one, the `code` of an error object in
 * the stream (any value the server chose), or a negative client-side code
 * (−1 is LLMPerf's default: the request raised before any status).
 */
export function llmperfErrorLabel(code: Json): string {
  if (typeof code === 'number') {
    if (code === -1) return 'client-side −1 (no HTTP status: the request raised before one)';
    if (code < 0) return `client-side ${String(code).replace('-', '−')} (not an HTTP status)`;
    if (Number.isInteger(code) && code >= 100 && code <= 599) return `HTTP ${code}`;
    return `error code ${code} (the stream’s error object)`;
  }
  return `error ${String(code)}`;
}
