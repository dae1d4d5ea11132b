/**
 * Why an experiment's outputs moved: the inputs that differ between the
 * baseline's commit and the work tree, among the ones the job cache keys on
 * (src/pipeline/cache.ts): the experiment's bundled import closure (its code,
 * config and seeds live there), its declared input files (corpora) and
 * package-lock.json. A changed line that assigns a literal names the value and
 * both sides: `src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)`.
 *
 * Read with git (`ls-tree`, `hash-object`, `diff -U0`), nothing checked out.
 * The closure is the current build's; a file the baseline's closure had and
 * the current one dropped is not seen (the experiment's own module changed
 * then, and that is named).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { git } from '../git.ts';

/** What an experiment's results depend on, root-relative paths. */
export interface ExperimentInputs {
  id: string;
  files: string[];
}

/** A named literal that changed in a file: `stepOverheadS 0.001 → 0.0012`. */
export interface ValueChange {
  name: string;
  old: string;
  new: string;
}

export interface InputChange {
  path: string;
  kind: 'changed' | 'added';
  /** Named literals that changed, in file order; empty when the change assigns none. */
  values: ValueChange[];
  /** Lines removed or added (the larger of the two per hunk), for a change without named values. */
  lines: number;
}

/** Input changes per experiment id (every experiment given, [] when none of its inputs changed). */
export type WhyMap = Map<string, InputChange[]>;

const LOCKFILE = 'package-lock.json';

/**
 * `name = literal`, `name: literal`, also through a wrapper call (`c(0.001, …)`)
 * and with a quoted name (JSON). `==` and `=>` are not assignments.
 */
const ASSIGNMENT =
  /["']?([A-Za-z_$][\w$-]*)["']?\s*(?:=(?![=>])|:)\s*(?:[A-Za-z_$][\w$.]*\(\s*)?(-?(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d+)(?:e[+-]?\d+)?|'[^'\n]*'|"[^"\n]*"|true|false|\[[^\]\n]{0,80}\])/gi;

export function namedValues(line: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of line.matchAll(ASSIGNMENT)) if (!out.has(m[1]!)) out.set(m[1]!, m[2]!);
  return out;
}

/** Named literals that differ between the removed and the added lines of each hunk of a `git diff -U0`. */
export function valueChanges(unifiedDiff: string): { values: ValueChange[]; lines: number } {
  const values: ValueChange[] = [];
  let lines = 0;
  const flush = (minus: string[], plus: string[]) => {
    if (!minus.length && !plus.length) return;
    lines += Math.max(minus.length, plus.length);
    const before = new Map<string, string>();
    for (const l of minus) for (const [k, v] of namedValues(l)) if (!before.has(k)) before.set(k, v);
    const seen = new Set<string>();
    for (const l of plus) {
      for (const [k, v] of namedValues(l)) {
        const old = before.get(k);
        if (old === undefined || old === v || seen.has(k)) continue;
        seen.add(k);
        values.push({ name: k, old, new: v });
      }
    }
  };
  let minus: string[] = [];
  let plus: string[] = [];
  for (const l of unifiedDiff.split('\n')) {
    if (l.startsWith('@@')) {
      flush(minus, plus);
      minus = [];
      plus = [];
    } else if (l.startsWith('-') && !l.startsWith('---')) minus.push(l.slice(1));
    else if (l.startsWith('+') && !l.startsWith('+++')) plus.push(l.slice(1));
  }
  flush(minus, plus);
  return { values, lines };
}

/** Blob ids of `paths` at `commit` (absent paths are missing from the map). */
function blobsAt(root: string, commit: string, paths: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!paths.length) return out;
  const text = git(root, ['--literal-pathspecs', 'ls-tree', '-r', '-z', commit, '--', ...paths]).toString();
  for (const rec of text.split('\0').filter(Boolean)) {
    const tab = rec.indexOf('\t');
    const [, type, sha] = rec.slice(0, tab).split(' ');
    if (type === 'blob') out.set(rec.slice(tab + 1), sha!);
  }
  return out;
}

/** Blob ids of the work tree's files, as git would store them. */
function blobsNow(root: string, paths: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!paths.length) return out;
  const shas = git(root, ['hash-object', '--', ...paths]).toString().trim().split('\n');
  paths.forEach((p, i) => out.set(p, shas[i]!));
  return out;
}

/** Which inputs of each experiment differ between `commit` and the work tree. */
export function whyChanged(root: string, commit: string, experiments: ExperimentInputs[]): WhyMap {
  const all = [...new Set(experiments.flatMap((e) => [...e.files, LOCKFILE]))].sort();
  // Only files of this repository can be compared: not those outside the root (a test's closure can
  // reach there), nor those git ignores (node_modules: package-lock.json stands for them), nor one gone
  // from the work tree (the build is older than the tree).
  const inside = all.filter((p) => !p.startsWith('../') && !isAbsolute(p) && existsSync(join(root, p)));
  const versioned = new Set(inside.length ? git(root, ['--literal-pathspecs', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...inside]).toString().split('\0') : []);
  const present = inside.filter((p) => versioned.has(p));
  const before = blobsAt(root, commit, present);
  const now = blobsNow(root, present);
  const byPath = new Map<string, InputChange>();
  for (const p of present) {
    const a = before.get(p);
    if (a === now.get(p)) continue;
    if (!a) {
      byPath.set(p, { path: p, kind: 'added', values: [], lines: 0 });
      continue;
    }
    const d = p === LOCKFILE ? { values: [], lines: 0 } : valueChanges(git(root, ['--literal-pathspecs', 'diff', '-U0', '--no-color', '--no-ext-diff', commit, '--', p]).toString());
    byPath.set(p, { path: p, kind: 'changed', ...d });
  }
  const out: WhyMap = new Map();
  for (const e of experiments) {
    out.set(
      e.id,
      [...new Set([...e.files, LOCKFILE])].sort().flatMap((p) => (byPath.has(p) ? [byPath.get(p)!] : [])),
    );
  }
  return out;
}

/** `src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)`. */
export function describeInput(c: InputChange): string {
  if (c.kind === 'added') return `${c.path} added`;
  if (c.path === LOCKFILE) return `${c.path} changed (npm packages)`;
  if (c.values.length) {
    const shown = c.values.slice(0, 4).map((v) => `${v.name} ${v.old} → ${v.new}`);
    return `${c.path} changed (${shown.join(', ')}${c.values.length > 4 ? `, +${c.values.length - 4} more` : ''})`;
  }
  return `${c.path} changed (${c.lines} line${c.lines === 1 ? '' : 's'})`;
}
