/**
 * The reference's two internal errors, worded once so that both kernels say the same
 * thing. Either means the input cannot be served; `validateInputs` rules both out.
 */
export class SimulationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationError';
  }
}

/** Nothing running, nothing waiting, and the client will send nothing more. */
export function deadlock(t: number, done: number, n: number): SimulationError {
  return new SimulationError(
    `deadlock at t=${t}s: nothing running, nothing waiting, and the client has nothing to send ` +
      `(${done} of ${n} requests finished)`,
  );
}

/** A step that could serve no request: the next one does not fit in the KV pool even alone. */
export function unschedulable(t: number, totalBlocks: number, blockSize: number): SimulationError {
  return new SimulationError(
    `no request could be scheduled at t=${t}s: the KV pool (${totalBlocks} blocks of ${blockSize} tokens) ` +
      `cannot hold the next request's tokens; enlarge kvCapacityTokens`,
  );
}
