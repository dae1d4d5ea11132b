/**
 * The run's steady window, shared by the findings that compare the whole run
 * with it (window, littles-law, steady-state) and by the audit page's
 * figures: it opens when the first wave has drained (its last request
 * finished: until then the slots it filled together still finish together)
 * or, without a wave, at the first completion (before it no slot has been
 * reused and the server is still filling: an open loop's first latency), and
 * closes at the last send (after it the load only drains). Times on the
 * records' clock.
 */
import type { RunData } from './run-data.ts';

export interface SteadyWindow {
  start: number;
  end: number;
}

/** null without a shared clock; end ≤ start when the run never reaches a steady state. */
export function steadyWindow(d: RunData): SteadyWindow | null {
  if (!d.timeline) return null;
  const recs = d.run.records;
  let start = Infinity;
  if (d.wave && d.wave.size < recs.length) {
    start = -Infinity;
    for (let j = 0; j < d.wave.size; j++) start = Math.max(start, recs[d.order[j]].finishT);
  } else {
    for (const r of recs) if (r.ok && r.finishT < start) start = r.finishT;
  }
  const lastSend = recs[d.order[d.order.length - 1]].sendT;
  return { start, end: lastSend };
}

/** Time-weighted mean number in flight over [a, b] (requests as [send, finish) intervals). */
export function meanInFlight(d: RunData, a: number, b: number): number {
  if (!(b > a)) return NaN;
  let area = 0;
  for (const r of d.run.records) {
    const lo = Math.max(a, r.sendT);
    const hi = Math.min(b, r.finishT);
    if (hi > lo) area += hi - lo;
  }
  return area / (b - a);
}
