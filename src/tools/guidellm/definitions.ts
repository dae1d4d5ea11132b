/**
 * GuideLLM, two generations of definitions ({@link GuidellmVersion}):
 * - up to 0.3.x (requests with flat start_time /
 *   first_token_time / last_token_time and `scheduler_info`):
 *   time_per_output_token_ms = 1000·(last − first token)/output_tokens and
 *   inter_token_latency_ms = 1000·(last − first)/(output_tokens − 1), both
 *   averaged over requests (unweighted; the file's count is the request count);
 * - 0.4 on (info.timings): the definitions below, token-weighted.
 * Version read: snapshot ee7a7745 (2026-08-07): `src/guidellm/schemas/{request_stats,statistics}.py`,
 * `benchmark/schemas/metrics.py`, `backends/openai/http.py`; newer layout
 * `schemas/base/request_stats.py` (31c74ea27242) from a code mirror. Article: 87a66f0 (2026-10-09).
 *
 * Clock: `request_start = time.time()` right before the HTTP stream opens
 * (= sendT; `targeted_start` = dueT kept apart). First token: first line with
 * content/reasoning/tool call; `last_token_iteration` = last such line;
 * `request_end` after the loop breaks on [DONE] (= finishT).
 * Tokens: usage total (server) if present, else the count of token lines.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { firstChunkT, lastChunkT, none, some, successful, wholeFormOfDefinition, withWholeForm, type Maybe } from '../base/definitions.ts';
import { sortInPlace, weightedMean, weightedPercentiles } from '../../stats/percentile.ts';
import { overlapping } from '../../stats/windows.ts';
import { keepOn, keptOn } from '../base/kept.ts';

/**
 * GuideLLM output_tokens: the server's usage when it sent one, else
 * `token_iterations`, the number of content lines (schemas/request_stats.py
 * `output_tokens`: `token_iterations or None`; backends/openai/http.py adds 1
 * per line `add_streaming_line` found content in), whatever each line carried:
 * a multi-token chunk counts once, and no content line at all is no count.
 */
export function guidellmOutputTokens(r: RequestRecord): number | null {
  if (r.outputTokens !== null) return r.outputTokens;
  return r.chunkTimes && r.chunkTimes.length > 0 ? r.chunkTimes.length : null;
}

/** `request_latency = request_end − request_start` (s). request_stats.py. */
export function guidellmRequestLatency(r: RequestRecord): Maybe {
  return some(r.finishT - r.sendT);
}

/** `time_to_first_token_ms = 1000·(first_token_iteration − request_start)`. */
export function guidellmTtftMs(r: RequestRecord): Maybe {
  const f = firstChunkT(r);
  return f === null ? none('no token line arrived') : some(1000 * (f - r.sendT));
}

withWholeForm(guidellmTtftMs, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const f = firstChunkT(recs[i]);
    if (f === null) return false;
    out[i] = 1000 * (f - recs[i].sendT);
  }
  return true;
});

/**
 * `time_per_output_token_ms = 1000·(last_token_iteration − request_start) / output_tokens`:
 * **includes the wait for the first token** ("including first token"). request_stats.py.
 */
export function guidellmTimePerOutputTokenMs(r: RequestRecord): Maybe {
  const l = lastChunkT(r);
  const n = guidellmOutputTokens(r);
  if (l === null) return none('no token line arrived');
  if (!n) return none('0 output tokens');
  return some((1000 * (l - r.sendT)) / n);
}

withWholeForm(guidellmTimePerOutputTokenMs, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const l = lastChunkT(r);
    const n = guidellmOutputTokens(r);
    if (l === null || !n) return false;
    out[i] = (1000 * (l - r.sendT)) / n;
  }
  return true;
});

/** `inter_token_latency_ms = 1000·(last − first token iteration)/(output_tokens − 1)` — vLLM's TPOT. */
export function guidellmInterTokenLatencyMs(r: RequestRecord): Maybe {
  const l = lastChunkT(r);
  const f = firstChunkT(r);
  const n = guidellmOutputTokens(r);
  if (l === null || f === null) return none('no token line arrived');
  if (n === null || n <= 1) return none(`${n ?? 0}-token answer: inter_token_latency divides by output_tokens − 1`);
  return some((1000 * (l - f)) / (n - 1));
}

withWholeForm(guidellmInterTokenLatencyMs, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const l = lastChunkT(r);
    const f = firstChunkT(r);
    const n = guidellmOutputTokens(r);
    if (l === null || f === null || n === null || n <= 1) return false;
    out[i] = (1000 * (l - f)) / (n - 1);
  }
  return true;
});

/** `output_tokens_per_second = output_tokens / request_latency` (per request). */
export function guidellmOutputTokensPerSecond(r: RequestRecord): Maybe {
  const n = guidellmOutputTokens(r);
  const lat = r.finishT - r.sendT;
  if (n === null) return none('output token count unknown');
  return lat > 0 ? some(n / lat) : none('request_latency is 0');
}

/** `request_dispatch_delay = request_start − targeted_start` (newer versions). */
export function guidellmDispatchDelay(r: RequestRecord): Maybe {
  return r.dueT === null ? none('no targeted start in the record') : some(r.sendT - r.dueT);
}

/**
 * `request_scheduled_latency = request_end − targeted_start` (newer versions).
 * GuideLLM is said to refuse it for closed-loop strategies (circular, not a
 * coordinated-omission correction; not confirmed in the code read, see
 * docs/definitions.md): we refuse when the run has no finite request rate.
 */
export function guidellmScheduledLatency(r: RequestRecord, run: Pick<BenchmarkRun, 'requestRate'>): Maybe {
  if (run.requestRate === null || !Number.isFinite(run.requestRate)) return none('closed loop: no arrival schedule to measure from');
  return r.dueT === null ? none('no targeted start in the record') : some(r.finishT - r.dueT);
}

/** A GuideLLM distribution summary: mean = Σ v·w/Σ w, percentiles by weighted inverse CDF. */
export interface WeightedSummary {
  n: number;
  mean: number | null;
  median: number | null;
  percentiles: Record<string, number | null>;
  weighting: 'tokens' | 'tokens − 1' | 'none';
}

const GUIDELLM_PERCENTS = [0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9];

function weighted(values: ArrayLike<number>, weights: ArrayLike<number>, weighting: WeightedSummary['weighting']): WeightedSummary {
  const percentiles: Record<string, number | null> = {};
  const q = values.length ? weightedPercentiles(values, [...GUIDELLM_PERCENTS.map((p) => p / 100), 0.5], weights) : null;
  GUIDELLM_PERCENTS.forEach((p, j) => (percentiles[String(p)] = q ? q[j] : null));
  return {
    n: values.length,
    mean: values.length ? weightedMean(values, weights) : null,
    median: q ? q[GUIDELLM_PERCENTS.length] : null,
    percentiles,
    weighting,
  };
}

/** Which generation of GuideLLM's definitions applies. */
export type GuidellmVersion = 'up-to-0.3' | '0.4+';

/** Up to 0.3.x: `time_per_output_token_ms = 1000·(last_token_time − first_token_time)/output_tokens`. */
export function guidellmTimePerOutputTokenMsPre03(r: RequestRecord): Maybe {
  const l = lastChunkT(r);
  const f = firstChunkT(r);
  const n = guidellmOutputTokens(r);
  if (l === null || f === null) return none('no token line arrived');
  if (!n) return none('0 output tokens');
  return some((1000 * (l - f)) / n);
}

withWholeForm(guidellmTimePerOutputTokenMsPre03, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const l = lastChunkT(r);
    const f = firstChunkT(r);
    const n = guidellmOutputTokens(r);
    if (l === null || f === null || !n) return false;
    out[i] = (1000 * (l - f)) / n;
  }
  return true;
});

/**
 * GuideLLM 0.4+ `requests_per_second` over the measured window: the
 * successful requests that END inside [start, end], divided by its length.
 */
export function guidellmRequestsPerSecond(run: BenchmarkRun): number | null {
  const D = run.endT - run.startT;
  if (!(D > 0)) return null;
  let n = 0;
  for (const r of successful(run)) if (r.finishT > run.startT && r.finishT <= run.endT) n++;
  return n / D;
}

/**
 * GuideLLM merges change times this close (s) onto the earliest of them, by
 * version: 0.4 on, `threshold = 1e-4` (schemas/statistics.py
 * `_merge_sorted_times_with_weights`, introduced in guidellm 31e26308 (2025-10-27),
 * first released in v0.4.0 e0769484); up to 0.3.x, `epsilon = 1e-6`
 * (objects/statistics.py `DistributionSummary.from_request_times`, v0.3.1 121dcdc4),
 * compared with the merged point's time, so the same sweep with a smaller reach.
 */
export const GUIDELLM_MERGE_S: Record<GuidellmVersion, number> = { 'up-to-0.3': 1e-6, '0.4+': 1e-4 };

/**
 * GuideLLM `request_concurrency` mean (statistics.py
 * `concurrency_distribution_from_timings`, over the successful requests that
 * overlap [start, end]): +1 at each request_start, −1 at each request_end; the
 * change times merged (`_merge_sorted_times_with_weights`); the level carried
 * into the window at its start, cut at its end, clipped at 0; each level
 * weighted by how long it lasts. The merge: a group opens at a change time and
 * takes every later one up to it + {@link GUIDELLM_MERGE_S} (of the version
 * that wrote the file; default the pinned 0.4+), their changes
 * summed onto its first time; the next time opens the next group, so a chain
 * of close times longer than the threshold becomes several points, not one.
 * GuideLLM reaches this in passes (each run of gaps ≤ threshold merges from its
 * first time, then again on what is left); the passes amount to this one sweep,
 * since a merged point keeps its first time's place and so never comes within
 * the threshold of a neighbour again. Without the merge the mean would be
 * Σ (time each request spends inside the window) / (end − start); the merge
 * moves a change earlier by at most the threshold (0.1 ms from 0.4).
 */
export function guidellmConcurrency(run: BenchmarkRun, version: GuidellmVersion = '0.4+'): number | null {
  const merge = GUIDELLM_MERGE_S[version];
  const D = run.endT - run.startT;
  if (!(D > 0)) return null;
  const all = successful(run);
  const within = (r: RequestRecord) => r.finishT >= run.startT && r.sendT <= run.endT;
  let n = 0;
  for (const r of all) if (within(r)) n++;
  if (n === 0) return 0; // GuideLLM's summary of no values has mean 0
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  n = 0;
  for (const r of all) {
    if (!within(r)) continue;
    starts[n] = r.sendT;
    ends[n++] = r.finishT;
  }
  sortInPlace(starts);
  sortInPlace(ends);
  // the change times in ascending order: the two sorted lists merged, a start before an equal end
  // (written out, not as small closures over i and j: a big run has millions of change times)
  let i = 0;
  let j = 0;
  let level = 0;
  let at = run.startT;
  let area = 0;
  while (i < n || j < n) {
    const first = j >= n || (i < n && starts[i] <= ends[j]) ? starts[i] : ends[j];
    let change = 0;
    for (;;) {
      if (j >= n || (i < n && starts[i] <= ends[j])) {
        if (i >= n || !(starts[i] <= first + merge)) break;
        change += 1;
        i++;
      } else if (ends[j] <= first + merge) {
        change += -1;
        j++;
      } else break;
    }
    // a change before the window only sets the level it opens with (numpy searchsorted 'left'); one after it is cut
    if (first > run.endT) break;
    if (first >= run.startT) {
      area += Math.max(0, level) * Math.max(0, first - at);
      at = first;
    }
    level += change;
  }
  area += Math.max(0, level) * Math.max(0, run.endT - at);
  return area / D;
}

export interface GuidellmMetrics {
  requests: number;
  timeToFirstTokenMs: WeightedSummary;
  /** weighted by output_tokens: mean = Σ(last_i − start_i)/Σ n_i ·1000 */
  timePerOutputTokenMs: WeightedSummary;
  /** weighted by output_tokens − 1: mean = Σ(last_i − first_i)/Σ(n_i − 1) ·1000 */
  interTokenLatencyMs: WeightedSummary;
  requestLatencyS: WeightedSummary;
  window: [number, number];
}

/**
 * GuideLLM's aggregation (`GenerativeMetrics.compile`): only requests that
 * **overlap** the measurement window [measureStart, measureEnd] (default: the
 * whole run); TPOT and ITL token-weighted, the rest unweighted.
 */
export function guidellmMetrics(run: BenchmarkRun, opts: GuidellmOptions = {}): GuidellmMetrics {
  const pre03 = opts.version === 'up-to-0.3';
  const { requests, tt, tpot, tpotW, itl, itlW, lat, window } = guidellmSamples(run, opts);
  const ones = (k: number) => new Float64Array(k).fill(1);
  return {
    requests,
    timeToFirstTokenMs: weighted(tt, ones(tt.length), 'none'),
    timePerOutputTokenMs: weighted(tpot, tpotW, pre03 ? 'none' : 'tokens'),
    interTokenLatencyMs: weighted(itl, itlW, pre03 ? 'none' : 'tokens − 1'),
    requestLatencyS: weighted(lat, ones(lat.length), 'none'),
    window: [window[0], window[1]],
  };
}

export interface GuidellmOptions {
  measureStart?: number;
  measureEnd?: number;
  version?: GuidellmVersion;
}

/** What {@link guidellmSamples} gives (read-only: shared by every caller on the same run). */
export interface GuidellmSamples {
  requests: number;
  tt: Float64Array;
  tpot: Float64Array;
  tpotW: Float64Array;
  itl: Float64Array;
  itlW: Float64Array;
  lat: Float64Array;
  window: readonly [number, number];
}

/**
 * What {@link guidellmMetrics} aggregates: the per-request values of the
 * requests that overlap the window, with their weights (tokens, or 1 up to 0.3).
 * The report and the per-user speed both read them, so they are taken once
 * per run, version and window (a pass over every request on a big run), and
 * kept on the records (kept.ts).
 */
export function guidellmSamples(run: BenchmarkRun, opts: GuidellmOptions = {}): GuidellmSamples {
  const pre03 = opts.version === 'up-to-0.3';
  const all = successful(run);
  const ms = opts.measureStart ?? run.startT;
  const me = opts.measureEnd ?? run.endT;
  const key = `guidellm samples ${pre03} ${ms} ${me}`;
  return keptOn<GuidellmSamples>(all, key) ?? keepOn(all, key, takeSamples(all, pre03, ms, me));
}

function takeSamples(all: readonly RequestRecord[], pre03: boolean, ms: number, me: number): GuidellmSamples {
  const sendT = new Float64Array(all.length);
  const finishT = new Float64Array(all.length);
  for (let i = 0; i < all.length; i++) {
    sendT[i] = all[i].sendT;
    finishT[i] = all[i].finishT;
  }
  const keep = overlapping(sendT, finishT, ms, me);
  // at most one value a request, in buffers of that size (typed: a big run's millions of values are not the collector's to trace)
  const k = keep.length;
  const tt = new Float64Array(k);
  const tpot = new Float64Array(k);
  const tpotW = new Float64Array(k);
  const itl = new Float64Array(k);
  const itlW = new Float64Array(k);
  const lat = new Float64Array(k);
  // every request in the window with all three values (a simulated run, most files): the whole forms, weights beside
  const kept = k === all.length ? all : Array.from(keep, (i) => all[i]);
  const perToken = pre03 ? guidellmTimePerOutputTokenMsPre03 : guidellmTimePerOutputTokenMs;
  const whole = (f: (r: RequestRecord) => Maybe, out: Float64Array) => wholeFormOfDefinition(f)!(kept, out);
  if (whole(guidellmTtftMs, tt) && whole(perToken, tpot) && whole(guidellmInterTokenLatencyMs, itl)) {
    for (let j = 0; j < k; j++) {
      const r = kept[j];
      const n = guidellmOutputTokens(r) ?? 0;
      tpotW[j] = pre03 ? 1 : n;
      itlW[j] = pre03 ? 1 : n - 1;
      lat[j] = r.finishT - r.sendT;
    }
    return { requests: k, tt, tpot, tpotW, itl, itlW, lat, window: [ms, me] };
  }
  let nt = 0;
  let np = 0;
  let ni = 0;
  for (let j = 0; j < k; j++) {
    const r = all[keep[j]];
    const n = guidellmOutputTokens(r) ?? 0;
    const a = guidellmTtftMs(r);
    if (a.value !== null) tt[nt++] = a.value;
    const b = pre03 ? guidellmTimePerOutputTokenMsPre03(r) : guidellmTimePerOutputTokenMs(r);
    if (b.value !== null) {
      tpot[np] = b.value;
      tpotW[np++] = pre03 ? 1 : n;
    }
    const c = guidellmInterTokenLatencyMs(r);
    if (c.value !== null) {
      itl[ni] = c.value;
      itlW[ni++] = pre03 ? 1 : n - 1;
    }
    lat[j] = r.finishT - r.sendT;
  }
  const cut = (x: Float64Array, m: number) => (m === k ? x : x.slice(0, m));
  return { requests: k, tt: cut(tt, nt), tpot: cut(tpot, np), tpotW: cut(tpotW, np), itl: cut(itl, ni), itlW: cut(itlW, ni), lat, window: [ms, me] };
}

/** GuideLLM's mean time_per_output_token_ms as {@link guidellmMetrics} reports it (token-weighted), without its percentiles. */
export function guidellmTimePerOutputTokenMean(run: BenchmarkRun, opts: GuidellmOptions = {}): { mean: number | null; n: number } {
  const { tpot, tpotW } = guidellmSamples(run, opts);
  return { mean: tpot.length ? weightedMean(tpot, tpotW) : null, n: tpot.length };
}
