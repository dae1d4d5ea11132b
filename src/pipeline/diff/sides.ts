/**
 * The two sides of a diff: an output set (src/pipeline/outputs.ts reads it
 * strictly, from a folder or from test/snapshots/ at a git revision) plus the
 * commit its outputs belong to, which says what the inputs are compared with.
 * Errors are the outputs module's, one line naming the file and the fix,
 * prefixed with the command that read them.
 */
import { git } from '../git.ts';
import { OutputError, readGitRevision, readOutputDir, type OutputSet } from '../outputs.ts';
import { UserError } from '../../errors.ts';
import type { NumbersFile } from '../types.ts';

export type Entry = NumbersFile[string];

export interface Side extends OutputSet {
  /** The commit these outputs belong to, when known: the revision read, HEAD for the committed snapshots, an artifact's source commit. */
  commit: string | null;
}

/** `<experiment>.<figure>` → its experiment. */
export const experimentOf = (key: string) => key.split('.')[0]!;

/** The full commit id of a revision; null when it is none, or the root is not in a git repository. */
export function resolveCommit(root: string, rev: string): string | null {
  try {
    return git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).toString().trim() || null;
  } catch {
    return null;
  }
}

/** Runs a reader; its OutputError gets the command's prefix (`diff: `, `snapshot --from: `). */
export function reading<T>(prefix: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof OutputError) throw new UserError(`${prefix}${err.message}`, err.exitCode);
    throw err;
  }
}

/** A folder laid out like test/snapshots/ or src/generated/. */
export function loadDir(dir: string, label: string, fix: string, commit: string | null = null, prefix = 'diff: '): Side {
  return { ...reading(prefix, () => readOutputDir(dir, label, fix)), commit };
}

/** test/snapshots/ (or `snapshotPath`) as committed at `rev`, read with `git show`, nothing checked out. */
export function loadGitRevision(root: string, rev: string, snapshotPath = 'test/snapshots'): Side {
  const side = reading('diff: ', () => readGitRevision(root, rev, snapshotPath));
  return { ...side, commit: resolveCommit(root, rev) };
}
