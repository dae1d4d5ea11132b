/**
 * `stopwatches run [--only ID…] [--force] [--jobs N] [--timeout S] [--no-png]
 * [--shard i/n] [--remote-cache URL] [--remote-write]`: regenerates the paper's
 * numbers and figures into src/generated/ (see src/pipeline/runner.ts). With
 * `--shard` it only fills the cache with its share of the jobs (see
 * src/pipeline/shard.ts). Ctrl-C stops the pool, removes temp files and exits
 * 130; a second Ctrl-C exits at once.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { UserError } from '../errors.ts';
import { parseShard, type Shard } from '../pipeline/shard.ts';
import { numberOption } from './options.ts';

export interface RunFlags {
  only?: string[];
  force?: boolean;
  jobs?: number;
  timeout?: number;
  png?: boolean;
  shard?: Shard;
  remoteCache?: string;
  remoteWrite?: boolean;
  verifyRemote?: number;
}

export function register(program: Command): void {
  program
    .command('run')
    .description('run the experiments (cached by content) and write numbers and figures to src/generated/')
    .option('--only <ids...>', 'run only these experiments (the others keep their previous outputs)')
    .option('--force', 'ignore the cache and rerun every selected job')
    .option('-j, --jobs <n>', 'worker threads (default: one per core)', numberOption('--jobs', { min: 1, integer: true }))
    .option('--timeout <seconds>', 'per-job timeout, overriding the experiments\' own (default 1800)', numberOption('--timeout', { min: 1, integer: true }))
    .option('--no-png', 'skip PNG rendering (SVG only)')
    .option('--shard <i/n>', 'run only shard i of n of the missing jobs and fill the cache (merge with `stopwatches cache merge`)', parseShard)
    .option('--remote-cache <url>', 'shared results: http(s)://HOST/PREFIX (Bazel remote-cache layout) or s3://BUCKET/PREFIX (default: $STOPWATCHES_REMOTE_CACHE)')
    .option('--remote-write', 'upload the jobs this build runs to the remote cache (trusted runs only; default: $STOPWATCHES_REMOTE_CACHE_WRITE=1)')
    .option('--verify-remote <n>', 'recompute n of the jobs fetched from the remote cache (a sample seeded by the build\'s keys) and stop if one differs (default 1; 0: none)', numberOption('--verify-remote', { min: 0, integer: true }))
    .action(async (flags: RunFlags) => {
      await runCommand(flags, process.cwd());
    });
}

/** Loads the registry of `<root>/experiments/index.ts` (export `experiments`, or a default array). */
export async function loadRegistry(root: string) {
  const path = join(root, 'experiments', 'index.ts');
  if (!existsSync(path)) return [];
  const { bundleError, importBundled } = await import('../pipeline/bundle.ts');
  let mod: { experiments?: unknown; default?: unknown };
  try {
    mod = await importBundled(root, path);
  } catch (err) {
    throw bundleError('experiments/index.ts', err);
  }
  const list = mod.experiments ?? mod.default;
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) throw new UserError('experiments/index.ts must export `experiments`, an array of module paths');
  return list as string[];
}

export async function runCommand(flags: RunFlags, root: string): Promise<void> {
  const t0 = performance.now();
  const { runPipeline } = await import('../pipeline/runner.ts');
  const { plainReporter, ttyReporter } = await import('../pipeline/progress.ts');
  const { formatDuration } = await import('../format/text.ts');
  const { removeTempFiles } = await import('../fs/atomic.ts');
  const { remoteFromConfig } = await import('../pipeline/remote/cache.ts');
  const remote = remoteFromConfig({ url: flags.remoteCache, write: flags.remoteWrite, verify: flags.verifyRemote });
  const tty = !!process.stdout.isTTY && !process.env.CI;
  const reporter = tty ? ttyReporter(process.stdout) : plainReporter((l) => process.stdout.write(`${l}\n`));

  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) {
      // Second Ctrl-C: the pool is slow to stop; leave now, still without temp files.
      removeTempFiles();
      process.stderr.write('stopwatches: interrupted\n');
      process.exit(130);
    }
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await runPipeline({
      root,
      registry: await loadRegistry(root),
      only: flags.only,
      force: flags.force,
      jobs: flags.jobs,
      timeoutSeconds: flags.timeout,
      png: flags.png,
      signal: controller.signal,
      shard: flags.shard,
      remote,
      effects: { reporter },
    });
    const ran = result.experiments.reduce((s, e) => s + e.ran, 0);
    if (result.shard) {
      reporter.log(`shard ${result.shard.index}/${result.shard.count}: ran ${ran} job${ran === 1 ? '' : 's'} in ${formatDuration(performance.now() - t0)}; entries are in .cache/experiments (combine with \`stopwatches cache merge DIR…\`, then \`stopwatches run\`)`);
      return;
    }
    reporter.log(
      `built ${Object.keys(result.numbers).length} numbers and ${result.figures.length} figures ` +
        `(${ran} job${ran === 1 ? '' : 's'} run) in ${formatDuration(performance.now() - t0)}`,
    );
  } catch (err) {
    const { JobError, WORKER_FILE } = await import('../pipeline/pool.ts');
    if (!(err instanceof JobError)) throw err;
    reporter.close();
    // A job's own bug: its message and where in the experiment it happened, not the runner's stack.
    const frames = (err.workerStack ?? '').split('\n').filter((l) => /^\s+at /.test(l) && !l.includes(WORKER_FILE) && !l.includes('piscina'));
    process.stderr.write(`stopwatches: ${err.message}\n${frames.slice(0, 8).join('\n')}${frames.length ? '\n' : ''}`);
    process.exitCode = err.exitCode;
  } finally {
    process.off('SIGINT', onSigint);
    reporter.close();
  }
}
