/**
 * Real servers on 127.0.0.1 for the remote-cache tests: nginx with its WebDAV
 * module (the Bazel HTTP cache layout is plain GET/HEAD/PUT), and s3rver, an
 * S3-compatible server. `.ci/run` installs nginx; s3rver is a dev dependency.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export const NGINX = '/usr/sbin/nginx';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await fetch(url, { method: 'HEAD' });
      return;
    } catch {
      if (Date.now() > until) throw new Error(`no server at ${url} after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A throttled server answers even its headers slowly: wait for it to accept connections instead. */
async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => (sock.destroy(), resolve(true)));
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Nginx {
  url: string;
  /** Where the cache's blobs land on disk (`ac/`, `cas/`). */
  data: string;
  kill(): void;
  /** Starts again on the same port and data (after `kill`). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** Serve this folder instead of `dir/data` (a second server over the same blobs). */
  data?: string;
  /** nginx's `limit_rate` (bytes per second of every answer's body): a slow server. */
  limitRate?: number;
}

/** nginx serving `dir/data` with PUT enabled (WebDAV), on a free loopback port, in the foreground. */
export async function startNginx(dir: string, opts: NginxOptions = {}): Promise<Nginx> {
  const port = await freePort();
  const data = opts.data ?? join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  mkdirSync(data, { recursive: true });
  const temps = ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t === 'body' ? 'client_body' : t}_temp_path ${join(dir, t)};`).join('\n  ');
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
error_log ${join(dir, 'error.log')};
pid ${join(dir, 'nginx.pid')};
events { worker_connections 64; }
http {
  access_log off;
  ${temps}
  server {
    listen 127.0.0.1:${port};
    root ${data};
    client_max_body_size 0;
    location / { dav_methods PUT; create_full_put_path on;${opts.limitRate ? ` limit_rate ${opts.limitRate};` : ''} }
  }
}
`,
  );
  let child: ChildProcess | undefined;
  const url = `http://127.0.0.1:${port}/stopwatches`;
  const start = async () => {
    child = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: 'ignore' });
    await (opts.limitRate ? waitForPort(port) : waitFor(`http://127.0.0.1:${port}/`));
  };
  await start();
  return {
    url,
    data: join(data, 'stopwatches'),
    kill: () => child?.kill('SIGKILL'),
    restart: start,
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface S3Server {
  endpoint: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** s3rver on a free loopback port with one bucket; credentials are its defaults. */
export async function startS3(dir: string, bucket: string): Promise<S3Server> {
  const { default: S3rver } = await import('s3rver');
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL: endpoint },
    stop: () => server.close(),
  };
}

/** Every regular file under dir (relative paths, sorted); [] when dir does not exist. */
export const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).sort() : [];

/**
 * One nginx for a describe block, and a fresh prefix on it for each test, so no
 * test sees another's entries: `base()` is this test's URL, `data()` its folder
 * on the server, `server()` the server itself (to kill or restart it).
 *
 * With `seed`, that function fills one more prefix once (a writing build, say),
 * and `seeded()` copies what it stored into this test's folder: a test that only
 * needs a filled server starts from it without a build of its own.
 */
export function nginxPerTest(
  label: string,
  seed?: (url: string) => Promise<void>,
): { base: () => string; data: () => string; server: () => Nginx; seeded: () => void } {
  let dir = '';
  let nginx: Nginx | undefined;
  let test = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `stopwatches-${label}-`));
    nginx = await startNginx(dir);
    await seed?.(`${nginx.url}/seed`);
  });
  afterAll(async () => {
    await nginx?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => void test++);
  return {
    base: () => `${nginx!.url}/t${test}`,
    data: () => join(nginx!.data, `t${test}`),
    server: () => nginx!,
    seeded() {
      if (!seed) throw new Error('nginxPerTest: seeded() needs a seed function');
      cpSync(join(nginx!.data, 'seed'), join(nginx!.data, `t${test}`), { recursive: true });
    },
  };
}
