/**
 * The simulator's columnar result → a {@link BenchmarkRun}. One token per
 * chunk (the simulator streams every token at the end of the step that
 * produced it); the server's count is the output length; the run spans from
 * the first send (or due time) to the makespan. The client's schedule starts
 * at t = 0 (a closed loop's slots open then; a Poisson schedule's first
 * request is due one gap later), so `originT` is 0.
 */
import type { SimResult, ClientSpec } from '../../sim/types.ts';
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { pooledChunkGapsFrom } from '../base/series.ts';
import { gapTallyOnStepClock } from './step-gaps.ts';

export interface FromSimOptions {
  /** The client the run used: sets maxConcurrency and requestRate (closed loops have neither). */
  client?: ClientSpec | { kind: 'closed' | 'open' | 'capped'; slots?: number; cap?: number; rate?: number };
  /** Target rate (req/s) of an open or capped run, when known. */
  requestRate?: number | null;
  source?: string;
  /** When the client's schedule started (see BenchmarkRun.originT); unknown when absent. */
  originT?: number | null;
}

export interface FromSimResultOptions extends FromSimOptions {
  /**
   * Only requests [from, to) (a window that leaves out a warm-up and a
   * cool-down). The window's clock origin is unknown (no originT) unless it is
   * the whole run.
   */
  requests?: { from: number; to: number };
  /**
   * The end time of every step, in order (t + dt as onStep saw them): the run's
   * pooled chunk gaps are then counted per step instead of sorted (step-gaps.ts).
   */
  stepEnds?: Float64Array;
}

export function fromSimResult(result: SimResult, opts: FromSimResultOptions = {}): BenchmarkRun {
  const tt = result.tokenTimes;
  if (!tt) throw new RangeError('simulator result has no token times (run with recordTokens: true)');
  const from = opts.requests?.from ?? 0;
  const to = opts.requests?.to ?? result.n;
  const records = simRecords(result, tt, from, to);
  const whole = from === 0 && to === result.n;
  // the options buildRun reads, named: an object rest or spread would make objects of as many shapes as callers
  const run = buildRun(records, { client: opts.client, requestRate: opts.requestRate, source: opts.source, originT: whole ? (opts.originT ?? 0) : opts.originT });
  const { stepEnds } = opts;
  if (stepEnds) pooledChunkGapsFrom(run, () => gapTallyOnStepClock(tt.times, tt.offsets, from, to, stepEnds));
  return run;
}

/**
 * The records of requests [from, to). A function of its own, whose loop reads
 * only the result: callers pass options of many shapes (the explorer's window,
 * the build's whole run), and a loop inside the function that reads them is
 * thrown back to the interpreter each time a new shape arrives.
 */
function simRecords(result: SimResult, tt: NonNullable<SimResult['tokenTimes']>, from: number, to: number): RequestRecord[] {
  const records: RequestRecord[] = new Array(to - from);
  const { buffer, byteOffset } = tt.times;
  for (let i = from; i < to; i++) {
    const a = tt.offsets[i];
    const b = tt.offsets[i + 1];
    // a view (the records never write their chunk times), made directly: subarray() looks up a species constructor each time
    const chunk = new Float64Array(buffer, byteOffset + a * Float64Array.BYTES_PER_ELEMENT, b - a);
    records[i - from] = {
      dueT: result.dueT[i],
      sendT: result.sendT[i],
      chunkTimes: chunk,
      chunkTokens: null,
      firstT: chunk.length ? chunk[0] : null,
      finishT: result.finishT[i],
      inputTokens: result.isl[i],
      outputTokens: result.osl[i],
      ok: true,
      preemptions: result.npre[i],
      requestedOutputTokens: result.osl[i],
    };
  }
  return records;
}

/** Run-level fields from records plus what the options say about the client. */
export function buildRun(records: RequestRecord[], opts: FromSimOptions = {}): BenchmarkRun {
  const { startT, endT } = spanOf(records);
  const c = opts.client as { kind?: string; slots?: number; cap?: number } | undefined;
  let maxConcurrency: number | null = null;
  if (c?.kind === 'closed' && c.slots !== undefined) maxConcurrency = c.slots;
  if (c?.kind === 'capped' && c.cap !== undefined) maxConcurrency = c.cap;
  const requestRate = opts.requestRate ?? (c?.kind === 'closed' ? Infinity : null);
  const run: BenchmarkRun = { records, source: opts.source ?? 'simulator', maxConcurrency, requestRate, startT, endT };
  if (opts.originT !== undefined && opts.originT !== null) run.originT = opts.originT;
  return run;
}

/** From the first send (or due time) to the last finish; apart from buildRun for the reason given at simRecords. */
function spanOf(records: readonly RequestRecord[]): { startT: number; endT: number } {
  let startT = Infinity;
  let endT = -Infinity;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    startT = Math.min(startT, r.dueT ?? r.sendT, r.sendT);
    endT = Math.max(endT, r.finishT);
  }
  return { startT, endT };
}
