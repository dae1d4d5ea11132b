/**
 * `window`: throughput over the whole run (completions ÷ duration) counts the
 * ramp, when the server is still filling, and the drain, when the last
 * requests finish with ever fewer beside them; the steady window (after the
 * first wave, before the last send: ../steady-window.ts) is what the server sustains
 * (docs/experiments.md, the throughput windows; the site's section "Where the
 * clock starts"). Output tokens are counted at their chunk times where the
 * file has them, else requests at their finish. The gap matters when it is
 * larger than the steady rate's own noise: a count of k completions has a
 * relative standard error of about 1/√k, so the threshold is Z_95/√k.
 */
import type { RunData } from '../run-data.ts';
import { steadyWindow } from '../steady-window.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { formatMessage, pctText, unknown } from './common.ts';

/** The two-sided 95% normal quantile. */
export const Z_95 = 1.96;

export function window(d: RunData): Finding {
  const id = 'window';
  if (!d.perRequest) return unknown(id, 'aggregates only: no per-request times, so the ramp and the drain cannot be told from the steady part');
  const w = steadyWindow(d);
  if (w === null) return unknown(id, 'no shared clock (each request is timed on its own), so the run cannot be cut into windows');
  const recs = d.run.records;
  const duration = d.run.endT - d.run.startT;
  const tokensKnown = !d.imported.lacks.includes('chunkTimes') && recs.some((r) => r.ok && r.chunkTimes);
  const numbers: Record<string, AuditNumber> = {
    duration: { value: duration, unit: 's' },
    steady_start_s: { value: w.start, unit: 's', note: d.wave ? 'the first wave’s last completion' : 'the first completion' },
    steady_end_s: { value: w.end, unit: 's', note: 'the last send' },
  };
  if (!(w.end > w.start)) {
    return { id, verdict: 'warn', message: `the run never reaches a steady state: the last request was sent (${formatMessage(w.end - d.run.startT)} s) before ${d.wave && d.wave.size < recs.length ? 'the first wave had finished' : 'the first one finished'} (${formatMessage(w.start - d.run.startT)} s), so its throughput is all ramp and drain`, numbers };
  }
  let total = 0;
  let inside = 0;
  let completedInside = 0;
  for (const r of recs) {
    if (!r.ok) continue;
    if (r.finishT >= w.start && r.finishT <= w.end) completedInside++;
    if (tokensKnown && r.chunkTimes) {
      const perChunk = r.outputTokens !== null && r.chunkTimes.length ? r.outputTokens / r.chunkTimes.length : 1;
      for (const t of r.chunkTimes) {
        total += perChunk;
        if (t >= w.start && t <= w.end) inside += perChunk;
      }
    } else {
      total += 1;
      if (r.finishT >= w.start && r.finishT <= w.end) inside += 1;
    }
  }
  const unit = tokensKnown ? 'tokens/s' : '1/s';
  const what = tokensKnown ? 'output tokens' : 'completions';
  const whole = total / duration;
  const steady = inside / (w.end - w.start);
  const lost = 1 - whole / steady;
  const threshold = completedInside > 0 ? Z_95 / Math.sqrt(completedInside) : Infinity;
  Object.assign(numbers, {
    whole_run_throughput: { value: whole, unit, note: `${what} ÷ duration` },
    steady_throughput: { value: steady, unit, n: completedInside, note: `${what} in the steady window ÷ its length` },
    share_lost: { value: lost, unit: '1', note: '1 − whole ÷ steady' },
    share_lost_threshold: { value: threshold, unit: '1', note: 'Z_95 ÷ √(completions in the window)' },
  });
  const steadyShare = (w.end - w.start) / duration;
  numbers.steady_share_of_duration = { value: steadyShare, unit: '1' };
  if (lost > threshold) {
    return { id, verdict: 'warn', message: `throughput over the whole run (${formatMessage(whole)} ${unit}) is ${pctText(lost)} below the steady window's (${formatMessage(steady)} ${unit}, ${formatMessage(w.start - d.run.startT)}–${formatMessage(w.end - d.run.startT)} s): the ramp and the drain are in the number`, numbers };
  }
  return { id, verdict: 'ok', message: `throughput over the whole run (${formatMessage(whole)} ${unit}) is within the steady window's noise (${formatMessage(steady)} ${unit}; ${pctText(Math.max(0, lost))} lost, threshold ${pctText(threshold)})`, numbers };
}
