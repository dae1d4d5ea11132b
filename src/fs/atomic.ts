/**
 * Atomic writes: every file the project writes goes to a temp file beside its
 * target, is flushed to disk (fsync) and renamed into place, so an interrupted
 * write (Ctrl-C, a kill, a full disk, a power cut) leaves either the old file or
 * the new one, never half of one. Where a file must also survive a power cut
 * once written (`syncDir`), the folder holding it is flushed after the rename.
 * Temp files in flight are tracked so the Ctrl-C handler can remove them.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

export async function writeFileAtomic(target: string, data: string | Uint8Array, writeTemp: TempWriter = writeSynced, opts: AtomicOptions = {}): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = tempPath(target);
  inFlight.add(tmp);
  try {
    await writeTemp(tmp, data);
    await rename(tmp, target);
    if (opts.syncDir) syncDirOf(target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  } finally {
    inFlight.delete(tmp);
  }
}

export interface AtomicSyncOptions extends AtomicOptions {
  /** Permissions for the new file (a replaced file keeps its own: pass its mode). */
  mode?: number;
}

/**
 * writeFileAtomic for synchronous callers (a command writing its one result,
 * a manifest): the same temp file, fsync and rename. `data` may be chunks, written
 * as they come, so a large result is never one string. The folder must exist.
 * Throws the file-system error as it is, with nothing left behind.
 */
export function writeFileAtomicSync(target: string, data: string | Uint8Array | Iterable<string>, opts: AtomicSyncOptions = {}): void {
  const tmp = tempPath(target);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx');
    const chunks = typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
    for (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (opts.mode !== undefined) chmodSync(tmp, opts.mode & 0o7777);
    renameSync(tmp, target);
    if (opts.syncDir) syncDirOf(target);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Removes every temp file this process has in flight (Ctrl-C, fatal error). Synchronous: safe in a signal handler. */
export function removeTempFiles(): number {
  let n = 0;
  for (const tmp of inFlight) {
    try {
      rmSync(tmp, { force: true });
      n++;
    } catch {
      /* already gone */
    }
  }
  inFlight.clear();
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
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return 0;
  }
  for (const name of names) {
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
