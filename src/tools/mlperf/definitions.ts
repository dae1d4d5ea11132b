/**
 * MLPerf Inference LoadGen v6.0.17 (mlcommons/inference b66003e10e2d,
 * 2026-08-20; the article read 3fbc329, same LoadGen version). Files:
 * `loadgen/loadgen.cc` (`ResponseDelegateDetailed::SampleComplete/TokenComplete`,
 * `IssueQueries`), `loadgen/issue_query_controller.cc`, `loadgen/logging.cc`
 * (`AsyncLog::RecordSampleCompletion`), `loadgen/results.cc`
 * (`ProcessLatencies`, `ProcessTokenLatencies`, `LogDetail`),
 * `loadgen/early_stopping.cc`, `loadgen/test_settings.h`, `mlperf.conf`.
 *
 * Clock: every latency from `query->scheduled_time` (= dueT; the issue delay
 * is part of the latency). First token: when the SUT calls
 * `FirstTokenComplete`. Tokens: `n_tokens` reported by the SUT. Durations are
 * int64 nanoseconds: per-sample TPOT and every mean are integer divisions
 * (C++ truncates toward zero).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { collect, firstChunkT, none, serverTokens, some, successful, withWholeForm, type Maybe } from '../base/definitions.ts';
import { mlperfPercentile, sortAsc } from '../../stats/percentile.ts';
import { mlperfEarlyStopping, type EarlyStoppingResult } from '../../stats/early-stopping.ts';

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

/** The error text LoadGen logs for a sample's token count (logging.cc, `RecordSampleCompletion`). */
export const MLPERF_TOKEN_ERRORS = {
  zero: 'n_tokens argument missing or attempted to record 0 as number of tokens',
  negative: 'Attempted to record a negative number of tokens',
  one: 'Number of tokens need to be greater than 1',
} as const;

/**
 * The token count LoadGen keeps for a sample, and the error it logs
 * (logging.cc `AsyncLog::RecordSampleCompletion`, b66003e1 lines 442–454):
 * 0 → error, kept as 0; < 0 → error, set to 0; 1 → error, set to 0.
 * The kept count is what `token_count` sums (results.cc
 * `ProcessTokenLatencies`), so such a sample's tokens are not counted.
 * null when the record does not carry the SUT's count (a trace: n_tokens
 * goes to the accuracy log only).
 */
export function mlperfSampleTokens(r: RequestRecord): { nTokens: number; error: string | null } | null {
  const n = serverTokens(r);
  if (n === null) return null;
  const error = tokenError(n);
  return { nTokens: error === null ? n : 0, error };
}

/** The error LoadGen logs for a count of n tokens, if any (see {@link mlperfSampleTokens}); a count it logs one for is kept as 0. */
function tokenError(n: number): string | null {
  if (n === 0) return MLPERF_TOKEN_ERRORS.zero;
  if (n < 0) return MLPERF_TOKEN_ERRORS.negative;
  if (n === 1) return MLPERF_TOKEN_ERRORS.one;
  return null;
}

/**
 * LoadGen TPOT (logging.cc line 475): `(latency − first_token_latency) / (n_tokens − 1)`
 * in int64 ns, truncating; both terms are measured from the scheduled time,
 * which cancels. With the count LoadGen keeps ({@link mlperfSampleTokens}): a
 * one-token answer (kept as 0) gets `−(latency − first_token_latency)`, a
 * negative TPOT that LoadGen still sorts, averages and tests for early
 * stopping — its own output is questionable there, and the run carries an
 * error (see {@link MlperfMetrics.errors}).
 */
export function mlperfTpotNs(r: RequestRecord): Maybe {
  const lat = mlperfLatencyNs(r);
  const ftl = mlperfFirstTokenLatencyNs(r);
  const t = mlperfSampleTokens(r);
  if (lat.value === null) return lat;
  if (ftl.value === null) return ftl;
  if (t === null) return none('n_tokens not in the record');
  // + 0: int64 has no negative zero
  return some(Math.trunc((lat.value - ftl.value) / (t.nTokens - 1)) + 0);
}

withWholeForm(mlperfTpotNs, (recs, out) => {
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const s = scheduled(r);
    const f = firstChunkT(r);
    const n = serverTokens(r);
    if (s === null || f === null || n === null) return false;
    const kept = tokenError(n) === null ? n : 0;
    out[i] = Math.trunc((toNs(r.finishT - s) - toNs(f - s)) / (kept - 1)) + 0;
  }
  return true;
});

export interface MlperfSummary {
  n: number;
  /** the signed mean: Σ / n truncated toward zero (int64 arithmetic) */
  meanNs: number | null;
  /**
   * The mean as LoadGen prints it (results.cc ProcessLatencies/ProcessTokenLatencies):
   * the int64 sum divided by the size_t sample count, so a negative sum is
   * first converted to 2^64 + Σ (an erroneous run's negative TPOTs print
   * ≈ 1.5e17 ns); equal to meanNs whenever Σ ≥ 0.
   */
  loadgenMeanNs: number | null;
  /** keyed by percent: sorted[⌊n·p⌋] */
  percentilesNs: Record<string, number | null>;
  /** samples left out and why (only when the record lacks what LoadGen would have had) */
  excluded?: string;
}

const MLPERF_PERCENTS = [50, 90, 95, 97, 99, 99.9];

/**
 * LoadGen's mean: `accumulated / sample_count` with an int64 sum and a size_t
 * count, so C++ converts the sum to unsigned first (mlcommons/inference
 * loadgen/results.cc @b66003e1, lines 27–32 and 98–104; results.h: size_t
 * sample_count); the quotient is stored back in an int64.
 */
export function mlperfLoadgenMean(values: ArrayLike<number>): number | null {
  if (!values.length) return null;
  const s = integerSum(values);
  const two64 = 1n << 64n;
  const u = ((s % two64) + two64) % two64; // the sum as uint64
  let q = u / BigInt(values.length);
  if (q >= 1n << 63n) q -= two64; // back into int64
  return Number(q);
}

/** Integer mean Σ/n of integer nanoseconds, exact (BigInt: long runs sum past 2^53 ns). */
export function mlperfIntegerMean(values: ArrayLike<number>): number | null {
  if (!values.length) return null;
  return Number(integerSum(values) / BigInt(values.length));
}

/**
 * Σ of integer nanoseconds, exact: in doubles while every partial sum is a safe
 * integer (each addition of two integers below 2^53 is then exact), else as
 * BigInt (which also refuses a value that is not an integer, as before).
 */
function integerSum(values: ArrayLike<number>): bigint {
  let s = 0;
  for (let i = 0; i < values.length; i++) {
    s += values[i];
    if (!Number.isSafeInteger(s)) {
      let b = 0n;
      for (let k = 0; k < values.length; k++) b += BigInt(values[k]);
      return b;
    }
  }
  return BigInt(s);
}

function summarizeNs(values: number[], excluded?: string): MlperfSummary {
  const x = sortAsc(values);
  const percentilesNs: Record<string, number | null> = {};
  for (const p of MLPERF_PERCENTS) percentilesNs[String(p)] = x.length ? mlperfPercentile(x, p / 100, { sorted: true }) : null;
  const s: MlperfSummary = { n: x.length, meanNs: mlperfIntegerMean(values), loadgenMeanNs: mlperfLoadgenMean(values), percentilesNs };
  if (excluded) s.excluded = excluded;
  return s;
}

/**
 * Where LoadGen's throughput clock starts and stops (loadgen.cc `IssueQueries`,
 * lines 533 and 580–581): from `start_time`, taken just before the first query
 * is issued, to `final_query.all_samples_done_time`, where the final query is
 * `queries[queries_issued − 1]`, the last one *issued*, not the last to finish.
 * The Server schedule puts query 0 at `scheduled_delta` 0 (loadgen.cc line
 * 337/398; issue_query_controller.cc line 172), so the clock starts at the
 * first query's scheduled time. Returned in the records' seconds.
 * Questionable in LoadGen itself: the last-issued query may finish while
 * earlier ones are still running, and the rates still count every sample, so
 * they can only overstate the rate over the whole run (never understate it).
 */
export function mlperfRunClock(records: readonly RequestRecord[]): { startT: number; finalQueryDoneT: number } | null {
  let start = Infinity;
  let lastDue = -Infinity;
  let last: RequestRecord | null = null;
  for (const r of records) {
    if (r.dueT === null) return null;
    start = Math.min(start, r.dueT);
    // queries are issued in schedule order; of equal times, the later index goes later
    if (r.dueT >= lastDue) {
      lastDue = r.dueT;
      last = r;
    }
  }
  return last ? { startT: start, finalQueryDoneT: last.finishT } : null;
}

export interface MlperfMetrics {
  latency: MlperfSummary;
  firstTokenLatency: MlperfSummary;
  timePerOutputToken: MlperfSummary;
  /** `result_completed_samples_per_sec` = (sample_count − 1) / final_query_all_samples_done_time; null without scheduled times */
  completedSamplesPerSec: number | null;
  /** `result_completed_tokens_per_second` = token_count / final_query_all_samples_done_time; null without scheduled times or token counts */
  completedTokensPerSec: number | null;
  /** final_query_all_samples_done_time (s); null without scheduled times */
  finalQueryAllSamplesDoneS: number | null;
  /** `token_count`: Σ of the counts LoadGen kept (one-token answers count 0) */
  tokenCount: number | null;
  /**
   * The errors LoadGen would log (`num_errors` in the detail log; the summary
   * then says "N ERRORS encountered"), as "count × message". A run with any
   * is an erroneous LoadGen run, whatever its numbers say.
   */
  errors: string[];
  numErrors: number;
  /**
   * Early stopping as LoadGen evaluates it: TPOT first, then TTFT only if TPOT
   * passed (`EarlyStopping(tpot) && EarlyStopping(ttft)`, results.cc LogDetail);
   * ttft is null when LoadGen never evaluated it.
   */
  earlyStopping?: { ttft: EarlyStoppingResult | null; tpot: EarlyStoppingResult };
}

/** What LoadGen records of each sample, in one pass over the records: the three latencies (ns), why a TPOT is missing, the token counts and their errors. */
interface MlperfSamples {
  lat: number[];
  ftl: number[];
  tpot: number[];
  why: Map<string, number>;
  errs: Map<string, number>;
  tokens: number;
  tokensKnown: boolean;
}

function mlperfSamples(recs: readonly RequestRecord[]): MlperfSamples {
  const lat: number[] = [];
  const ftl: number[] = [];
  const tpot: number[] = [];
  const why = new Map<string, number>();
  const errs = new Map<string, number>();
  const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let tokens = 0;
  let tokensKnown = true;
  for (const r of recs) {
    const a = mlperfLatencyNs(r);
    const b = mlperfFirstTokenLatencyNs(r);
    const c = mlperfTpotNs(r);
    if (a.value !== null) lat.push(a.value);
    if (b.value !== null) ftl.push(b.value);
    if (c.value !== null) tpot.push(c.value);
    else count(why, c.reason);
    const t = mlperfSampleTokens(r);
    if (t === null) tokensKnown = false;
    else {
      tokens += t.nTokens;
      if (t.error) count(errs, t.error);
    }
  }
  return { lat, ftl, tpot, why, errs, tokens, tokensKnown };
}

const errorList = (m: Map<string, number>) => [...m].map(([k, v]) => `${v} × ${k}`);
const errorCount = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * LoadGen's mean TPOT (ns) with its sample count and the errors it would log,
 * exactly as {@link mlperfMetrics} gives them, without the percentiles (an
 * integer mean needs no sorted copy): what the per-user speed reads.
 */
export function mlperfTpotMean(run: BenchmarkRun): { meanNs: number | null; n: number; errors: string[]; numErrors: number } {
  const recs = successful(run);
  const tpot = collect(recs, mlperfTpotNs).values; // the TPOTs mlperfSamples takes, in the same order
  const errs = new Map<string, number>();
  for (const r of recs) {
    const n = serverTokens(r);
    const e = n === null ? null : tokenError(n);
    if (e !== null) errs.set(e, (errs.get(e) ?? 0) + 1);
  }
  return { meanNs: mlperfIntegerMean(tpot), n: tpot.length, errors: errorList(errs), numErrors: errorCount(errs) };
}

/**
 * The Server scenario's token-latency results (results.cc `LogDetail`).
 * Every sample is in every array — a one-token answer included, with its
 * negative TPOT — and each mean divides by the sample count. `targets`
 * (seconds), when given, runs the early-stopping rule on both arrays at
 * p = 0.99, c = 0.99 (llama3_1-8b: 2 s TTFT / 0.1 s TPOT; interactive 0.5 / 0.03).
 */
export function mlperfMetrics(run: BenchmarkRun, opts: { targets?: { ttftS: number; tpotS: number }; percentile?: number } = {}): MlperfMetrics {
  const recs = successful(run);
  const { lat, ftl, tpot, why, errs, tokens, tokensKnown } = mlperfSamples(recs);
  const clock = mlperfRunClock(recs);
  const T = clock ? clock.finalQueryDoneT - clock.startT : null;
  const out: MlperfMetrics = {
    latency: summarizeNs(lat),
    firstTokenLatency: summarizeNs(ftl),
    timePerOutputToken: summarizeNs(tpot, why.size ? errorList(why).join('; ') : undefined),
    completedSamplesPerSec: T === null ? null : (recs.length - 1) / T,
    completedTokensPerSec: T === null || !tokensKnown ? null : tokens / T,
    finalQueryAllSamplesDoneS: T,
    tokenCount: tokensKnown ? tokens : null,
    errors: errorList(errs),
    numErrors: errorCount(errs),
  };
  if (opts.targets) {
    const p = opts.percentile ?? 0.99;
    const tpotEs = mlperfEarlyStopping(tpot, toNs(opts.targets.tpotS), p);
    // `&&` short-circuits: LoadGen never runs the TTFT rule after the TPOT one fails
    out.earlyStopping = { tpot: tpotEs, ttft: tpotEs.passes ? mlperfEarlyStopping(ftl, toNs(opts.targets.ttftS), p) : null };
  }
  return out;
}
