/**
 * Replacing a folder the project wrote itself (the diff report), and nothing
 * else. A folder is the project's own when it holds the marker file its writer
 * leaves in it; any other existing target (a file, a link, a device, a folder
 * of the user's, a non-empty folder without the marker) is refused before
 * anything is written, so a mistyped `--out` costs one line, never a file.
 *
 * The new folder is written whole beside the target and renamed into place;
 * the previous one (checked to carry the marker) is removed only after that.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { TEMP_MARK, writeFileAtomicSync } from './atomic.ts';

export interface OwnedFolder {
  /** The marker's file name inside the folder, e.g. `.stopwatches-diff`. */
  marker: string;
  /** The marker's content: what wrote the folder (checked when replacing). */
  stamp: string;
  /** The folder's complete layout: a folder holding exactly these names counts as one written before the marker existed. */
  layout?: readonly string[];
}

/** Why `target` may not be replaced, or null when it may (absent, empty, or a folder with the marker). */
export function ownedFolderProblem(target: string, owned: OwnedFolder): string | null {
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isDirectory()) return st.isFile() ? 'is a file' : 'is not a folder (a device, FIFO or socket)';
  let names: string[];
  try {
    names = readdirSync(target);
  } catch (err) {
    return `cannot be listed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  if (names.length === 0) return null;
  if (names.includes(owned.marker)) {
    try {
      const m = lstatSync(`${target}/${owned.marker}`);
      if (m.isFile() && readFileSync(`${target}/${owned.marker}`, 'utf8') === owned.stamp) return null;
    } catch {
      /* unreadable marker: not ours */
    }
  }
  if (owned.layout && names.length === owned.layout.length && owned.layout.every((n) => names.includes(n))) return null;
  return `exists and is not a folder this command wrote (no ${owned.marker} in it)`;
}

/**
 * Writes the folder `target` whole: `fill` writes into a fresh temp folder
 * beside it, the marker is added, and the temp folder replaces the target.
 * Throws `refuse(problem)` when the target is not the project's own.
 */
export function replaceOwnedFolder(target: string, owned: OwnedFolder, fill: (dir: string) => void, refuse: (problem: string) => Error): void {
  const problem = ownedFolderProblem(target, owned);
  if (problem) throw refuse(problem);
  const nonce = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = `${target}${TEMP_MARK}${nonce}`;
  const old = `${target}.old-${nonce}`;
  mkdirSync(dirname(target), { recursive: true });
  mkdirSync(tmp);
  let moved = false;
  try {
    fill(tmp);
    writeFileAtomicSync(`${tmp}/${owned.marker}`, owned.stamp);
    // Checked again just before: the target may have changed while the folder was written.
    const late = ownedFolderProblem(target, owned);
    if (late) throw refuse(late);
    let existed = true;
    try {
      renameSync(target, old);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      existed = false;
    }
    moved = existed;
    renameSync(tmp, target);
    moved = false;
    if (existed) rmSync(old, { recursive: true, force: true });
  } catch (err) {
    if (moved) renameSync(old, target); // put the previous report back
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
