/**
 * One build of the paper in its own process, for benches that run several at
 * once: `run-build.ts TMP [--shard i/n] [--jobs N] [--remote URL] [--remote-write]`.
 * Cache and outputs live under TMP; prints one JSON line with what it ran.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRegistry } from '../../src/commands/run.ts';
import { memoryReporter } from '../../src/pipeline/progress.ts';
import { remoteFromConfig } from '../../src/pipeline/remote/cache.ts';
import { runPipeline } from '../../src/pipeline/runner.ts';
import { parseShard } from '../../src/pipeline/shard.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const [tmp, ...rest] = process.argv.slice(2);
const flag = (name: string) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const shard = flag('--shard');
const lines: string[] = [];
const result = await runPipeline({
  root: ROOT,
  registry: await loadRegistry(ROOT),
  cacheDir: join(tmp, 'cache'),
  outDir: join(tmp, 'generated'),
  snapshotDir: join(tmp, 'snapshots'),
  jobs: flag('--jobs') ? Number(flag('--jobs')) : undefined,
  shard: shard ? parseShard(shard) : undefined,
  remote: remoteFromConfig({ url: flag('--remote'), write: rest.includes('--remote-write') }, {}),
  effects: { reporter: memoryReporter(lines) },
});
console.log(JSON.stringify({ ran: result.experiments.reduce((s, e) => s + e.ran, 0), jobs: result.experiments.reduce((s, e) => s + e.jobs, 0), shard: result.shard, remote: result.remote }));
