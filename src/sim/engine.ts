/**
 * The simulated server's run loop, in two interchangeable kernels that give bit-identical
 * results (same steps, same float operations for every time):
 * - `event` (default, kernel-event.ts): a step where the running requests just decode
 *   costs O(1) whatever the batch; requests are touched only at their own events.
 * - `stepwise` (kernel-stepwise.ts): touches every running request in every step, as the
 *   article's reference `run` does; kept as the event kernel's independent check.
 */
import { runEventKernel } from './kernel-event.ts';
import { runStepwise } from './kernel-stepwise.ts';
import type { ClientSpec, ServerConfig, SimOptions, SimResult, Workload } from './types.ts';

export { SimulationError } from './errors.ts';

/** Run the server to completion with the kernel `opts.kernel` chooses (inputs already validated). */
export function runEngine(cfg: ServerConfig, workload: Workload, client: ClientSpec, opts: SimOptions = {}): SimResult {
  return opts.kernel === 'stepwise' ? runStepwise(cfg, workload, client, opts) : runEventKernel(cfg, workload, client, opts);
}
