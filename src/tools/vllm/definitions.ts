/**
 * vLLM `vllm bench serve`.
 * Version read: a public code mirror, at least Sept 2026 (serve.py already has
 * `client_queue_time`); the article read 3fe917a (2026-10-11).
 * Files: `vllm/benchmarks/serve.py` (commit 009e6d4a1cd6: `calculate_metrics`,
 * `benchmark.limited_request_func`), `vllm/benchmarks/lib/endpoint_request_func.py`
 * (02cfb534df56: `async_request_openai_completions`, `…_chat_completions`).
 *
 * Clock: `st = perf_counter()` inside the request function, i.e. after the
 * `--max-concurrency` semaphore (= record.sendT). First token: the first SSE
 * message with a non-empty `choices` list (content may be empty). End: the
 * last `choices` message (usage and [DONE] do not advance it). Run clock:
 * see {@link vllmDuration}.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { pooledChunkGaps } from '../base/series.ts';
import {
  chunkGaps, collect, collectAll, firstChunkT, lastChunkT, none, some, streamedTokens, successful, summarize, withWholeForm,
  type Maybe, type Slo, type Summary,
} from '../base/definitions.ts';

/** vLLM: `ttft = first choices message − st` (s). endpoint_request_func.py. */
export function vllmTtft(r: RequestRecord): Maybe {
  const f = firstChunkT(r);
  return f === null ? none('no output chunk arrived') : some(f - r.sendT);
}

/** vLLM: `latency = most_recent_timestamp − st`, the last choices message (s). endpoint_request_func.py. */
export function vllmE2el(r: RequestRecord): Maybe {
  const l = lastChunkT(r);
  return l === null ? none('no output chunk arrived') : some(l - r.sendT);
}

/**
 * vLLM `output_len` (serve.py `calculate_metrics`, 009e6d4a1cd6:
 * `if not output_len:` → `len(tokenizer(generated_text).input_ids)`): the
 * server's `usage.completion_tokens` unless it is missing **or 0**; then the
 * generated text is re-tokenised. A record keeps no text, so the tokens the
 * stream carried stand in for that count ({@link streamedTokens}). (Without a
 * tokenizer vLLM takes 1; `bench serve` always loads one for generation.)
 */
export function vllmOutputTokens(r: RequestRecord): number | null {
  const n = r.outputTokens;
  if (n !== null && n > 0) return n;
  return streamedTokens(r);
}

/**
 * vLLM TPOT (serve.py `calculate_metrics`): `(latency − ttft)/(output_len − 1)`
 * for output_len > 1. The first chunk is assumed to carry exactly one token,
 * whatever it carried. A one-token answer has no TPOT (excluded from the
 * statistics; treated as 0 by goodput, see {@link vllmGoodput}).
 */
export function vllmTpot(r: RequestRecord): Maybe {
  const n = vllmOutputTokens(r);
  const lat = vllmE2el(r);
  const ttft = vllmTtft(r);
  if (lat.value === null) return lat;
  if (ttft.value === null) return ttft;
  if (n === null) return none('output token count unknown');
  if (n <= 1) return none(`${n}-token answer: TPOT divides by output_len − 1 = ${n - 1}`);
  return some((lat.value - ttft.value) / (n - 1));
}

withWholeForm(vllmTpot, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const f = firstChunkT(r);
    const l = lastChunkT(r);
    const n = vllmOutputTokens(r);
    if (f === null || l === null || n === null || n <= 1) return false;
    out[i] = (l - r.sendT - (f - r.sendT)) / (n - 1);
  }
  return true;
});

/** vLLM ITL of one request: every gap between consecutive choices messages (one gap per message, not per token). */
export function vllmItls(r: RequestRecord): number[] {
  return chunkGaps(r);
}

/**
 * vLLM `client_queue_time = start_time − request_arrival_time` (serve.py
 * `limited_request_func`): the semaphore wait. vLLM reports it only when
 * `--max-concurrency` is set (serve.py `benchmark`: `queue_times` stays None
 * otherwise, and no statistic is printed or saved), so without a cap there is
 * no value — not a 0.
 */
export function vllmClientQueueTime(r: RequestRecord, run: Pick<BenchmarkRun, 'maxConcurrency'>): Maybe {
  if (run.maxConcurrency === null) return none('vLLM reports client_queue_time only with --max-concurrency');
  return r.dueT === null ? none('no scheduled arrival in the record') : some(r.sendT - r.dueT);
}

/**
 * vLLM: `e2el_including_client_queue = latency + client_queue_time`, computed
 * only when `--max-concurrency` is set **and** `--request-rate` is finite (serve.py).
 */
export function vllmE2elIncludingClientQueue(r: RequestRecord, run: Pick<BenchmarkRun, 'maxConcurrency' | 'requestRate'>): Maybe {
  if (run.maxConcurrency === null || run.requestRate === null || !Number.isFinite(run.requestRate)) {
    return none('computed only with --max-concurrency and a finite --request-rate');
  }
  const q = vllmClientQueueTime(r, run);
  const e = vllmE2el(r);
  if (q.value === null) return q;
  if (e.value === null) return e;
  return some(e.value + q.value);
}

/**
 * vLLM's benchmark duration D (serve.py `benchmark`, 009e6d4a1cd6):
 * `benchmark_start_time = perf_counter()` is taken just before the request
 * generator starts, and `get_request` sleeps `delay_ts[0]` — one whole
 * inter-arrival gap — before yielding the first request; D ends when every
 * request task has finished. So with a finite rate the clock starts one gap
 * before the first arrival: at the schedule's origin (`run.originT`) when the
 * run knows it, else at `run.startT` (an imported vLLM file's own start).
 */
export function vllmDuration(run: BenchmarkRun): number {
  return run.endT - (run.originT ?? run.startT);
}

/**
 * vLLM `request_goodput` (serve.py): requests meeting **every** SLO given
 * (`--goodput ttft:ms tpot:ms e2el:ms`) divided by the run duration; clocks
 * after the semaphore; a one-token answer counts with TPOT = 0.
 * Not DistServe's goodput (see goodput.ts).
 */
export function vllmGoodput(run: BenchmarkRun, slo: Slo): { value: number; good: number; n: number; unit: 'req/s' } {
  const recs = successful(run);
  let good = 0;
  for (const r of recs) {
    const ttft = vllmTtft(r).value;
    const e2el = vllmE2el(r).value;
    const tpot = vllmTpot(r).value ?? 0;
    if (ttft === null || e2el === null) continue;
    if (slo.ttftMs !== undefined && ttft * 1000 > slo.ttftMs) continue;
    if (slo.tpotMs !== undefined && tpot * 1000 > slo.tpotMs) continue;
    if (slo.e2elMs !== undefined && e2el * 1000 > slo.e2elMs) continue;
    good++;
  }
  return { value: good / vllmDuration(run), good, n: recs.length, unit: 'req/s' };
}

export interface VllmMetrics {
  durationS: number;
  completed: number;
  ttft: Summary;
  tpot: Summary;
  itl: Summary;
  e2el: Summary;
  clientQueueTime: Summary;
  e2elIncludingClientQueue: Summary;
  /** completed / D */
  requestThroughput: number;
  /** Σ output_len / D */
  outputThroughput: number;
  /** (Σ prompt_len + Σ output_len) / D */
  totalTokenThroughput: number;
  requestGoodput: number | null;
}

/** One per-request definition over the successful requests, summarised as vLLM prints it (ms, numpy-linear percentiles). */
function vllmSummaryOf(recs: readonly RequestRecord[], f: (r: RequestRecord) => Maybe, percents: number[]): Summary {
  const c = collect(recs, f);
  return summarize(c.values, { unit: 'ms', percents, excluded: c.excluded });
}

/** vLLM's TPOT statistics (ms) as `vllm bench serve` prints them: {@link vllmTpot} of every successful request that has one. */
export function vllmTpotSummary(run: BenchmarkRun, percents: number[]): Summary {
  return vllmSummaryOf(successful(run), vllmTpot, percents);
}

/** vLLM's ITL statistics (ms) as `vllm bench serve` prints them: {@link vllmItls} of every successful request, pooled. */
export function vllmItlSummary(run: BenchmarkRun, percents: number[]): Summary {
  return summarize(pooledChunkGaps(run), { unit: 'ms', percents });
}

/** Everything `vllm bench serve` prints, in ms, numpy-linear percentiles (default `--metric-percentiles 99`). */
export function vllmMetrics(run: BenchmarkRun, opts: { percentiles?: number[]; goodput?: Slo } = {}): VllmMetrics {
  const percents = opts.percentiles ?? [99];
  const recs = successful(run);
  const ms = (f: (r: RequestRecord) => Maybe) => vllmSummaryOf(recs, f, percents);
  const queue = (r: RequestRecord) => vllmClientQueueTime(r, run);
  const queued = (r: RequestRecord) => vllmE2elIncludingClientQueue(r, run);
  collectAll(recs, [vllmTtft, vllmTpot, vllmE2el, queue, queued]); // one pass for the five (ms() reads what it kept)
  const D = vllmDuration(run);
  let out = 0;
  let inp = 0;
  for (const r of recs) {
    out += vllmOutputTokens(r) ?? 0;
    inp += r.inputTokens;
  }
  return {
    durationS: D,
    completed: recs.length,
    ttft: ms(vllmTtft),
    tpot: ms(vllmTpot),
    itl: vllmItlSummary(run, percents),
    e2el: ms(vllmE2el),
    clientQueueTime: ms(queue),
    e2elIncludingClientQueue: ms(queued),
    requestThroughput: recs.length / D,
    outputThroughput: out / D,
    totalTokenThroughput: (inp + out) / D,
    requestGoodput: opts.goodput ? vllmGoodput(run, opts.goodput).value : null,
  };
}
