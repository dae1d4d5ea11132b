/**
 * A blob store reached over the network: the one interface the remote cache
 * needs, with two transports.
 *
 * - HTTP, in the layout of the Bazel remote-cache protocol: the cache reads and
 *   writes `<base>/ac/<key>` and `<base>/cas/<sha256>` with GET, HEAD and PUT,
 *   which bazel-remote, nginx with WebDAV and hosted Bazel caches all serve.
 * - S3-compatible object stores (AWS S3, MinIO, R2 …): the same paths as object
 *   keys under `s3://bucket/prefix`, requests signed with SigV4 by `aws4fetch`.
 *
 * A store answers "absent" (404) as `undefined`/`false` and throws
 * `RemoteUnavailable` for everything else (refused connection, time-out, 5xx,
 * 403), so the cache above it can tell a miss from a server it cannot use.
 */
import { AwsClient } from 'aws4fetch';
import { UserError } from '../../errors.ts';

export interface BlobStore {
  /** Where it is, for messages (credentials never included). */
  readonly where: string;
  /** The blob, read up to `maxBytes`: a longer answer is refused as `TooLarge` without reading the rest. */
  get(path: string, maxBytes: number): Promise<Buffer | undefined>;
  has(path: string): Promise<boolean>;
  /**
   * Writes only when absent where the server can enforce it (S3 `If-None-Match: *`); callers check `has` first.
   * `replace` overwrites: only for a trusted writer repairing an entry that failed verification.
   */
  put(path: string, data: string, opts?: { replace?: boolean }): Promise<void>;
  /** Aborts every request in flight and refuses new ones (the build's time budget for the remote ran out). */
  abort(reason: string): void;
}

/** A blob longer than the size it may have (the entry's header, or the cap on a header): a corrupt entry, never read whole. */
export class TooLarge extends Error {
  constructor(path: string, limit: number) {
    super(`${path}: longer than ${limit} B`);
    this.name = 'TooLarge';
  }
}

/** The server could not be used (network, time-out, refusal): the build goes on without it. */
export class RemoteUnavailable extends Error {
  constructor(where: string, what: string) {
    super(`${where}: ${what}`);
    this.name = 'RemoteUnavailable';
  }
}

/** Per request; the build's total for the remote is bounded by its time budget (remote/cache.ts). */
export const REQUEST_TIMEOUT_MS = 15_000;

type Send = (url: string, init: RequestInit) => Promise<Response>;

class FetchStore implements BlobStore {
  private readonly stop = new AbortController();

  constructor(
    readonly where: string,
    private readonly base: string,
    private readonly send: Send,
    /** Sent with every PUT that must not overwrite: S3 gets `If-None-Match: *`. */
    private readonly putOnceHeaders: Record<string, string> = {},
  ) {}

  abort(reason: string): void {
    this.stop.abort(new RemoteUnavailable(this.where, reason));
  }

  private async request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    if (this.stop.signal.aborted) throw this.stop.signal.reason;
    try {
      return await this.send(`${this.base}/${path}`, { method, body, headers, signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
    } catch (err) {
      if (this.stop.signal.aborted) throw this.stop.signal.reason;
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new RemoteUnavailable(this.where, `${method} ${path}: ${cause ?? (err as Error).message}`);
    }
  }

  async get(path: string, maxBytes: number): Promise<Buffer | undefined> {
    const res = await this.request('GET', path);
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return undefined;
    }
    if (!res.ok) throw new RemoteUnavailable(this.where, `GET ${path}: HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new TooLarge(path, maxBytes);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          size += chunk.length;
          if (size > maxBytes) throw new TooLarge(path, maxBytes);
          chunks.push(chunk);
        }
      }
    } catch (err) {
      await res.body?.cancel().catch(() => undefined);
      if (err instanceof TooLarge) throw err;
      if (this.stop.signal.aborted) throw this.stop.signal.reason;
      // The connection broke mid-body: as good as absent, and the server may be going away.
      throw new RemoteUnavailable(this.where, `GET ${path}: ${(err as Error).message}`);
    }
    return Buffer.concat(chunks);
  }

  async has(path: string): Promise<boolean> {
    const res = await this.request('HEAD', path);
    if (res.status === 404) return false;
    if (!res.ok) throw new RemoteUnavailable(this.where, `HEAD ${path}: HTTP ${res.status}`);
    return true;
  }

  async put(path: string, data: string, opts: { replace?: boolean } = {}): Promise<void> {
    const res = await this.request('PUT', path, data, opts.replace ? {} : this.putOnceHeaders);
    await res.arrayBuffer().catch(() => undefined);
    // 412: S3 refused to overwrite an object that appeared since `has` (write-once held).
    if (!res.ok && res.status !== 412) throw new RemoteUnavailable(this.where, `PUT ${path}: HTTP ${res.status}`);
  }
}

/** `http(s)://[user:password@]host[:port][/prefix]`: Basic auth from the URL's credentials. */
export function httpStore(url: URL): BlobStore {
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  }
  const clean = new URL(url.href);
  clean.username = '';
  clean.password = '';
  const base = clean.href.replace(/\/+$/, '');
  return new FetchStore(base, base, (u, init) => fetch(u, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } }));
}

export interface S3Settings {
  bucket: string;
  prefix: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * `s3://bucket[/prefix]`, path-style requests to the endpoint (AWS_ENDPOINT_URL_S3 or
 * AWS_ENDPOINT_URL for MinIO, R2 and the like; AWS's regional endpoint otherwise).
 */
export function s3Settings(url: URL, env: NodeJS.ProcessEnv): S3Settings {
  const bucket = url.hostname;
  if (!bucket) throw new UserError(`remote cache ${url.href}: no bucket; write s3://BUCKET/PREFIX`);
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new UserError(`remote cache ${url.href}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_REGION, AWS_ENDPOINT_URL for a non-AWS store)`);
  }
  const endpoint = (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || `https://s3.${region}.amazonaws.com`).replace(/\/+$/, '');
  return { bucket, prefix: url.pathname.replace(/^\/+|\/+$/g, ''), endpoint, region, accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN };
}

export function s3Store(s: S3Settings): BlobStore {
  const client = new AwsClient({ accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, sessionToken: s.sessionToken, region: s.region, service: 's3' });
  const base = [s.endpoint, s.bucket, s.prefix].filter(Boolean).join('/');
  const where = `s3://${[s.bucket, s.prefix].filter(Boolean).join('/')}`;
  return new FetchStore(where, base, (u, init) => client.fetch(u, init), { 'if-none-match': '*' });
}
