/**
 * The `metrics` command's reading step: one function from a file path to a
 * {@link BenchmarkRun}. Today it reads `stopwatches simulate --tokens` output;
 * importers for real tools' files plug in here (dispatch on the content).
 * Every problem is a UserError naming the file: the CLI prints one line, exit 2.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.ts';
import type { BenchmarkRun, RequestRecord } from './records.ts';

type Obj = Record<string, unknown>;

const isNumArray = (x: unknown): x is number[] => Array.isArray(x) && x.every((v) => typeof v === 'number');

export function readRunFile(path: string): BenchmarkRun {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: not valid JSON (${(err as Error).message.split('\n')[0]})`);
  }
  return simResultJsonToRun(json, path);
}

/**
 * `{preemptions, steps, makespan, requests: {due_t, send_t, first_t, finish_t, npre, token_times}}`
 * → BenchmarkRun. The file does not say which client ran, so it is inferred:
 * every request due at the same instant → closed loop (no rate, no cap);
 * otherwise the rate is (n − 1)/(last due − first due), and if any request
 * waited (send > due) the cap is the peak number in flight.
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
  if (n === 0) throw new UserError(`${path}: the run has no requests`);
  if (due.length !== n || first.length !== n || finish.length !== n) {
    throw new UserError(`${path}: requests.* lists differ in length (send_t has ${n})`);
  }
  const tt = q.token_times;
  if (tt === undefined) throw new UserError(`${path}: no requests.token_times (rerun \`stopwatches simulate\` with --tokens)`);
  if (!Array.isArray(tt) || tt.length !== n || !tt.every(isNumArray)) {
    throw new UserError(`${path}: requests.token_times must be ${n} lists of numbers`);
  }
  const npre = isNumArray(q.npre) ? q.npre : null;
  const isl = isNumArray(q.isl) && q.isl.length === n ? q.isl : null;
  const osl = isNumArray(q.osl) && q.osl.length === n ? q.osl : null;
  const records: RequestRecord[] = [];
  for (let i = 0; i < n; i++) {
    const c = tt[i] as number[];
    records.push({
      dueT: due[i],
      sendT: send[i],
      chunkTimes: c,
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
    // concurrency = the slot count = the peak in flight
    requestRate = Infinity;
    maxConcurrency = peakInFlight(send, finish);
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
