/**
 * EvalScope perf's per-request metrics (modelscope/evalscope @fde259d2,
 * evalscope/perf/plugin/api/default_api.py `process_request`,
 * perf/utils/benchmark_util.py `BenchmarkData.finalize`, perf/utils/db_util.py
 * `calculate_percentiles`), one function each.
 *
 * Clock: `time.perf_counter()` before the POST (`start_time`). First token:
 * the first SSE message with `choices`, even one with empty content (the role
 * chunk counts). Each later message with `choices` adds a gap to
 * `inter_chunk_latency`. End: the last non-[DONE] message of any kind, the
 * usage chunk included (`completed_time`; `latency` = completed − start).
 * TPOT = (latency − TTFT) / (completion_tokens − 1) for more than one token.
 * Percentiles: sorted values at index int(n · p / 100), not interpolated.
 */
import type { RequestRecord } from '../base/records.ts';
import { chunkGaps, firstChunkT, none, some, type Maybe } from '../base/definitions.ts';

/** first_chunk_latency: the first message with choices − start (s). */
export function evalscopeTtft(r: RequestRecord): Maybe {
  const f = firstChunkT(r);
  return f === null ? none('not streamed: evalscope leaves TTFT out for non-stream requests') : some(f - r.sendT);
}

/** latency: the last message of any kind − start (s). */
export function evalscopeLatency(r: RequestRecord): Maybe {
  return some(r.finishT - r.sendT);
}

/** time_per_output_token = (latency − TTFT) / (completion_tokens − 1) (s per token). */
export function evalscopeTpot(r: RequestRecord): Maybe {
  const t = evalscopeTtft(r);
  if (t.value === null) return t;
  const n = r.outputTokens;
  if (n === null) return none('completion_tokens unknown');
  if (n <= 1) return none(`${n}-token answer: TPOT divides by completion_tokens − 1`);
  return some((r.finishT - r.sendT - t.value) / (n - 1));
}

/** inter_chunk_latency: the gaps between consecutive messages with choices, pooled over requests (s). */
export function evalscopeItls(r: RequestRecord): number[] {
  return chunkGaps(r);
}

/** `calculate_percentiles`: sorted(data)[int(n · p / 100)], the maximum for p ≥ 100 (unrounded here; the tool rounds what it writes). */
export function evalscopePercentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const x = [...values].sort((a, b) => a - b);
  if (p >= 100) return x[x.length - 1];
  return x[Math.min(x.length - 1, Math.floor((x.length * p) / 100))];
}
