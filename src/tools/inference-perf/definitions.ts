/**
 * inference-perf (kubernetes-sigs/inference-perf): its request-lifecycle
 * metrics as `summarize_requests` computes them, one function each.
 * Read at `inference_perf/reportgen/base.py` @7de5ef2 (and @v0.4.0 = e3e690b
 * for the chunk-based version), `inference_perf/apis/base.py`, `apis/chat.py`.
 *
 * Clock: `time.perf_counter()` in seconds; `start_time` is taken when the
 * request is sent, `end_time` when the response is fully read. A request is
 * "streamable" when it has more than one output timestamp; TTFT, TPOT and ITL
 * exist only for those. NTPOT is computed for every successful request and
 * is **0** (not undefined) for a request with no output tokens.
 *
 * Two versions differ in what the output timestamps are:
 * - `chunks` (eb3102f 2025-06-17 … v0.4.0): `info.output_token_times` holds
 *   one time per streamed chunk, and TPOT divides by the number of
 *   timestamps − 1: `(t[-1] − t[0]) / (len(t) − 1)`.
 * - `tokens` (3b882ba 2026-04-24, "Derive TPOT, ITL from Response Tokens, not
 *   Chunks", v0.5.0 on): `output_token_times` repeats each chunk's arrival
 *   time once per token it carried (so ITL has zeros inside a chunk), and TPOT
 *   divides by the output token count − 1: `(t[-1] − t[0]) / (output_tokens − 1)`.
 *
 * Statistics: `summarize` = numpy mean, min, max and `np.percentile` (linear)
 * at the configured percents, `median` for 50, keys `p{p:g}` (`p0.1`, `p99.9`).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { none, some, successful, type Maybe } from '../base/definitions.ts';
import { linearPercentile, mean, sortAsc } from '../../stats/percentile.ts';

export type InferencePerfVersion = 'chunks' | 'tokens';

/** The version whose definitions apply when a reader does not say. */
export const DEFAULT_VERSION: InferencePerfVersion = 'tokens';

/** The percents inference-perf's report config lists by default (config.py `percentiles`). */
export const DEFAULT_PERCENTS = [0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9];

/**
 * The output timestamps the tool's definitions read: each chunk's time once per
 * token it carried when the file says how many (`tokens` version), else once
 * per chunk (what the writer stores when it did not re-tokenize the chunks).
 */
export function outputTimestamps(r: RequestRecord): ArrayLike<number> | null {
  const c = r.chunkTimes;
  if (!c) return null;
  if (!r.chunkTokens) return c;
  const out: number[] = [];
  c.forEach((t, k) => {
    for (let j = 0; j < r.chunkTokens![k]; j++) out.push(t);
  });
  return out;
}

const notStreamed = (n: number): Maybe => none(`${n} output timestamp${n === 1 ? '' : 's'}: inference-perf counts the request as not streamed`);

/** request_latency = end_time − start_time (s). base.py `summarize_requests`. */
export function inferencePerfRequestLatency(r: RequestRecord): Maybe {
  return some(r.finishT - r.sendT);
}

/** time_to_first_token = output_token_times[0] − start_time, streamed requests only (s). */
export function inferencePerfTtft(r: RequestRecord): Maybe {
  const t = outputTimestamps(r);
  if (!t || t.length <= 1) return notStreamed(t?.length ?? 0);
  return some(t[0] - r.sendT);
}

/**
 * time_per_output_token (s per token), streamed requests only:
 * `chunks`: (t[-1] − t[0]) / (len(t) − 1); `tokens`: (t[-1] − t[0]) / (output_tokens − 1),
 * undefined for output_tokens ≤ 1.
 */
export function inferencePerfTpot(r: RequestRecord, version: InferencePerfVersion = DEFAULT_VERSION): Maybe {
  const t = outputTimestamps(r);
  if (!t || t.length <= 1) return notStreamed(t?.length ?? 0);
  const span = t[t.length - 1] - t[0];
  if (version === 'chunks') return some(span / (t.length - 1));
  const n = r.outputTokens;
  if (n === null) return none('output token count unknown');
  if (n <= 1) return none(`${n}-token answer: TPOT divides by output_tokens − 1`);
  return some(span / (n - 1));
}

/** normalized_time_per_output_token = (end − start) / output_tokens; 0 when there are no output tokens (the tool appends 0.0). */
export function inferencePerfNtpot(r: RequestRecord): Maybe {
  const n = r.outputTokens;
  if (n === null) return none('output token count unknown');
  return some(n > 0 ? (r.finishT - r.sendT) / n : 0);
}

/** inter_token_latency: every gap between consecutive output timestamps of a streamed request, pooled over requests (s). */
export function inferencePerfItls(r: RequestRecord): number[] {
  const t = outputTimestamps(r);
  if (!t || t.length <= 1) return [];
  const out: number[] = [];
  for (let k = 1; k < t.length; k++) out.push(t[k] - t[k - 1]);
  return out;
}

/** `summarize(items, percentiles)`: mean, min, max and numpy-linear percentiles keyed `median` / `p{p:g}`; null for no items. */
export function inferencePerfSummarize(items: number[], percents: number[] = DEFAULT_PERCENTS): Record<string, number> | null {
  if (items.length === 0) return null;
  const x = sortAsc(items);
  const out: Record<string, number> = { mean: mean(x), min: x[0], max: x[x.length - 1] };
  for (const p of percents) out[p === 50 ? 'median' : `p${p}`] = linearPercentile(x, p / 100, { sorted: true });
  return out;
}

/** `total_time` of `summarize_requests`: max end_time − min start_time over every request, failed ones included (s). */
export function inferencePerfTotalTime(run: BenchmarkRun): number | null {
  if (run.records.length === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of run.records) {
    if (r.sendT < lo) lo = r.sendT;
    if (r.finishT > hi) hi = r.finishT;
  }
  return hi - lo;
}

/** The lifecycle summary inference-perf would write for these records (the parts the records support), keyed as in its file. */
export function inferencePerfLifecycle(run: BenchmarkRun, version: InferencePerfVersion, percents: number[] = DEFAULT_PERCENTS): Record<string, number> {
  const ok = successful(run);
  const out: Record<string, number> = {};
  const put = (prefix: string, s: Record<string, number> | null) => {
    if (s) for (const [k, v] of Object.entries(s)) out[`${prefix}.${k}`] = v;
  };
  const values = (f: (r: RequestRecord) => Maybe) => ok.map(f).flatMap((m) => (m.value === null ? [] : [m.value]));
  out['load_summary.count'] = run.records.length;
  out['successes.count'] = ok.length;
  out['failures.count'] = run.records.length - ok.length;
  put('successes.latency.request_latency', inferencePerfSummarize(values(inferencePerfRequestLatency), percents));
  put('successes.latency.normalized_time_per_output_token', inferencePerfSummarize(values(inferencePerfNtpot), percents));
  put('successes.latency.time_per_output_token', inferencePerfSummarize(values((r) => inferencePerfTpot(r, version)), percents));
  put('successes.latency.time_to_first_token', inferencePerfSummarize(values(inferencePerfTtft), percents));
  put('successes.latency.inter_token_latency', inferencePerfSummarize(ok.flatMap(inferencePerfItls), percents));
  put('failures.request_latency', inferencePerfSummarize(run.records.filter((r) => !r.ok).map((r) => r.finishT - r.sendT), percents));
  const T = inferencePerfTotalTime(run);
  if (T !== null && T > 0) {
    const inp = ok.reduce((a, r) => a + r.inputTokens, 0);
    const outTok = ok.reduce((a, r) => a + (r.outputTokens ?? 0), 0);
    out['benchmark_time_seconds'] = T;
    out['successes.throughput.input_tokens_per_sec'] = inp / T;
    out['successes.throughput.output_tokens_per_sec'] = outTok / T;
    out['successes.throughput.total_tokens_per_sec'] = (inp + outTok) / T;
    out['successes.throughput.requests_per_sec'] = ok.length / T;
  }
  put('successes.prompt_len', inferencePerfSummarize(ok.map((r) => r.inputTokens), percents));
  put('successes.output_len', inferencePerfSummarize(ok.flatMap((r) => (r.outputTokens === null ? [] : [r.outputTokens])), percents));
  return out;
}
