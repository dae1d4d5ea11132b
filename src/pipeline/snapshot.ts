/**
 * `stopwatches snapshot [--from DIR]`: accepts a build as the new baseline.
 * Copies numbers.json, every figure's SVG and PNG and the combined data to
 * test/snapshots/, removes snapshots of figures and data that no longer
 * exist, and says what changed.
 *
 * The build is src/generated/ by default, or with `from` the `build/` folder
 * of a CI artifact (`stopwatches diff` writes it into its report), so a
 * contributor whose machine renders differently accepts CI's outputs without
 * rebuilding. An artifact is accepted only for the commit checked out here,
 * and only when every file in it reads back (numbers, data, PNGs): it is
 * checked whole before anything is copied.
 *
 * Refuses to run under CI: a baseline is a reviewed decision, not a side effect.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../errors.ts';
import { writeFileAtomicSync } from '../fs/atomic.ts';
import { decodeFigurePng } from './png.ts';
import { readSource } from './diff/index.ts';
import { loadDir, resolveCommit } from './diff/sides.ts';
import { toPosix } from './fsutil.ts';
import { CHANGED_FIGURE_FILE, GENERATED_DIR, isFigureFile, outputPaths, parseOutput, readJson, reportPaths, SCHEMAS, SNAPSHOT_DIR, SOURCE_FILE } from './outputs.ts';
import { describeNumberChanges, compareNumbers } from './numbers.ts';
import type { NumbersFile } from './types.ts';

export interface SnapshotOptions {
  root: string;
  generatedDir?: string;
  snapshotDir?: string;
  /** A downloaded CI artifact (or its build/ folder) to accept instead of src/generated/. */
  from?: string;
  log?(line: string): void;
  env?: Record<string, string | undefined>;
}

export interface SnapshotResult {
  numbers: string[];
  figures: { changed: string[]; added: string[]; removed: string[] };
  /** Data snapshots (data/<exp>.json) changed, added or removed; absent when none did. */
  data?: { changed: string[]; added: string[]; removed: string[] };
}

/** The snapshot being replaced: absent or unreadable counts as empty (accepting a build repairs it). */
function previousNumbers(path: string): NumbersFile {
  try {
    return parseOutput(readFileSync(path, 'utf8'), SCHEMAS.numbers, path, '');
  } catch {
    return {};
  }
}


/** The build folder of a CI artifact, checked whole; a UserError names what is wrong and the fix. */
function checkArtifact(root: string, from: string): string {
  const dir = resolve(root, from);
  // The unzipped artifact (report/build/, as scripts/pr-diff.sh lays it out), a report folder, or the build itself.
  const build = [reportPaths(join(dir, 'report')).build, reportPaths(dir).build, dir].find((d) => existsSync(outputPaths(d).numbers)) ?? dir;
  const label = toPosix(relative(root, build)) || '.';
  const fix = 'download the `paper-diff` artifact of the pull request\'s latest CI run again and unzip it whole';
  if (!existsSync(outputPaths(build).numbers)) throw new UserError(`snapshot --from: ${label} has no numbers.json (nor report/build/ or build/ with one); ${fix}`);
  const side = loadDir(build, label, fix, null, 'snapshot --from: ');
  for (const [name, buf] of side.figures) {
    if (name.endsWith('.png')) {
      try {
        decodeFigurePng(buf);
      } catch (err) {
        throw new UserError(`snapshot --from: ${label}/figures/${name} is not a readable PNG (${(err as Error).message}); ${fix}`);
      }
    } else if (!buf.toString('utf8', 0, 200).includes('<svg')) {
      throw new UserError(`snapshot --from: ${label}/figures/${name} is not an SVG; ${fix}`);
    }
  }
  const source = readSource(build);
  if (!source?.commit) throw new UserError(`snapshot --from: ${label}/${SOURCE_FILE} is missing, so the commit these outputs were built from is unknown; ${fix}`);
  const head = resolveCommit(root, 'HEAD');
  if (head !== source.commit) {
    throw new UserError(
      `snapshot --from: ${label} was built from commit ${source.commit.slice(0, 12)}, but HEAD here is ${head ? head.slice(0, 12) : 'no commit'}; ` +
        `check out ${source.commit.slice(0, 12)} (or download the artifact of the run for your latest push)`,
    );
  }
  if (source.dirty) throw new UserError(`snapshot --from: ${label} was built from a work tree with uncommitted changes (${SOURCE_FILE}: dirty); accept only outputs of a committed state`);
  return build;
}

/** Copies `from`'s files with a name passing `keep` into `to`, removes the others there; returns what changed. */
function mirror(from: string, to: string, keep: (f: string) => boolean) {
  const changes = { changed: [] as string[], added: [] as string[], removed: [] as string[] };
  const src = existsSync(from) ? readdirSync(from).filter(keep).sort() : [];
  mkdirSync(to, { recursive: true });
  const dst = readdirSync(to).filter(keep).sort();
  for (const f of src) {
    const a = join(from, f);
    const b = join(to, f);
    if (!existsSync(b)) changes.added.push(f);
    else if (!readFileSync(a).equals(readFileSync(b))) changes.changed.push(f);
    writeFileAtomicSync(b, readFileSync(a));
  }
  for (const f of dst) {
    if (!src.includes(f)) {
      rmSync(join(to, f), { force: true });
      changes.removed.push(f);
    }
  }
  return changes;
}

export function acceptSnapshot(opts: SnapshotOptions): SnapshotResult {
  const env = opts.env ?? process.env;
  if (env.CI && env.CI !== 'false' && env.CI !== '0') throw new UserError('snapshot: refusing to write snapshots under CI (CI is set)');
  const root = resolve(opts.root);
  const gen = outputPaths(opts.from !== undefined ? checkArtifact(root, opts.from) : (opts.generatedDir ?? join(root, GENERATED_DIR)));
  const snap = outputPaths(opts.snapshotDir ?? join(root, SNAPSHOT_DIR));
  const log = opts.log ?? ((l: string) => console.log(l));
  const genNumbers = gen.numbers;
  if (!existsSync(genNumbers)) throw new UserError(`snapshot: ${toPosix(relative(root, genNumbers))} does not exist; build first (npm run build, or stopwatches run)`);

  // The build's numbers are read strictly: a corrupt build is never copied into the snapshot.
  const built = readJson(genNumbers, SCHEMAS.numbers, 'rebuild (npm run build) and accept again', toPosix(relative(root, genNumbers)));
  const changes = compareNumbers(previousNumbers(snap.numbers), built);
  mkdirSync(snap.dir, { recursive: true });
  writeFileAtomicSync(snap.numbers, readFileSync(genNumbers));
  const figures = mirror(gen.figures, snap.figures, isFigureFile);
  // The mismatches this accepts are resolved: their -changed files are stale now.
  for (const f of readdirSync(snap.figures).filter((x) => CHANGED_FIGURE_FILE.test(x))) rmSync(join(snap.figures, f), { force: true });
  // Combined data (data/<exp>.json): the rows behind each figure, for `stopwatches diff`.
  const data = mirror(gen.data, snap.data, (f) => f.endsWith('.json'));

  const lines = describeNumberChanges(changes);
  const dataChanges = data.changed.length + data.added.length + data.removed.length;
  const source = opts.from !== undefined ? ` from ${toPosix(relative(root, gen.dir)) || '.'}` : '';
  log(`snapshot${source}: ${lines.length} number${lines.length === 1 ? '' : 's'} changed; figures: ${figures.changed.length} changed, ${figures.added.length} new, ${figures.removed.length} removed`);
  if (dataChanges) log(`snapshot: data: ${data.changed.length} changed, ${data.added.length} new, ${data.removed.length} removed`);
  for (const l of lines) log(`  ${l}`);
  for (const f of figures.changed) log(`  changed ${f}`);
  for (const f of figures.added) log(`  new     ${f}`);
  for (const f of figures.removed) log(`  removed ${f}`);
  for (const f of data.changed) log(`  changed data/${f}`);
  for (const f of data.added) log(`  new     data/${f}`);
  for (const f of data.removed) log(`  removed data/${f}`);
  const n = lines.length + figures.changed.length + figures.added.length + figures.removed.length + dataChanges;
  if (n) log('review with `stopwatches diff` (before accepting) or `git diff test/snapshots`, then commit with the reason for every changed number');
  return { numbers: changes.map((c) => c.id), figures, ...(dataChanges ? { data } : {}) };
}
