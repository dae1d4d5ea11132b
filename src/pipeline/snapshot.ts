/**
 * `npm run snapshot`: accepts the current build as the new baseline. Copies
 * src/generated/numbers.json and every figure's SVG and PNG to test/snapshots/,
 * removes snapshots of figures that no longer exist, and says what changed.
 * Refuses to run under CI: a baseline is a reviewed decision, not a side effect.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.ts';
import { describeNumberChanges, diffNumbers } from './numbers.ts';
import type { NumbersFile } from './types.ts';

export interface SnapshotOptions {
  root: string;
  generatedDir?: string;
  snapshotDir?: string;
  log?(line: string): void;
  env?: Record<string, string | undefined>;
}

export interface SnapshotResult {
  numbers: string[];
  figures: { changed: string[]; added: string[]; removed: string[] };
  /** Data snapshots (data/<exp>.json) changed, added or removed; absent when none did. */
  data?: { changed: string[]; added: string[]; removed: string[] };
}

function readNumbers(path: string): NumbersFile {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as NumbersFile;
  } catch {
    return {};
  }
}

const FIGURE_FILE = /\.(svg|png)$/;
const isSnapshotFigure = (f: string) => FIGURE_FILE.test(f) && !/-changed\.(svg|png)$/.test(f);

export function acceptSnapshot(opts: SnapshotOptions): SnapshotResult {
  const env = opts.env ?? process.env;
  if (env.CI && env.CI !== 'false' && env.CI !== '0') throw new UserError('snapshot: refusing to write snapshots under CI (CI is set)');
  const root = resolve(opts.root);
  const gen = opts.generatedDir ?? join(root, 'src', 'generated');
  const snap = opts.snapshotDir ?? join(root, 'test', 'snapshots');
  const log = opts.log ?? ((l: string) => console.log(l));
  const genNumbers = join(gen, 'numbers.json');
  if (!existsSync(genNumbers)) throw new UserError(`snapshot: ${genNumbers} does not exist; build first (node bin/stopwatches.mjs run)`);

  const changes = diffNumbers(readNumbers(join(snap, 'numbers.json')), readNumbers(genNumbers));
  mkdirSync(join(snap, 'figures'), { recursive: true });
  copyFileSync(genNumbers, join(snap, 'numbers.json'));

  const genFigures = existsSync(join(gen, 'figures')) ? readdirSync(join(gen, 'figures')).filter(isSnapshotFigure).sort() : [];
  const snapFigures = readdirSync(join(snap, 'figures')).filter(isSnapshotFigure).sort();
  const figures = { changed: [] as string[], added: [] as string[], removed: [] as string[] };
  for (const f of genFigures) {
    const from = join(gen, 'figures', f);
    const to = join(snap, 'figures', f);
    if (!existsSync(to)) figures.added.push(f);
    else if (!readFileSync(from).equals(readFileSync(to))) figures.changed.push(f);
    copyFileSync(from, to);
    // The mismatch this accepts is resolved: its -changed file is stale now.
    rmSync(to.replace(FIGURE_FILE, '-changed.$1'), { force: true });
  }
  for (const f of snapFigures) {
    if (!genFigures.includes(f)) {
      rmSync(join(snap, 'figures', f), { force: true });
      figures.removed.push(f);
    }
  }

  // Combined data (data/<exp>.json): the rows behind each figure, for `npm run diff`.
  const data = { changed: [] as string[], added: [] as string[], removed: [] as string[] };
  const genData = existsSync(join(gen, 'data')) ? readdirSync(join(gen, 'data')).filter((f) => f.endsWith('.json')).sort() : [];
  mkdirSync(join(snap, 'data'), { recursive: true });
  const snapData = readdirSync(join(snap, 'data')).filter((f) => f.endsWith('.json')).sort();
  for (const f of genData) {
    const from = join(gen, 'data', f);
    const to = join(snap, 'data', f);
    if (!existsSync(to)) data.added.push(f);
    else if (!readFileSync(from).equals(readFileSync(to))) data.changed.push(f);
    copyFileSync(from, to);
  }
  for (const f of snapData) {
    if (!genData.includes(f)) {
      rmSync(join(snap, 'data', f), { force: true });
      data.removed.push(f);
    }
  }

  const lines = describeNumberChanges(changes);
  const dataChanges = data.changed.length + data.added.length + data.removed.length;
  log(`snapshot: ${lines.length} number${lines.length === 1 ? '' : 's'} changed; figures: ${figures.changed.length} changed, ${figures.added.length} new, ${figures.removed.length} removed`);
  if (dataChanges) log(`snapshot: data: ${data.changed.length} changed, ${data.added.length} new, ${data.removed.length} removed`);
  for (const l of lines) log(`  ${l}`);
  for (const f of figures.changed) log(`  changed ${f}`);
  for (const f of figures.added) log(`  new     ${f}`);
  for (const f of figures.removed) log(`  removed ${f}`);
  for (const f of data.changed) log(`  changed data/${f}`);
  for (const f of data.added) log(`  new     data/${f}`);
  for (const f of data.removed) log(`  removed data/${f}`);
  const n = lines.length + figures.changed.length + figures.added.length + figures.removed.length + dataChanges;
  if (n) log('review with `npm run diff` (before accepting) or `git diff test/snapshots`, then commit with the reason for every changed number');
  return { numbers: changes.map((c) => c.id), figures, ...(dataChanges ? { data } : {}) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    acceptSnapshot({ root: process.cwd() });
  } catch (err) {
    if (err instanceof UserError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = err.exitCode;
    } else throw err;
  }
}
