/**
 * `client-queue`: a client that caps the requests in flight while its
 * schedule offers them faster than the server finishes them keeps its own
 * queue, and a latency timed from the send (after the cap) cannot see the
 * wait in it (the site's section "The queue nobody times";
 * docs/definitions.md, queue and due times). Where the file keeps due times
 * (vLLM `queue_times`, AIPerf `credit_issued_ns`, GuideLLM and LoadGen
 * schedules), TTFT from the due time is set beside the printed one; the wait
 * matters when it moves a printed percentile out of its 95% interval.
 */
import { sortAsc } from '../../stats/percentile.ts';
import { outside, percentileOfSorted } from '../order-stats.ts';
import { pName } from '../printed.ts';
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { count, formatMessage, formatMs, ms, pctText, share, unknown } from './common.ts';

/** Formats whose tool starts its latency clock at the due time, not at the send (LoadGen: from query->scheduled_time, docs/definitions.md). */
export const CLOCK_FROM_SCHEDULE: readonly string[] = ['mlperf-trace', 'mlperf-detail', 'mlperf-summary'];

export function clientQueue(d: RunData): Finding {
  const id = 'client-queue';
  const { requestRate: rate, maxConcurrency: cap } = d.run;
  const settings: Record<string, AuditNumber> = {};
  if (cap !== null) settings.cap = count(cap, 'requests');
  if (rate !== null && Number.isFinite(rate)) settings.request_rate = count(rate, '1/s');
  if (rate === Infinity) {
    if (cap === null) return { id, verdict: 'ok', message: 'request rate inf with no cap: a burst, every request sent at once, so the client kept no queue and there is no wait to report', numbers: settings };
    return { id, verdict: 'ok', message: `request rate inf with a cap of ${cap}: there is no schedule to fall behind; the client sends as soon as a slot frees, so the cap is the load itself`, numbers: settings };
  }
  const done = d.run.records.filter((r) => r.ok);
  const hasDue = d.perRequest && !d.imported.lacks.includes('schedule') && done.some((r) => r.dueT !== null);
  if (!hasDue) {
    if (cap !== null && rate !== null) {
      return unknown(id, `the run had a cap of ${cap} in flight and a rate of ${formatMessage(rate)} req/s, but the file keeps no due times: the printed latency starts after the cap and cannot see any wait before it`, settings);
    }
    if (!d.perRequest) return fromAggregates(d, settings);
    if (rate !== null && cap === null) return { id, verdict: 'ok', message: `an open loop at ${formatMessage(rate)} req/s with no client cap: each request left at its scheduled time`, numbers: settings };
    if (rate === null && cap !== null) return { id, verdict: 'ok', message: `a cap of ${cap} in flight and no request rate: a closed loop, with no schedule to fall behind`, numbers: settings };
    return unknown(id, 'the file names neither a rate nor a cap and keeps no due times: whether requests waited in the client cannot be told', settings);
  }
  // The wait in the client, and the latency from the due time beside the printed one: TTFT where the file has first tokens, else end-to-end.
  const useTtft = d.ok.length > 0;
  const recs = useTtft ? d.ok : done;
  const what = useTtft ? 'TTFT' : 'E2E';
  const waits: number[] = [];
  const printedValues: number[] = [];
  const fromDue: number[] = [];
  for (const r of recs) {
    const due = r.dueT ?? r.sendT;
    const end = useTtft ? r.firstT! : r.finishT;
    waits.push(r.sendT - due);
    printedValues.push(end - r.sendT);
    fromDue.push(end - due);
  }
  const waitSorted = sortAsc(waits);
  const printedSorted = useTtft ? d.ttftSorted : sortAsc(printedValues);
  const dueSorted = sortAsc(fromDue);
  const n = waits.length;
  const waited = waits.filter((w) => w > 0).length;
  if (cap === null && waited === 0) {
    // nothing held a request back: wait rows would be zeros by construction, not a measurement
    const burst = recs.every((r) => r.dueT === recs[0].dueT);
    return { id, verdict: 'ok', message: `${burst ? `a burst (all ${n} requests due at once) with no cap` : 'no client cap'}: every request was sent at its due time, so the client kept no queue and there is no wait to report`, numbers: settings };
  }
  const meanWait = waits.reduce((a, b) => a + b, 0) / n;
  const numbers: Record<string, AuditNumber> = {
    ...settings,
    wait_mean: { value: meanWait, unit: 's', n },
    wait_max: { value: waitSorted[n - 1], unit: 's', n },
    waited_share: share(waited / n, n),
  };
  const moved: string[] = [];
  const key = useTtft ? 'ttft' : 'e2e';
  for (const pp of d.ttftPrinted) {
    const printed = percentileOfSorted(printedSorted, pp.p);
    const due = percentileOfSorted(dueSorted, pp.p);
    numbers[`${key}_${pName(pp.p)}_printed`] = ms(printed.value, n, printed);
    numbers[`${key}_${pName(pp.p)}_from_due`] = ms(due.value, n, due);
    if (outside(due.value, printed)) moved.push(`${pName(pp.p)} ${what} ${formatMs(printed.value)} ms printed, ${formatMs(due.value)} ms from the schedule`);
  }
  if (CLOCK_FROM_SCHEDULE.includes(d.format)) {
    return { id, verdict: 'ok', message: `this tool times every latency from the scheduled time, so the wait in the client (mean ${formatMs(meanWait)} ms, up to ${formatMs(waitSorted[n - 1])} ms) is already inside its numbers`, numbers };
  }
  if (moved.length) {
    return { id, verdict: 'warn', message: `${pctText(waited / n)} of requests waited in the client (mean ${formatMs(meanWait)} ms, up to ${formatMs(waitSorted[n - 1])} ms) before the printed clock started: ${moved.join('; ')}`, numbers };
  }
  return { id, verdict: 'ok', message: `sends kept to the schedule: the wait before the printed clock (mean ${formatMs(meanWait)} ms) moves no printed ${what} percentile out of its 95% interval`, numbers };
}

/** The two-sided 95% normal quantile (the noise of a count of k is about √k). */
const Z_95 = 1.96;

/**
 * Aggregates only: a load generator that printed its requested and achieved
 * rates (inference-perf's load_summary) shows whether it kept its schedule;
 * the achieved rate falls short when it is lower than the requested one by
 * more than the count's own noise (Z_95 ÷ √requests), and the printed
 * schedule delay is the wait the latency does not include.
 */
function fromAggregates(d: RunData, settings: Record<string, AuditNumber>): Finding {
  const id = 'client-queue';
  const rep = d.imported.reported;
  const requested = rep['load_summary.requested_rate']?.value;
  const achieved = rep['load_summary.achieved_rate']?.value;
  const delay = rep['load_summary.schedule_delay.mean']?.value;
  const count = rep['load_summary.count']?.value ?? d.completed;
  if (requested === undefined || achieved === undefined || !count) return unknown(id, 'aggregates only: no due or send times, so a client-side wait cannot be seen', settings);
  const numbers: Record<string, AuditNumber> = { ...settings, requested_rate: { value: requested, unit: '1/s' }, achieved_rate: { value: achieved, unit: '1/s', n: count } };
  if (delay !== undefined) numbers.schedule_delay_mean = { value: delay, unit: 's', n: count };
  const short = 1 - achieved / requested;
  const noise = Z_95 / Math.sqrt(count);
  numbers.shortfall = { value: short, unit: '1' };
  numbers.shortfall_threshold = { value: noise, unit: '1', note: 'Z_95 ÷ √requests' };
  const delayText = delay !== undefined ? `; requests left ${formatMs(delay)} ms after their scheduled time on average, a wait no printed latency includes` : '';
  if (short > noise) return { id, verdict: 'warn', message: `the load generator fell behind its schedule: ${formatMessage(achieved)} req/s achieved of ${formatMessage(requested)} requested (${pctText(short)} short)${delayText}`, numbers };
  return { id, verdict: 'ok', message: `the load generator kept its schedule: ${formatMessage(achieved)} req/s achieved of ${formatMessage(requested)} requested`, numbers };
}
