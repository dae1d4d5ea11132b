/**
 * The cache's folders as a careless or hostile user leaves them: `cache merge`
 * places an entry by this cache's layout for its verified key, never by a name
 * from the entry (`experiment: "../../src/pipeline"` stays inside the cache), and
 * refuses a destination that a link leads outside; folders with symbolic-link
 * loops, in the cache and in a merged shard, are walked without following the
 * links (the build and the merge end), and a link named like an entry is not read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sha256 } from '../src/fs/hash.ts';
import { walkFiles } from '../src/fs/walk.ts';
import { CACHE_FORMAT, jobKey, type JobManifest } from '../src/pipeline/cache.ts';
import { mergeCaches } from '../src/pipeline/cache-merge.ts';
import { tempRoots } from './pipeline-helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'stopwatches-cache-safety-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}
const roots = tempRoots();

/** A self-consistent entry (header for its key, manifest hashing to it, bytes matching) for these names. */
function entry(experiment: string, job: string): { key: string; raw: string } {
  const manifest: JobManifest = { experiment, job, params: null, seed: 1, config: 'c', files: {}, inputs: {}, lockfile: 'l', node: process.version };
  const key = jobKey(manifest);
  const text = '{"result":1}';
  const header = { format: CACHE_FORMAT, key, sha256: sha256(text), bytes: Buffer.byteLength(text), runtimeMs: 1, manifest };
  return { key, raw: `${JSON.stringify(header)}\n${text}` };
}

describe('cache merge: destinations come from this cache, never from a name in a file', () => {
  it('an entry naming ../../src/pipeline as its experiment lands inside the cache', async () => {
    const d = tmp();
    const target = join(d, 'project', '.cache', 'experiments');
    const shard = join(d, 'shard');
    const e = entry('../../src/pipeline', '../../../escape');
    mkdirSync(join(shard, 'x'), { recursive: true });
    writeFileSync(join(shard, 'x', `${e.key}.json`), e.raw);
    const report = await mergeCaches(target, [shard]);
    expect(report).toEqual({ copied: 1, present: 0, corrupt: [] });
    const written = walkFiles(d).filter((f) => f.endsWith(`${e.key}.json`) && !f.startsWith('shard'));
    expect(written).toHaveLength(1);
    expect(relative(d, target)).toBe(join('project', '.cache', 'experiments'));
    expect(written[0]!.startsWith(join('project', '.cache', 'experiments') + '/')).toBe(true);
    expect(relative(target, join(d, written[0]!)).split('/')).not.toContain('..');
    expect(existsSync(join(d, 'src'))).toBe(false);
    expect(existsSync(join(d, 'project', 'src'))).toBe(false);
  });

  it('refuses a destination that a link in the cache leads outside, and names the entry', async () => {
    const d = tmp();
    const target = join(d, 'project', '.cache', 'experiments');
    mkdirSync(target, { recursive: true });
    mkdirSync(join(d, 'outside'));
    symlinkSync(join(d, 'outside'), join(target, 'alpha'));
    const shard = join(d, 'shard');
    const e = entry('alpha', 'j1');
    mkdirSync(shard);
    writeFileSync(join(shard, `${e.key}.json`), e.raw);
    const report = await mergeCaches(target, [shard]);
    expect(report.copied).toBe(0);
    expect(report.corrupt).toHaveLength(1);
    expect(report.corrupt[0]).toMatch(/leads outside/);
    expect(readdirSync(join(d, 'outside'))).toEqual([]);
  });

  it('walks a shard folder with link loops to an end, and never reads a link named like an entry', async () => {
    const d = tmp();
    const shard = join(d, 'shard');
    const e = entry('alpha', 'j1');
    mkdirSync(join(shard, 'alpha', 'j1'), { recursive: true });
    writeFileSync(join(shard, 'alpha', 'j1', `${e.key}.json`), e.raw);
    symlinkSync('..', join(shard, 'alpha', 'up'));
    symlinkSync('.', join(shard, 'alpha', 'j1', 'self'));
    symlinkSync('/dev/zero', join(shard, `${'0'.repeat(64)}.json`));
    const report = await mergeCaches(join(d, 'project', '.cache', 'experiments'), [shard]);
    expect(report).toEqual({ copied: 1, present: 0, corrupt: [] });
  });
});

describe('the build with link loops in .cache/experiments', () => {
  it('ends, and its numbers are those of a clean build', async () => {
    const clean = roots();
    await clean.run();
    const looped = roots();
    await looped.run();
    const exp = join(looped.root, '.cache', 'experiments');
    symlinkSync('..', join(exp, 'loop-up'));
    symlinkSync('.', join(exp, 'loop-self'));
    const r = await looped.run({ force: true });
    expect(r.lines.join('\n')).not.toMatch(/ELOOP|Error/);
    expect(looped.read('src/generated/numbers.json').equals(clean.read('src/generated/numbers.json'))).toBe(true);
  }, 120_000);
});
