/**
 * The series every finding reads, computed once per audit: the requests in
 * issue order (send time, ties by index), the successful ones' TTFTs in that
 * order and sorted, the first wave, and the percentiles the file prints.
 * Findings never sort a series again; they take it from here.
 */
import { sortAsc } from '../stats/percentile.ts';
import type { BenchmarkRun, RequestRecord } from '../tools/base/records.ts';
import type { Imported } from '../tools/base/result.ts';
import { withoutFlagged } from './order-stats.ts';
import { printedPercentiles, type PrintedPercentile } from './printed.ts';

/**
 * Requests whose sends fall within this many seconds of the first send were
 * sent together: "a few milliseconds" is longer than any client takes to
 * start a batch of coroutines or threads and shorter than one engine step of
 * a loaded server (tens of milliseconds), so a wave is not confused with the
 * refills that follow it.
 */
export const WAVE_WINDOW_S = 0.01;

/**
 * A leading group counts as a wave only when the run's own arrival rate
 * would put that many sends in WAVE_WINDOW_S with probability below this
 * (Poisson arrivals at the run's mean send rate): two requests that happen
 * to leave 5 ms apart in a Poisson run are not a wave.
 */
export const WAVE_CHANCE = 1e-3;

export interface Wave {
  /** Requests in it. */
  size: number;
  /** How it was found: from the send times, or from the settings (rate inf and no cap) when the file has no shared clock. */
  from: 'send times' | 'settings';
  /** The last first token among its requests (records' clock); null when unknown. */
  lastFirstT: number | null;
}

export interface RunData {
  file: string;
  format: string;
  imported: Imported;
  run: BenchmarkRun;
  /** The file has per-request records. */
  perRequest: boolean;
  /** Sends share one clock, so the requests can be placed in time. */
  timeline: boolean;
  /** Indices into run.records in issue order. */
  order: Uint32Array;
  /** Successful requests with a first token, in issue order. */
  ok: RequestRecord[];
  /** TTFT (s) of `ok`, in issue order, and sorted. */
  ttft: Float64Array;
  ttftSorted: Float64Array;
  /** TTFT (s) of `ok` outside the first wave, sorted (the whole series when there is no wave). */
  ttftSteadySorted: Float64Array;
  /** Whether each of `ok` belongs to the first wave. */
  inWave: Uint8Array;
  wave: Wave | null;
  /** Failed or cancelled requests (from the records, else from the file's failure counts). */
  failed: number;
  /** Successful requests: the records', else the count the file prints; null when neither. */
  completed: number | null;
  /** Every percentile the file prints, of any quantity. */
  printed: PrintedPercentile[];
  /** The TTFT percentiles the file prints, or the usual p50/p90/p99 when it prints none. */
  ttftPrinted: PrintedPercentile[];
  /** The mean send rate over the run (1/s), for telling a wave from chance; null without a timeline. */
  sendRate: number | null;
}

/** P(Poisson(λ) ≥ k). */
function poissonTail(lambda: number, k: number): number {
  let term = Math.exp(-lambda);
  let below = 0;
  for (let j = 0; j < k; j++) {
    below += term;
    term *= lambda / (j + 1);
  }
  return Math.max(0, 1 - below);
}

function findWave(run: BenchmarkRun, order: Uint32Array, timeline: boolean, sendRate: number | null): Wave | null {
  const recs = run.records;
  const n = recs.length;
  if (n === 0) return null;
  if (!timeline) {
    // No shared clock: only the settings can say that everything left at once.
    if (run.requestRate === Infinity && (run.maxConcurrency === null || run.maxConcurrency >= n)) return { size: n, from: 'settings', lastFirstT: null };
    return null;
  }
  const t0 = recs[order[0]].sendT;
  let k = 0;
  while (k < n && recs[order[k]].sendT - t0 <= WAVE_WINDOW_S) k++;
  if (k < 2) return null;
  if (k < n && sendRate !== null && poissonTail(sendRate * WAVE_WINDOW_S, k) > WAVE_CHANCE) return null;
  // A wave after which the rest was still sent before any request finished: no slot was ever reused, the run is one wave.
  let firstFinish = Infinity;
  for (const r of recs) if (r.ok && r.finishT < firstFinish) firstFinish = r.finishT;
  if (recs[order[n - 1]].sendT < firstFinish) k = n;
  let last: number | null = null;
  for (let j = 0; j < k; j++) {
    const f = recs[order[j]].firstT;
    if (recs[order[j]].ok && f !== null) last = last === null ? f : Math.max(last, f);
  }
  return { size: k, from: 'send times', lastFirstT: last };
}

export function runData(file: string, format: string, imported: Imported): RunData {
  const run = imported.run;
  const recs = run.records;
  const n = recs.length;
  const timeline = n > 0 && !imported.lacks.includes('timeline');
  const idx = Array.from({ length: n }, (_, i) => i);
  if (timeline) idx.sort((a, b) => recs[a].sendT - recs[b].sendT || a - b);
  const order = Uint32Array.from(idx);
  let sendRate: number | null = null;
  if (timeline && n > 1) {
    const span = recs[order[n - 1]].sendT - recs[order[0]].sendT;
    sendRate = span > 0 ? (n - 1) / span : null;
  }
  const wave = findWave(run, order, timeline, sendRate);
  const ok: RequestRecord[] = [];
  const waveFlags: number[] = [];
  for (let j = 0; j < n; j++) {
    const r = recs[order[j]];
    if (r.ok && r.firstT !== null && !imported.lacks.includes('firstToken')) {
      ok.push(r);
      waveFlags.push(wave !== null && j < wave.size ? 1 : 0);
    }
  }
  const ttft = Float64Array.from(ok, (r) => r.firstT! - r.sendT);
  const ttftSorted = sortAsc(ttft);
  const inWave = Uint8Array.from(waveFlags);
  const failedRecords = recs.filter((r) => !r.ok).length;
  const failedCounted = Object.values(imported.failures).reduce((a, b) => a + b, 0);
  const printed = printedPercentiles(imported.reported);
  const ttftPrinted = printed.filter((p) => p.quantity === 'ttft');
  const completed = n > 0 ? recs.length - failedRecords : countFromReported(imported);
  return {
    file, format, imported, run,
    perRequest: n > 0,
    timeline,
    order,
    ok,
    ttft,
    ttftSorted,
    ttftSteadySorted: wave === null ? ttftSorted : sortAsc(withoutFlagged(ttft, inWave)),
    inWave,
    wave,
    failed: n > 0 ? failedRecords : failedCounted,
    completed,
    printed,
    ttftPrinted: ttftPrinted.length ? ttftPrinted : DEFAULT_TTFT.map((p) => ({ key: null, quantity: 'ttft', p, value: null, unit: 's' })),
    sendRate,
  };
}

/** The percentiles every tool prints by default, for files that carry none of their own. */
export const DEFAULT_TTFT = [0.5, 0.9, 0.99];

/** Keys under which the tools print how many requests succeeded. */
const COUNT_KEYS = ['completed', 'request_count.avg', 'results_num_completed_requests', 'result_query_count', 'num_completed_requests', 'successes.count', 'num_requests_successful', 'total_requests_completed'];

function countFromReported(imported: Imported): number | null {
  for (const k of COUNT_KEYS) {
    const v = imported.reported[k];
    if (v && Number.isFinite(v.value)) return v.value;
  }
  return null;
}
