/**
 * The explorer's Web Worker: runs the simulator off the page's thread. One
 * message in ({type: 'run', id, params}); out: throttled progress, the run's
 * result (TTFT statistics, throughput, timing), then the seven definitions,
 * or an error naming the field it concerns. The page cancels by terminating
 * the worker. Bundled into the page as a string and started from a blob URL,
 * so it loads from file:// and from any sub-path.
 */
import { fieldOfError, validate, type Params } from './params.ts';
import { simulateRun, speedsOf, type ExplorerResult } from './run.ts';

export type ToWorker = { type: 'run'; id: number; params: Params };
export type FromWorker =
  | { type: 'progress'; id: number; done: number; n: number }
  | { type: 'result'; id: number; result: ExplorerResult }
  | { type: 'speeds'; id: number; rows: NonNullable<ReturnType<typeof speedsOf>>['rows'] | null; ms: number; note: string | null }
  | { type: 'error'; id: number; message: string; field: string | null };

interface WorkerScope {
  postMessage(m: FromWorker, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  const msg = e.data;
  if (msg.type !== 'run') return;
  const { id, params } = msg;
  try {
    // The page validates first; check again so a hand-edited message cannot hang the worker.
    const problems = Object.entries(validate(params));
    if (problems.length) {
      const [field, message] = problems[0];
      scope.postMessage({ type: 'error', id, message: message as string, field });
      return;
    }
    const s = simulateRun(params, { onProgress: (done, n) => scope.postMessage({ type: 'progress', id, done, n }), progressEveryMs: 50 });
    const r = s.result;
    // Copies for the page; the worker keeps its own arrays for the definitions.
    const out: ExplorerResult = { ...r, ttftSendMs: r.ttftSendMs.slice(), ttftDueMs: r.ttftDueMs.slice() };
    scope.postMessage({ type: 'result', id, result: out }, [out.ttftSendMs.buffer, out.ttftDueMs.buffer]);
    const sp = speedsOf(params, s);
    scope.postMessage({ type: 'speeds', id, rows: sp ? sp.rows : null, ms: sp ? sp.ms : 0, note: r.speedsNote });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    scope.postMessage({ type: 'error', id, message, field: fieldOfError(message) });
  }
};
