/**
 * The two sides of a diff, read strictly: a folder laid out like
 * test/snapshots/ (numbers.json, figures/, data/), or test/snapshots/ as
 * committed at a git revision (read with `git show`, nothing checked out).
 * Anything missing or unreadable is a UserError naming the file and the fix.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.ts';
import type { NumbersFile } from '../types.ts';

export type Entry = NumbersFile[string];

/** What one side of the comparison holds. */
export interface Side {
  /** Shown in the report and the summary: `test/snapshots`, `git 946dc93 (HEAD~1)`, `src/generated`. */
  label: string;
  /** The commit this side's outputs belong to, when known: the revision read, or the artifact's source commit. */
  commit: string | null;
  numbers: NumbersFile;
  /** Figure files by name: `<experiment>.<figure>.svg|png`. */
  figures: Map<string, Buffer>;
  /** Combined data by experiment id; null when this side has no data snapshot (older baselines). */
  data: Map<string, unknown> | null;
  /** Where a file of this side is, for error messages: `test/snapshots/figures/x.png`, `HEAD~1:test/snapshots/…`. */
  where(path: string): string;
  /** The fix to print when a file of this side is unreadable. */
  fix: string;
}

export const FIGURE_FILE = /^(.+)\.(svg|png)$/;
/** `-changed` files are the snapshot test's copies of a drifted figure, never part of a baseline. */
export const isFigureFile = (f: string) => FIGURE_FILE.test(f) && !/-changed\.(svg|png)$/.test(f);
/** `<experiment>.<figure>` of a figure file or key. */
export const experimentOf = (key: string) => key.split('.')[0]!;

function parseJson(text: string, where: string, fix: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`diff: ${where} is not valid JSON (${(err as Error).message}); ${fix}`);
  }
}

export function parseNumbers(text: string, where: string, fix: string): NumbersFile {
  const parsed = parseJson(text, where, fix);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserError(`diff: ${where} is not a numbers file (an object of id → number); ${fix}`);
  for (const [id, v] of Object.entries(parsed as Record<string, unknown>)) {
    const e = v as Partial<Entry> | null;
    if (!e || typeof e !== 'object' || typeof e.value !== 'number' || typeof e.unit !== 'string') {
      throw new UserError(`diff: ${where}: "${id}" is not a number entry ({value, unit, n, interval}); ${fix}`);
    }
  }
  return parsed as NumbersFile;
}

/** A folder laid out like test/snapshots/ or src/generated/: numbers.json, figures/, data/ (optional). */
export function loadDir(dir: string, label: string, fix: string, commit: string | null = null): Side {
  const where = (p: string) => join(label, p);
  const numbersPath = join(dir, 'numbers.json');
  if (!existsSync(numbersPath)) throw new UserError(`diff: ${where('numbers.json')} does not exist; ${fix}`);
  const numbers = parseNumbers(readFileSync(numbersPath, 'utf8'), where('numbers.json'), fix);
  const figures = new Map<string, Buffer>();
  const figDir = join(dir, 'figures');
  if (existsSync(figDir)) for (const f of readdirSync(figDir).filter(isFigureFile).sort()) figures.set(f, readFileSync(join(figDir, f)));
  let data: Map<string, unknown> | null = null;
  const dataDir = join(dir, 'data');
  if (existsSync(dataDir)) {
    data = new Map();
    for (const f of readdirSync(dataDir).filter((x) => x.endsWith('.json')).sort()) {
      data.set(f.slice(0, -5), parseJson(readFileSync(join(dataDir, f), 'utf8'), where(`data/${f}`), fix));
    }
  }
  return { label, commit, numbers, figures, data, where, fix };
}

export function git(root: string, args: string[]): Buffer {
  return execFileSync('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The full commit id of a revision, or null when it is none (or the root is not a git repository). */
export function resolveCommit(root: string, rev: string): string | null {
  try {
    return git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).toString().trim() || null;
  } catch {
    return null;
  }
}

/** test/snapshots/ as committed at `rev`: read with `git show`, no checkout. */
export function loadGitRevision(root: string, rev: string, snapshotPath = 'test/snapshots'): Side {
  const commit = resolveCommit(root, rev);
  if (!commit) {
    throw new UserError(`diff: ${rev} is neither a folder nor a git revision of this repository; give a commit, branch or tag (e.g. HEAD~1, main), or no argument for the committed snapshots`);
  }
  const short = commit.slice(0, 7);
  const label = short === rev || commit === rev ? `git ${short}` : `git ${short} (${rev})`;
  const where = (p: string) => `${rev}:${snapshotPath}/${p}`;
  const fix = `pick a revision whose ${snapshotPath}/ was accepted with \`stopwatches snapshot\``;
  let files: string[];
  try {
    files = git(root, ['ls-tree', '-r', '--name-only', commit, '--', `${snapshotPath}/`]).toString().split('\n').filter(Boolean);
  } catch (err) {
    throw new UserError(`diff: could not list ${where('')} (${(err as Error).message.split('\n')[0]}); ${fix}`);
  }
  // ls-tree prints paths relative to the current folder, which is the project root.
  const rel = (f: string) => f.slice(snapshotPath.length + 1);
  const show = (p: string) => git(root, ['show', `${commit}:./${snapshotPath}/${p}`]);
  if (!files.some((f) => rel(f) === 'numbers.json')) throw new UserError(`diff: ${where('numbers.json')} does not exist; ${fix}`);
  const numbers = parseNumbers(show('numbers.json').toString('utf8'), where('numbers.json'), fix);
  const figures = new Map<string, Buffer>();
  let data: Map<string, unknown> | null = null;
  for (const f of files.map(rel).sort()) {
    const m = /^figures\/([^/]+)$/.exec(f);
    if (m && isFigureFile(m[1]!)) figures.set(m[1]!, show(f));
    const d = /^data\/([^/]+)\.json$/.exec(f);
    if (d) (data ??= new Map()).set(d[1]!, parseJson(show(f).toString('utf8'), where(f), fix));
  }
  return { label, commit, numbers, figures, data, where, fix };
}
