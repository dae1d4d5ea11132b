/**
 * Etalon's fluidity index — the eighth definition; no benchmark tool in the
 * article reports it. Paper: Agrawal et al., "Etalon: Holistic Performance
 * Evaluation Framework for LLM Inference Systems", arXiv:2407.07000 (2024).
 * Code read: project-etalon/etalon `etalon/metrics/metric_utils.py`
 * (c238821a: `get_request_level_deadline_miss_rate`,
 * `get_service_level_deadline_miss_rate`, `find_min_tbt_deadline_to_meet`),
 * `etalon/metrics/request_metrics.py` (384a9a00).
 *
 * Each token has a deadline: the first `ttftDeadline` after dispatch, each
 * next one `tbtDeadline` after the previous. Time saved by an early token is
 * **slack** carried to later deadlines; a late token counts every deadline it
 * overran as missed (⌊late/tbt⌋, +1 for a late first token) and resets the
 * slack, so later deadlines restart from it. fluidity-index = 1 − missed/total.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { none, some, successful, type Maybe } from '../base/definitions.ts';

/** Etalon's `inter_token_times`: [first − dispatch, gap₂, gap₃, …] (one per streamed chunk), s. */
export function etalonInterTokenTimes(r: RequestRecord): number[] | null {
  const c = r.chunkTimes;
  if (!c || c.length === 0) return null;
  const out = [c[0] - r.sendT];
  for (let k = 1; k < c.length; k++) out.push(c[k] - c[k - 1]);
  return out;
}

/** `get_request_level_deadline_miss_rate`, line for line in meaning (Python `//` on floats is floor division). */
export function etalonDeadlineMisses(
  interTokenTimes: ArrayLike<number>,
  ttftDeadline: number,
  tbtDeadline: number,
  ignoreFirstToken = false,
): { missRate: number; missed: number; total: number } {
  if (!(tbtDeadline > 0)) throw new RangeError(`invalid TBT deadline: ${tbtDeadline}`);
  let total = 0;
  let missed = 0;
  let slack = 0;
  for (let i = 0; i < interTokenTimes.length; i++) {
    const t = interTokenTimes[i];
    let cur: number;
    if (i === 0) {
      if (ignoreFirstToken) continue;
      if (t <= ttftDeadline + slack) {
        slack += ttftDeadline - t;
        total += 1;
        continue;
      }
      cur = 1 + Math.floor((t - slack - ttftDeadline) / tbtDeadline);
    } else {
      if (t <= tbtDeadline + slack) {
        slack += tbtDeadline - t;
        total += 1;
        continue;
      }
      cur = Math.floor((t - slack) / tbtDeadline);
    }
    missed += Math.trunc(cur);
    total += Math.trunc(cur);
    slack = 0; // later deadlines restart from this token
  }
  if (total === 0) return { missRate: 0, missed: 0, total: 0 };
  return { missRate: missed / total, missed, total };
}

/** Fluidity index of one request = 1 − its deadline-miss rate. */
export function etalonFluidity(r: RequestRecord, deadlines: { ttftS: number; tbtS: number }): Maybe {
  const it = etalonInterTokenTimes(r);
  if (!it) return none('no chunk times');
  return some(1 - etalonDeadlineMisses(it, deadlines.ttftS, deadlines.tbtS).missRate);
}

/** Service-level fluidity index: 1 − Σ missed / Σ deadlines over successful requests. */
export function etalonServiceFluidity(run: BenchmarkRun, deadlines: { ttftS: number; tbtS: number }): { value: number | null; missed: number; total: number; n: number } {
  let missed = 0;
  let total = 0;
  let n = 0;
  for (const r of successful(run)) {
    const it = etalonInterTokenTimes(r);
    if (!it) continue;
    const m = etalonDeadlineMisses(it, deadlines.ttftS, deadlines.tbtS);
    missed += m.missed;
    total += m.total;
    n++;
  }
  return { value: total ? 1 - missed / total : null, missed, total, n };
}

/**
 * `find_min_tbt_deadline_to_meet`: the smallest TBT deadline (s) whose miss
 * rate is ≤ target, by Etalon's bisection on [0, 1e10] with granularity 1e-4.
 */
export function etalonMinTbtDeadline(interTokenTimes: ArrayLike<number>, targetMissRate: number, ttftDeadline: number, ignoreFirstToken = false): number {
  let deadline = 1e10;
  let left = 0;
  let right = 1e10;
  const g = 1e-4;
  while (right - left > g) {
    const mid = (left + right) / 2;
    const rate = mid > 0 ? etalonDeadlineMisses(interTokenTimes, ttftDeadline, mid, ignoreFirstToken).missRate : 1;
    if (rate > targetMissRate) left = mid + g;
    else {
      deadline = mid;
      right = mid - g;
    }
  }
  return deadline;
}
