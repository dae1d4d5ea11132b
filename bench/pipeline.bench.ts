/**
 * The runner's cost on the registered experiments: a cold build (empty cache,
 * every job runs), a warm build (nothing changed: plan, combine, render), and
 * the peak resident memory of the process (worker threads included).
 * Cache and outputs go to a temp folder: the project's .cache and src/generated
 * are not touched. `BENCH_PIPELINE_WARM=1` measures only warm builds against the
 * project's own cache (cheap when `npm run build` has run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadRegistry } from '../src/commands/run.ts';
import { plainReporter } from '../src/pipeline/progress.ts';
import { formatDuration } from '../src/format/text.ts';
import { runPipeline, type RunOptions } from '../src/pipeline/runner.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export default async function bench(): Promise<void> {
  const registry = await loadRegistry(ROOT);
  const tmp = mkdtempSync(join(tmpdir(), 'stopwatches-bench-'));
  const warmOnly = process.env.BENCH_PIPELINE_WARM === '1';
  const base: RunOptions = {
    root: ROOT,
    registry,
    outDir: join(tmp, 'generated'),
    snapshotDir: join(tmp, 'snapshots'),
    // Bundles stay in the project (content-addressed; they import npm packages from its node_modules).
    ...(warmOnly ? {} : { cacheDir: join(tmp, 'cache') }),
    effects: { reporter: plainReporter((l) => console.log(`    ${l}`)) },
  };
  const time = async (label: string, extra: Partial<RunOptions> = {}) => {
    const t0 = performance.now();
    const r = await runPipeline({ ...base, ...extra });
    const ms = performance.now() - t0;
    const jobs = r.experiments.reduce((s, e) => s + e.jobs, 0);
    const ran = r.experiments.reduce((s, e) => s + e.ran, 0);
    console.log(`${label.padEnd(6)} ${formatDuration(ms).padStart(10)}  ${r.experiments.length} experiments, ${jobs} jobs (${ran} run), ${Object.keys(r.numbers).length} numbers, ${r.figures.length} figures`);
    return ms;
  };
  try {
    console.log(`${registry.length} registry entries; ${warmOnly ? 'project cache' : `temp cache in ${tmp}`}`);
    if (!warmOnly) await time('cold');
    await time('warm');
    await time('warm');
    console.log(`peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
