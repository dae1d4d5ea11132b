/**
 * The audit page's chart data for one run (the figures of ./figures.ts draw
 * it; ./html.ts places them): TTFT by issue order with the first wave and the
 * steady window marked, the requests in flight over time, and the output
 * throughput over time. The wave and the window are the audit's own (the
 * `first-wave` finding's `wave_size`, the `window` finding's
 * `steady_start_s`/`steady_end_s`), so the figures show what the findings
 * judged. Pure; typed arrays, since a big file has a million requests.
 *
 * Times are seconds after the run's origin `t0`: the earlier of the tool's
 * start and the first send.
 */
import type { RequestRecord } from '../tools/base/records.ts';
import type { Imported } from '../tools/base/result.ts';
import type { Audited } from './file.ts';
import type { AuditReport } from './index.ts';

/** Bins the time axis is cut into, about: enough to show a ramp and a drain, few enough that each bin is a rate, not a count of one or two completions. */
export const TARGET_BINS = 100;

/**
 * The bin width for a run of `duration` seconds: duration ÷ TARGET_BINS rounded
 * up to 1, 2 or 5 × a power of ten, so bin edges fall on round times the axis
 * can label (a 60 s run gets 1 s bins, a 10 min run 10 s bins).
 */
export function binWidth(duration: number): number {
  if (!(duration > 0)) return 1;
  const raw = duration / TARGET_BINS;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * mag >= raw * (1 - 1e-12)) return +(m * mag).toPrecision(12);
  return 10 * mag;
}

/** How the output tokens were placed in time. */
export type TokenPlacement =
  /** at each streamed chunk's arrival (the chunk's own count, else the request's count split evenly over its chunks) */
  | 'chunks'
  /** spread evenly from the first token to the finish (the file keeps counts, no chunk times) */
  | 'spread'
  /** no token counts: completions per second instead */
  | 'completions';

export interface TimeBins {
  /** Width of every bin (s); the last one may be cut short by the run's end. */
  width: number;
  /** Start of each bin (s after t0). */
  start: Float64Array;
  /** Time-weighted mean number of requests in flight (sent, not finished) in each bin. */
  inFlight: Float64Array;
  /** Output tokens per second in each bin (completions per second when placement is 'completions'). */
  rate: Float64Array;
  placement: TokenPlacement;
}

export interface AuditSeries {
  /** Where the issue order comes from: send times on one clock, or only the file's order. */
  order: 'send' | 'file';
  /** Absolute time (records' clock) the series' times count from. */
  t0: number;
  /** TTFT (s) of the successful requests with a first token, in issue order. */
  ttft: Float64Array;
  /** Send time (s after t0) of the same requests. */
  send: Float64Array;
  /** 1 where the request is in the first wave. */
  inWave: Uint8Array;
  /** Requests in the wave (of all sent, as the finding counts them); 0 without one. */
  waveSize: number;
  /** The steady window (s after t0), as the `window` finding found it; null when it found none. */
  steady: { start: number; end: number } | null;
  /** Positions in `ttft` sent inside the steady window, [from, to) ; null without a window. */
  steadyIndex: [number, number] | null;
  /** The time axis cut into bins; null without a shared clock. */
  bins: TimeBins | null;
  /** The client's concurrency cap, when the run had one. */
  maxConcurrency: number | null;
}

function numberOf(report: AuditReport, finding: string, key: string): number | null {
  const v = report.findings.find((f) => f.id === finding)?.numbers[key]?.value;
  return v !== undefined && Number.isFinite(v) ? v : null;
}

/** Adds `perSecond` × (overlap with each bin) for the interval [a, b) (s after t0), in O(bins it touches at the ends): full bins go through `full`. */
function addInterval(bins: Float64Array, full: Float64Array, w: number, a: number, b: number, perSecond: number): void {
  if (!(b > a)) return;
  const last = bins.length - 1;
  const ia = Math.min(last, Math.max(0, Math.floor(a / w)));
  const ib = Math.min(last, Math.max(0, Math.floor(b / w)));
  if (ia === ib) {
    bins[ia] += (b - a) * perSecond;
    return;
  }
  bins[ia] += ((ia + 1) * w - a) * perSecond;
  bins[ib] += (b - ib * w) * perSecond;
  if (ib > ia + 1) {
    full[ia + 1] += perSecond * w;
    full[ib] -= perSecond * w;
  }
}

/** Prefix-sums the full-bin increments into `bins`. */
function settle(bins: Float64Array, full: Float64Array): void {
  let run = 0;
  for (let i = 0; i < bins.length; i++) {
    run += full[i];
    bins[i] += run;
  }
}

function timeBins(recs: readonly RequestRecord[], t0: number, t1: number): TimeBins {
  const duration = t1 - t0;
  const width = binWidth(duration);
  const nb = Math.max(1, Math.ceil(duration / width - 1e-9));
  const start = new Float64Array(nb);
  for (let i = 0; i < nb; i++) start[i] = i * width;
  const inFlight = new Float64Array(nb);
  const flightFull = new Float64Array(nb + 1);
  const tokens = new Float64Array(nb);
  const tokensFull = new Float64Array(nb + 1);
  const hasChunks = recs.some((r) => r.ok && r.chunkTimes && r.chunkTimes.length > 0);
  const hasCounts = recs.some((r) => r.ok && r.outputTokens !== null);
  const placement: TokenPlacement = hasChunks ? 'chunks' : hasCounts ? 'spread' : 'completions';
  const binOf = (t: number) => Math.min(nb - 1, Math.max(0, Math.floor((t - t0) / width)));
  for (const r of recs) {
    addInterval(inFlight, flightFull, width, r.sendT - t0, r.finishT - t0, 1);
    if (!r.ok) continue;
    if (placement === 'chunks') {
      const ct = r.chunkTimes;
      if (!ct || ct.length === 0) continue;
      const even = r.outputTokens !== null ? r.outputTokens / ct.length : 1;
      for (let k = 0; k < ct.length; k++) tokens[binOf(ct[k])] += r.chunkTokens ? r.chunkTokens[k] : even;
    } else if (placement === 'spread') {
      if (r.outputTokens === null) continue;
      const a = (r.firstT ?? r.sendT) - t0;
      const b = r.finishT - t0;
      if (b > a) addInterval(tokens, tokensFull, width, a, b, r.outputTokens / (b - a));
      else tokens[binOf(r.finishT)] += r.outputTokens;
    } else {
      tokens[binOf(r.finishT)] += 1;
    }
  }
  settle(inFlight, flightFull);
  settle(tokens, tokensFull);
  const rate = new Float64Array(nb);
  for (let i = 0; i < nb; i++) {
    // the last bin ends with the run, not a full width later
    const span = Math.min(width, duration - i * width);
    const s = span > width * 1e-9 ? span : width;
    inFlight[i] /= s;
    rate[i] = tokens[i] / s;
  }
  return { width, start, inFlight, rate, placement };
}

/** The chart data of one audited run. */
export function auditSeries(imported: Imported, report: AuditReport): AuditSeries {
  const run = imported.run;
  const recs = run.records;
  const timeline = recs.length > 0 && !imported.lacks.includes('timeline');
  const idx = Array.from({ length: recs.length }, (_, i) => i);
  if (timeline) idx.sort((a, b) => recs[a].sendT - recs[b].sendT || a - b);
  let t0 = Number.isFinite(run.startT) ? run.startT : Infinity;
  let t1 = Number.isFinite(run.endT) ? run.endT : -Infinity;
  for (const r of recs) {
    if (r.sendT < t0) t0 = r.sendT;
    if (r.finishT > t1) t1 = r.finishT;
  }
  if (!Number.isFinite(t0)) t0 = 0;
  if (!Number.isFinite(t1)) t1 = t0;
  const waveSize = timeline || recs.length > 0 ? Math.max(0, numberOf(report, 'first-wave', 'wave_size') ?? 0) : 0;
  const withFirst = !imported.lacks.includes('firstToken');
  const ttft: number[] = [];
  const send: number[] = [];
  const inWave: number[] = [];
  idx.forEach((i, pos) => {
    const r = recs[i];
    if (!r.ok || r.firstT === null || !withFirst) return;
    ttft.push(r.firstT - r.sendT);
    send.push(r.sendT - t0);
    inWave.push(pos < waveSize ? 1 : 0);
  });
  const a = numberOf(report, 'window', 'steady_start_s');
  const b = numberOf(report, 'window', 'steady_end_s');
  const steady = timeline && a !== null && b !== null && b > a ? { start: a - t0, end: b - t0 } : null;
  let steadyIndex: [number, number] | null = null;
  if (steady) {
    let from = 0;
    while (from < send.length && send[from] < steady.start) from++;
    let to = from;
    while (to < send.length && send[to] <= steady.end) to++;
    steadyIndex = [from, to];
  }
  return {
    order: timeline ? 'send' : 'file',
    t0,
    ttft: Float64Array.from(ttft),
    send: Float64Array.from(send),
    inWave: Uint8Array.from(inWave),
    waveSize,
    steady,
    steadyIndex,
    bins: timeline && t1 > t0 ? timeBins(recs, t0, t1) : null,
    maxConcurrency: run.maxConcurrency,
  };
}

/** What one run's section on the page is drawn from (./html.ts): its report and its series, plain data a Web Worker can post to the page. */
export interface RunView {
  report: AuditReport;
  series: AuditSeries;
}

export function runView(a: Audited): RunView {
  return { report: a.report, series: auditSeries(a.imported, a.report) };
}
