/**
 * Paths and file-system errors as the pipeline reports them. The atomic writer
 * (and the temp files it leaves to sweep) lives in src/fs/atomic.ts.
 */
import { accessSync, constants } from 'node:fs';
import { relative } from 'node:path';
import { UserError } from '../errors.ts';
import { TEMP_MARK } from '../fs/atomic.ts';

export function toPosix(path: string): string {
  return path.split('\\').join('/');
}

/** What to do about a file-system error the user can fix, by its code, when writing. */
const FS_FIXES: Record<string, string> = {
  EACCES: 'permission denied; make it writable (chmod -R u+w) or run as its owner',
  EPERM: 'operation not permitted; make it writable (chmod -R u+w) or run as its owner',
  EROFS: 'the file system is read-only; build in a writable copy of the project',
  EISDIR: 'a folder is where a file belongs; remove that folder',
  ENOTDIR: 'a file is where a folder belongs; remove that file',
  ENOSPC: 'the disk is full; free some space and build again (nothing half-written was kept)',
  EDQUOT: 'the disk quota is exhausted; free some space and build again (nothing half-written was kept)',
};

/** The same, when reading: the file exists but cannot be read as one. */
const READ_FIXES: Record<string, string> = {
  EACCES: 'permission denied; make it readable (chmod u+r) or run as its owner',
  EPERM: 'operation not permitted; make it readable (chmod u+r) or run as its owner',
  EISDIR: 'a folder is where a file belongs; remove that folder',
  ENOTDIR: 'a file is where a folder belongs; remove that file',
};

/** System calls that only read. `open` may do either: the file is then tried for reading. */
const READING = new Set(['read', 'scandir', 'opendir', 'stat', 'lstat', 'readlink', 'realpath']);

function failedReading(e: NodeJS.ErrnoException, target: string): boolean {
  if (e.syscall && READING.has(e.syscall)) return true;
  if (e.syscall !== 'open' || (e.code !== 'EACCES' && e.code !== 'EPERM' && e.code !== 'EISDIR')) return false;
  if (e.code === 'EISDIR') return false; // a write's target being a folder is the common case
  try {
    accessSync(target, constants.F_OK);
  } catch {
    return false; // not there: it was being created
  }
  try {
    accessSync(target, constants.R_OK);
    return false;
  } catch {
    return true;
  }
}

/**
 * A file-system error the user can fix, as one line naming the path (the
 * target, not its temp file), whether it failed to be read or written, and
 * what to do; undefined for anything else.
 */
export function describeFsError(err: unknown, root: string): UserError | undefined {
  const e = err as NodeJS.ErrnoException;
  if (!e || typeof e.code !== 'string' || typeof e.path !== 'string') return undefined;
  const at = e.path.lastIndexOf(TEMP_MARK);
  const target = at >= 0 ? e.path.slice(0, at) : e.path;
  const reading = failedReading(e, target);
  const fixText = (reading ? READ_FIXES : FS_FIXES)[e.code];
  if (!fixText) return undefined;
  const rel = toPosix(relative(root, target));
  const shown = rel && !rel.startsWith('..') ? rel : target;
  return new UserError(`cannot ${reading ? 'read' : 'write'} ${shown}: ${fixText} (${e.code})`);
}
