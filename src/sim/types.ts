/**
 * The simulator's public types. The server is the article's reference simulator (its appendix):
 * a continuous-batching engine shaped like vLLM's V1 scheduler, stepped in time,
 * with a roofline step time. Field names are camelCase; the golden-case JSON
 * (snake_case) is translated in `case.ts`.
 */

/** Model shape plus the derived numbers the step time reads. */
export interface ModelConfig {
  name: string;
  layers: number;
  dModel: number;
  nKvHeads: number;
  headDim: number;
  totalParams: number;
  vocabSize: number;
  /** Parameters touched per computed token (total − embedding − lm_head). */
  bodyParams: number;
  /** Parameters of the output projection, touched once per sampled token. */
  lmHeadParams: number;
  /** Bytes of weights read from HBM every step (the embedding is a lookup, not streamed). */
  streamedWeightBytes: number;
  /** Bytes of K and V per token over all layers. */
  kvBytesPerToken: number;
}

/** The GPU as the roofline sees it. */
export interface HardwareConfig {
  /** Dense peak, FLOP/s. */
  peakFlops: number;
  /** Fraction of peakFlops achieved. */
  etaCompute: number;
  /** HBM bandwidth, B/s. */
  hbmBw: number;
  /** Fraction of hbmBw achieved. */
  etaMemory: number;
  /** Fixed per-step cost (scheduling, launch, sampling), s. */
  stepOverheadS: number;
}

export interface ServerConfig {
  model: ModelConfig;
  hw: HardwareConfig;
  /** KV pool size in tokens; the pool holds floor(kvCapacityTokens / blockSize) blocks. */
  kvCapacityTokens: number;
  /** Tokens per KV block. */
  blockSize: number;
  /** Tokens computed per engine step at most (vLLM's max_num_batched_tokens). */
  tokenBudget: number;
  /** Running sequences at most (vLLM's max_num_seqs). */
  maxNumSeqs: number;
}

/**
 * How requests reach the server.
 * - open: request i is sent at times[i] whatever the server does.
 * - closed: `slots` requests are sent at t = 0 and each completion sends the next,
 *   at the end of the step that completed it; every request is due at t = 0.
 * - capped: request i is due at times[i] but waits in a client-side FIFO semaphore
 *   while `cap` requests are in flight.
 * Arrival times must be non-decreasing (requests are dispatched in index order).
 */
export type ClientSpec =
  | { kind: 'open'; times: ArrayLike<number> }
  | { kind: 'closed'; slots: number }
  | { kind: 'capped'; times: ArrayLike<number>; cap: number };

/** Per-request lengths in tokens; `cached` is a prefix already in cache (0 ≤ cached < isl). */
export interface Workload {
  isl: ArrayLike<number>;
  osl: ArrayLike<number>;
  cached?: ArrayLike<number> | null;
}

/**
 * What the step observer sees after each engine step. ONE object is reused for
 * every step (no allocation per step): read its fields inside the callback,
 * never keep a reference to it.
 */
export interface StepView {
  /** Step index (0-based). */
  step: number;
  /** Start time of the step, s. */
  t: number;
  /** Duration of the step, s (its end is t + dt). */
  dt: number;
  /** Requests served this step (running ones reached before the budget ran out, plus admissions): the step's request-steps. */
  served: number;
  /** Requests that computed exactly one token on top of a non-empty context. */
  decodes: number;
  /** Tokens computed this step other than those decodes (prefill and recompute chunks). */
  prefillTokens: number;
  /** Output tokens emitted at the end of this step. */
  tokens: number;
  /** Running requests during the step (after admission, before completions). */
  running: number;
  /** Waiting requests during the step (server queue, after admission). */
  waiting: number;
  /** KV blocks in use during the step. */
  usedBlocks: number;
  /** Requests that finished at the end of this step. */
  finished: number;
  /** Requests finished so far, this step included. */
  done: number;
}

/** Which run loop computes the result; both give bit-identical results (see engine.ts). */
export type Kernel = 'event' | 'stepwise';

export interface SimOptions {
  /** Default 'event' (cost per step independent of the batch); 'stepwise' touches every request every step. */
  kernel?: Kernel;
  /** Record the time of every output token (memory: 8 bytes per output token; small runs only). */
  recordTokens?: boolean;
  /** Record one row per engine step in `stepTrace`. */
  recordSteps?: boolean;
  /**
   * Called after every engine step with a reused {@link StepView}: the cheap way to watch a
   * long run (throughput in time bins, queue lengths) without storing per-token data.
   * Costs one branch per step when absent.
   */
  onStep?: (view: StepView) => void;
}

export interface StepTrace {
  count: number;
  t: Float64Array;
  dt: Float64Array;
  decodes: Int32Array;
  prefillTokens: Int32Array;
  running: Int32Array;
  waiting: Int32Array;
  usedBlocks: Int32Array;
}

export interface SimResult {
  n: number;
  preemptions: number;
  steps: number;
  /** Time at which the last request finished, s. */
  makespan: number;
  /** When the client's schedule said request i was due: 0 for closed loops, the scheduled time otherwise. */
  dueT: Float64Array;
  /** When request i left the client (capped: after its wait in the client FIFO). */
  sendT: Float64Array;
  firstT: Float64Array;
  finishT: Float64Array;
  /** Times request i was preempted (and recomputed). */
  npre: Int32Array;
  isl: Int32Array;
  osl: Int32Array;
  /** Request i's token times are times[offsets[i] .. offsets[i+1]), one per output token. */
  tokenTimes?: { offsets: Int32Array; times: Float64Array };
  stepTrace?: StepTrace;
}
