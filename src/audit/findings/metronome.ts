/**
 * `metronome`: in a closed loop whose requests all have the same lengths,
 * requests that start together finish together, so the slots refill in
 * cohorts: the prompts of a whole cohort arrive at once and share the
 * step's token budget, and the run phase-locks (the site's section "The
 * first wave", the steady metronome; test/fixtures/golden closed_fixed). The
 * finding reports the cohort size (requests sent at the same instant after
 * the wave) and the TTFT of requests sent in cohorts against that of
 * requests sent alone, which is what a run with ranged lengths would see.
 */
import { sortAsc } from '../../stats/percentile.ts';
import { percentileOfSorted } from '../order-stats.ts';
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { count, formatMessage, formatMs, unknown } from './common.ts';
import { inFlightAtSends, REFILL_GAP_S } from './steady-state.ts';

/** Sends closer than this are one cohort: below one engine step, so only requests refilled by the same step's completions group. */
export const COHORT_GAP_S = REFILL_GAP_S;

/**
 * A run is a closed loop when after its first sends it keeps the same number
 * in flight at (nearly) every send: the client refills a slot as one frees.
 * "Nearly": at least this share of the sends after the first wave.
 */
export const CLOSED_SHARE = 0.9;

export function isClosedLoop(d: RunData): { closed: boolean; slots: number | null; from: string } {
  const { requestRate, maxConcurrency } = d.run;
  if (requestRate === Infinity && maxConcurrency !== null && maxConcurrency < d.run.records.length) return { closed: true, slots: maxConcurrency, from: 'settings (rate inf, a cap)' };
  if (!d.timeline) return { closed: false, slots: null, from: 'settings' };
  const flight = inFlightAtSends(d);
  let peak = 0;
  for (const f of flight) peak = Math.max(peak, f);
  const after = Array.from(flight).slice(peak);
  if (after.length === 0) return { closed: false, slots: null, from: 'send times' };
  const atPeak = after.filter((f) => f === peak).length / after.length;
  return { closed: atPeak >= CLOSED_SHARE, slots: peak, from: 'send times' };
}

function fixedLengths(d: RunData): { fixed: boolean; isl: number | null; osl: number | null } {
  const ok = d.run.records.filter((r) => r.ok);
  const ins = new Set(ok.map((r) => r.inputTokens));
  const outs = new Set(ok.map((r) => r.requestedOutputTokens ?? r.outputTokens));
  const known = ![...ins].some((x) => !Number.isFinite(x)) && ![...outs].some((x) => x === null);
  return { fixed: known && ins.size === 1 && outs.size === 1, isl: ins.size === 1 ? [...ins][0] : null, osl: outs.size === 1 ? ([...outs][0] as number) : null };
}

export function metronome(d: RunData): Finding {
  const id = 'metronome';
  if (!d.perRequest) return unknown(id, 'aggregates only: neither the lengths nor the send times of the requests are known');
  if (d.imported.lacks.includes('inputTokens') || d.imported.lacks.includes('outputTokens')) return unknown(id, 'the file does not keep every request’s prompt and output lengths, so whether they were fixed cannot be told');
  if (d.run.records.some((r) => r.ok && !Number.isFinite(r.inputTokens))) return unknown(id, 'the file does not keep every request’s prompt length, so whether the lengths were fixed cannot be told');
  const loop = isClosedLoop(d);
  const len = fixedLengths(d);
  const numbers: Record<string, AuditNumber> = {};
  if (loop.slots !== null) numbers.slots = count(loop.slots, 'requests');
  if (!len.fixed) return { id, verdict: 'ok', message: 'the requests’ lengths vary, so completions spread out and no cohorts form', numbers };
  numbers.prompt_tokens = count(len.isl!, 'tokens');
  numbers.output_tokens = count(len.osl!, 'tokens');
  if (!loop.closed) return { id, verdict: 'ok', message: `fixed lengths (${len.isl} in, ${len.osl} out), but the client does not refill on completion${d.timeline ? '' : ' (as far as the settings tell)'}, so completions do not set the sends`, numbers };
  if (!d.timeline) return unknown(id, `a closed loop of ${loop.slots} with fixed lengths (${len.isl} in, ${len.osl} out): the file keeps no shared clock, so the cohorts cannot be measured`, numbers);
  // Cohorts: groups of sends within COHORT_GAP_S, after the first wave.
  const recs = d.run.records;
  const skip = d.wave?.size ?? 0;
  const sizes: number[] = [];
  const cohortOf = new Map<number, number>();
  let j = skip;
  while (j < d.order.length) {
    let k = j + 1;
    while (k < d.order.length && recs[d.order[k]].sendT - recs[d.order[k - 1]].sendT <= COHORT_GAP_S) k++;
    sizes.push(k - j);
    for (let m = j; m < k; m++) cohortOf.set(d.order[m], k - j);
    j = k;
  }
  if (sizes.length === 0) return unknown(id, 'no request was sent after the first wave', numbers);
  const sortedSizes = sortAsc(sizes);
  const median = percentileOfSorted(sortedSizes, 0.5).value;
  numbers.cohort_size_median = { value: median, unit: 'requests', n: sizes.length };
  numbers.cohort_size_max = { value: sortedSizes[sortedSizes.length - 1], unit: 'requests', n: sizes.length };
  const alone: number[] = [];
  const grouped: number[] = [];
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    if (!r.ok || r.firstT === null) continue;
    const c = cohortOf.get(i);
    if (c === undefined) continue;
    (c === 1 ? alone : grouped).push(r.firstT - r.sendT);
  }
  if (grouped.length) numbers.ttft_median_in_cohorts = { value: percentileOfSorted(sortAsc(grouped), 0.5).value, unit: 's', n: grouped.length };
  if (alone.length) numbers.ttft_median_sent_alone = { value: percentileOfSorted(sortAsc(alone), 0.5).value, unit: 's', n: alone.length, note: 'what a run with ranged lengths would see' };
  if (median > 1) {
    const cmp = grouped.length && alone.length ? `; median TTFT ${formatMs(numbers.ttft_median_in_cohorts.value)} ms in cohorts, ${formatMs(numbers.ttft_median_sent_alone.value)} ms when sent alone` : '';
    return { id, verdict: 'warn', message: `fixed lengths (${len.isl} in, ${len.osl} out) in a closed loop of ${loop.slots}: requests arrive in cohorts of ${formatMessage(median)} (median; up to ${formatMessage(numbers.cohort_size_max.value)})${cmp}; a run with ranged lengths would not phase-lock`, numbers };
  }
  return { id, verdict: 'ok', message: `fixed lengths in a closed loop of ${loop.slots}, but requests still arrive one at a time (median cohort ${formatMessage(median)})`, numbers };
}
