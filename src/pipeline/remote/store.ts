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
  get(path: string): Promise<Buffer | undefined>;
  has(path: string): Promise<boolean>;
  /** Writes only when absent where the server can enforce it (S3 `If-None-Match: *`); callers check `has` first. */
  put(path: string, data: string): Promise<void>;
}

/** The server could not be used (network, time-out, refusal): the build goes on without it. */
export class RemoteUnavailable extends Error {
  constructor(where: string, what: string) {
    super(`${where}: ${what}`);
    this.name = 'RemoteUnavailable';
  }
}

/** Per request; a slow cache must never hold a build for longer than recomputing would. */
export const REQUEST_TIMEOUT_MS = 15_000;

type Send = (url: string, init: RequestInit) => Promise<Response>;

class FetchStore implements BlobStore {
  constructor(
    readonly where: string,
    private readonly base: string,
    private readonly send: Send,
    /** Sent with every PUT: S3 gets `If-None-Match: *`, so an object is never overwritten. */
    private readonly putHeaders: Record<string, string> = {},
  ) {}

  private async request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    try {
      return await this.send(`${this.base}/${path}`, { method, body, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new RemoteUnavailable(this.where, `${method} ${path}: ${cause ?? (err as Error).message}`);
    }
  }

  async get(path: string): Promise<Buffer | undefined> {
    const res = await this.request('GET', path);
    if (res.status === 404) return undefined;
    if (!res.ok) throw new RemoteUnavailable(this.where, `GET ${path}: HTTP ${res.status}`);
    try {
      return Buffer.from(await res.arrayBuffer());
    } catch (err) {
      // The connection broke mid-body: as good as absent, and the server may be going away.
      throw new RemoteUnavailable(this.where, `GET ${path}: ${(err as Error).message}`);
    }
  }

  async has(path: string): Promise<boolean> {
    const res = await this.request('HEAD', path);
    if (res.status === 404) return false;
    if (!res.ok) throw new RemoteUnavailable(this.where, `HEAD ${path}: HTTP ${res.status}`);
    return true;
  }

  async put(path: string, data: string): Promise<void> {
    const res = await this.request('PUT', path, data, this.putHeaders);
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
