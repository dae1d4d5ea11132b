/**
 * Paths and file-system errors as the pipeline reports them. The atomic writer
 * (and the temp files it leaves to sweep) lives in src/fs/atomic.ts.
 */
import { relative } from 'node:path';
import { UserError } from '../errors.ts';
import { TEMP_MARK } from '../fs/atomic.ts';

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
