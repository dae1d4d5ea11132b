import { format } from 'node:util';
import { main } from '../../src/cli.ts';

export interface CliOptions {
  /** The working directory the command runs in (as a spawned process's `cwd`); restored afterwards. */
  cwd?: string;
  /** Variables set (a string) or unset (undefined) while the command runs; restored afterwards. */
  env?: Record<string, string | undefined>;
}

/**
 * Runs the CLI in-process and captures what it prints: the same `main` the
 * entry point runs, without a process start-up (about a second of CPU each
 * under tsx). test/cli.test.ts holds the entry point itself (the standard
 * streams, a closed pipe); a test that needs a real process (a signal, a pipe
 * into stdin) spawns one.
 *
 * Test workers share their process from one file to the next
 * (vitest.config.ts: `isolate: false`), so the working directory, the
 * variables and `process.exitCode` a command changes are put back.
 */
export async function runCli(args: string[], opts: CliOptions = {}): Promise<{ code: number; err: string; out: string }> {
  const err: Buffer[] = [];
  const out: Buffer[] = [];
  const we = process.stderr.write.bind(process.stderr);
  const wo = process.stdout.write.bind(process.stdout);
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  const saved = Object.keys(opts.env ?? {}).map((k) => [k, process.env[k]] as const);
  const set = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v));
  // vitest reports console output itself, beside the streams: a command's console.log goes to `out` as in a process.
  const logged = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  process.stderr.write = sink(err);
  process.stdout.write = sink(out);
  console.log = console.info = (...a: unknown[]) => void out.push(Buffer.from(`${format(...a)}\n`));
  console.warn = console.error = (...a: unknown[]) => void err.push(Buffer.from(`${format(...a)}\n`));
  try {
    for (const [k, v] of Object.entries(opts.env ?? {})) set(k, v);
    if (opts.cwd) process.chdir(opts.cwd);
    process.exitCode = undefined;
    const code = await main(args);
    return { code, err: Buffer.concat(err).toString('utf8'), out: Buffer.concat(out).toString('utf8') };
  } finally {
    process.stderr.write = we;
    process.stdout.write = wo;
    Object.assign(console, logged);
    process.chdir(cwd);
    for (const [k, v] of saved) set(k, v);
    process.exitCode = exitCode;
  }
}

/** A stand-in for a stream's `write` that keeps the bytes (decoded once, at the end) and calls back as the stream would. */
function sink(into: Buffer[]): typeof process.stdout.write {
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    into.push(Buffer.from(chunk as string));
    const done = rest.find((r): r is () => void => typeof r === 'function');
    if (done) process.nextTick(done);
    return true;
  }) as typeof process.stdout.write;
}
