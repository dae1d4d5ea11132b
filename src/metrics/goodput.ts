/**
 * Goodput's two meanings.
 * - vLLM's client (`--goodput`, serve.py): a count of requests meeting the
 *   SLOs divided by the run's duration, clocks after the semaphore — see
 *   {@link vllmGoodput} in src/tools/vllm/definitions.ts.
 * - DistServe (Zhong et al., OSDI 2024, arXiv:2401.09670), which vLLM's help
 *   text cites: the **largest arrival rate** at which at least a required
 *   share of requests (90% in the paper) still meets its TTFT and TPOT
 *   objectives. It needs a sweep of runs, one per rate.
 */
import type { BenchmarkRun } from '../tools/base/records.ts';
import { successful, type Slo } from '../tools/base/definitions.ts';
import { vllmTpot, vllmTtft, vllmE2el } from '../tools/vllm/definitions.ts';
export { vllmGoodput } from '../tools/vllm/definitions.ts';

/** Share of successful requests meeting every SLO given (vLLM's per-request definitions). */
export function sloAttainment(run: BenchmarkRun, slo: Slo): { share: number; good: number; n: number } {
  const recs = successful(run);
  let good = 0;
  for (const r of recs) {
    const t = vllmTtft(r).value;
    const e = vllmE2el(r).value;
    const p = vllmTpot(r).value ?? 0;
    if (t === null || e === null) continue;
    if (slo.ttftMs !== undefined && t * 1000 > slo.ttftMs) continue;
    if (slo.tpotMs !== undefined && p * 1000 > slo.tpotMs) continue;
    if (slo.e2elMs !== undefined && e * 1000 > slo.e2elMs) continue;
    good++;
  }
  return { share: recs.length ? good / recs.length : NaN, good, n: recs.length };
}

/**
 * DistServe goodput: the highest rate r among the sweep's points such that
 * every point at a rate ≤ r meets the attainment target (a rate that passes
 * only above a failing one does not count). null if the lowest rate fails.
 */
export function distserveGoodput(points: { rate: number; run: BenchmarkRun }[], slo: Slo, attainment = 0.9): { value: number | null; unit: 'req/s'; shares: { rate: number; share: number }[] } {
  const sorted = [...points].sort((a, b) => a.rate - b.rate);
  const shares = sorted.map((p) => ({ rate: p.rate, share: sloAttainment(p.run, slo).share }));
  let best: number | null = null;
  for (const s of shares) {
    if (s.share >= attainment) best = s.rate;
    else break;
  }
  return { value: best, unit: 'req/s', shares };
}
