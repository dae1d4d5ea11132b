/**
 * MLPerf LoadGen's early-stopping rule, Server scenario.
 * Tool: MLPerf Inference LoadGen v6.0.17 (mlcommons/inference snapshot
 * b66003e1, 2026-08-20); files `loadgen/early_stopping.cc`,
 * `loadgen/results.cc::EarlyStopping`. Confidence c = 0.99, tolerance d = 0.
 *
 *   odds(h, t) = BetaRegularized(p − d, h, 1 + t) = P[Binomial(h + t, p − d) ≥ h]
 *   h* = min { h : odds(h, t) < 1 − c }
 *   the run passes iff queries_issued ≥ h* + t
 *
 * where t is the number of samples over the latency target. For t = 0,
 * h* = ⌈ln(1−c)/ln(p−d)⌉ (459 for p = c = 0.99), the search's starting point.
 */
import { binomialUpperTail } from './binomial.ts';

export const MLPERF_EARLY_STOPPING = { confidence: 0.99, tolerance: 0 } as const;

/** odds(h, t, p, d) = P[Binomial(h+t, p−d) ≥ h]: how likely t or fewer overs are if the true quantile were at the target. */
export function earlyStoppingOdds(h: number, t: number, p: number, d = 0): number {
  return binomialUpperTail(h, h + t, p - d);
}

/** h*: the minimum number of under-target samples needed with t over-target samples (monotone search). */
export function earlyStoppingMinUnder(t: number, p: number, c: number = MLPERF_EARLY_STOPPING.confidence, d: number = MLPERF_EARLY_STOPPING.tolerance): number {
  if (!Number.isInteger(t) || t < 0) throw new RangeError(`invalid over-target count: ${t}`);
  const q = p - d;
  if (!(q > 0 && q < 1)) throw new RangeError(`invalid target percentile: ${p} (tolerance ${d})`);
  const alpha = 1 - c;
  let lo = Math.max(1, Math.ceil(Math.log(alpha) / Math.log(q))); // t = 0 answer: a lower bound for every t
  while (lo > 1 && earlyStoppingOdds(lo - 1, t, p, d) < alpha) lo--;
  if (earlyStoppingOdds(lo, t, p, d) < alpha) return lo;
  let hi = lo * 2;
  while (earlyStoppingOdds(hi, t, p, d) >= alpha) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (earlyStoppingOdds(mid, t, p, d) < alpha) hi = mid;
    else lo = mid;
  }
  return hi;
}

export interface EarlyStoppingResult {
  passes: boolean;
  /** samples over the latency target */
  overTarget: number;
  /** queries needed: h* + t */
  queriesNeeded: number;
  queriesIssued: number;
}

/**
 * Applies the rule to one latency array (LoadGen runs it twice for LLMs: on
 * TPOT against `server_tpot_latency` and on TTFT against `server_ttft_latency`).
 */
export function mlperfEarlyStopping(latencies: ArrayLike<number>, target: number, p = 0.99): EarlyStoppingResult {
  let t = 0;
  for (let i = 0; i < latencies.length; i++) if (latencies[i] > target) t++;
  const needed = earlyStoppingMinUnder(t, p) + t;
  return { passes: latencies.length >= needed, overTarget: t, queriesNeeded: needed, queriesIssued: latencies.length };
}
