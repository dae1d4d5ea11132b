/**
 * The one way the project writes a file (test/one-writer.test.ts holds every
 * other module to it). Where the write lands follows one rule:
 *
 * - a regular file, or a path that does not exist yet, is written to a temp
 *   file beside it, flushed to disk (fsync) and renamed into place, so an
 *   interrupted write (Ctrl-C, a kill, a full disk, a power cut) leaves either
 *   the old file or the new one, never half of one; a replaced file keeps its
 *   permissions;
 * - a symbolic link is written through: the file it points at is replaced as
 *   above (a dangling link creates the path it names) and the link stays;
 * - a FIFO or a device (/dev/null, a terminal) is written to as it is: it can
 *   be neither replaced nor half-written in any way that matters, and must
 *   never become a regular file;
 * - a directory or a socket is refused (EISDIR, ENOTSUP) and nothing changes.
 *
 * Where a file must also survive a power cut once written (`syncDir`), the
 * folder holding it is flushed after the rename. Temp files in flight are
 * tracked so the Ctrl-C handler can remove them.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { walkFiles } from './walk.ts';

/** Marks a temp file: `<target>.tmp-<pid>-<random>`. */
export const TEMP_MARK = '.tmp-';
const inFlight = new Set<string>();

function tempPath(target: string): string {
  // The pid in the name lets a later run tell an orphan (its writer is gone) from a live write.
  return `${target}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Writes the temp file; tests replace it with one that fails half-way, as a crash or a full disk would. */
export type TempWriter = (tmp: string, data: string | Uint8Array) => Promise<void>;

/** The default TempWriter: the bytes, then fsync, so the rename never publishes a file still in the page cache. */
async function writeSynced(tmp: string, data: string | Uint8Array): Promise<void> {
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export interface AtomicOptions {
  /** Flush the folder after the rename too, so the new name itself survives a power cut. */
  syncDir?: boolean;
}

function syncDirOf(target: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dirname(target), 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems (and Windows) cannot fsync a folder; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function fsError(code: string, syscall: string, path: string, what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${what}, ${syscall} '${path}'`), { code, syscall, path });
}

/** Where a write to `target` lands (the rule above): the path to write and how. */
export interface Landing {
  path: string;
  /** `replace`: temp file and rename; `direct`: opened and written as it is (a FIFO, a device). */
  how: 'replace' | 'direct';
  /** The permissions of the regular file being replaced. */
  mode?: number;
}

export function landingOf(target: string): Landing {
  let path = target;
  for (let hops = 0; ; hops++) {
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch {
      return { path, how: 'replace' }; // does not exist yet: created by the write
    }
    if (st.isSymbolicLink()) {
      if (hops >= 40) throw fsError('ELOOP', 'open', target, 'too many symbolic links');
      try {
        path = realpathSync(path);
      } catch {
        path = resolve(dirname(path), readlinkSync(path)); // dangling: the path it names
      }
      continue;
    }
    if (st.isFile()) return { path, how: 'replace', mode: st.mode & 0o7777 };
    if (st.isDirectory()) throw fsError('EISDIR', 'open', target, 'illegal operation on a directory');
    if (st.isSocket()) throw fsError('ENOTSUP', 'open', target, 'a socket cannot be written as a file');
    return { path, how: 'direct' };
  }
}

function writeDirectSync(path: string, data: string | Uint8Array | Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    writeChunks(fd, data);
  } finally {
    closeSync(fd);
  }
}

function writeChunks(fd: number, data: string | Uint8Array | Iterable<string>): void {
  const chunks = typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
  for (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
  }
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, writeTemp: TempWriter = writeSynced, opts: AtomicOptions = {}): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const land = landingOf(target);
  if (land.how === 'direct') return writeDirectSync(land.path, data);
  const tmp = tempPath(land.path);
  inFlight.add(tmp);
  try {
    await writeTemp(tmp, data);
    if (land.mode !== undefined) chmodSync(tmp, land.mode);
    await rename(tmp, land.path);
    if (opts.syncDir) syncDirOf(land.path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw namingTarget(err, tmp, land.path);
  } finally {
    inFlight.delete(tmp);
  }
}

/** A failure on the temp file is reported on the file the caller named: a temp name means nothing to the user. */
function namingTarget(err: unknown, tmp: string, target: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && e.path === tmp) {
    e.path = target;
    if (typeof e.message === 'string') e.message = e.message.split(tmp).join(target);
  }
  return err;
}

/**
 * writeFileAtomic for synchronous callers (a command writing its one result,
 * a manifest, a report): the same rule, temp file, fsync and rename. `data` may
 * be chunks, written as they come, so a large result is never one string. The
 * folder must exist. Throws the file-system error, naming the target (never the temp
 * file), with nothing left behind.
 */
export function writeFileAtomicSync(target: string, data: string | Uint8Array | Iterable<string>, opts: AtomicOptions = {}): void {
  const land = landingOf(target);
  if (land.how === 'direct') return writeDirectSync(land.path, data);
  const tmp = tempPath(land.path);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx');
    writeChunks(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (land.mode !== undefined) chmodSync(tmp, land.mode);
    renameSync(tmp, land.path);
    if (opts.syncDir) syncDirOf(land.path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw namingTarget(err, tmp, land.path);
  }
}

/**
 * Removes the temp files this process has in flight (Ctrl-C, fatal error): all of them, or only those
 * under `folders` (a build that failed takes away its own, never another build's in the same process).
 * Synchronous: safe in a signal handler.
 */
export function removeTempFiles(folders?: readonly string[]): number {
  const prefixes = folders?.map((f) => (f.endsWith(sep) ? f : f + sep));
  let n = 0;
  for (const tmp of inFlight) {
    if (prefixes && !prefixes.some((p) => tmp.startsWith(p))) continue;
    try {
      rmSync(tmp, { force: true });
      n++;
    } catch {
      /* already gone */
    }
    inFlight.delete(tmp);
  }
  return n;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes temp files under `dir` left by writers that no longer run (a kill -9 skips every handler). */
export function sweepOrphanTemps(dir: string): number {
  let n = 0;
  for (const name of walkFiles(dir)) {
    const base = basename(name);
    const at = base.lastIndexOf(TEMP_MARK);
    if (at < 0) continue;
    const pid = Number(base.slice(at + TEMP_MARK.length).split('-')[0]);
    if (Number.isInteger(pid) && !alive(pid)) {
      rmSync(join(dir, name), { force: true });
      n++;
    }
  }
  return n;
}
