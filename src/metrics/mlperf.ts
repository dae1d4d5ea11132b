/**
 * MLPerf Inference LoadGen v6.0.17 (mlcommons/inference snapshot b66003e1,
 * 2026-08-20; the article read 3fbc329, same LoadGen version). Files:
 * `loadgen/loadgen.cc` (`ResponseDelegateDetailed::SampleComplete/TokenComplete`),
 * `loadgen/logging.cc`, `loadgen/results.cc`, `loadgen/early_stopping.cc`,
 * `loadgen/test_settings.h`, `mlperf.conf`.
 *
 * Clock: every latency from `query->scheduled_time` (= dueT; the issue delay
 * is part of the latency). First token: when the SUT calls
 * `FirstTokenComplete`. Tokens: `n_tokens` reported by the SUT. Durations are
 * int64 nanoseconds; TPOT is an integer division (truncates).
 */
import type { BenchmarkRun, RequestRecord } from './records.ts';
import { firstChunkT, none, serverTokens, some, successful, type Maybe } from './common.ts';
import { mean, mlperfPercentile, sortAsc } from '../stats/percentile.ts';
import { mlperfEarlyStopping, type EarlyStoppingResult } from '../stats/early-stopping.ts';

const NS = 1e9;
const toNs = (s: number) => Math.round(s * NS);

function scheduled(r: RequestRecord): number | null {
  return r.dueT;
}

/** LoadGen sample latency `complete − scheduled_time`, integer ns. */
export function mlperfLatencyNs(r: RequestRecord): Maybe {
  const s = scheduled(r);
  return s === null ? none('no scheduled time in the record') : some(toNs(r.finishT - s));
}

/** LoadGen first-token latency `first_token − scheduled_time`, integer ns. */
export function mlperfFirstTokenLatencyNs(r: RequestRecord): Maybe {
  const s = scheduled(r);
  const f = firstChunkT(r);
  if (s === null) return none('no scheduled time in the record');
  return f === null ? none('no first token') : some(toNs(f - s));
}

/**
 * LoadGen TPOT (`logging.cc`): `(latency − first_token_latency) / (n_tokens − 1)`
 * in int64 ns (truncating). Both terms are measured from the scheduled time,
 * which cancels. n_tokens must be > 1.
 */
export function mlperfTpotNs(r: RequestRecord): Maybe {
  const lat = mlperfLatencyNs(r);
  const ftl = mlperfFirstTokenLatencyNs(r);
  const n = serverTokens(r);
  if (lat.value === null) return lat;
  if (ftl.value === null) return ftl;
  if (n === null) return none('n_tokens unknown');
  if (n <= 1) return none(`${n}-token answer: LoadGen requires n_tokens > 1`);
  return some(Math.trunc((lat.value - ftl.value) / (n - 1)));
}

export interface MlperfSummary {
  n: number;
  meanNs: number | null;
  /** keyed by percent: sorted[⌊n·p⌋] */
  percentilesNs: Record<string, number | null>;
}

const MLPERF_PERCENTS = [50, 90, 95, 97, 99, 99.9];

function summarizeNs(values: number[]): MlperfSummary {
  const x = sortAsc(values);
  const percentilesNs: Record<string, number | null> = {};
  for (const p of MLPERF_PERCENTS) percentilesNs[String(p)] = x.length ? mlperfPercentile(x, p / 100, { sorted: true }) : null;
  return { n: x.length, meanNs: x.length ? mean(x) : null, percentilesNs };
}

export interface MlperfMetrics {
  latency: MlperfSummary;
  firstTokenLatency: MlperfSummary;
  timePerOutputToken: MlperfSummary;
  /** "Completed samples per second" = (n − 1) / final_query_all_samples_done_time */
  completedSamplesPerSec: number;
  /** "Completed tokens per second" = Σ n_tokens / final_query_all_samples_done_time */
  completedTokensPerSec: number;
  earlyStopping?: { ttft: EarlyStoppingResult; tpot: EarlyStoppingResult };
}

/**
 * The Server scenario's token-latency results. `targets` (seconds), when
 * given, runs the early-stopping rule on both arrays at p = 0.99, c = 0.99
 * (llama3_1-8b: 2 s TTFT / 0.1 s TPOT; interactive 0.5 / 0.03).
 */
export function mlperfMetrics(run: BenchmarkRun, opts: { targets?: { ttftS: number; tpotS: number }; percentile?: number } = {}): MlperfMetrics {
  const recs = successful(run);
  const lat: number[] = [];
  const ftl: number[] = [];
  const tpot: number[] = [];
  let tokens = 0;
  let done = -Infinity;
  for (const r of recs) {
    const a = mlperfLatencyNs(r);
    const b = mlperfFirstTokenLatencyNs(r);
    const c = mlperfTpotNs(r);
    if (a.value !== null) lat.push(a.value);
    if (b.value !== null) ftl.push(b.value);
    if (c.value !== null) tpot.push(c.value);
    tokens += serverTokens(r) ?? 0;
    done = Math.max(done, r.finishT);
  }
  const T = done - run.startT;
  const out: MlperfMetrics = {
    latency: summarizeNs(lat),
    firstTokenLatency: summarizeNs(ftl),
    timePerOutputToken: summarizeNs(tpot),
    completedSamplesPerSec: (recs.length - 1) / T,
    completedTokensPerSec: tokens / T,
  };
  if (opts.targets) {
    const p = opts.percentile ?? 0.99;
    out.earlyStopping = {
      ttft: mlperfEarlyStopping(ftl, toNs(opts.targets.ttftS), p),
      tpot: mlperfEarlyStopping(tpot, toNs(opts.targets.tpotS), p),
    };
  }
  return out;
}
