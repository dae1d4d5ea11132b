/**
 * The job cache: one entry per (experiment, job, key) under .cache/experiments/.
 *
 * The key hashes everything a job's result depends on (see `JobManifest`); the
 * manifest itself is stored in the entry so the next build can say *why* an
 * entry no longer matches (`stale: src/sim/engine.ts changed`). Entries are
 * content-addressed, so switching branches back finds the old result again.
 *
 * An entry is one header line of JSON (key, sha256 and size of the result,
 * manifest, runtime), a newline, then the result JSON. Reading re-hashes the
 * result: an entry whose bytes do not match its header is corrupt, deleted and
 * recomputed, never trusted. Writes are atomic (temp file, then rename).
 */
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../fs/hash.ts';
import { canonicalJson } from './hash.ts';
import { writeFileAtomic } from '../fs/atomic.ts';

/** Bump when the entry format or the meaning of a key changes: every entry becomes stale. */
export const CACHE_FORMAT = 1;

/** Entries kept per job (the newest by modification time); older ones are deleted after a write. */
export const ENTRIES_KEPT_PER_JOB = 3;

/** Everything a job's result depends on. Its canonical JSON hash is the job's key. */
export interface JobManifest {
  experiment: string;
  job: string;
  /** The job's params (canonical JSON value). */
  params: unknown;
  /** The seed the job's `ctx.rng` was created from. */
  seed: number;
  /** sha256 of the experiment's canonical config JSON. */
  config: string;
  /** The bundled import closure: root-relative path → sha256. */
  files: Record<string, string>;
  /** Declared input files: root-relative path → sha256. */
  inputs: Record<string, string>;
  /** sha256 of package-lock.json (pins every npm package, which the bundle leaves external). */
  lockfile: string;
  /** Node version: V8's Math functions are part of the computation. */
  node: string;
}

export interface EntryHeader {
  format: number;
  key: string;
  sha256: string;
  bytes: number;
  runtimeMs: number;
  manifest: JobManifest;
}

export type Lookup =
  | { status: 'fresh'; text: string; header: EntryHeader }
  | { status: 'missing' }
  | { status: 'stale'; reasons: string[] }
  | { status: 'corrupt'; reason: string };

export function jobKey(m: JobManifest): string {
  return sha256(canonicalJson({ format: CACHE_FORMAT, manifest: m }));
}

/** A file-system-safe folder name for a job id; ids that needed changes get a hash suffix so two never collide. */
export function jobSlug(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._=-]/g, '_').slice(0, 80);
  return safe === id && !id.startsWith('.') ? id : `${safe}-${sha256(id).slice(0, 8)}`;
}

export type WriteFile = (path: string, data: string | Uint8Array) => Promise<void>;

export class JobCache {
  constructor(
    readonly dir: string,
    private readonly write: WriteFile = writeFileAtomic,
  ) {}

  /** Both names pass through jobSlug, so a manifest's strings are never a path (`..`, `/`), whatever file they came from. */
  entryDir(m: Pick<JobManifest, 'experiment' | 'job'>): string {
    return join(this.dir, jobSlug(m.experiment), jobSlug(m.job));
  }

  entryPath(m: JobManifest, key: string): string {
    return join(this.entryDir(m), `${key}.json`);
  }

  async lookup(m: JobManifest, key: string): Promise<Lookup> {
    const path = this.entryPath(m, key);
    let raw: Buffer | undefined;
    try {
      raw = await readFile(path);
    } catch {
      raw = undefined;
    }
    if (raw) {
      const checked = verifyEntry(raw, key);
      if ('header' in checked) return { status: 'fresh', text: checked.text, header: checked.header };
      await rm(path, { force: true });
      return { status: 'corrupt', reason: checked.error };
    }
    const previous = await this.newestOther(m, key);
    if (!previous) return { status: 'missing' };
    return { status: 'stale', reasons: describeChange(previous.manifest, m) };
  }

  async store(m: JobManifest, key: string, text: string, runtimeMs: number): Promise<EntryHeader> {
    const header: EntryHeader = { format: CACHE_FORMAT, key, sha256: sha256(text), bytes: Buffer.byteLength(text), runtimeMs, manifest: m };
    await this.write(this.entryPath(m, key), `${JSON.stringify(header)}\n${text}`);
    await this.prune(m);
    return header;
  }

  /** Compute time recorded by this job's newest earlier entry (another key), if any: how long it will take again. */
  async previousRuntimeMs(m: JobManifest, key: string): Promise<number | undefined> {
    return (await this.newestOther(m, key))?.runtimeMs;
  }

  /** The most recently written other entry of the same job, for explaining staleness. */
  private async newestOther(m: JobManifest, key: string): Promise<EntryHeader | undefined> {
    const dir = this.entryDir(m);
    let names: string[];
    try {
      names = (await readdir(dir)).filter((f) => /^[0-9a-f]{64}\.json$/.test(f) && f !== `${key}.json`);
    } catch {
      return undefined;
    }
    const dated = await Promise.all(names.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
    dated.sort((a, b) => b.t - a.t || (a.f < b.f ? -1 : 1));
    for (const { f } of dated) {
      const header = readHeader(await readFile(join(dir, f)));
      if (header) return header;
    }
    return undefined;
  }

  private async prune(m: JobManifest): Promise<void> {
    const dir = this.entryDir(m);
    const names = (await readdir(dir)).filter((f) => /^[0-9a-f]{64}\.json$/.test(f));
    if (names.length <= ENTRIES_KEPT_PER_JOB) return;
    const dated = await Promise.all(names.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
    dated.sort((a, b) => b.t - a.t);
    for (const { f } of dated.slice(ENTRIES_KEPT_PER_JOB)) await rm(join(dir, f), { force: true });
  }
}

function readHeader(raw: Buffer): EntryHeader | undefined {
  const nl = raw.indexOf(10);
  if (nl < 0) return undefined;
  try {
    const header = JSON.parse(raw.subarray(0, nl).toString('utf8')) as EntryHeader;
    return header && header.manifest ? header : undefined;
  } catch {
    return undefined;
  }
}

/** Checks an entry's header against the expected key and its result bytes against the header's hash. */
export function verifyEntry(raw: Buffer, key: string): { header: EntryHeader; text: string } | { error: string } {
  const header = readHeader(raw);
  if (!header) return { error: 'unreadable header' };
  if (header.format !== CACHE_FORMAT) return { error: `format ${header.format}, expected ${CACHE_FORMAT}` };
  if (header.key !== key) return { error: 'key mismatch' };
  if (jobKey(header.manifest) !== key) return { error: 'manifest does not hash to the key' };
  const body = raw.subarray(raw.indexOf(10) + 1);
  if (body.length !== header.bytes) return { error: `size ${body.length} B, header says ${header.bytes} B` };
  if (sha256(body) !== header.sha256) return { error: 'hash mismatch' };
  return { header, text: body.toString('utf8') };
}

/** Why a job's previous entry no longer matches, in words a reader can act on. */
export function describeChange(prev: JobManifest, cur: JobManifest): string[] {
  const out: string[] = [];
  if (prev.config !== cur.config) out.push('config changed');
  if (canonicalJson(prev.params ?? null) !== canonicalJson(cur.params ?? null)) out.push('params changed');
  if (prev.seed !== cur.seed) out.push('seed changed');
  diffFiles(prev.files ?? {}, cur.files, '', out);
  diffFiles(prev.inputs ?? {}, cur.inputs, 'input ', out);
  if (prev.lockfile !== cur.lockfile) out.push('package-lock.json changed');
  if (prev.node !== cur.node) out.push(`node changed (${prev.node} → ${cur.node})`);
  if (out.length === 0) out.push('cache format changed');
  return out;
}

function diffFiles(prev: Record<string, string>, cur: Record<string, string>, label: string, out: string[]): void {
  for (const path of Object.keys(cur).sort()) {
    if (!(path in prev)) out.push(`${label}${path} added`);
    else if (prev[path] !== cur[path]) out.push(`${label}${path} changed`);
  }
  for (const path of Object.keys(prev).sort()) if (!(path in cur)) out.push(`${label}${path} removed`);
}
