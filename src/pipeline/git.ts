/**
 * Git, as the pipeline reads a repository: committed snapshots, the inputs
 * that changed, the commit a build belongs to. Read-only: nothing is checked
 * out. Output as bytes (a snapshot's PNG is binary), up to 256 MiB.
 */
import { execFileSync } from 'node:child_process';

/** Runs `git ARGS` in `root`; throws when git fails (its stderr is in the error). */
export function git(root: string, args: string[]): Buffer {
  return execFileSync('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}
