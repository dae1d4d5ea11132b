/**
 * SGLang `python -m sglang.benchmark.serving` (and `steady_state_serving`).
 * Version read: code mirror, dates unknown (article: e607293, 2026-10-11).
 * Files: `python/sglang/benchmark/serving.py` (00f9ec472ffe: request functions,
 * `calculate_metrics`), `steady_state.py` (41f869b4351b).
 *
 * Clock: after the semaphore (taken from vLLM PR 9390), a new aiohttp session
 * per request. First token: the first chunk with non-empty text (reasoning
 * counts). End: **every** received line advances `latency`, so E2E ends at the
 * last SSE line incl. usage and [DONE] (= record.finishT), not the last token.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { largest, pooledChunkGaps } from '../base/series.ts';
import { chunkGaps, collect, collectAll, firstChunkT, none, some, successful, summarize, withOption, withWholeForm, type Maybe, type Summary } from '../base/definitions.ts';
import { sglangSteadyWindow, type ConcurrencyWindow } from '../../stats/windows.ts';

/**
 * The first chunk SGLang's request functions count: the first with text
 * (serving.py @00f9ec472ffe: `if data["choices"][0]["text"]:` in
 * `async_request_openai_completions`, `if content:` in
 * `async_request_openai_chat_completions`, `if "text" in data and data["text"]:`
 * in `async_request_sglang_generate`). A chunk the record says carried no
 * token is one without text (a role or usage chunk).
 */
function firstTextChunkT(r: RequestRecord): number | null {
  const c = r.chunkTimes;
  const tk = r.chunkTokens;
  if (!c || !tk) return firstChunkT(r);
  for (let k = 0; k < c.length; k++) if (tk[k] !== 0) return c[k];
  return null;
}

/**
 * Which of SGLang's request functions measured the run (serving.py
 * `ASYNC_REQUEST_FUNCS`): `sglang` the native `/generate` one
 * (`async_request_sglang_generate`, `--backend sglang`, the default),
 * `openai` the completions one (`async_request_openai_completions`:
 * `sglang-oai`, `vllm`, `lmdeploy`), `openai-chat` the chat one
 * (`async_request_openai_chat_completions`: the `*-chat` backends).
 */
export type SglangBackend = 'sglang' | 'openai' | 'openai-chat';

/**
 * SGLang TTFT: first chunk with text − st (s). A stream with no text still
 * succeeds (`output.success = True` after the loop, in every request
 * function), so its `ttft` stays at the initial 0.0 and `calculate_metrics`
 * appends that 0 to `ttfts` (serving.py @00f9ec472ffe).
 */
export function sglangTtft(r: RequestRecord): Maybe {
  const f = firstTextChunkT(r);
  return some(f === null ? 0 : f - r.sendT);
}

/**
 * SGLang E2E: time of the last SSE line of any kind − st (s) = record.finishT − sendT:
 * `latency` is taken on every line, with text or not. serving.py.
 */
export function sglangE2e(r: RequestRecord): Maybe {
  return some(r.finishT - r.sendT);
}

/**
 * SGLang output_len: `usage.completion_tokens` if the server sent usage, else
 * the **requested** length. The completions and native functions read the
 * count only inside a chunk with text (`output_len = ...` under
 * `if data["choices"][0]["text"]:` / `if "text" in data and data["text"]:`),
 * so a stream with no text keeps the requested length whatever the server
 * counted; the chat function reads `usage` from every chunk before looking
 * at `choices` (serving.py @00f9ec472ffe). A record does not say in which
 * chunk its count arrived: where there was text, it is taken as read.
 */
export function sglangOutputLen(r: RequestRecord, backend: SglangBackend = 'openai'): number | null {
  if (backend !== 'openai-chat' && firstTextChunkT(r) === null) return r.requestedOutputTokens ?? null;
  return r.outputTokens ?? r.requestedOutputTokens ?? null;
}

/**
 * SGLang TPOT: `(latency − ttft)/(output_len − 1)` for output_len > 1 (latency
 * ends at the last line). serving.py `calculate_metrics`. A stream with no
 * text has ttft 0, so its TPOT is latency/(output_len − 1).
 */
export function sglangTpot(r: RequestRecord, backend: SglangBackend = 'openai'): Maybe {
  const n = sglangOutputLen(r, backend);
  const e = sglangE2e(r);
  const t = sglangTtft(r);
  if (e.value === null) return e;
  if (t.value === null) return t;
  if (n === null) return none('output length unknown (no usage, no requested length)');
  if (n <= 1) return none(`${n}-token answer: TPOT divides by output_len − 1 = ${n - 1}`);
  return some((e.value - t.value) / (n - 1));
}

withWholeForm(sglangTpot, (recs, out, backend = 'openai') => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const n = sglangOutputLen(r, backend);
    if (n === null || n <= 1) return false;
    const f = firstTextChunkT(r);
    out[i] = (r.finishT - r.sendT - (f === null ? 0 : f - r.sendT)) / (n - 1);
  }
  return true;
});

/**
 * SGLang ITL of one request (serving.py @00f9ec472ffe). A chunk without text
 * is skipped before the previous timestamp moves, so the next gap runs from
 * the last chunk with text: the OpenAI-compatible backends test the text
 * (`if data["choices"][0]["text"]:`, `if content:`), the native `sglang`
 * backend the new-token count (`if num_new_tokens == 0: continue`). The OpenAI
 * backends then take one gap per chunk with text; the native one splits a
 * chunk's gap evenly over the k tokens it carried, `gap/k` repeated k times
 * (`adjust_itl`). Without per-chunk token counts every chunk carried text.
 */
export function sglangItls(r: RequestRecord, backend: SglangBackend = 'openai'): number[] {
  const c = r.chunkTimes;
  const tk = r.chunkTokens;
  if (!c || !tk) return chunkGaps(r);
  const out: number[] = [];
  let prev: number | null = null;
  for (let k = 0; k < c.length; k++) {
    if (tk[k] === 0) continue;
    if (prev !== null) {
      if (backend !== 'sglang') out.push(c[k] - prev);
      // a negative count (a server's cumulative count going back) adds no gap but moves the clock, as `[x] * k` does
      else for (let j = 0; j < tk[k]; j++) out.push((c[k] - prev) / tk[k]);
    }
    prev = c[k];
  }
  return out;
}

/**
 * SGLang's benchmark duration (serving.py `benchmark`): `benchmark_start_time`
 * is taken just before `get_request`, which yields the first request at once
 * and sleeps a gap only after each request; D ends after every task has
 * finished. So the run clock starts at the first arrival: `run.startT` (the
 * first due or send time).
 */
export function sglangDuration(run: BenchmarkRun): number {
  return run.endT - run.startT;
}

export interface SglangMetrics {
  durationS: number;
  completed: number;
  ttft: Summary;
  tpot: Summary;
  itl: Summary;
  e2eLatency: Summary;
  maxItlMs: number | null;
  requestThroughput: number;
  inputThroughput: number;
  outputThroughput: number;
  totalThroughput: number;
  /** Little's law: Σ e2e / D */
  concurrency: number;
}

/** SGLang's TPOT statistics as it prints them (ms, p90/p95/p99): {@link sglangTpot} of every successful request that has one. */
export function sglangTpotSummary(run: BenchmarkRun, backend: SglangBackend = 'openai'): Summary {
  const c = collect(successful(run), withOption(sglangTpot, backend));
  return summarize(c.values, { unit: 'ms', percents: [90, 95, 99], excluded: c.excluded });
}

/** What SGLang prints: mean/median/std and fixed p90/p95/p99 (numpy linear, population std), ms. */
export function sglangMetrics(run: BenchmarkRun, opts: { backend?: SglangBackend } = {}): SglangMetrics {
  const percents = [90, 95, 99];
  const recs = successful(run);
  const ms = (f: (r: RequestRecord) => Maybe) => {
    const c = collect(recs, f);
    return summarize(c.values, { unit: 'ms', percents, excluded: c.excluded });
  };
  const backend = opts.backend ?? 'openai';
  collectAll(recs, [sglangTtft, withOption(sglangTpot, backend), sglangE2e]); // one pass for the three (ms() and sglangTpotSummary read what it kept)
  let itls: ArrayLike<number>;
  // with every chunk carrying text, the OpenAI backends' ITL is the shared pooled series of chunk gaps
  if (backend !== 'sglang' && !recs.some((r) => r.chunkTokens?.includes(0))) itls = pooledChunkGaps(run);
  else {
    const all: number[] = [];
    for (const r of recs) for (const g of sglangItls(r, backend)) all.push(g);
    itls = all;
  }
  const D = sglangDuration(run);
  let inp = 0;
  let out = 0;
  let e2eSum = 0;
  for (const r of recs) {
    inp += r.inputTokens;
    out += sglangOutputLen(r, backend) ?? 0;
    e2eSum += sglangE2e(r).value ?? 0;
  }
  const maxItl = largest(itls);
  return {
    durationS: D,
    completed: recs.length,
    ttft: ms(sglangTtft),
    tpot: sglangTpotSummary(run, backend),
    itl: summarize(itls, { unit: 'ms', percents }),
    e2eLatency: ms(sglangE2e),
    maxItlMs: itls.length ? maxItl * 1000 : null,
    requestThroughput: recs.length / D,
    inputThroughput: inp / D,
    outputThroughput: out / D,
    totalThroughput: (inp + out) / D,
    concurrency: e2eSum / D,
  };
}

/**
 * SGLang steady-state throughput (`steady_state.py`): the longest span with
 * concurrency ≥ max(1, ⌈peak·ratio⌉) over [start, start + latency); output
 * tokens counted pro rata, `output_len_i · (#token times of i in window)/(#token times of i)`
 * (token times = start + ttft + cumsum(itl) = chunk times); input throughput
 * counts prompts of requests **starting** in [start, end). Latency statistics are not windowed.
 */
export function sglangSteadyState(run: BenchmarkRun, ratio: number): (ConcurrencyWindow & { outputThroughput: number; inputThroughput: number; completed: number }) | null {
  const recs = successful(run);
  const starts = recs.map((r) => r.sendT);
  const ends = recs.map((r) => r.finishT);
  const w = sglangSteadyWindow(starts, ends, ratio);
  if (!w) return null;
  let outTok = 0;
  let inTok = 0;
  let completed = 0;
  for (const r of recs) {
    const c = r.chunkTimes;
    const n = sglangOutputLen(r) ?? 0;
    if (c && c.length) {
      let inside = 0;
      for (const t of c) if (t >= w.start && t < w.end) inside++;
      outTok += (n * inside) / c.length;
    }
    if (r.sendT >= w.start && r.sendT < w.end) inTok += r.inputTokens;
    if (r.finishT >= w.start && r.finishT < w.end) completed++;
  }
  const dur = w.end - w.start;
  return { ...w, outputThroughput: outTok / dur, inputThroughput: inTok / dur, completed };
}
