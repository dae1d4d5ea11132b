/**
 * One explorer run: draw the workload exactly as the experiments do, simulate,
 * and reduce the result to what the page draws. Pure (no DOM, no worker API),
 * so the worker calls it and the tests call it in Node against the
 * experiments' own functions.
 */
import { createRng } from '../rng/index.ts';
import {
  fixedLengths,
  inferencexLengths,
  poissonTimes,
  simulate,
  vllmRangeLengths,
  withOverrides,
  type ClientSpec,
  type ServerConfig,
  type SimResult,
  type StepView,
  type Workload,
} from '../sim/index.ts';
import { buildRun, fromSimResult, perUserSpeeds, TABLE1, type SpeedRow, type ToolId } from '../metrics/index.ts';
import { mean, median, percentileWithInterval, type PercentileWithInterval } from '../stats/index.ts';
import { fmtInt, MAX_RECORDED_TOKENS, type Params } from './params.ts';

export interface Drawn {
  workload: Workload;
  client: ClientSpec;
}

/**
 * Lengths and arrival times. Streams: `isl`, `osl` and `arrivals`, forked from
 * createRng(seed) — or from createRng(seed).fork(stream) when a stream label is set.
 */
export function drawInputs(p: Params): Drawn {
  const root = p.stream ? createRng(p.seed).fork(p.stream) : createRng(p.seed);
  const n = p.requests;
  const len = (which: 'isl' | 'osl') => {
    const L = p[which];
    if (p.lengths === 'fixed') return fixedLengths(n, L);
    if (p.lengths === 'vllm') return vllmRangeLengths(root.fork(which), n, L, p.ratio);
    return inferencexLengths(root.fork(which), n, L, p.ratio);
  };
  const workload = { isl: len('isl'), osl: len('osl') };
  if (p.client === 'closed') return { workload, client: { kind: 'closed', slots: p.slots } };
  const times = p.rate === Infinity ? new Float64Array(n) : poissonTimes(root.fork('arrivals'), n, p.rate);
  return { workload, client: p.client === 'open' ? { kind: 'open', times } : { kind: 'capped', times, cap: p.cap } };
}

export function serverConfig(p: Params): ServerConfig {
  return withOverrides({
    tokenBudget: p.tokenBudget,
    kvCapacityTokens: p.kvCapacityTokens,
    maxNumSeqs: p.maxNumSeqs,
    etaCompute: p.etaCompute,
    etaMemory: p.etaMemory,
    stepOverheadS: p.stepOverheadMs / 1000,
  });
}

export interface SpeedOut extends SpeedRow {
  toolName: string;
  /** The tool's clock start, from Table 1. */
  clock: string;
}

export interface ExplorerResult {
  n: number;
  /** Statistics cover requests [from, to). */
  from: number;
  to: number;
  makespan: number;
  steps: number;
  preemptions: number;
  /** TTFT of every request, ms, from the send and from the due time. */
  ttftSendMs: Float64Array;
  ttftDueMs: Float64Array;
  /** True when some request waited between due and send (a capped client). */
  dueDiffers: boolean;
  p99Send: PercentileWithInterval;
  p99Due: PercentileWithInterval;
  meanSendMs: number;
  medianSendMs: number;
  /** Completed requests ÷ (last finish − first due or send) over the whole run, req/s. */
  achievedReqPerS: number;
  outputTokens: number;
  throughput: { width: number; start: Float64Array; tokPerS: Float64Array };
  /** Set when the run is too long for the per-token definitions (they need every token's time). */
  speedsNote: string | null;
  /** Draw + simulate + TTFT statistics and throughput, ms (the definitions are timed apart). */
  timing: { drawMs: number; simMs: number; statsMs: number; totalMs: number };
}

export interface SpeedsResult {
  rows: SpeedOut[];
  ms: number;
}

export interface RunHooks {
  /** Called now and then while the simulator runs (requests finished so far, of n). */
  onProgress?: (done: number, n: number) => void;
  /** Least time between two onProgress calls, ms. */
  progressEveryMs?: number;
  now?: () => number;
}

const TOOL_ROW = new Map(TABLE1.map((r) => [r.tool as ToolId, r]));

/** A finished simulation, kept in the worker for the definitions (which need its token times). */
export interface Simulated {
  result: ExplorerResult;
  sim: SimResult | null;
  client: ClientSpec;
}

/** Output tokens a drawn workload emits: the sum of its output lengths. */
export function drawnOutputTokens(w: Workload): number {
  let s = 0;
  for (let i = 0; i < w.osl.length; i++) s += w.osl[i];
  return s;
}

/** Draw, simulate and compute the TTFT statistics and throughput. */
export function simulateRun(p: Params, hooks: RunHooks = {}): Simulated {
  const now = hooks.now ?? (() => performance.now());
  const t0 = now();
  const { workload, client } = drawInputs(p);
  const cfg = serverConfig(p);
  const n = p.requests;
  // The token times the definitions need cost memory per output token, and the drawn lengths say exactly how many
  // there will be (every request emits its drawn output length): the limit is held on that count, not on the
  // longest lengths the draw could give, which for a ranged draw overstates it by up to a fifth.
  const outTokens = drawnOutputTokens(workload);
  const recordTokens = outTokens <= MAX_RECORDED_TOKENS;
  const t1 = now();

  // Per step: end time and tokens emitted (for throughput); progress now and then.
  let cap = 4096;
  let tEnd = new Float64Array(cap);
  let toks = new Int32Array(cap);
  let count = 0;
  let last = t1;
  const every = hooks.progressEveryMs ?? 50;
  const onProgress = hooks.onProgress;
  const onStep = (v: StepView) => {
    if (count === cap) {
      cap *= 2;
      const a = new Float64Array(cap);
      a.set(tEnd);
      tEnd = a;
      const b = new Int32Array(cap);
      b.set(toks);
      toks = b;
    }
    tEnd[count] = v.t + v.dt;
    toks[count] = v.tokens;
    count++;
    if (onProgress && (count & 255) === 0) {
      const t = now();
      if (t - last >= every) {
        last = t;
        onProgress(v.done, n);
      }
    }
  };
  const r = simulate(cfg, workload, client, { onStep, recordTokens });
  onProgress?.(n, n);
  const t2 = now();

  const from = p.warmup;
  const to = n - p.cooldown;
  const ttftSendMs = new Float64Array(n);
  const ttftDueMs = new Float64Array(n);
  let dueDiffers = false;
  let start = Infinity;
  for (let i = 0; i < n; i++) {
    ttftSendMs[i] = (r.firstT[i] - r.sendT[i]) * 1000;
    ttftDueMs[i] = (r.firstT[i] - r.dueT[i]) * 1000;
    if (r.sendT[i] !== r.dueT[i]) dueDiffers = true;
    start = Math.min(start, r.dueT[i], r.sendT[i]);
  }
  const keptSend = ttftSendMs.subarray(from, to);
  const keptDue = ttftDueMs.subarray(from, to);

  // Throughput: output tokens emitted at step ends, in equal bins over the run.
  const bins = Math.max(1, Math.min(120, count));
  const width = r.makespan > 0 ? r.makespan / bins : 1;
  const binTok = new Float64Array(bins);
  let outputTokens = 0;
  for (let s = 0; s < count; s++) {
    const b = Math.min(bins - 1, Math.floor(tEnd[s] / width));
    binTok[b] += toks[s];
    outputTokens += toks[s];
  }
  const startArr = new Float64Array(bins);
  for (let b = 0; b < bins; b++) {
    startArr[b] = b * width;
    binTok[b] /= width;
  }

  const speedsNote = recordTokens
    ? null
    : `the per-token definitions need every token's time; this run emits ${fmtInt(outTokens)} output tokens, above the ${fmtInt(MAX_RECORDED_TOKENS)} a page can hold (fewer requests or shorter outputs)`;
  const t3 = now();
  const result: ExplorerResult = {
    n,
    from,
    to,
    makespan: r.makespan,
    steps: r.steps,
    preemptions: r.preemptions,
    ttftSendMs,
    ttftDueMs,
    dueDiffers,
    p99Send: percentileWithInterval(keptSend, 0.99, 0.95),
    p99Due: percentileWithInterval(keptDue, 0.99, 0.95),
    meanSendMs: mean(keptSend),
    medianSendMs: median(keptSend),
    achievedReqPerS: n / (r.makespan - start),
    outputTokens,
    throughput: { width, start: startArr, tokPerS: binTok },
    speedsNote,
    timing: { drawMs: t1 - t0, simMs: t2 - t1, statsMs: t3 - t2, totalMs: t3 - t0 },
  };
  return { result, sim: recordTokens ? r : null, client };
}

/**
 * The seven tools' per-user speeds (perUserSpeeds, Figure 1) on the requests the
 * statistics keep, with each tool's name and clock start from Table 1.
 */
export function speedsOf(p: Params, s: Simulated, now: () => number = () => performance.now()): SpeedsResult | null {
  if (!s.sim) return null;
  const t0 = now();
  const { from, to, n } = s.result;
  const spec = p.client === 'closed' ? s.client : { kind: p.client, cap: p.cap, rate: p.rate };
  const requestRate = p.client === 'closed' ? undefined : p.rate;
  const all = fromSimResult(s.sim, { client: spec, requestRate });
  const run = from === 0 && to === n ? all : buildRun(all.records.slice(from, to), { client: spec, requestRate });
  const rows = perUserSpeeds(run, { llama2Inflation: p.inflation }).map((row) => ({
    ...row,
    toolName: TOOL_ROW.get(row.tool)?.name ?? row.tool,
    clock: TOOL_ROW.get(row.tool)?.clockStart ?? '',
  }));
  return { rows, ms: now() - t0 };
}

/** Both steps at once (Node tests). */
export function runExplorer(p: Params, hooks: RunHooks = {}): ExplorerResult & { speeds: SpeedsResult | null } {
  const s = simulateRun(p, hooks);
  return { ...s.result, speeds: speedsOf(p, s, hooks.now) };
}
