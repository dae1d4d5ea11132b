/**
 * SemiAnalysis InferenceX, fixed-sequence lane.
 * Version read: `inferencex-e2e/infx/bench/fixed_seq.py` (2c1e59ec87d6),
 * `infx/bench_serving/benchmark_serving.py` (1669d9761f31),
 * `infx/results/fixed_sequence.py` (1272e0fd7e7a); request function from
 * `utils/bench_serving/backend_request_func.py` at snapshot 843c6254
 * (2026-08-21). Article: c801c9f (2026-10-10).
 *
 * A fork of an older vLLM client: clock after the semaphore, new session per
 * request; first token = first message with `choices`; completions end at the
 * last choices message, chat ends at the usage chunk (≈ record.finishT).
 * Tokens: `usage.completion_tokens` only (no fallback: no usage → n = 0 → no TPOT).
 * Published per-user speed: **interactivity** = 1000 / (a TPOT statistic in ms).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { pooledChunkGaps } from '../base/series.ts';
import { collect, collectAll, firstChunkT, lastChunkT, none, some, successful, summarize, withOption, withWholeForm, type Maybe, type Summary } from '../base/definitions.ts';

export type InfxEndpoint = 'completions' | 'chat';

export function inferencexTtft(r: RequestRecord): Maybe {
  const f = firstChunkT(r);
  return f === null ? none('no output chunk arrived') : some(f - r.sendT);
}

/**
 * InferenceX latency: completions → the last choices message; chat → the last
 * message of any kind (`most_recent_timestamp` moves on every chunk,
 * backend_request_func.py async_request_openai_chat_completions): the usage
 * chunk when the server sent one (record.finishT), else the last choices
 * message — a stream without usage (outputTokens unknown) ends there.
 */
export function inferencexLatency(r: RequestRecord, endpoint: InfxEndpoint = 'completions'): Maybe {
  const l = latencyEnd(r, endpoint);
  return l === null ? none('no output chunk arrived') : some(l - r.sendT);
}

/** Where {@link inferencexLatency} ends. */
function latencyEnd(r: RequestRecord, endpoint: InfxEndpoint): number | null {
  return endpoint === 'chat' ? (firstChunkT(r) === null ? null : r.outputTokens == null ? lastChunkT(r) : r.finishT) : lastChunkT(r);
}

/** InferenceX TPOT: vLLM's `(latency − ttft)/(n − 1)`, n = usage only (0 when the server sent none). */
export function inferencexTpot(r: RequestRecord, endpoint: InfxEndpoint = 'completions'): Maybe {
  const n = r.outputTokens ?? 0;
  const l = inferencexLatency(r, endpoint);
  const t = inferencexTtft(r);
  if (l.value === null) return l;
  if (t.value === null) return t;
  if (n <= 1) return none(n === 0 ? 'no usage from the server: output_tokens stays 0' : '1-token answer: TPOT divides by n − 1 = 0');
  return some((l.value - t.value) / (n - 1));
}

withWholeForm(inferencexTpot, (recs, out, endpoint = 'completions') => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const n = r.outputTokens ?? 0;
    const l = latencyEnd(r, endpoint);
    const f = firstChunkT(r);
    if (l === null || f === null || n <= 1) return false;
    out[i] = (l - r.sendT - (f - r.sendT)) / (n - 1);
  }
  return true;
});

/**
 * InferenceX interactivity (`infx/results/fixed_sequence.py::build_result`):
 * for every key containing "tpot" with a positive value, `intvty = 1000 / value_ms`:
 * the inverse of the statistic, not the statistic of the inverse.
 */
export function interactivity(tpotStatMs: number | null): number | null {
  return tpotStatMs !== null && tpotStatMs > 0 ? 1000 / tpotStatMs : null;
}

export interface InferencexMetrics {
  durationS: number;
  completed: number;
  ttft: Summary;
  tpot: Summary;
  itl: Summary;
  e2el: Summary;
  requestThroughput: number;
  outputThroughput: number;
  totalTokenThroughput: number;
  /** tok/s/user: 1000 / mean, median, p90, p99, p99.9 of TPOT (ms) */
  intvty: { mean: number | null; median: number | null; p90: number | null; p99: number | null; 'p99.9': number | null };
}

/**
 * InferenceX's benchmark duration (benchmark_serving.py `benchmark`, a fork of
 * vLLM's older client): `get_request` yields the first request at once and
 * sleeps a gap only after each one (the lane runs at rate inf anyway), so the
 * run clock starts at the first arrival, `run.startT`, and stops when every
 * task has finished.
 */
export function inferencexDuration(run: BenchmarkRun): number {
  return run.endT - run.startT;
}

/** The lane's client default `--metric-percentiles 90,99,99.9`. */
const INFX_PERCENTS = [90, 99, 99.9];

function infxSummaryOf(recs: readonly RequestRecord[], f: (r: RequestRecord) => Maybe): Summary {
  const c = collect(recs, f);
  return summarize(c.values, { unit: 'ms', percents: INFX_PERCENTS, excluded: c.excluded });
}

/** The lane's TPOT statistics (ms): {@link inferencexTpot} of every successful request that has one. */
export function inferencexTpotSummary(run: BenchmarkRun, opts: { endpoint?: InfxEndpoint } = {}): Summary {
  const ep = opts.endpoint ?? 'completions';
  return infxSummaryOf(successful(run), withOption(inferencexTpot, ep));
}

/** tok/s/user from TPOT statistics (ms): 1000 / each. */
export function inferencexInteractivity(tpot: Summary): InferencexMetrics['intvty'] {
  return {
    mean: interactivity(tpot.mean),
    median: interactivity(tpot.median),
    p90: interactivity(tpot.percentiles['90']),
    p99: interactivity(tpot.percentiles['99']),
    'p99.9': interactivity(tpot.percentiles['99.9']),
  };
}

/** The lane's result: `--percentile-metrics ttft,tpot,itl,e2el`, client default `--metric-percentiles 90,99,99.9`, numpy linear. */
export function inferencexMetrics(run: BenchmarkRun, opts: { endpoint?: InfxEndpoint } = {}): InferencexMetrics {
  const ep = opts.endpoint ?? 'completions';
  const percents = INFX_PERCENTS;
  const recs = successful(run);
  const ms = (f: (r: RequestRecord) => Maybe) => infxSummaryOf(recs, f);
  const latency = withOption(inferencexLatency, ep);
  collectAll(recs, [inferencexTtft, withOption(inferencexTpot, ep), latency]); // one pass for the three (ms() and inferencexTpotSummary read what it kept)
  const itls = pooledChunkGaps(run); // chunkGaps of every successful request
  const tpot = inferencexTpotSummary(run, { endpoint: ep });
  const D = inferencexDuration(run);
  let out = 0;
  let inp = 0;
  for (const r of recs) {
    out += r.outputTokens ?? 0;
    inp += r.inputTokens;
  }
  return {
    durationS: D,
    completed: recs.length,
    ttft: ms(inferencexTtft),
    tpot,
    itl: summarize(itls, { unit: 'ms', percents }),
    e2el: ms(latency),
    requestThroughput: recs.length / D,
    outputThroughput: out / D,
    totalTokenThroughput: (inp + out) / D,
    intvty: inferencexInteractivity(tpot),
  };
}
