/**
 * LLMPerf (ray-project/llmperf), commit f1d6bed (2024-12-08), plus the
 * definitions of the versions before it (see {@link LlmperfVersion}). Files: `token_benchmark_ray.py`
 * (`get_token_throughput_latencies`), `src/llmperf/ray_clients/openai_chat_completions_client.py`
 * (`llm_request`), `src/llmperf/utils.py`, `src/llmperf/common_metrics.py`.
 *
 * Clock: `time.monotonic()` just before `requests.post` (= sendT). Every
 * non-empty SSE data line except [DONE] increments `tokens_received` — the
 * role-only first chunk and any finish chunk included. First token: first
 * non-empty `delta.content`. `total_request_time` ends after the stream
 * closes (= finishT). Output tokens: `len(LlamaTokenizerFast.encode(text))`
 * with the **Llama 2** tokenizer ("hf-internal-testing/llama-tokenizer"),
 * whatever model wrote the text; `encode` adds the start-of-sequence token,
 * so every count is the text's tokens + 1 and an empty text counts 1
 * ({@link LLMPERF_BOS}).
 *
 * The Llama-2 count is not something a timestamp record holds. It enters here
 * as an explicit input, `llama2Inflation` = Llama-2 tokens ÷ the model's
 * tokens for the text in question (measured by the tokens experiment; there
 * is deliberately no default). Expected count L_i = n_i · llama2Inflation
 * (not rounded: the expectation over texts).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { firstChunkT, lastChunkT, none, some, streamedTokens, successful, summarize, type Maybe, type Summary } from '../base/definitions.ts';

/**
 * The start-of-sequence token LLMPerf's count includes. `get_token_length =
 * lambda text: len(tokenizer.encode(text))` (token_benchmark_ray.py @f1d6bed
 * 63–66, applied to the generated text at 117 and 154) calls `encode` with its
 * default `add_special_tokens=True`, and the Llama tokenizer adds a BOS: a
 * request that asked for 150 tokens and got them counts 151, and an empty
 * text counts 1 (both in a real LLMPerf file, test/importers-real.test.ts).
 */
export const LLMPERF_BOS = 1;

export interface LlmperfOptions {
  /** Llama-2 tokens per model token for this output (e.g. measured on English docs). Required: no default. */
  llama2Inflation: number;
  /**
   * The records' output counts are LLMPerf's own already (a file LLMPerf
   * wrote: Llama 2 tokens with the start-of-sequence token), taken as they
   * stand; `llama2Inflation` is then 1. Default false: a model's token count.
   */
  countsAreLlmperfs?: boolean;
  /**
   * SSE data messages per request that carry no content but are counted by
   * `tokens_received` (the role chunk, a finish chunk). **chosen** default 1:
   * an OpenAI-compatible chat stream opens with a role-only chunk.
   */
  nonContentMessages?: number;
}

function checkInflation(x: number): void {
  if (!(x > 0) || !Number.isFinite(x)) throw new RangeError(`invalid llama2Inflation: ${x} (a positive ratio, e.g. measured Llama-2 ÷ model tokens)`);
}

/**
 * LLMPerf `ttft_s` = first content chunk − start. A stream with no content is
 * not an error (HTTP 200, no error object, so `error_code` stays None):
 * `ttft` keeps its initial 0 (openai_chat_completions_client.py @f1d6bed: set
 * to 0 at 36, only on a content chunk at 92–94, written at 113), and the
 * summary, which drops only rows with an error code (token_benchmark_ray.py
 * 218), takes that 0 into the mean and the quantiles.
 */
export function llmperfTtft(r: RequestRecord): Maybe {
  const f = firstChunkT(r);
  return some(f === null ? 0 : f - r.sendT);
}

/** LLMPerf `end_to_end_latency_s` = `total_request_time`, after the stream closes (finishT − start). */
export function llmperfE2e(r: RequestRecord): Maybe {
  return some(r.finishT - r.sendT);
}

/** `tokens_received`: SSE data messages (content chunks + non-content messages). */
export function llmperfMessages(r: RequestRecord, nonContentMessages = 1): number | null {
  return r.chunkTimes ? r.chunkTimes.length + nonContentMessages : null;
}

/**
 * `number_output_tokens` = Llama-2 count of the generated text plus the
 * start-of-sequence token ({@link LLMPERF_BOS}), modelled as
 * n_i · llama2Inflation + 1, where n_i is the text's length in the model's tokens.
 * LLMPerf tokenizes the text and never reads the server's usage
 * (token_benchmark_ray.py `get_token_length(gen_text)`; its client asks for no
 * usage chunk). A record keeps no text: its length is the server's count where
 * that is positive, else the tokens the stream carried ({@link streamedTokens}),
 * so a server that reports `usage == 0` still gives LLMPerf the text's count.
 * With `countsAreLlmperfs` the record's count is LLMPerf's and stands as it is.
 */
export function llmperfOutputTokens(r: RequestRecord, llama2Inflation: number, countsAreLlmperfs = false): number | null {
  checkInflation(llama2Inflation);
  if (countsAreLlmperfs) return r.outputTokens;
  const n = r.outputTokens !== null && r.outputTokens > 0 ? r.outputTokens : (streamedTokens(r) ?? r.outputTokens);
  return n === null ? null : n * llama2Inflation + LLMPERF_BOS;
}

/**
 * LLMPerf `inter_token_latency_s` **as coded** (main loop, f1d6bed):
 * `Σ time_to_next_token / tokens_received = (last content chunk − start) / N_messages`:
 * the TTFT is included and the divisor is the number of SSE data messages,
 * not a token count (docs/definitions.md).
 *
 * A stream with no content leaves `time_to_next_token` empty, so its sum is 0
 * (the client, 112), and token_benchmark_ray.py (f1d6bed 120–123; the same branch in every
 * version since 1eac866) divides that 0 (the count of an empty text is 1, the
 * start-of-sequence token, so `if num_output_tokens:` holds): the request's
 * value is 0, and it counts in the mean like any other.
 */
export function llmperfInterTokenLatency(r: RequestRecord, opts: { nonContentMessages?: number } = {}): Maybe {
  const l = lastChunkT(r);
  const m = llmperfMessages(r, opts.nonContentMessages ?? 1);
  if (l === null) return some(0); // no content: 0, not left out
  if (m === null) return none('no chunk times: the message count is unknown');
  return some((l - r.sendT) / m);
}

/** {@link llmperfInterTokenLatency} of every record: its whole form (base/definitions.ts WholeForm). */
export function llmperfInterTokenLatencyOfAll(recs: readonly RequestRecord[], out: Float64Array, nonContentMessages = 1): boolean {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const l = lastChunkT(r);
    const m = llmperfMessages(r, nonContentMessages);
    if (l === null) out[i] = 0;
    else if (m === null) return false;
    else out[i] = (l - r.sendT) / m;
  }
  return true;
}

/**
 * The article's reading of LLMPerf's inter-token latency: all the time from the
 * request's start to its last content chunk (so the first-token wait is
 * included), divided by LLMPerf's Llama 2 count: `(last content chunk − start) / L_i`,
 * L_i = n_i · llama2Inflation + 1 (the start-of-sequence token). Not what the
 * main loop at f1d6bed does (only a rarely reached final block divides by the
 * tokenizer count); kept as a named variant so Table 1 can show both.
 */
export function llmperfInterTokenLatencyArticle(r: RequestRecord, llama2Inflation: number, countsAreLlmperfs = false): Maybe {
  const l = lastChunkT(r);
  const L = llmperfOutputTokens(r, llama2Inflation, countsAreLlmperfs);
  // no content (a sum of 0 gaps), or a file's count of 0: `else: INTER_TOKEN_LAT = 0` (see llmperfInterTokenLatency)
  if (l === null || L === 0) return some(0);
  if (L === null) return none('output token count unknown');
  return some((l - r.sendT) / L);
}

/** {@link llmperfInterTokenLatencyArticle} of every record: its whole form (base/definitions.ts WholeForm). */
export function llmperfInterTokenLatencyArticleOfAll(recs: readonly RequestRecord[], out: Float64Array, llama2Inflation: number, countsAreLlmperfs = false): boolean {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const l = lastChunkT(r);
    const L = llmperfOutputTokens(r, llama2Inflation, countsAreLlmperfs);
    if (l === null || L === 0) out[i] = 0;
    else if (L === null) return false;
    else out[i] = (l - r.sendT) / L;
  }
  return true;
}

/**
 * LLMPerf `request_output_throughput_token_per_s = number_output_tokens / end_to_end_latency_s`:
 * Llama-2 tokens (start-of-sequence included) over the whole request, TTFT
 * included. The per-user speed that the tokenizer inflates.
 */
export function llmperfRequestOutputThroughput(r: RequestRecord, llama2Inflation: number, countsAreLlmperfs = false): Maybe {
  const L = llmperfOutputTokens(r, llama2Inflation, countsAreLlmperfs);
  const e = r.finishT - r.sendT;
  if (L === null) return none('output token count unknown');
  return e > 0 ? some(L / e) : none('end_to_end_latency is 0');
}

/** {@link llmperfRequestOutputThroughput} of every record: its whole form (base/definitions.ts WholeForm). */
export function llmperfRequestOutputThroughputOfAll(recs: readonly RequestRecord[], out: Float64Array, llama2Inflation: number, countsAreLlmperfs = false): boolean {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const L = llmperfOutputTokens(r, llama2Inflation, countsAreLlmperfs);
    const e = r.finishT - r.sendT;
    if (L === null || !(e > 0)) return false;
    out[i] = L / e;
  }
  return true;
}

export interface LlmperfMetrics {
  numCompletedRequests: number;
  ttftS: Summary;
  interTokenLatencyS: Summary;
  /** the article's reading (Llama-2 divisor), for Table 1 */
  interTokenLatencyArticleS: Summary;
  endToEndLatencyS: Summary;
  requestOutputThroughputTokenPerS: Summary;
  numberOutputTokens: Summary;
  /** Σ number_output_tokens / (end_time − start_time) */
  meanOutputThroughputTokenPerS: number;
  numCompletedRequestsPerMin: number;
}

/** LLMPerf's summary: pandas `quantile([.25,.5,.75,.9,.95,.99])` (linear), mean, std **ddof = 1**, over error-free requests. */
export function llmperfMetrics(run: BenchmarkRun, opts: LlmperfOptions): LlmperfMetrics {
  checkInflation(opts.llama2Inflation);
  const recs = successful(run);
  const percents = [25, 50, 75, 90, 95, 99];
  const sum = (f: (r: RequestRecord) => Maybe, unit: 's' | 'tok/s' | 'tok') => {
    const values: number[] = [];
    for (const r of recs) {
      const m = f(r);
      if (m.value !== null) values.push(m.value);
    }
    return summarize(values, { unit, percents, method: 'pandas-linear', ddof: 1 });
  };
  const wall = run.endT - run.startT;
  const f = opts.llama2Inflation;
  const asIs = opts.countsAreLlmperfs ?? false;
  let L = 0;
  for (const r of recs) L += llmperfOutputTokens(r, f, asIs) ?? 0;
  return {
    numCompletedRequests: recs.length,
    ttftS: sum(llmperfTtft, 's'),
    interTokenLatencyS: sum((r) => llmperfInterTokenLatency(r, opts), 's'),
    interTokenLatencyArticleS: sum((r) => llmperfInterTokenLatencyArticle(r, f, asIs), 's'),
    endToEndLatencyS: sum(llmperfE2e, 's'),
    requestOutputThroughputTokenPerS: sum((r) => llmperfRequestOutputThroughput(r, f, asIs), 'tok/s'),
    numberOutputTokens: sum((r) => {
      const v = llmperfOutputTokens(r, f, asIs);
      return v === null ? none('unknown') : some(v);
    }, 'tok'),
    meanOutputThroughputTokenPerS: L / wall,
    numCompletedRequestsPerMin: (recs.length / wall) * 60,
  };
}

/**
 * The LLMPerf versions whose per-request definitions differ
 * (token_benchmark_ray.py and openai_chat_completions_client.py history):
 * - `before-afd137a` (1eac866, Dec 2023 – afd137a, Apr 2024):
 *   request_output_throughput = SSE messages / e2e; ITL = (last content − start) / Llama-2 tokens.
 * - `afd137a` (to 03872a4): throughput = Llama-2 tokens / e2e; ITL unchanged.
 * - `f1d6bed` (Dec 2024 on): ITL = (last content − start) / SSE messages.
 * `afd137a-or-later`: a file that cannot tell the last two apart (one token per message).
 */
export type LlmperfVersion = 'before-afd137a' | 'afd137a' | 'f1d6bed';

export const LLMPERF_VERSION_LABELS: Record<LlmperfVersion | 'afd137a-or-later', string> = {
  'before-afd137a': 'before commit afd137a (Dec 2023 – Apr 2024)',
  afd137a: 'afd137a to 03872a4 (Apr – Dec 2024)',
  f1d6bed: 'f1d6bed or later (from Dec 2024)',
  'afd137a-or-later': 'afd137a or later (from Apr 2024)',
};

/**
 * `request_output_throughput_token_per_s` before afd137a: `tokens_received / total_request_time`,
 * where tokens_received counts SSE data messages (the role chunk included), not tokens.
 */
export function llmperfRequestOutputThroughputBeforeAfd137a(r: RequestRecord, opts: { nonContentMessages?: number } = {}): Maybe {
  const m = llmperfMessages(r, opts.nonContentMessages ?? 1);
  const e = r.finishT - r.sendT;
  if (m === null) return none('no chunk times: the SSE message count is unknown');
  return e > 0 ? some(m / e) : none('end_to_end_latency is 0');
}

/**
 * `inter_token_latency_s` up to 03872a4: Σ time_to_next_token / number_output_tokens
 * = (last content chunk − start) / Llama-2 tokens, with the file's own Llama-2 count
 * (start-of-sequence token included, as LLMPerf wrote it).
 */
export function llmperfInterTokenLatencyPerToken(r: RequestRecord): Maybe {
  const l = lastChunkT(r);
  const L = r.outputTokens;
  // no content, or a count of 0: `else: INTER_TOKEN_LAT = 0` (see llmperfInterTokenLatency)
  if (l === null || L === 0) return some(0);
  if (L === null) return none('output token count unknown');
  return some((l - r.sendT) / L);
}
