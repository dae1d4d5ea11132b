/**
 * Atomic writes: every file the pipeline writes goes to a temp file beside its
 * target and is renamed into place, so an interrupted build (Ctrl-C, a kill, a
 * full disk) leaves either the old file or the new one, never half of one.
 * Temp files in flight are tracked so the Ctrl-C handler can remove them.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { UserError } from '../errors.ts';

const TEMP_MARK = '.tmp-';
const inFlight = new Set<string>();

function tempPath(target: string): string {
  // The pid in the name lets a later run tell an orphan (its writer is gone) from a live write.
  return `${target}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Writes the temp file; tests replace it with one that fails half-way, as a crash or a full disk would. */
export type TempWriter = (tmp: string, data: string | Uint8Array) => Promise<void>;

export async function writeFileAtomic(target: string, data: string | Uint8Array, writeTemp: TempWriter = writeFile): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = tempPath(target);
  inFlight.add(tmp);
  try {
    await writeTemp(tmp, data);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  } finally {
    inFlight.delete(tmp);
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

export function toPosix(path: string): string {
  return path.split('\\').join('/');
}

/** What to do about a file-system error the user can fix, by its code. */
const FS_FIXES: Record<string, string> = {
  EACCES: 'permission denied; make it writable (chmod -R u+w) or run as its owner',
  EPERM: 'operation not permitted; make it writable (chmod -R u+w) or run as its owner',
  EROFS: 'the file system is read-only; build in a writable copy of the project',
  EISDIR: 'a folder is where a file belongs; remove that folder',
  ENOTDIR: 'a file is where a folder belongs; remove that file',
  ENOSPC: 'the disk is full; free some space and build again (nothing half-written was kept)',
  EDQUOT: 'the disk quota is exhausted; free some space and build again (nothing half-written was kept)',
};

/**
 * A file-system error the user can fix, as one line naming the path (the
 * target, not its temp file) and what to do; undefined for anything else.
 */
export function describeFsError(err: unknown, root: string): UserError | undefined {
  const e = err as NodeJS.ErrnoException;
  const fixText = e && typeof e.code === 'string' ? FS_FIXES[e.code] : undefined;
  if (!fixText || typeof e.path !== 'string') return undefined;
  const at = e.path.lastIndexOf(TEMP_MARK);
  const target = at >= 0 ? e.path.slice(0, at) : e.path;
  const rel = toPosix(relative(root, target));
  const shown = rel && !rel.startsWith('..') ? rel : target;
  return new UserError(`cannot write ${shown}: ${fixText} (${e.code})`);
}
