/**
 * Sharing work between processes and machines, on the whole paper (cold: every
 * cache empty):
 * - one process with a worker per core, against two shard processes of one
 *   worker each run side by side, merged, then combined (`--shard 1/2`, `2/2`,
 *   `cache merge`, a build that runs nothing);
 * - a cold build against a warm remote cache (nginx WebDAV on 127.0.0.1,
 *   filled by the first build) against the cold build itself.
 * Needs /usr/sbin/nginx (`apt-get install nginx`). Shards here start from
 * empty caches, so they are balanced by job count (no recorded run times).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { mergeCaches } from '../src/pipeline/cache-merge.ts';
import { formatDuration } from '../src/format/text.ts';
import { startNginx } from '../test/helpers/servers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface BuildReport {
  ran: number;
  jobs: number;
  remote?: { fetched: number; uploaded: number };
}

function build(tmp: string, args: string[]): Promise<BuildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'lib', 'run-build.ts'), tmp, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`build ${args.join(' ')} exited ${code}`))));
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await fn();
  return [r, performance.now() - t0];
}

export default async function bench(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'stopwatches-cache-bench-'));
  const nginx = await startNginx(join(tmp, 'nginx'));
  const dir = (name: string) => join(tmp, name);
  try {
    const [single, tSingle] = await timed(() => build(dir('single'), ['--remote', nginx.url, '--remote-write']));
    console.log(`one process, ${'a worker per core'.padEnd(28)} ${formatDuration(tSingle).padStart(9)}  ${single.ran} of ${single.jobs} jobs run, ${single.remote?.uploaded} uploaded`);

    const [shards, tShards] = await timed(() => Promise.all([1, 2].map((i) => build(dir(`shard${i}`), ['--shard', `${i}/2`, '--jobs', '1']))));
    const [, tMerge] = await timed(async () => {
      await mergeCaches(join(dir('merged'), 'cache'), [dir('shard1'), dir('shard2')].map((d) => join(d, 'cache')));
      return build(dir('merged'), []);
    });
    const tSharded = tShards + tMerge;
    console.log(`two shard processes, 1 worker each   ${formatDuration(tSharded).padStart(9)}  (${shards.map((s) => s.ran).join(' + ')} jobs, then merge and combine ${formatDuration(tMerge)})`);
    console.log(`  ratio single / sharded: ${(tSingle / tSharded).toFixed(2)}×`);

    const [warm, tWarm] = await timed(() => build(dir('fresh'), ['--remote', nginx.url]));
    console.log(`cold build, warm remote cache        ${formatDuration(tWarm).padStart(9)}  ${warm.remote?.fetched} fetched, ${warm.ran} run`);
    console.log(`  ratio cold / warm remote: ${(tSingle / tWarm).toFixed(2)}×`);
  } finally {
    await nginx.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
