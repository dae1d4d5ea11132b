/**
 * The remote cache against real servers on 127.0.0.1: nginx with WebDAV (the
 * Bazel HTTP cache layout) and s3rver (S3 protocol). A warm remote makes a
 * fresh project's cold build run nothing; missing, corrupt and unreachable
 * remote entries never fail a build nor change a result; read-only runs write
 * nothing; writes never replace what is there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/fs/atomic.ts';
import { remoteFromConfig, type RemoteCache } from '../src/pipeline/remote/cache.ts';
import { filesUnder, freePort, nginxPerTest, startS3, type S3Server } from './helpers/servers.ts';
import { generatedOutputs, referenceOutputs, tempRoot, tempRoots } from './pipeline-helpers.ts';

// Tests of what a build may take from the remote: the PNG, drawn from the SVG after every job, is not the subject.
const make = tempRoots({ png: false });

const ALL_JOBS = 4;
const remoteLine = (lines: string[]) => lines.find((l) => l.startsWith('remote cache '));
const ran = (r: { experiments: { ran: number }[] }) => r.experiments.reduce((s, e) => s + e.ran, 0);
const files = filesUnder;

let reference: ReadonlyMap<string, string>;
beforeAll(async () => {
  reference = await referenceOutputs(undefined, { png: false });
});

/** A writing build of the fixture against `url`: what a test that needs a filled server starts from. */
async function fill(url: string): Promise<void> {
  const r = tempRoot(undefined, { png: false });
  try {
    await r.run({ remote: remoteFromConfig({ url, write: true, verify: 0 }, {}) });
  } finally {
    r.cleanup();
  }
}

function expectReferenceOutputs(root: string) {
  const got = generatedOutputs(root);
  expect([...got.keys()]).toEqual([...reference.keys()]);
  for (const [f, text] of reference) expect(got.get(f) === text, f).toBe(true);
}

describe('HTTP remote cache (nginx WebDAV, Bazel layout)', () => {
  // A test that needs a filled server starts from the entries one writing build stored (`seeded()`), copied to its own prefix.
  const { base, data, server, seeded } = nginxPerTest('nginx', fill);
  // No sample recomputed unless a test asks (`verify`): the counts of jobs run stay those of the cache alone.
  const remote = (write: boolean, url = base(), verify = 0) => remoteFromConfig({ url, write, verify }, {}) as RemoteCache;

  it('a read-only build uploads nothing; a writing build fills ac/ and cas/; a fresh project then runs zero jobs', async () => {
    const readOnly = await make().run({ remote: remote(false) });
    expect(ran(readOnly)).toBe(ALL_JOBS);
    expect(files(data())).toEqual([]);
    expect(remoteLine(readOnly.lines)).toBe(`remote cache ${base()}: 0 jobs fetched, ${ALL_JOBS} ran, read-only`);

    const writer = await make().run({ remote: remote(true) });
    expect(writer.remote).toMatchObject({ fetched: 0, uploaded: ALL_JOBS, corrupt: 0 });
    const stored = files(data());
    expect(stored.filter((f) => f.startsWith('ac/'))).toHaveLength(ALL_JOBS);
    expect(stored.filter((f) => f.startsWith('cas/')).length).toBeGreaterThan(0);

    const fresh = make();
    const cold = await fresh.run({ remote: remote(false) });
    expect(ran(cold)).toBe(0);
    expect(cold.remote).toMatchObject({ fetched: ALL_JOBS, corrupt: 0 });
    expect(cold.lines.some((l) => /^alpha +fresh \(3 from remote\)$/.test(l))).toBe(true);
    expectReferenceOutputs(fresh.root);
    // What came from the remote is in the local cache now: the next build needs no server.
    const offline = await fresh.run();
    expect(ran(offline)).toBe(0);
  });

  it('writes are write-once: an entry already there is never replaced', async () => {
    seeded();
    const ac = join(data(), 'ac');
    const before = new Map(files(ac).map((f) => [f, readFileSync(join(ac, f), 'utf8')]));
    const again = await make().run({ remote: remote(true), force: true });
    expect(ran(again)).toBe(ALL_JOBS);
    expect(again.remote?.uploaded).toBe(0);
    for (const [f, text] of before) expect(readFileSync(join(ac, f), 'utf8')).toBe(text);
  });

  it('corrupt and missing blobs are misses: recomputed, counted, the results unchanged', async () => {
    seeded();
    const acFiles = files(join(data(), 'ac'));
    const casFiles = files(join(data(), 'cas'));
    // One result blob truncated, one header pointing nowhere, one header that is not JSON.
    const header = (f: string) => JSON.parse(readFileSync(join(data(), 'ac', f), 'utf8')) as { sha256: string };
    const blob = join(data(), 'cas', header(acFiles[0]).sha256);
    writeFileSync(blob, readFileSync(blob).subarray(0, 10));
    rmSync(join(data(), 'cas', header(acFiles[1]).sha256));
    writeFileSync(join(data(), 'ac', acFiles[2]), '{"format":1,');
    expect(casFiles.length).toBeGreaterThan(0);

    const fresh = make();
    const build = await fresh.run({ remote: remote(false) });
    expect(build.remote).toMatchObject({ fetched: ALL_JOBS - 3, corrupt: 3 });
    expect(ran(build)).toBe(3);
    expect(remoteLine(build.lines)).toMatch(/3 corrupt entries ignored/);
    expectReferenceOutputs(fresh.root);
  });

  it('a header whose manifest is for another job is refused even with a matching key field', async () => {
    seeded();
    const ac = join(data(), 'ac');
    const [a, b] = files(ac);
    // Swap two headers' bodies but keep each file's key: the manifest no longer hashes to the key.
    const ha = JSON.parse(readFileSync(join(ac, a), 'utf8'));
    const hb = JSON.parse(readFileSync(join(ac, b), 'utf8'));
    writeFileSync(join(ac, a), JSON.stringify({ ...hb, key: ha.key }));
    const build = await make().run({ remote: remote(false) });
    expect(build.remote?.corrupt).toBe(1);
    expect(ran(build)).toBe(1);
  });

  it('a server killed halfway through the uploads fails nothing; what it stored is used, the rest recomputed', async () => {
    let stored = 0;
    const writer = make();
    const build = await writer.run({
      remote: remote(true),
      jobs: 1,
      effects: {
        // The local entry is written just before its upload: kill the server after the second one.
        writeCacheEntry: async (p, d) => {
          await writeFileAtomic(p, d);
          if (++stored === 2) server().kill();
        },
      },
    });
    expect(ran(build)).toBe(ALL_JOBS);
    expect(build.remote?.unavailable).toContain(base());
    expect(remoteLine(build.lines)).toMatch(/unavailable, continued without it/);
    expectReferenceOutputs(writer.root);

    await server().restart();
    const fresh = make();
    const after = await fresh.run({ remote: remote(false) });
    // The first job's upload finished before the kill (the second is still computing by then).
    expect(after.remote?.fetched).toBeLessThanOrEqual(1);
    expect(after.remote?.corrupt).toBe(0);
    expect(ran(after)).toBe(ALL_JOBS - after.remote!.fetched);
    expectReferenceOutputs(fresh.root);
  });

  it('an unreachable server: the build runs everything and says so once', async () => {
    const url = `http://127.0.0.1:${await freePort()}/nothing-listens`;
    const build = await make().run({ remote: remote(true, url) });
    expect(ran(build)).toBe(ALL_JOBS);
    expect(build.remote).toMatchObject({ fetched: 0, uploaded: 0 });
    expect(build.lines.filter((l) => l.includes('unavailable'))).toHaveLength(1);
  });
});

describe('S3 remote cache (s3rver)', () => {
  let dir: string;
  let s3: S3Server;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stopwatches-s3-'));
    s3 = await startS3(dir, 'results');
  });
  afterAll(async () => {
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a writing build fills the bucket; a fresh project then runs zero jobs with byte-identical outputs', async () => {
    const remote = (write: boolean) => remoteFromConfig({ url: 's3://results/paper', write, verify: 0 }, s3.env) as RemoteCache;
    const writer = await make().run({ remote: remote(true) });
    expect(writer.remote?.uploaded).toBe(ALL_JOBS);
    const fresh = make();
    const cold = await fresh.run({ remote: remote(false) });
    expect(ran(cold)).toBe(0);
    expect(cold.remote?.fetched).toBe(ALL_JOBS);
    expectReferenceOutputs(fresh.root);
    const again = await make().run({ remote: remote(true), force: true });
    expect(again.remote?.uploaded).toBe(0);
  });

  it('refuses an s3 URL without credentials, naming what to set', () => {
    expect(() => remoteFromConfig({ url: 's3://results/paper' }, {})).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });
});

describe('configuration', () => {
  it('is off unless a URL is given; the environment sets it, write stays off unless asked', () => {
    expect(remoteFromConfig({}, {})).toBeUndefined();
    const r = remoteFromConfig({}, { STOPWATCHES_REMOTE_CACHE: 'http://127.0.0.1:9/c' })!;
    expect(r.writable).toBe(false);
    expect(remoteFromConfig({}, { STOPWATCHES_REMOTE_CACHE: 'http://127.0.0.1:9/c', STOPWATCHES_REMOTE_CACHE_WRITE: '1' })!.writable).toBe(true);
    expect(() => remoteFromConfig({}, { STOPWATCHES_REMOTE_CACHE: 'ftp://x' })).toThrow(/unsupported; use http/);
    expect(() => remoteFromConfig({}, { STOPWATCHES_REMOTE_CACHE: 'not a url' })).toThrow(/is not a URL/);
    expect(() => remoteFromConfig({}, { STOPWATCHES_REMOTE_CACHE: 'http://x', STOPWATCHES_REMOTE_CACHE_WRITE: 'yes' })).toThrow(/use 1 \(upload\) or 0/);
    // Credentials in an http URL become Basic auth and never appear in messages.
    expect(remoteFromConfig({ url: 'http://me:secret@127.0.0.1:9/c' }, {})!.where).toBe('http://127.0.0.1:9/c');
  });
});
