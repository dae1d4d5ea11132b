/**
 * `steady-state`: when the offered load exceeds what the server sustains,
 * its queue grows for as long as the run lasts, so every percentile depends
 * on how long the run was, not on the server (the site's section "Open and
 * closed"; docs/model.md, the queue). Tested on the requests after the first
 * wave, in issue order: the first half against the second, for TTFT and for
 * the number in flight when each request was sent. A stationary series' two
 * half-run medians differ by far less than one standard deviation of its
 * values once the run spans several correlation times; a queue that grows
 * by L over the run moves them apart by about L/2, more than the standard
 * deviation (√(L²/12 + σ²)) once L exceeds about 2.5σ. So a trend is called
 * when the second half's median exceeds the first's by more than
 * TREND_SDS standard deviations of the whole series, and the run is too
 * short to tell when a half holds fewer than MIN_HALF_EFFECTIVE independent
 * values (lag-1 autocorrelation, as in sample-size).
 */
import { autocorrelation } from '../../stats/autocorrelation.ts';
import { sortAsc, std } from '../../stats/percentile.ts';
import { percentileOfSorted } from '../order-stats.ts';
import { effectiveSampleSize } from './sample-size.ts';
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { formatMessage, formatMs, unknown } from './common.ts';

export const TREND_SDS = 1;

/** Fewer independent values than this in a half and a stationary series' halves can differ by chance as much as a trend. */
export const MIN_HALF_EFFECTIVE = 4;

interface Trend {
  first: number;
  second: number;
  sd: number;
  up: boolean;
  /** Independent values per half (AR(1) estimate). */
  halfEffective: number;
}

function trend(values: ArrayLike<number>): Trend {
  const h = Math.floor(values.length / 2);
  const a = sortAsc(Array.prototype.slice.call(values, 0, h) as number[]);
  const b = sortAsc(Array.prototype.slice.call(values, values.length - h) as number[]);
  const first = percentileOfSorted(a, 0.5).value;
  const second = percentileOfSorted(b, 0.5).value;
  const sd = std(values);
  const halfEffective = effectiveSampleSize(h, autocorrelation(values, 1));
  return { first, second, sd, up: sd > 0 && second - first > TREND_SDS * sd, halfEffective };
}

/**
 * A send this soon after a completion is that completion's refill: a
 * closed-loop client starts the next request well within a millisecond of a
 * response ending, and times read back from a file (ms floats beside ns
 * stamps) put the two a few nanoseconds either side.
 */
export const REFILL_GAP_S = 0.001;

const IN_FLIGHT = new WeakMap<RunData, Float64Array>();

/**
 * Requests in flight at each send, in issue order, counting every send and
 * completion within REFILL_GAP_S after it (so the requests of one refill
 * cohort all see the count the cohort restores). One sweep.
 */
export function inFlightAtSends(d: RunData): Float64Array {
  const done = IN_FLIGHT.get(d);
  if (done) return done; // steady-state, metronome and the clauses all read it: one sweep per run
  const recs = d.run.records;
  const finishes = sortAsc(recs.map((r) => r.finishT));
  const out = new Float64Array(recs.length);
  let f = 0;
  let s = 0;
  for (let j = 0; j < d.order.length; j++) {
    const t = recs[d.order[j]].sendT + REFILL_GAP_S;
    while (s < d.order.length && recs[d.order[s]].sendT <= t) s++;
    while (f < finishes.length && finishes[f] <= t) f++;
    out[j] = s - f;
  }
  IN_FLIGHT.set(d, out);
  return out;
}

/** Halves this small cannot give a median two-sided interval; below it the finding says so. */
const MIN_HALF = 6;

export function steadyState(d: RunData): Finding {
  const id = 'steady-state';
  if (!d.perRequest) return unknown(id, 'aggregates only: a trend through the run cannot be seen');
  if (!d.timeline) return unknown(id, 'no shared clock (each request is timed on its own): the order of the requests in time is unknown');
  const skip = d.wave?.size ?? 0;
  const ttft = Array.from(d.ttft).filter((_, i) => !d.inWave[i]);
  const flight = Array.from(inFlightAtSends(d)).slice(skip);
  if (Math.floor(flight.length / 2) < MIN_HALF) return unknown(id, `only ${flight.length} requests after the first wave: too few to compare two halves`);
  const hasTtft = Math.floor(ttft.length / 2) >= MIN_HALF;
  const none: Trend = { first: NaN, second: NaN, sd: NaN, up: false, halfEffective: 0 };
  const t = hasTtft ? trend(ttft) : none;
  const f = trend(flight);
  const numbers: Record<string, AuditNumber> = {};
  if (hasTtft) {
    numbers.ttft_median_first_half = { value: t.first, unit: 's', n: Math.floor(ttft.length / 2) };
    numbers.ttft_median_second_half = { value: t.second, unit: 's', n: Math.floor(ttft.length / 2) };
    numbers.ttft_sd = { value: t.sd, unit: 's', n: ttft.length };
  }
  numbers.in_flight_median_first_half = { value: f.first, unit: 'requests', n: Math.floor(flight.length / 2) };
  numbers.in_flight_median_second_half = { value: f.second, unit: 'requests', n: Math.floor(flight.length / 2) };
  numbers.in_flight_sd = { value: f.sd, unit: 'requests', n: flight.length };
  if (t.up || f.up) {
    const parts = [];
    if (t.up) parts.push(`median TTFT ${formatMs(t.first)} ms in the first half, ${formatMs(t.second)} ms in the second`);
    if (f.up) parts.push(`in flight ${formatMessage(f.first)} → ${formatMessage(f.second)}`);
    return { id, verdict: 'warn', message: `a queue grows through the run (${parts.join('; ')}): every percentile depends on how long it ran`, numbers };
  }
  if (t.halfEffective < MIN_HALF_EFFECTIVE && f.halfEffective < MIN_HALF_EFFECTIVE) {
    return unknown(id, `the run is too short for its correlation: each half is worth fewer than ${MIN_HALF_EFFECTIVE} independent requests, so a trend cannot be told from drift`, numbers);
  }
  const ttftWords = hasTtft ? `median TTFT ${formatMs(t.first)} ms in the first half, ${formatMs(t.second)} ms in the second; ` : '';
  return { id, verdict: 'ok', message: `no trend: ${ttftWords}in flight ${formatMessage(f.first)} and ${formatMessage(f.second)}`, numbers };
}
