/**
 * A mistake in what the user gave us (a bad file, a bad flag, a bad field).
 * The CLI prints its message on one line and exits with status 2, never a stack trace.
 * Messages name the file, the field and the fix: `case.json: workload.isl[3] is 0; lengths must be ≥ 1`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/**
 * A UserError, or an error shaped like one: a subclass, or one from another copy of this
 * module (a worker thread, a second import path), which `instanceof` would miss. The shape
 * is the contract: a message meant for people and the exit status to end with.
 */
export function isUserErrorLike(err: unknown): err is Error & { exitCode: number } {
  if (err instanceof UserError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { exitCode?: unknown }).exitCode;
  return typeof code === 'number' && Number.isInteger(code) && code > 0 && err.name !== 'CommanderError';
}

/** What to do about each file-system failure, worded for the person at the terminal. */
const FS_FIXES: Record<string, string> = {
  ENOENT: 'no such file or directory; check the path',
  EACCES: 'permission denied; make it readable/writable for this user (chmod, chown) or use another path',
  EPERM: 'operation not permitted; check its permissions and owner, or use another path',
  EISDIR: 'is a directory where a file was expected; give a file path or remove the directory',
  ENOTDIR: 'a part of the path is a file, not a directory; check the path',
  ENOSPC: 'no space left on the device; free some space or write somewhere else',
  EDQUOT: 'disk quota exceeded; free some space or write somewhere else',
  EROFS: 'the file system is read-only; write somewhere else',
  EEXIST: 'already exists; remove it or choose another path',
  ENOTEMPTY: 'the directory is not empty; remove its contents or choose another path',
  EMFILE: 'too many open files; close other programs or raise the limit (ulimit -n)',
  ENAMETOOLONG: 'the path is too long; use a shorter one',
  ELOOP: 'too many symbolic links in the path; check where the links point',
  EIO: 'input/output error from the device; check the disk',
  EFBIG: 'the file is too large for this file system; write somewhere else',
  ENOTSUP: 'is a socket (or another file that cannot be written as a file); give a file path',
};

/** A Node system error (fs, pipes), or null when `err` is not one. */
function errnoOf(err: unknown): (Error & { code: string; path?: string; dest?: string; syscall?: string }) | null {
  if (!(err instanceof Error)) return null;
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? (err as Error & { code: string }) : null;
}

/**
 * One line for a file-system error: the path, what went wrong and what to do.
 * `path` overrides the error's own (e.g. the `--out` the user typed rather than a temp file beside it).
 * Null when `err` is not a system error.
 */
export function fsErrorLine(err: unknown, path?: string): string | null {
  const e = errnoOf(err);
  if (!e) return null;
  const where = path ?? e.path ?? e.dest;
  const fix = FS_FIXES[e.code] ?? `${e.code}${e.syscall ? ` on ${e.syscall}` : ''}: ${e.message.split('\n')[0]}`;
  return where ? `${where}: ${fix}` : `${fix} (${e.code}${e.syscall ? `, ${e.syscall}` : ''})`;
}

/**
 * The one line and exit status for a failure the user can act on, or null for a bug
 * (which keeps its stack: it is what a bug report needs).
 * - UserError-like: its message, its status.
 * - File-system errors: the path and the fix, status 2 (the environment must change).
 * - Out of memory in an allocation: what to do, status 2.
 */
export function describeFailure(err: unknown): { line: string; exitCode: number } | null {
  if (isUserErrorLike(err)) return { line: err.message, exitCode: err.exitCode };
  const fs = fsErrorLine(err);
  if (fs) return { line: fs, exitCode: 2 };
  if (err instanceof RangeError && /Array buffer allocation failed|Invalid (typed )?array length|Invalid string length/i.test(err.message)) {
    return { line: `out of memory (${err.message}); the input is too large for this machine: make it smaller`, exitCode: 2 };
  }
  return null;
}

