/**
 * What a reader of the remote cache may trust, against real servers on
 * 127.0.0.1 (nginx with WebDAV, s3rver). A forged entry that is consistent
 * with itself (another job's result under this job's key and manifest) passes
 * every integrity check; the recomputed sample (`--verify-remote`) catches it
 * and the build stops naming the entry, keeping nothing it fetched; a trusted
 * writer replaces it, and a corrupt entry. Every blob is read only up to the
 * size its header gives, and a server slower than recomputing is dropped
 * once the build's time budget for it has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../src/errors.ts';
import { formatDuration } from '../src/format/text.ts';
import { RemoteCache, remoteFromConfig } from '../src/pipeline/remote/cache.ts';
import { httpStore, TooLarge, type BlobStore } from '../src/pipeline/remote/store.ts';
import { workerCount } from '../src/pipeline/runner.ts';
import { DEFAULT_JOB_ESTIMATE_MS } from '../src/pipeline/shard.ts';
import { filesUnder, freePort, nginxPerTest, startNginx, startS3, type Nginx, type S3Server } from './helpers/servers.ts';
import { generatedOutputs, referenceOutputs, tempRoot, tempRoots } from './pipeline-helpers.ts';

// Tests of what a build may take from the remote: the PNG, drawn from the SVG after every job, is not the subject.
const make = tempRoots({ png: false });
const ALL_JOBS = 4;
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

interface Header {
  key: string;
  sha256: string;
  bytes: number;
  manifest: { experiment: string; job: string };
}

/**
 * Forges the entry of one job: its header keeps its own key and manifest (so it
 * hashes right) but points at another job's result blob with that blob's size and
 * hash, so every integrity check passes. Returns the forged job's key.
 */
function forge(acDir: string): string {
  const headers = files(acDir).map((f) => JSON.parse(readFileSync(join(acDir, f), 'utf8')) as Header);
  // The donor is another job of the same experiment, so the forged result has the shape its combine expects
  // (which jobs come first in the listing depends on their keys, i.e. on the code being tested).
  const sibling = (h: Header) => headers.find((o) => o !== h && o.manifest.experiment === h.manifest.experiment && o.sha256 !== h.sha256);
  const victim = headers.find((h) => sibling(h) !== undefined)!;
  const donor = sibling(victim)!;
  writeFileSync(join(acDir, victim.key), JSON.stringify({ ...victim, sha256: donor.sha256, bytes: donor.bytes }));
  return victim.key;
}

function expectReferenceOutputs(root: string) {
  const got = generatedOutputs(root);
  for (const [f, text] of reference) expect(got.get(f) === text, f).toBe(true);
}

describe('provenance: a self-consistent forged entry (nginx WebDAV)', () => {
  // Each test starts from the entries one writing build stored (`seeded()`), copied to its own prefix.
  const { base, data, seeded } = nginxPerTest('trust', fill);
  const remote = (write: boolean, verify: number) => remoteFromConfig({ url: base(), write, verify }, {}) as RemoteCache;

  it('passes the integrity checks, so without a sample it is used (what the README warns of)', async () => {
    seeded();
    forge(join(data(), 'ac'));
    const fresh = make();
    const build = await fresh.run({ remote: remote(false, 0) });
    expect(build.remote).toMatchObject({ fetched: ALL_JOBS, corrupt: 0 });
    const got = generatedOutputs(fresh.root);
    expect([...reference].some(([f, text]) => got.get(f) !== text)).toBe(true);
  });

  it('--verify-remote recomputes the sample, stops naming the entry, and keeps nothing fetched', async () => {
    seeded();
    const key = forge(join(data(), 'ac'));
    const fresh = make();
    const err = await fresh.run({ remote: remote(false, ALL_JOBS) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(`(ac/${key}) holds another result than the one recomputed here`);
    expect((err as Error).message).toMatch(/remove it from the server/);
    // Only what this build computed is in the local cache: nothing from the remote.
    const fetched = await fresh.run({ remote: undefined });
    expect(ran(fetched)).toBe(0);
    expectReferenceOutputs(fresh.root);
  });

  it('the sample is deterministic: the same build recomputes the same jobs, and says how many matched', async () => {
    seeded();
    const a = await make().run({ remote: remote(false, 1) });
    const b = await make().run({ remote: remote(false, 1) });
    expect([ran(a), ran(b)]).toEqual([1, 1]);
    expect(a.remote?.verified).toBe(1);
    const planA = a.lines.filter((l) => l.includes('recomputed to check it'));
    expect(planA).toHaveLength(1);
    expect(b.lines.filter((l) => l.includes('recomputed to check it'))).toEqual(planA);
    expect(a.lines.find((l) => l.startsWith('remote cache '))).toMatch(/1 fetched job recomputed and matched/);
  });

  it('a trusted writer replaces the forged entry (and stops this build); the next reader gets the true result', async () => {
    seeded();
    const key = forge(join(data(), 'ac'));
    const err = await make().run({ remote: remote(true, ALL_JOBS) }).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`(ac/${key})`);
    expect((err as Error).message).toMatch(/it was replaced with this build's result \(--remote-write\): run again/);
    const fresh = make();
    const build = await fresh.run({ remote: remote(false, ALL_JOBS) });
    expect(build.remote).toMatchObject({ fetched: ALL_JOBS, corrupt: 0, verified: ALL_JOBS });
    expectReferenceOutputs(fresh.root);
  });

  it('a trusted writer replaces a corrupt entry, which was skipped as present before', async () => {
    seeded();
    const ac = join(data(), 'ac');
    const [first] = files(ac);
    writeFileSync(join(ac, first!), '{"format":1,');
    const writer = await make().run({ remote: remote(true, 0) });
    expect(writer.remote).toMatchObject({ corrupt: 1, replaced: 1 });
    const after = await make().run({ remote: remote(false, 0) });
    expect(after.remote).toMatchObject({ fetched: ALL_JOBS, corrupt: 0 });
  });

  it('a result blob longer than its header says is never read whole: refused from its length, counted corrupt', async () => {
    seeded();
    const ac = join(data(), 'ac');
    const header = JSON.parse(readFileSync(join(ac, files(ac)[0]!), 'utf8')) as Header;
    const blob = join(data(), 'cas', header.sha256);
    truncateSync(blob, 512 * 1024 * 1024); // 512 MB, sparse on disk
    const store = httpStore(new URL(base()));
    await expect(store.get(`cas/${header.sha256}`, header.bytes)).rejects.toBeInstanceOf(TooLarge);
    const rss = process.memoryUsage().rss;
    const build = await make().run({ remote: remote(false, 0) });
    expect(build.remote?.corrupt).toBe(1);
    expect(ran(build)).toBe(1);
    expect(process.memoryUsage().rss - rss).toBeLessThan(256 * 1024 * 1024);
  });
});

describe('time budget: a server slower than recomputing is dropped', () => {
  let dir: string;
  let slow: Nginx;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stopwatches-slow-'));
    // Every answer at 1 byte per second, its headers too: it needs no entries to be slow.
    slow = await startNginx(dir, { limitRate: 1 });
  });
  afterAll(async () => {
    await slow?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The store, keeping every request it is asked for and how that request ended. */
  function recording(store: BlobStore): { store: BlobStore; requests: { what: string; ended?: string }[] } {
    const requests: { what: string; ended?: string }[] = [];
    const track = <T,>(what: string, answer: Promise<T>): Promise<T> => {
      const r: { what: string; ended?: string } = { what };
      requests.push(r);
      return answer.then(
        (v) => ((r.ended = 'answered'), v),
        (e: unknown) => {
          r.ended = (e as Error).message;
          throw e;
        },
      );
    };
    return {
      requests,
      store: {
        where: store.where,
        get: (path, maxBytes) => track(`GET ${path}`, store.get(path, maxBytes)),
        has: (path) => track(`HEAD ${path}`, store.has(path)),
        put: (path, data, opts) => track(`PUT ${path}`, store.put(path, data, opts)),
        abort: (reason) => store.abort(reason),
      },
    };
  }

  it('gives the remote what recomputing would take, stops asking once the wait passes it, recomputes, and says why', async () => {
    const fresh = make();
    // No floor: the budget is the jobs' own.
    const remote = (store: BlobStore) => Object.assign(new RemoteCache(store, false, 0), { minBudgetMs: 0 });
    // An earlier version of the code, built first: its entries record how long each job took.
    fresh.edit('experiments/lib/shared.ts', (t) => `${t}\n// an earlier version\n`);
    // No job has a recorded run time yet: the shards' default estimate each, over the build's workers.
    const unreachable = remote(httpStore(new URL(`http://127.0.0.1:${await freePort()}/nothing-listens`)));
    await fresh.run({ remote: unreachable });
    expect(unreachable.budget).toBe((ALL_JOBS * DEFAULT_JOB_ESTIMATE_MS) / workerCount(2, ALL_JOBS));

    fresh.edit('experiments/lib/shared.ts', (t) => t.replace('\n// an earlier version\n', ''));
    const recorded = fresh.cacheFiles().reduce((ms, f) => ms + (JSON.parse(fresh.read(join('.cache', 'experiments', f)).toString().split('\n')[0]!) as { runtimeMs: number }).runtimeMs, 0);
    const asked = recording(httpStore(new URL(`${slow.url}/b`)));
    const r = remote(asked.store);
    const build = await fresh.run({ remote: r });
    expect(r.budget).toBe(recorded / workerCount(2, ALL_JOBS));
    expect(build.remote?.unavailable).toContain(`its answers took over ${formatDuration(r.budget)}, longer than recomputing the jobs would`);
    // One header asked for per job, all at once; each ended by the budget (not by its own 15 s time-out, let alone
    // a header at 1 byte per second), and none asked for after it.
    expect(asked.requests.map((q) => q.what.replace(/[0-9a-f]{64}$/, 'KEY'))).toEqual(Array<string>(ALL_JOBS).fill('GET ac/KEY'));
    for (const q of asked.requests) expect(q.ended).toContain('its answers took over');
    expect(ran(build)).toBe(ALL_JOBS);
    expectReferenceOutputs(fresh.root);
  });
});

describe('S3 (s3rver): a trusted writer replaces a forged entry despite write-once puts', () => {
  let dir: string;
  let s3: S3Server;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stopwatches-s3-trust-'));
    s3 = await startS3(dir, 'results');
  });
  afterAll(async () => {
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the reader stops; the writer replaces; the reader then verifies every job', async () => {
    const remote = (write: boolean, verify: number) => remoteFromConfig({ url: 's3://results/paper', write, verify }, s3.env) as RemoteCache;
    await make().run({ remote: remote(true, 0) });
    // s3rver keeps each object as a file under its directory: forge the header object in place.
    const acFiles = files(dir).filter((f) => /paper\/ac\/[0-9a-f]{64}\._S3rver_object$/.test(f));
    expect(acFiles).toHaveLength(ALL_JOBS);
    const headers = acFiles.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Header);
    const donor = headers.find((h) => h.sha256 !== headers[0]!.sha256)!;
    writeFileSync(join(dir, acFiles[0]!), JSON.stringify({ ...headers[0]!, sha256: donor.sha256, bytes: donor.bytes }));
    const reader = await make().run({ remote: remote(false, ALL_JOBS) }).catch((e: unknown) => e);
    expect((reader as Error).message).toContain(`(ac/${headers[0]!.key})`);
    const writer = await make().run({ remote: remote(true, ALL_JOBS) }).catch((e: unknown) => e);
    expect((writer as Error).message).toMatch(/it was replaced/);
    const after = await make().run({ remote: remote(false, ALL_JOBS) });
    expect(after.remote).toMatchObject({ fetched: ALL_JOBS, verified: ALL_JOBS, corrupt: 0 });
  });
});
