/**
 * `littles-law`: over a window that starts and ends in the same state, the
 * mean number in flight is the completion rate times the mean latency
 * (L = λW; the site's section "Two checks", src/published-row/littles-law.ts).
 * From the file: rate × mean latency and Σ latency ÷ duration over the whole
 * run, and the time-average in flight over the steady window, against the
 * concurrency the run claims. The tolerance is the published-row check's
 * (LITTLE_TOLERANCE, which says why ten per cent).
 */
import { LITTLE_TOLERANCE } from '../../published-row/littles-law.ts';
import type { RunData } from '../run-data.ts';
import { meanInFlight, steadyWindow } from '../steady-window.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { count, formatMessage, pctText, unknown } from './common.ts';

/** Keys of the tools' own request rate, mean end-to-end latency (s after import) and measured concurrency. */
const RATE_KEYS = ['request_throughput', 'request_throughput.avg', 'successes.throughput.requests_per_sec', 'mean_qps'];
const LATENCY_KEYS = ['mean_e2el_ms', 'mean_latency_ms', 'mean_e2e_latency_ms', 'request_latency.avg', 'results_end_to_end_latency_s_mean', 'successes.latency.request_latency.mean', 'mean_e2el'];

function pick(d: RunData, keys: string[]): number | null {
  for (const k of keys) {
    const v = d.imported.reported[k];
    if (v && Number.isFinite(v.value)) return v.value;
  }
  return null;
}

export function littlesLaw(d: RunData): Finding {
  const id = 'littles-law';
  const claimed = d.run.maxConcurrency;
  // With a finite request rate the cap only limits; with rate inf (or none) it is the load the run claims.
  const rate0 = d.run.requestRate;
  const ceiling = rate0 !== null && Number.isFinite(rate0);
  const numbers: Record<string, AuditNumber> = {};
  if (claimed !== null) numbers.claimed_concurrency = count(claimed, 'requests');
  if (!d.perRequest || !d.timeline) {
    const rate = pick(d, RATE_KEYS);
    const lat = pick(d, LATENCY_KEYS);
    if (rate === null || lat === null) return unknown(id, d.perRequest ? 'no shared clock and no printed request rate and mean latency: requests in flight cannot be computed' : 'aggregates only, and the file prints no request rate and mean latency to multiply', numbers);
    const requests = d.completed === null ? null : d.completed + d.failed;
    if (claimed !== null && requests !== null && requests <= claimed) {
      return unknown(id, `the run had no more requests (${formatMessage(requests)}) than its ${formatMessage(claimed)} slots: it is one wave, with no steady window over which L = λW holds`, numbers);
    }
    numbers.rate_times_latency = { value: rate * lat, unit: 'requests', note: 'the file’s request_throughput × mean latency' };
    return judge(id, numbers, rate * lat, claimed, ceiling, 'the printed rate × mean latency');
  }
  const recs = d.run.records.filter((r) => r.ok);
  const duration = d.run.endT - d.run.startT;
  if (recs.length === 0 || !(duration > 0)) return unknown(id, 'no successful request or no duration', numbers);
  const meanLatency = recs.reduce((s, r) => s + (r.finishT - r.sendT), 0) / recs.length;
  const rate = recs.length / duration;
  const sumLatency = d.run.records.reduce((s, r) => s + (r.finishT - r.sendT), 0);
  numbers.rate_times_latency = { value: rate * meanLatency, unit: 'requests', n: recs.length, note: 'completions ÷ duration × mean latency' };
  numbers.latency_sum_over_duration = { value: sumLatency / duration, unit: 'requests', n: d.run.records.length, note: 'Σ latency ÷ duration' };
  const w = steadyWindow(d);
  if (w && w.end > w.start) {
    const steady = meanInFlight(d, w.start, w.end);
    numbers.in_flight_steady = { value: steady, unit: 'requests', note: 'time-average in flight over the steady window' };
    return judge(id, numbers, steady, claimed, ceiling, 'the time-average in flight over the steady window', sumLatency / duration);
  }
  return unknown(id, 'the run never reaches a steady state (see window), so there is no window over which L = λW holds', numbers);
}

function judge(id: 'littles-law', numbers: Record<string, AuditNumber>, measured: number, claimed: number | null, ceiling: boolean, what: string, whole?: number): Finding {
  numbers.tolerance = { value: LITTLE_TOLERANCE, unit: '1' };
  const wholeText = whole !== undefined ? ` (over the whole run ${formatMessage(whole)})` : '';
  if (claimed === null) {
    return { id, verdict: 'ok', message: `no concurrency claimed; ${what} is ${formatMessage(measured)} requests${wholeText}`, numbers };
  }
  const ratio = Math.max(measured, claimed) / Math.min(measured, claimed);
  numbers.ratio = { value: measured / claimed, unit: '1' };
  if (ceiling && measured <= claimed * (1 + LITTLE_TOLERANCE)) {
    return { id, verdict: 'ok', message: `${what} is ${formatMessage(measured)}${wholeText}: under the cap of ${formatMessage(claimed)} (with a request rate, the cap is a ceiling, not the load)`, numbers };
  }
  if (!(ratio <= 1 + LITTLE_TOLERANCE)) {
    return { id, verdict: 'warn', message: `the run claims ${formatMessage(claimed)} in flight, but ${what} is ${formatMessage(measured)}${wholeText}: ${pctText(Math.abs(measured / claimed - 1))} off, beyond Little’s law’s ${pctText(LITTLE_TOLERANCE)}`, numbers };
  }
  return { id, verdict: 'ok', message: `${what} is ${formatMessage(measured)}${wholeText}, within ${pctText(LITTLE_TOLERANCE)} of the ${formatMessage(claimed)} the run claims`, numbers };
}
