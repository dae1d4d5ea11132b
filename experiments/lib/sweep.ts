/**
 * The closed-loop sweep point and the open-loop run that the second half of
 * the paper builds on. Several experiments need the sweep's delivered rate
 * (its peak sets the loads of the cliff, the long runs and the sensitivity
 * study); a closed point costs well under a second to simulate, so each job
 * recomputes the one it needs (memoized per worker) instead of the pipeline
 * passing results between experiments.
 */
import { defaultServerConfig, inferencexLengths, poissonTimes, simulate, type ServerConfig } from '../../src/sim/index.ts';
import { createRng } from '../../src/rng/index.ts';
import { linearPercentile } from '../../src/stats/index.ts';
import { closedLoopLittle, meanOf, meanTpotMs, pick, sentWithin, steadyWindow, ttftMs } from './measure.ts';
import { StepLog } from './step-log.ts';

/** The sweep's workload: InferenceX 1k/1k, 20 × slots prompts, one seed. */
export const SWEEP = { isl: 1024, osl: 1024, rangeRatio: 0.8, multiplier: 20, seed: 1 } as const;

export interface ClosedPoint {
  slots: number;
  /** Delivered request rate in the steady window (tokens ÷ window ÷ mean output length), req/s. */
  rate: number;
  /** Output tokens/s in the steady window. */
  tokPerS: number;
  /** TTFT (ms) of the requests sent inside the steady window. */
  ttftMs: Float64Array;
  /** Mean TPOT (ms) of those requests: (finish − first) / (osl − 1). */
  tpotMeanMs: number;
  meanE2E: number;
  littleInFlight: number;
  preemptions: number;
}

export interface OpenRun {
  rate: number;
  n: number;
  /** TTFT (ms) of the kept requests (first and last 10% dropped), in send order. */
  ttftMs: Float64Array;
  tpotMeanMs: number;
  /** Time-averaged number of requests in the system over the kept window. */
  inSystem: number;
  /** Little's law prediction for it: kept requests ÷ window × their mean latency. */
  littlePredicted: number;
  preemptions: number;
  makespan: number;
}

const closedMemo = new Map<string, ClosedPoint>();

function lengths(seed: number, label: string, n: number) {
  const rng = createRng(seed).fork(label);
  return {
    isl: inferencexLengths(rng.fork('isl'), n, SWEEP.isl, SWEEP.rangeRatio),
    osl: inferencexLengths(rng.fork('osl'), n, SWEEP.osl, SWEEP.rangeRatio),
  };
}

/** One point of the closed-loop sweep (memoized on slots, server and seed). */
export function closedPoint(slots: number, cfg: ServerConfig = defaultServerConfig(), seed: number = SWEEP.seed): ClosedPoint {
  const key = JSON.stringify([slots, cfg, seed]);
  const hit = closedMemo.get(key);
  if (hit) return hit;
  const n = slots * SWEEP.multiplier;
  const log = new StepLog();
  const r = simulate(cfg, lengths(seed, `closed-${slots}`, n), { kind: 'closed', slots }, { onStep: log.onStep });
  const w = steadyWindow(r);
  const idx = sentWithin(r, w.start, w.end);
  const ttft = pick(ttftMs(r), idx);
  const little = closedLoopLittle(r, (a, b) => log.tokensIn(a, b), slots);
  const point: ClosedPoint = {
    slots,
    rate: little.rate,
    tokPerS: log.tokensIn(w.start, w.end) / (w.end - w.start),
    ttftMs: ttft,
    tpotMeanMs: meanTpotMs(r, idx),
    meanE2E: little.meanE2E,
    littleInFlight: little.inFlight,
    preemptions: r.preemptions,
  };
  closedMemo.set(key, point);
  return point;
}

/** Share of an open run's requests dropped at each end before statistics (the article's 10%). */
export const OPEN_DROP_SHARE = 0.1;

/** Open loop: Poisson arrivals at `rate`, `n` requests; statistics over the middle 80% (by send order). */
export function openRun(rate: number, n: number, seed: number, cfg: ServerConfig = defaultServerConfig(), dropShare = OPEN_DROP_SHARE): OpenRun {
  const rng = createRng(seed).fork(`open-${n}`);
  const times = poissonTimes(rng.fork('arrivals'), n, rate);
  const r = simulate(cfg, lengths(seed, `open-${n}`, n), { kind: 'open', times });
  const a = Math.floor(n * dropShare);
  const b = n - a;
  const ttft = new Float64Array(b - a);
  const idx = new Int32Array(b - a);
  for (let i = a; i < b; i++) {
    ttft[i - a] = (r.firstT[i] - r.sendT[i]) * 1000;
    idx[i - a] = i;
  }
  // Time-averaged number in system over [send of the first kept, send of the last kept].
  const t0 = r.sendT[a];
  const t1 = r.sendT[b - 1];
  let area = 0;
  let lat = 0;
  for (let i = 0; i < n; i++) {
    const lo = Math.max(r.sendT[i], t0);
    const hi = Math.min(r.finishT[i], t1);
    if (hi > lo) area += hi - lo;
  }
  for (let i = a; i < b; i++) lat += r.finishT[i] - r.sendT[i];
  const keptRate = (b - a - 1) / (t1 - t0);
  return {
    rate,
    n,
    ttftMs: ttft,
    tpotMeanMs: meanTpotMs(r, idx),
    inSystem: area / (t1 - t0),
    littlePredicted: keptRate * (lat / (b - a)),
    preemptions: r.preemptions,
    makespan: r.makespan,
  };
}

export const p99 = (x: ArrayLike<number>) => linearPercentile(x, 0.99);
export { meanOf };
