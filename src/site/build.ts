/**
 * Which commit the site was built from, for its footer: a reader, or a
 * reviewer holding a downloaded artifact, can tell what they are looking at.
 * The commit only, no clock time, so two builds of one commit are identical;
 * a build with uncommitted changes says so.
 */
import { git } from '../pipeline/git.ts';

export interface BuildCommit {
  /** Full commit id, or null outside a git checkout. */
  commit: string | null;
  /** Tracked files differed from that commit. */
  dirty: boolean;
}

let memo: BuildCommit | undefined;

export function buildCommit(root = process.cwd()): BuildCommit {
  if (memo) return memo;
  try {
    const commit = git(root, ['rev-parse', '--verify', 'HEAD']).toString().trim();
    const dirty = git(root, ['status', '--porcelain', '--untracked-files=no']).toString().trim() !== '';
    memo = { commit, dirty };
  } catch {
    memo = { commit: null, dirty: false };
  }
  return memo;
}
