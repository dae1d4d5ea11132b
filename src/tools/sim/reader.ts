/**
 * The simulator's own result format (`stopwatches simulate CASE.json --tokens`
 * output) read into a BenchmarkRun. Every problem is a UserError naming the
 * file: the CLI prints one line, exit 2.
 */
import { UserError } from '../../errors.ts';
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import type { Imported, ImportOptions } from '../base/result.ts';
import { stripBom } from '../base/json-text.ts';
import { CLOCK_PRECISION, MAX_CLOCK_S } from '../base/reading.ts';
import type { ResultInput } from '../base/input.ts';

type Obj = Record<string, unknown>;

const isNumArray = (x: unknown): x is number[] => Array.isArray(x) && x.every((v) => typeof v === 'number');

/** The format's id (`--format stopwatches`). */
export const SIMULATOR_FORMAT = 'stopwatches';

/** A simulator result opens an object and names send times and requests; checked on the text, before any parse. */
export function looksLikeSimulatorResult(text: string): boolean {
  return /^\s*\{/.test(text) && /"send_t"\s*:/.test(text) && /"requests"\s*:/.test(text);
}

export function readSimResult(path: string, input: ResultInput, opts: ImportOptions): Imported {
  if (opts.entry !== undefined && opts.entry !== 0) throw new UserError(`${path}: --entry ${opts.entry}: a simulator result holds one run; leave --entry out`);
  let json: unknown;
  try {
    json = JSON.parse(stripBom(input.text()));
  } catch (err) {
    throw new UserError(`${path}: not valid JSON (${(err as Error).message.split('\n')[0]})`);
  }
  const run = simResultJsonToRun(json, path);
  const notes: string[] = [];
  if (run.requestRate === Infinity && run.maxConcurrency === null) {
    notes.push(`every request was due at t = ${run.records[0].dueT} and none waited to be sent: a burst with no cap, so the client kept no queue (no client-queue time to report)`);
  }
  return {
    file: path,
    format: SIMULATOR_FORMAT,
    version: 'stopwatches simulator',
    run,
    missing: [],
    lacks: [],
    notes,
    clock: 'the simulator’s clock: t = 0 at the start of its client’s schedule',
    lastTokenT: null,
    reported: {},
    failures: {},
  };
}

/**
 * `{preemptions, steps, makespan, requests: {due_t, send_t, first_t, finish_t, npre, token_times}}`
 * → BenchmarkRun. The file does not say which client ran, so it is inferred:
 * every request due at the same instant → rate inf, and the cap is the peak
 * number in flight if some request waited (a closed loop: its slots), none if
 * none did (a burst: a cap, if any, never held a request back, so there is no
 * client queue to report, not a queue of zeros); otherwise the rate is
 * (n − 1)/(last due − first due), and if any request waited (send > due) the
 * cap is the peak number in flight.
 * Optional `requests.isl` / `requests.osl` are used when present; without
 * `isl` input tokens are unknown (NaN) and input-token throughputs are NaN.
 */
export function simResultJsonToRun(json: unknown, path: string): BenchmarkRun {
  const o = json as Obj;
  if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.requests !== 'object' || o.requests === null) {
    throw new UserError(`${path}: not a simulator result (expected an object with "requests"; make one with \`stopwatches simulate CASE.json --tokens\`)`);
  }
  const q = o.requests as Obj;
  for (const k of ['due_t', 'send_t', 'first_t', 'finish_t']) {
    if (!isNumArray(q[k])) throw new UserError(`${path}: requests.${k} is missing or not a list of numbers`);
  }
  const due = q.due_t as number[];
  const send = q.send_t as number[];
  const first = q.first_t as number[];
  const finish = q.finish_t as number[];
  const n = send.length;
  if (n === 0) throw new UserError(`${path}: requests.send_t is empty: the run has no requests, so there is nothing to compute`);
  if (due.length !== n || first.length !== n || finish.length !== n) {
    throw new UserError(`${path}: requests.* lists differ in length (send_t has ${n})`);
  }
  const tt = q.token_times;
  if (tt === undefined) throw new UserError(`${path}: no requests.token_times (rerun \`stopwatches simulate\` with --tokens)`);
  if (!Array.isArray(tt) || tt.length !== n || !tt.every(isNumArray)) {
    throw new UserError(`${path}: requests.token_times must be ${n} lists of numbers`);
  }
  checkTimes(path, due, send, first, finish, tt as number[][]);
  const npre = isNumArray(q.npre) ? q.npre : null;
  const isl = isNumArray(q.isl) && q.isl.length === n ? q.isl : null;
  const osl = isNumArray(q.osl) && q.osl.length === n ? q.osl : null;
  if (osl) {
    for (let i = 0; i < n; i++) {
      const k = (tt[i] as number[]).length;
      if (osl[i] < k) throw new UserError(`${path}: requests.osl[${i}] = ${osl[i]} is smaller than the ${k} token times of request ${i}: each output token has one time; the file is inconsistent`);
    }
  }
  const records: RequestRecord[] = [];
  for (let i = 0; i < n; i++) {
    const c = tt[i] as number[];
    records.push({
      dueT: due[i],
      sendT: send[i],
      chunkTimes: Float64Array.from(c),
      chunkTokens: null,
      firstT: c.length ? c[0] : null,
      finishT: finish[i],
      inputTokens: isl ? isl[i] : NaN,
      outputTokens: osl ? osl[i] : c.length,
      ok: c.length > 0,
      preemptions: npre ? npre[i] : null,
      requestedOutputTokens: osl ? osl[i] : null,
    });
  }
  let dMin = Infinity;
  let dMax = -Infinity;
  let waited = false;
  let startT = Infinity;
  let endT = -Infinity;
  for (let i = 0; i < n; i++) {
    dMin = Math.min(dMin, due[i]);
    dMax = Math.max(dMax, due[i]);
    if (send[i] > due[i] + 1e-12) waited = true;
    startT = Math.min(startT, due[i], send[i]);
    endT = Math.max(endT, finish[i]);
  }
  const closed = dMax === dMin;
  let requestRate: number | null = null;
  let maxConcurrency: number | null = null;
  if (closed) {
    // a closed loop is vLLM's "--request-rate inf --max-concurrency N": all due at once,
    // concurrency = the slot count = the peak in flight; a burst sends all at once, uncapped
    requestRate = Infinity;
    if (waited) maxConcurrency = peakInFlight(send, finish);
  } else {
    requestRate = n > 1 ? (n - 1) / (dMax - dMin) : null;
    if (waited) maxConcurrency = peakInFlight(send, finish);
  }
  // the simulator's clock starts where its client's schedule starts (vLLM's run clock, vllmDuration)
  return { records, source: `simulator (${path})`, maxConcurrency, requestRate, startT, endT, originT: 0 };
}

function peakInFlight(send: number[], finish: number[]): number {
  const ev: [number, number][] = [];
  for (let i = 0; i < send.length; i++) ev.push([send[i], 1], [finish[i], -1]);
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let c = 0;
  let peak = 0;
  for (const [, d] of ev) {
    c += d;
    if (c > peak) peak = c;
  }
  return peak;
}

/**
 * Impossible times are refused with the field and index: negative or
 * non-finite times, a send before its due time, a first token before the
 * send, a finish before the first token, token times out of order.
 */
function checkTimes(path: string, due: number[], send: number[], first: number[], finish: number[], tokens: number[][]): void {
  const bad = (what: string): never => {
    throw new UserError(`${path}: ${what}`);
  };
  const lists: [string, number[]][] = [['due_t', due], ['send_t', send], ['first_t', first], ['finish_t', finish]];
  for (const [name, xs] of lists) {
    for (let i = 0; i < xs.length; i++) {
      if (!Number.isFinite(xs[i])) bad(`requests.${name}[${i}] = ${xs[i]} is not a finite time`);
      if (xs[i] < 0) bad(`requests.${name}[${i}] = ${xs[i]} is negative; times are seconds from the start of the run, ≥ 0`);
      if (xs[i] > MAX_CLOCK_S) bad(`requests.${name}[${i}] = ${xs[i]} s: ${CLOCK_PRECISION}`);
    }
  }
  for (let i = 0; i < send.length; i++) {
    if (send[i] < due[i]) bad(`requests.send_t[${i}] = ${send[i]} is before due_t[${i}] = ${due[i]}: a request cannot leave before it is due`);
    const c = tokens[i];
    if (c.length === 0) continue;
    if (first[i] < send[i]) bad(`requests.first_t[${i}] = ${first[i]} is before send_t[${i}] = ${send[i]}: the first token cannot arrive before the request is sent`);
    if (finish[i] < first[i]) bad(`requests.finish_t[${i}] = ${finish[i]} is before first_t[${i}] = ${first[i]}: a request cannot finish before its first token`);
    for (let k = 0; k < c.length; k++) {
      if (!Number.isFinite(c[k]) || c[k] < 0) bad(`requests.token_times[${i}][${k}] = ${c[k]} is not a time ≥ 0`);
      if (k > 0 && c[k] < c[k - 1]) bad(`requests.token_times[${i}][${k}] = ${c[k]} is before token_times[${i}][${k - 1}] = ${c[k - 1]}: token times must not decrease`);
    }
    if (c[0] < send[i]) bad(`requests.token_times[${i}][0] = ${c[0]} is before send_t[${i}] = ${send[i]}`);
    // the simulator writes first_t as the first token's time: a file where they differ was edited, and one of them is wrong
    if (first[i] !== c[0]) bad(`requests.first_t[${i}] = ${first[i]} but token_times[${i}][0] = ${c[0]}: first_t is the first token's time; the file is inconsistent (edited, or not written by \`stopwatches simulate --tokens\`)`);
    if (c[c.length - 1] > finish[i] + 1e-9) bad(`requests.token_times[${i}] ends at ${c[c.length - 1]}, after finish_t[${i}] = ${finish[i]}`);
  }
}
