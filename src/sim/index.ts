/**
 * The simulated server (the article's reference simulator, its appendix). Entry point: `simulate(cfg, workload, client, opts)`.
 *
 * Watching a long run: pass `opts.onStep`, called after every engine step with one reused
 * `StepView` (time, duration, decodes, prefill tokens, tokens emitted, running, waiting,
 * KV blocks in use, requests finished). Accumulate what you need inside the callback
 * (throughput bins, queue-length maxima, a progress line) instead of asking for
 * `recordTokens`, which stores 8 bytes per output token. Without `onStep` the cost is one
 * branch per step.
 */
import { runEngine } from './engine.ts';
import type { ClientSpec, ServerConfig, SimOptions, SimResult, Workload } from './types.ts';

export type {
  ClientSpec,
  HardwareConfig,
  Kernel,
  ModelConfig,
  ServerConfig,
  SimOptions,
  SimResult,
  StepTrace,
  StepView,
  Workload,
} from './types.ts';
export { SimulationError } from './engine.ts';
export { stepTime, stepTimeOf, roofline, type Roofline } from './roofline.ts';
export {
  CONSTANTS,
  CONSTANTS_TABLE,
  defaultServerConfig,
  withOverrides,
  type Constant,
  type ConstantName,
  type ConstantRow,
  type Grade,
  type ServerOverrides,
} from './constants.ts';
export {
  fixedLengths,
  vllmRangeLengths,
  inferencexLengths,
  sglangLengths,
  poissonTimes,
  vllmRangeBounds,
  inferencexBounds,
  sglangBounds,
} from './workloads.ts';

/**
 * Simulate one benchmark run to completion. Throws a RangeError naming the bad input
 * (see `validateInputs`), or a SimulationError for the reference's internal errors.
 */
export function simulate(cfg: ServerConfig, workload: Workload, client: ClientSpec, opts: SimOptions = {}): SimResult {
  validateInputs(cfg, workload, client);
  return runEngine(cfg, workload, client, opts);
}

/** KV blocks request i holds at most: its computed tokens peak at isl + osl − 1 (the last token is never fed back). */
export function peakBlocks(isl: number, osl: number, cached: number, blockSize: number): number {
  return Math.ceil((isl + osl - 1 - cached) / blockSize);
}

const isPosInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;

/** Check everything `run` assumes; throws a RangeError whose message names the field. */
export function validateInputs(cfg: ServerConfig, w: Workload, client: ClientSpec): void {
  for (const f of ['blockSize', 'tokenBudget', 'maxNumSeqs', 'kvCapacityTokens'] as const) {
    if (!isPosInt(cfg[f])) throw new RangeError(`config.${f} is ${cfg[f]}; it must be an integer ≥ 1`);
  }
  const totalBlocks = Math.floor(cfg.kvCapacityTokens / cfg.blockSize);
  const n = w.isl.length;
  if (w.osl.length !== n) throw new RangeError(`workload.osl has ${w.osl.length} entries but isl has ${n}`);
  const cached = w.cached ?? null;
  if (cached && cached.length !== n) throw new RangeError(`workload.cached has ${cached.length} entries but isl has ${n}`);
  for (let i = 0; i < n; i++) {
    const isl = w.isl[i];
    const osl = w.osl[i];
    if (!isPosInt(isl) || isl > 0x3fffffff) throw new RangeError(`workload.isl[${i}] is ${isl}; lengths must be integers ≥ 1`);
    if (!isPosInt(osl) || osl > 0x3fffffff) throw new RangeError(`workload.osl[${i}] is ${osl}; lengths must be integers ≥ 1`);
    const c = cached ? cached[i] : 0;
    if (!Number.isInteger(c) || c < 0 || c >= isl) {
      throw new RangeError(`workload.cached[${i}] is ${c}; it must be an integer in [0, isl − 1] = [0, ${isl - 1}]`);
    }
    const need = peakBlocks(isl, osl, c, cfg.blockSize);
    if (need > totalBlocks) {
      throw new RangeError(
        `request ${i} (isl ${isl}, osl ${osl}, cached ${c}) needs ${need} KV blocks but the pool holds ${totalBlocks}; ` +
          `raise kvCapacityTokens to at least ${need * cfg.blockSize}`,
      );
    }
  }
  if (client.kind === 'closed') {
    if (!isPosInt(client.slots)) throw new RangeError(`client.slots is ${client.slots}; it must be an integer ≥ 1`);
  } else if (client.kind === 'open' || client.kind === 'capped') {
    if (client.kind === 'capped' && !isPosInt(client.cap)) {
      throw new RangeError(`client.cap is ${client.cap}; it must be an integer ≥ 1`);
    }
    const times = client.times;
    if (times.length !== n) throw new RangeError(`client.times has ${times.length} entries but the workload has ${n}`);
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const ts = times[i];
      if (!Number.isFinite(ts) || ts < 0) throw new RangeError(`client.times[${i}] is ${ts}; times must be finite and ≥ 0`);
      if (ts < prev) throw new RangeError(`client.times[${i}] = ${ts} is before times[${i - 1}] = ${prev}; arrival times must be non-decreasing`);
      prev = ts;
    }
  } else {
    throw new RangeError(`client.kind is ${(client as { kind: unknown }).kind}; it must be open, closed or capped`);
  }
}
