/**
 * NVIDIA AIPerf.
 * Version read: code mirror, 2026 ("Copyright 2025-2026"); article bfa5ab1 (2026-10-11).
 * Files: `src/aiperf/metrics/types/{ttft_metric, request_latency_metric,
 * inter_token_latency_metric, inter_chunk_latency_metric,
 * adjusted_latency_metrics, e2e_normalized_interactivity_metrics}.py`,
 * `src/aiperf/metrics/derived_latency.py`, `metric_result_from_array`.
 *
 * Clock: `request_start_ns`, when the worker initiates the request (= sendT);
 * `credit_issued_ns` kept separately. First token: first non-empty content
 * chunk. End: last content chunk. Streaming metrics need `--streaming` (off by default).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { pooledChunkGaps, sortedValues } from '../base/series.ts';
import { collect, collectAll, firstChunkT, lastChunkT, none, serverTokens, some, successful, summarize, withWholeForm, type Maybe, type Slo, type Summary } from '../base/definitions.ts';
import { linearPercentile } from '../../stats/percentile.ts';

/** AIPerf TTFT: `content_responses[0].perf_ns − start_perf_ns`. ttft_metric.py. */
export function aiperfTtft(r: RequestRecord): Maybe {
  const f = firstChunkT(r);
  return f === null ? none('no content chunk arrived') : some(f - r.sendT);
}

/** AIPerf request_latency: last content chunk − start. request_latency_metric.py. */
export function aiperfRequestLatency(r: RequestRecord): Maybe {
  const l = lastChunkT(r);
  return l === null ? none('no content chunk arrived') : some(l - r.sendT);
}

/** OSL: client-tokenizer count by default; with `--use-server-token-count` the usage count. Here: the record's count. */
export function aiperfOsl(r: RequestRecord): number | null {
  return serverTokens(r);
}

/**
 * AIPerf `inter_token_latency` (per request; inter_token_latency_metric.py
 * `_decode_token_count`, ai-dynamo/aiperf 58dd5dea729c):
 * `(request_latency − ttft) / (OSL − first_chunk_tokens)`. first_chunk_tokens
 * is known only with `--per-chunk-usage` (else the divisor is OSL − 1); a
 * reported count that is ≤ 0, or leaves fewer than one decode token, is
 * "inconsistent" and the divisor falls back to OSL − 1 (with one warning per
 * process). Needs OSL ≥ 2. This is vLLM's TPOT under another name.
 */
export function aiperfItl(r: RequestRecord, opts: { perChunkUsage?: boolean } = {}): Maybe {
  const osl = aiperfOsl(r);
  const lat = aiperfRequestLatency(r);
  const ttft = aiperfTtft(r);
  if (lat.value === null) return lat;
  if (ttft.value === null) return ttft;
  if (osl === null) return none('output token count unknown');
  if (osl < 2) return none(`${osl}-token answer: inter_token_latency needs OSL ≥ 2`);
  let div = osl - 1;
  if (opts.perChunkUsage && r.chunkTokens && r.chunkTokens.length > 0) {
    const first = r.chunkTokens[0];
    const d = osl - first;
    if (first > 0 && d >= 1) div = d;
  }
  return some((lat.value - ttft.value) / div);
}

/** AIPerf `output_token_throughput_per_user` (per request) = 1 / inter_token_latency [s]; its average is a mean of reciprocals. */
export function aiperfPerUserThroughput(r: RequestRecord, opts: { perChunkUsage?: boolean } = {}): Maybe {
  const itl = aiperfItl(r, opts);
  if (itl.value === null) return itl;
  return itl.value > 0 ? some(1 / itl.value) : none('inter_token_latency is 0');
}

// the form without per-chunk usage: the divisor is OSL − 1
withWholeForm(aiperfPerUserThroughput, (recs, out, opts) => {
  if (opts?.perChunkUsage) return false;
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const osl = aiperfOsl(r);
    const l = lastChunkT(r);
    const f = firstChunkT(r);
    if (osl === null || l === null || f === null || osl < 2) return false;
    const itl = (l - r.sendT - (f - r.sendT)) / (osl - 1);
    if (!(itl > 0)) return false;
    out[i] = 1 / itl;
  }
  return true;
});

/** AIPerf `e2e_output_token_throughput` (per request) = OSL / request_latency [s]: the wait for the first token is folded in. */
export function aiperfE2eOutputTokenThroughput(r: RequestRecord): Maybe {
  const osl = aiperfOsl(r);
  const lat = aiperfRequestLatency(r);
  if (lat.value === null) return lat;
  if (osl === null) return none('output token count unknown');
  return lat.value > 0 ? some(osl / lat.value) : none('request_latency is 0');
}

withWholeForm(aiperfE2eOutputTokenThroughput, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const osl = aiperfOsl(r);
    const l = lastChunkT(r);
    if (osl === null || l === null) return false;
    const lat = l - r.sendT;
    if (!(lat > 0)) return false;
    out[i] = osl / lat;
  }
  return true;
});

/**
 * AIPerf E2E normalized interactivity (e2e_normalized_interactivity_metrics.py):
 * `1 / p(request_latency_s / OSL)` — the percentile of seconds per token, then
 * inverted (run level; AIPerf reports p75 and p90). Linear percentile.
 */
export function aiperfE2eNormalizedInteractivity(run: BenchmarkRun, p: number): number | null {
  const c = collect(successful(run), aiperfSecondsPerToken);
  if (!c.values.length) return null;
  const q = linearPercentile(sortedValues(c.values), p, { sorted: true });
  return q > 0 ? 1 / q : null;
}

/** `request_latency_s / OSL` of one request, what {@link aiperfE2eNormalizedInteractivity} takes a percentile of. */
export function aiperfSecondsPerToken(r: RequestRecord): Maybe {
  const osl = aiperfOsl(r);
  const lat = aiperfRequestLatency(r);
  if (lat.value === null) return lat;
  return osl && osl > 0 ? some(lat.value / osl) : none('no output tokens');
}

withWholeForm(aiperfSecondsPerToken, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const osl = aiperfOsl(r);
    const l = lastChunkT(r);
    if (l === null || !(osl && osl > 0)) return false;
    out[i] = (l - r.sendT) / osl;
  }
  return true;
});

/**
 * AIPerf `effective_latency = end_ns − credit_issued_ns` ("the only AIPerf
 * latency metric that is coordinated-omission-aware", automatic). The credit
 * time is taken as the scheduled time when the run had a request rate and as
 * the send time in concurrency mode (a slot frees, a credit is issued, the
 * worker sends). Not verified in AIPerf's code: when a rate and a concurrency
 * ceiling are both set, whether credits are stamped before the ceiling.
 */
export function aiperfEffectiveLatency(r: RequestRecord, run: Pick<BenchmarkRun, 'requestRate'>): Maybe {
  const l = lastChunkT(r);
  if (l === null) return none('no content chunk arrived');
  const rateMode = run.requestRate !== null && Number.isFinite(run.requestRate);
  const credit = rateMode ? r.dueT : r.sendT;
  return credit === null ? none('no scheduled arrival in the record') : some(l - credit);
}

/**
 * AIPerf benchmark_duration = max(end) − min(start): its run clock starts when
 * the first request is sent (not at the schedule's origin nor at the first
 * credit) and stops at the last response.
 */
export function aiperfDuration(run: BenchmarkRun): number {
  const recs = successful(run);
  let a = Infinity;
  let b = -Infinity;
  for (const r of recs) {
    a = Math.min(a, r.sendT);
    b = Math.max(b, lastChunkT(r) ?? r.finishT);
  }
  return b - a;
}

export interface AiperfMetrics {
  durationS: number;
  requestCount: number;
  timeToFirstToken: Summary;
  requestLatency: Summary;
  interTokenLatency: Summary;
  interChunkLatency: Summary;
  outputTokenThroughputPerUser: Summary;
  e2eOutputTokenThroughput: Summary;
  e2eNormalizedInteractivity: { p75: number | null; p90: number | null };
  effectiveLatency: Summary;
  requestThroughput: number;
  outputTokenThroughput: number;
  totalTokenThroughput: number;
  goodput: number | null;
}

/**
 * AIPerf's record-metric statistics (`metric_result_from_array`): avg, p1…p99
 * by linear interpolation at q/100·(n−1), population std. The pooled ICL is
 * exact here; AIPerf itself pools it through a t-digest (approximate).
 */
export function aiperfMetrics(run: BenchmarkRun, opts: { perChunkUsage?: boolean; goodput?: Slo } = {}): AiperfMetrics {
  const percents = [1, 5, 10, 25, 50, 75, 90, 95, 99];
  const recs = successful(run);
  const sum = (f: (r: RequestRecord) => Maybe, unit: 'ms' | 'tok/s') => {
    const c = collect(recs, f);
    return summarize(c.values, { unit, percents, excluded: c.excluded });
  };
  const itl = (r: RequestRecord) => aiperfItl(r, opts);
  // without per-chunk usage, the very function the per-user speed collects (so it is collected once)
  const perUser = opts.perChunkUsage ? (r: RequestRecord) => aiperfPerUserThroughput(r, opts) : aiperfPerUserThroughput;
  const effective = (r: RequestRecord) => aiperfEffectiveLatency(r, run);
  // one pass for the seven (sum() and aiperfE2eNormalizedInteractivity read what it kept)
  collectAll(recs, [aiperfTtft, aiperfRequestLatency, itl, perUser, aiperfE2eOutputTokenThroughput, aiperfSecondsPerToken, effective]);
  const icl = pooledChunkGaps(run); // chunkGaps of every successful request
  const D = aiperfDuration(run);
  let osl = 0;
  let isl = 0;
  for (const r of recs) {
    osl += aiperfOsl(r) ?? 0;
    isl += r.inputTokens;
  }
  let goodput: number | null = null;
  if (opts.goodput) {
    const s = opts.goodput;
    let good = 0;
    for (const r of recs) {
      const t = aiperfTtft(r).value;
      const i = aiperfItl(r, opts).value;
      const l = aiperfRequestLatency(r).value;
      if (s.ttftMs !== undefined && (t === null || t * 1000 > s.ttftMs)) continue;
      // AIPerf's record dict raises NoMetricValue on a falsy value (`if not value`, aiperf/metrics/metric_dicts.py
      // @db4f6397 line 39, since d82f718): an ITL of exactly 0 is missing, and a missing value fails the SLO
      // (good_request_count_metric.py `_is_good`)
      if (s.tpotMs !== undefined && (i === null || i === 0 || i * 1000 > s.tpotMs)) continue;
      if (s.e2elMs !== undefined && (l === null || l * 1000 > s.e2elMs)) continue;
      good++;
    }
    goodput = good / D;
  }
  return {
    durationS: D,
    requestCount: recs.length,
    timeToFirstToken: sum(aiperfTtft, 'ms'),
    requestLatency: sum(aiperfRequestLatency, 'ms'),
    interTokenLatency: sum(itl, 'ms'),
    interChunkLatency: summarize(icl, { unit: 'ms', percents }),
    outputTokenThroughputPerUser: sum(perUser, 'tok/s'),
    e2eOutputTokenThroughput: sum(aiperfE2eOutputTokenThroughput, 'tok/s'),
    e2eNormalizedInteractivity: { p75: aiperfE2eNormalizedInteractivity(run, 0.75), p90: aiperfE2eNormalizedInteractivity(run, 0.9) },
    effectiveLatency: sum(effective, 'ms'),
    requestThroughput: recs.length / D,
    outputTokenThroughput: osl / D,
    totalTokenThroughput: (isl + osl) / D,
    goodput,
  };
}
