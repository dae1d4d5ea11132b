/**
 * The remote result cache: the local cache's entries shared through a blob
 * store, so a job computed on one machine is never computed again on another.
 *
 * An entry travels as two blobs, as in the Bazel remote-cache protocol:
 * `ac/<job key>` holds the entry's header line (format, key, sha256 and size of
 * the result, manifest, runtime) and `cas/<sha256>` the result bytes. The
 * result is uploaded before the header that points at it.
 *
 * Trust: a read accepts an entry only if its header is for this key, its
 * manifest hashes to this key, and the result's bytes have the size and sha256
 * the header states: anything else is a miss (counted, never an error, never
 * a wrong result). Writing is off unless asked for, and write-once: what is
 * already there is never replaced. Runs that must not be trusted (pull
 * requests) read only. A server that cannot be reached is noted once and the
 * build goes on without it.
 */
import { UserError } from '../../errors.ts';
import { verifyEntry, type EntryHeader, type JobCache, type JobManifest } from '../cache.ts';
import { httpStore, RemoteUnavailable, s3Settings, s3Store, type BlobStore } from './store.ts';

export interface RemoteStats {
  /** Entries read from the remote (written to the local cache). */
  fetched: number;
  /** Remote entries that failed verification and were ignored. */
  corrupt: number;
  uploaded: number;
  /** Why the remote stopped being used, if it did. */
  unavailable?: string;
}

/** Requests in flight at once: enough to hide latency, few enough for a small server. */
const PARALLEL_REQUESTS = 8;

export class RemoteCache {
  readonly stats: RemoteStats = { fetched: 0, corrupt: 0, uploaded: 0 };

  constructor(
    readonly store: BlobStore,
    readonly writable: boolean,
  ) {}

  get where(): string {
    return this.store.where;
  }

  /** The verified entry for `key`, or undefined (absent, corrupt, or the remote is unavailable). */
  async fetch(key: string): Promise<{ header: EntryHeader; text: string } | undefined> {
    return this.guard(async () => {
      const ac = await this.store.get(`ac/${key}`);
      if (!ac) return undefined;
      let sha: unknown;
      try {
        sha = (JSON.parse(ac.toString('utf8')) as { sha256?: unknown }).sha256;
      } catch {
        sha = undefined;
      }
      const cas = typeof sha === 'string' && /^[0-9a-f]{64}$/.test(sha) ? await this.store.get(`cas/${sha}`) : undefined;
      const checked = cas ? verifyEntry(Buffer.concat([ac, Buffer.from('\n'), cas]), key) : { error: 'no result blob' };
      if ('error' in checked) {
        this.stats.corrupt++;
        return undefined;
      }
      this.stats.fetched++;
      return checked;
    });
  }

  /** Uploads an entry unless the remote has it (write-once). No-op when read-only or unavailable. */
  async upload(header: EntryHeader, text: string): Promise<void> {
    if (!this.writable) return;
    await this.guard(async () => {
      if (await this.store.has(`ac/${header.key}`)) return;
      const cas = `cas/${header.sha256}`;
      if (!(await this.store.has(cas))) await this.store.put(cas, text);
      await this.store.put(`ac/${header.key}`, JSON.stringify(header));
      this.stats.uploaded++;
    });
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (this.stats.unavailable) return undefined;
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof RemoteUnavailable)) throw err;
      this.stats.unavailable ??= err.message;
      return undefined;
    }
  }
}

export interface PullableJob {
  manifest: JobManifest;
  key: string;
  /** Set when the remote had the job: its verified header and result. */
  remote?: { header: EntryHeader; text: string };
}

/** Looks every job up in the remote; each hit is written to the local cache before it is used. */
export async function pullFromRemote(remote: RemoteCache, local: JobCache, jobs: PullableJob[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const hit = await remote.fetch(job.key);
      if (!hit) continue;
      await local.store(job.manifest, job.key, hit.text, hit.header.runtimeMs);
      job.remote = hit;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, jobs.length) }, worker));
}

/** One line for the build's summary. */
export function describeRemote(remote: RemoteCache, ran: number): string {
  const s = remote.stats;
  const parts = [`${s.fetched} job${s.fetched === 1 ? '' : 's'} fetched`, `${ran} ran`, remote.writable ? `${s.uploaded} uploaded` : 'read-only'];
  if (s.corrupt) parts.push(`${s.corrupt} corrupt entr${s.corrupt === 1 ? 'y' : 'ies'} ignored`);
  const line = `remote cache ${remote.where}: ${parts.join(', ')}`;
  return s.unavailable ? `${line}; unavailable, continued without it (${s.unavailable})` : line;
}

export interface RemoteConfig {
  /** `http(s)://…` (Bazel remote-cache layout) or `s3://bucket/prefix`. */
  url?: string;
  /** Upload entries this build computes. Only for trusted runs (main), never for pull requests. */
  write?: boolean;
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
  if (url.protocol === 'http:' || url.protocol === 'https:') return new RemoteCache(httpStore(url), write);
  if (url.protocol === 's3:') return new RemoteCache(s3Store(s3Settings(url, env)), write);
  throw new UserError(`remote cache ${url.protocol}//…: unsupported; use http://, https:// or s3://`);
}
