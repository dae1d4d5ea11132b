/**
 * Sharded builds: `--shard i/n` runs a share of the missing jobs, balanced by
 * recorded run time; the shards' caches merged into a fresh project give a
 * build that runs nothing and writes exactly what a single build writes.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeCaches } from '../src/pipeline/cache-merge.ts';
import { assignShards, DEFAULT_JOB_ESTIMATE_MS, estimateRuntimes, parseShard } from '../src/pipeline/shard.ts';
import { runCli } from './helpers/cli.ts';
import { generatedOutputs, referenceOutputs, tempRoots } from './pipeline-helpers.ts';

// Tests of which jobs run where: the PNG, drawn from the SVG after every job, is not the subject.
const make = tempRoots({ png: false });

describe('shard assignment', () => {
  it('parses i/n and refuses anything else with the fix', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1', '1/2/3', '-1/2']) expect(() => parseShard(bad), bad).toThrow(/--shard .*: write i\/n/);
  });

  it('balances by expected time, not by count, and gives each job to exactly one shard', () => {
    const jobs = [
      { label: 'long/a', experiment: 'long', previousMs: 9000 },
      ...Array.from({ length: 9 }, (_, i) => ({ label: `short/${i}`, experiment: 'short', previousMs: 1000 })),
    ];
    const owner = assignShards(jobs, 2);
    expect(owner[0]).toBe(1);
    // The long job alone against the nine short ones: 9 s each, not 5 jobs each.
    expect(owner.filter((o) => o === 1)).toHaveLength(1);
    expect(owner.filter((o) => o === 2)).toHaveLength(9);
    // Same input, same deal, whatever the order the jobs come in.
    const reversed = assignShards([...jobs].reverse(), 2).reverse();
    expect(reversed).toEqual(owner);
  });

  it('estimates a job without a record from its experiment, else the documented default', () => {
    const est = estimateRuntimes([
      { label: 'a/1', experiment: 'a', previousMs: 300 },
      { label: 'a/2', experiment: 'a', previousMs: 500 },
      { label: 'a/3', experiment: 'a' },
      { label: 'b/1', experiment: 'b' },
    ]);
    expect(est).toEqual([300, 500, 400, DEFAULT_JOB_ESTIMATE_MS]);
  });
});

describe('sharded build', () => {
  it.each([1, 2, 3])('n = %i: shards + merge give a build that runs nothing and is byte-identical to a single build', async (n) => {
    const expected = await referenceOutputs(undefined, { png: false });

    const shards = Array.from({ length: n }, () => make());
    let ran = 0;
    for (const [i, s] of shards.entries()) {
      const r = await s.run({ shard: { index: i + 1, count: n } });
      expect(r.shard).toMatchObject({ index: i + 1, count: n, missing: 4 });
      expect(r.numbers).toEqual({});
      ran += r.experiments.reduce((t, e) => t + e.ran, 0);
      expect(r.lines.some((l) => l.startsWith(`shard ${i + 1}/${n}: `))).toBe(true);
    }
    expect(ran).toBe(4); // alpha's three seeds and beta's one job, each run once

    const merged = make();
    const report = await mergeCaches(join(merged.root, '.cache', 'experiments'), shards.map((s) => s.root));
    expect(report).toEqual({ copied: 4, present: 0, corrupt: [] });
    const build = await merged.run();
    expect(build.experiments.map((e) => e.ran)).toEqual([0, 0]);
    const got = generatedOutputs(merged.root);
    expect([...got.keys()]).toEqual([...expected.keys()]);
    for (const [f, text] of expected) expect(got.get(f) === text, f).toBe(true);
  });

  it('merge verifies every entry: a corrupt one is skipped and named, a present one left alone', async () => {
    const a = make();
    await a.run();
    const entries = a.cacheFiles().filter((f) => f.endsWith('.json'));
    const victim = join(a.root, '.cache', 'experiments', entries[0]);
    writeFileSync(victim, readFileSync(victim, 'utf8').replace(/\d(?=[^\n]*$)/, (d) => String((Number(d) + 1) % 10)));
    const target = mkdtempSync(join(tmpdir(), 'stopwatches-merge-'));
    try {
      const first = await mergeCaches(target, [a.root]);
      expect(first.copied).toBe(entries.length - 1);
      expect(first.corrupt).toHaveLength(1);
      expect(first.corrupt[0]).toMatch(/hash mismatch|size/);
      const again = await mergeCaches(target, [join(a.root, '.cache')]);
      expect(again).toMatchObject({ copied: 0, present: entries.length - 1 });
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('command line', () => {
  it('bad shard specs and merge folders get one line and exit 2', async () => {
    const shard = await runCli(['run', '--shard', '4/3']);
    expect(shard.code).toBe(2);
    expect(shard.err).toBe('stopwatches: --shard 4/3: write i/n with 1 ≤ i ≤ n ≤ 1000, e.g. --shard 2/3\n');
    const merge = await runCli(['cache', 'merge', '/nonexistent/shard-1']);
    expect(merge.code).toBe(2);
    expect(merge.err).toBe('stopwatches: cache merge: /nonexistent/shard-1 is not a folder\n');
    const remote = await runCli(['run', '--remote-cache', 'ftp://example/cache', '--only', 'nothing']);
    expect(remote.code).toBe(2);
    expect(remote.err).toMatch(/^stopwatches: remote cache ftp:\/\/…: unsupported; use http:\/\/, https:\/\/ or s3:\/\/\n$/);
  });
});
