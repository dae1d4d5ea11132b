/**
 * The remote result cache: the local cache's entries shared through a blob
 * store, so a job computed on one machine is never computed again on another.
 *
 * An entry travels as two blobs, as in the Bazel remote-cache protocol:
 * `ac/<job key>` holds the entry's header line (format, key, sha256 and size of
 * the result, manifest, runtime) and `cas/<sha256>` the result bytes. The
 * result is uploaded before the header that points at it.
 *
 * What a reader trusts. Integrity is checked: an entry is accepted only if its
 * header is for this key, its manifest hashes to this key, and the result's
 * bytes have the size and sha256 the header states; anything else is a miss
 * (counted, never an error). Provenance is not: a writer can store another
 * result under a header that is consistent with itself, and no check of the
 * bytes can tell. So a build recomputes a sample of what it fetched
 * (`--verify-remote N`, default VERIFY_DEFAULT) and stops, naming the entry,
 * when one differs; a trusted writer replaces such an entry, and a corrupt one.
 *
 * Bounds. Every blob is read up to the size it may have (a header up to
 * MAX_HEADER_BYTES, a result up to the size its header states), and the
 * remote has a time budget for the whole build: the wall-clock time during
 * which at least one request is waiting may not exceed what recomputing the
 * jobs it is asked about would take (their recorded run times over the
 * workers, at least MIN_BUDGET_MS). Past it the remote is dropped for the rest
 * of the build, as an unreachable server is, and the build says so.
 *
 * Writing is off unless asked for, and write-once but for those repairs. Runs
 * that must not be trusted (pull requests) read only.
 */
import { UserError } from '../../errors.ts';
import { formatDuration } from '../../format/text.ts';
import { verifyEntry, type EntryHeader, type JobCache, type JobManifest } from '../cache.ts';
import { httpStore, RemoteUnavailable, s3Settings, s3Store, TooLarge, type BlobStore } from './store.ts';

export interface RemoteStats {
  /** Entries read from the remote (written to the local cache once verified or not sampled). */
  fetched: number;
  /** Remote entries that failed verification and were ignored. */
  corrupt: number;
  uploaded: number;
  /** Fetched entries recomputed to check them (`--verify-remote`). */
  verified?: number;
  /** Entries a trusted writer replaced (corrupt, or differing from the recomputed result). */
  replaced?: number;
  /** Why the remote stopped being used, if it did. */
  unavailable?: string;
}

/** Requests in flight at once: enough to hide latency, few enough for a small server. */
const PARALLEL_REQUESTS = 8;
/** An entry's header (manifest, hashes, run time) is a few kilobytes; anything past this is not one. */
export const MAX_HEADER_BYTES = 1 << 20;
/** The least time budget: below it, a build of a few short jobs would drop a healthy server for its latency. */
export const MIN_BUDGET_MS = 10_000;
/** Fetched jobs recomputed by default, per build that fetched any: one job's time, and a forged entry cannot stay unnoticed build after build. */
export const VERIFY_DEFAULT = 1;

export class RemoteCache {
  readonly stats: RemoteStats = { fetched: 0, corrupt: 0, uploaded: 0 };
  /** Keys whose remote entry failed verification: a trusted writer replaces them. */
  private readonly bad = new Set<string>();
  private budgetMs = Infinity;
  /** The least budget setBudget gives (MIN_BUDGET_MS; tests of a slow server lower it). */
  minBudgetMs = MIN_BUDGET_MS;
  private spentMs = 0;
  private waiting = 0;
  private since = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly store: BlobStore,
    readonly writable: boolean,
    /** Fetched jobs to recompute and compare (`--verify-remote N`). */
    readonly verify = VERIFY_DEFAULT,
  ) {}

  get where(): string {
    return this.store.where;
  }

  /** The time budget for the rest of the build, in ms of waiting on the remote (see above). */
  setBudget(ms: number): void {
    this.budgetMs = Math.max(this.minBudgetMs, ms);
  }

  get budget(): number {
    return this.budgetMs;
  }

  /** The verified entry for `key`, or undefined (absent, corrupt, or the remote is unavailable). */
  async fetch(key: string): Promise<{ header: EntryHeader; text: string } | undefined> {
    return this.guard(async () => {
      let ac: Buffer | undefined;
      let cas: Buffer | undefined;
      try {
        ac = await this.store.get(`ac/${key}`, MAX_HEADER_BYTES);
        if (!ac) return undefined;
        const claimed = headerClaims(ac);
        cas = claimed ? await this.store.get(`cas/${claimed.sha256}`, claimed.bytes) : undefined;
      } catch (err) {
        if (!(err instanceof TooLarge)) throw err;
      }
      const checked = ac && cas ? verifyEntry(Buffer.concat([ac, Buffer.from('\n'), cas]), key) : { error: 'no result blob' };
      if ('error' in checked) {
        this.markBad(key);
        return undefined;
      }
      this.stats.fetched++;
      return checked;
    });
  }

  /** An entry found wrong (corrupt here, or differing from this build's result): counted, and replaced by a trusted writer. */
  markBad(key: string): void {
    if (!this.bad.has(key)) this.stats.corrupt++;
    this.bad.add(key);
  }

  /** Uploads an entry unless the remote has a good one (write-once, but a bad entry is replaced). No-op when read-only or unavailable. */
  async upload(header: EntryHeader, text: string): Promise<void> {
    if (!this.writable) return;
    await this.guard(async () => {
      const replace = this.bad.has(header.key);
      if (!replace && (await this.store.has(`ac/${header.key}`))) return;
      const cas = `cas/${header.sha256}`;
      // The result blob is named by its hash: one already there under this name is checked by the next read, and replaced with it if it fails.
      if (replace || !(await this.store.has(cas))) await this.store.put(cas, text, { replace });
      await this.store.put(`ac/${header.key}`, JSON.stringify(header), { replace });
      if (replace) {
        this.bad.delete(header.key);
        this.stats.replaced = (this.stats.replaced ?? 0) + 1;
      } else this.stats.uploaded++;
    });
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (this.stats.unavailable) return undefined;
    this.begin();
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof RemoteUnavailable)) throw err;
      this.stats.unavailable ??= err.message;
      return undefined;
    } finally {
      this.end();
    }
  }

  /** Waiting starts: the budget's clock runs while any request waits. */
  private begin(): void {
    if (this.waiting++ > 0) return;
    this.since = performance.now();
    if (this.budgetMs === Infinity) return;
    this.timer = setTimeout(() => {
      this.stats.unavailable ??= `${this.where}: its answers took over ${formatDuration(this.budgetMs)}, longer than recomputing the jobs would (their recorded run times)`;
      this.store.abort(this.stats.unavailable);
    }, Math.max(0, this.budgetMs - this.spentMs));
    this.timer.unref?.();
  }

  private end(): void {
    if (--this.waiting > 0) return;
    this.spentMs += performance.now() - this.since;
    clearTimeout(this.timer);
  }
}

/** The result blob an `ac/` header points at, if it is shaped like one (a sha256 and a size). */
function headerClaims(ac: Buffer): { sha256: string; bytes: number } | undefined {
  let h: { sha256?: unknown; bytes?: unknown };
  try {
    h = JSON.parse(ac.toString('utf8')) as typeof h;
  } catch {
    return undefined;
  }
  if (typeof h?.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(h.sha256)) return undefined;
  if (typeof h.bytes !== 'number' || !Number.isSafeInteger(h.bytes) || h.bytes < 0) return undefined;
  return { sha256: h.sha256, bytes: h.bytes };
}

export interface PullableJob {
  manifest: JobManifest;
  key: string;
  /** Set when the remote had the job: its verified header and result. */
  remote?: { header: EntryHeader; text: string };
}

/**
 * Looks every job up in the remote and sets `remote` on each hit. Nothing is
 * written to the local cache here: the runner does that once the build's
 * sample of the hits has been recomputed and agreed.
 */
export async function pullFromRemote(remote: RemoteCache, jobs: PullableJob[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const hit = await remote.fetch(job.key);
      if (hit) job.remote = hit;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, jobs.length) }, worker));
}

/** Writes the remote's hits to the local cache (after verification). */
export async function keepFetched(local: JobCache, jobs: PullableJob[]): Promise<void> {
  for (const job of jobs) if (job.remote) await local.store(job.manifest, job.key, job.remote.text, job.remote.header.runtimeMs);
}

/** One line for the build's summary. */
export function describeRemote(remote: RemoteCache, ran: number): string {
  const s = remote.stats;
  const parts = [`${s.fetched} job${s.fetched === 1 ? '' : 's'} fetched`, `${ran} ran`, remote.writable ? `${s.uploaded} uploaded` : 'read-only'];
  if (s.verified) parts.push(`${s.verified} fetched job${s.verified === 1 ? '' : 's'} recomputed and matched`);
  if (s.corrupt) parts.push(`${s.corrupt} corrupt entr${s.corrupt === 1 ? 'y' : 'ies'} ignored`);
  if (s.replaced) parts.push(`${s.replaced} replaced`);
  const line = `remote cache ${remote.where}: ${parts.join(', ')}`;
  return s.unavailable ? `${line}; unavailable, continued without it (${s.unavailable})` : line;
}

export interface RemoteConfig {
  /** `http(s)://…` (Bazel remote-cache layout) or `s3://bucket/prefix`. */
  url?: string;
  /** Upload entries this build computes. Only for trusted runs (main), never for pull requests. */
  write?: boolean;
  /** Fetched jobs to recompute and compare (default VERIFY_DEFAULT; 0: none). */
  verify?: number;
}

/**
 * The remote cache from flags, else from the environment
 * (`STOPWATCHES_REMOTE_CACHE`, `STOPWATCHES_REMOTE_CACHE_WRITE=1`); undefined when off.
 */
export function remoteFromConfig(flags: RemoteConfig, env: NodeJS.ProcessEnv = process.env): RemoteCache | undefined {
  const raw = flags.url ?? env.STOPWATCHES_REMOTE_CACHE;
  if (!raw) return undefined;
  const writeEnv = env.STOPWATCHES_REMOTE_CACHE_WRITE;
  if (writeEnv !== undefined && !['', '0', '1', 'true', 'false'].includes(writeEnv)) {
    throw new UserError(`STOPWATCHES_REMOTE_CACHE_WRITE=${writeEnv}: use 1 (upload) or 0 (read only)`);
  }
  const write = flags.write ?? (writeEnv === '1' || writeEnv === 'true');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError(`remote cache ${JSON.stringify(raw)} is not a URL; use http://HOST:PORT/PREFIX or s3://BUCKET/PREFIX`);
  }
  const verify = flags.verify ?? VERIFY_DEFAULT;
  if (url.protocol === 'http:' || url.protocol === 'https:') return new RemoteCache(httpStore(url), write, verify);
  if (url.protocol === 's3:') return new RemoteCache(s3Store(s3Settings(url, env)), write, verify);
  throw new UserError(`remote cache ${url.protocol}//…: unsupported; use http://, https:// or s3://`);
}
