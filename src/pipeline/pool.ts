/**
 * The worker pool: one worker thread per core (piscina), one task per job.
 * Each task gets a MessagePort for progress and an AbortSignal for its timeout
 * and for Ctrl-C; aborting a running task terminates its thread.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/** The file each pool thread loads (its frames are the runner's, not a job's). */
export const WORKER_FILE = fileURLToPath(new URL('./worker.cjs', import.meta.url));

export interface JobTask {
  bundle: string;
  experiment: string;
  job: string;
  params: unknown;
  seed: number;
  root: string;
}

export interface JobProgress {
  done: number;
  total: number;
  requests: number;
}

export interface RunJobOptions {
  /** The job left the queue and began in a worker. */
  onStart?(): void;
  onProgress?(p: JobProgress): void;
  timeoutMs: number;
  /** Aborts the job (Ctrl-C). */
  signal?: AbortSignal;
}

/** A job that failed or timed out: the CLI prints the message (and the worker's stack) and exits 1. */
export class JobError extends Error {
  readonly exitCode = 1;
  constructor(
    message: string,
    readonly workerStack?: string,
  ) {
    super(message);
    this.name = 'JobError';
  }
}

export class JobTimeoutError extends JobError {
  constructor(label: string, seconds: number) {
    super(`job ${label} timed out after ${seconds} s (raise it with --timeout SECONDS or the experiment's timeoutSeconds)`);
    this.name = 'JobTimeoutError';
  }
}

/** Runs jobs; `JobRunner` is the seam tests replace to inject failures. */
export interface JobRunner {
  run(task: JobTask, opts: RunJobOptions): Promise<string>;
  destroy(): Promise<void>;
}

export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

export class WorkerPool implements JobRunner {
  private readonly pool: Piscina<unknown, string>;
  /** An error of the pool itself (not of a task), failing every later job. */
  private failure: Error | undefined;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: threads,
      concurrentTasksPerWorker: 1,
      idleTimeout: 1000,
      // Workers run plain JS bundles: no loader flags (tsx, vitest) are passed down.
      execArgv: [],
    });
    // After a failure the other jobs are aborted; a reply already on its way from
    // an aborted job's worker reaches piscina as "Unexpected message from Worker",
    // emitted as 'error', which would end the process. It concerns a job whose
    // result is no longer wanted: ignored. Any other pool error fails later jobs.
    this.pool.on('error', (err: Error) => {
      if (!/^Unexpected message from Worker/.test(err?.message ?? '')) this.failure ??= err;
    });
  }

  async run(task: JobTask, opts: RunJobOptions): Promise<string> {
    const label = `${task.experiment}/${task.job}`;
    if (this.failure) throw new JobError(`job ${label} failed: the worker pool failed: ${this.failure.message}`, this.failure.stack);
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (m: JobProgress & { start?: true }) => (m.start ? opts.onStart?.() : opts.onProgress?.(m)));
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    try {
      return await this.pool.run({ ...task, port: port2 }, { transferList: [port2], signal });
    } catch (err) {
      if (timeout.aborted) throw new JobTimeoutError(label, opts.timeoutMs / 1000);
      if (opts.signal?.aborted) throw opts.signal.reason ?? err;
      const e = err as Error;
      throw new JobError(`job ${label} failed: ${e?.message ?? String(err)}`, e?.stack);
    } finally {
      port1.close();
    }
  }

  async destroy(): Promise<void> {
    await this.pool.destroy();
  }
}
