/**
 * `stopwatches diff [BASE]`: what a change did to the paper. Compares the
 * current build (src/generated/) with a baseline: the committed snapshots
 * (test/snapshots/, the default), a git revision's snapshots (read with
 * `git show`, nothing checked out), or a folder laid out like test/snapshots/
 * (a downloaded CI artifact's `build/`).
 *
 * Writes the report folder afresh (default dist/diff/): `index.html`, the
 * whole report in one self-contained file; `diff.json` and `numbers.txt`, the
 * same for tools and grep; `build/`, the current outputs with the commit they
 * came from, so `stopwatches snapshot --from` can accept them from a CI
 * artifact. `markdown` also writes the comment-sized summary. Prints a short
 * summary. A missing or corrupt side is a UserError naming the file and the fix.
 *
 * What it may replace: the report folder only when it is a report of its own
 * (its marker file, src/fs/folder.ts), and the Markdown file by the one
 * writer's rule (src/fs/atomic.ts: a link is written through, a FIFO or a
 * device into, a folder refused). Both are checked before anything is read.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fsErrorLine, UserError } from '../../errors.ts';
import { landingOf, writeFileAtomicSync } from '../../fs/atomic.ts';
import { ownedFolderProblem, replaceOwnedFolder } from '../../fs/folder.ts';
import { walkFiles } from '../../fs/walk.ts';
import { toPosix } from '../fsutil.ts';
import { DIFF_REPORT_DIR, GENERATED_DIR, outputPaths, readJson, REPORT_LAYOUT, REPORT_MARKER, reportPaths, SCHEMAS, SNAPSHOT_DIR } from '../outputs.ts';
import { renderHtml, type FigureImages } from './html.ts';
import { renderMarkdown, type Outcome } from './markdown.ts';
import { EMPTY_CONTEXT, inSizeOrder } from './numbers.ts';
import { numberLine, summaryLines } from './format.ts';
import { computeDiff, type DiffContext, type DiffResult } from './result.ts';
import { git } from '../git.ts';
import { loadDir, loadGitRevision, resolveCommit, type Side } from './sides.ts';
import { whyChanged, type ExperimentInputs, type WhyMap } from './why.ts';

export interface BuildSource {
  /** The commit the outputs were built from. */
  commit: string | null;
  /** Tracked files differed from that commit when it was built. */
  dirty: boolean;
}

export interface DiffOptions {
  root: string;
  /** A folder or a git revision; default the committed snapshots (<root>/test/snapshots). */
  base?: string;
  generatedDir?: string;
  snapshotDir?: string;
  /** The report folder; default <root>/dist/diff. */
  outDir?: string;
  /** Also write the Markdown summary to this file. */
  markdown?: string;
  /** The link to the full report that the Markdown gives (a CI run's page). */
  reportUrl?: string;
  /** How the build and the tests of this commit ended (CI): the Markdown then opens with the verdict. */
  build?: Outcome;
  tests?: Outcome;
  /** Print every changed number, not only the largest. */
  all?: boolean;
  context?: DiffContext;
  log?(line: string): void;
}

export interface DiffRun {
  result: DiffResult;
  /** Path of index.html. */
  report: string;
  markdown: string;
}

export function runDiff(opts: DiffOptions): DiffRun {
  const root = resolve(opts.root);
  const log = opts.log ?? ((l: string) => console.log(l));
  const gen = opts.generatedDir ?? join(root, GENERATED_DIR);
  const snap = opts.snapshotDir ?? join(root, SNAPSHOT_DIR);
  const outDir = opts.outDir ?? join(root, DIFF_REPORT_DIR);
  const rel = (p: string) => {
    const r = toPosix(relative(root, p));
    return r.startsWith('../') || r === '..' ? p : r || '.';
  };

  // Both targets are checked before any work: a mistaken --out or --md costs one line, never a file.
  const outProblem = ownedFolderProblem(outDir, REPORT_FOLDER);
  if (outProblem) throw refuseOut(outDir, root, outProblem);
  if (opts.markdown) mdTarget(opts.markdown, rel(opts.markdown));

  const base = loadBase(root, opts.base, snap, rel);
  const cur = loadDir(gen, rel(gen), 'build first: `npm run build` (or `stopwatches run`)', headCommit(root));
  const result = computeDiff(base, cur, opts.context ?? EMPTY_CONTEXT, explainInputs(root, gen, base));
  const report = writeReport(result, base, cur, outDir, root, gen);
  const markdown = renderMarkdown(result, { ...(opts.reportUrl ? { reportUrl: opts.reportUrl } : {}), ...(opts.build ? { build: opts.build } : {}), ...(opts.tests ? { tests: opts.tests } : {}), reportPath: rel(report) });
  if (opts.markdown) {
    const file = mdTarget(opts.markdown, rel(opts.markdown));
    try {
      // Whole or not at all: the workflow posts whatever file is there.
      writeFileAtomicSync(file, markdown);
    } catch (err) {
      throw mdProblem(rel(opts.markdown), err);
    }
  }
  for (const l of summaryLines(result, rel(report), { all: opts.all })) log(l);
  return { result, report, markdown };
}

/** The --md file's folder made, and the file checked writable by the one writer's rule (not a folder, not a socket). */
function mdTarget(markdown: string, shown: string): string {
  const file = resolve(markdown);
  try {
    mkdirSync(dirname(file), { recursive: true });
    landingOf(file);
  } catch (err) {
    throw mdProblem(shown, err);
  }
  return file;
}

function mdProblem(markdown: string, err: unknown): UserError {
  return new UserError(`diff --md ${fsErrorLine(err, markdown) ?? `${markdown}: ${(err as Error).message}`}`);
}

function refuseOut(outDir: string, root: string, problem: string): UserError {
  const rel = toPosix(relative(root, outDir)) || '.';
  const shown = rel.startsWith('..') ? outDir : rel;
  return new UserError(`diff --out ${shown}: ${problem}; the report replaces only a report folder of its own: give a new or empty folder (or remove ${shown} yourself)`);
}

function headCommit(root: string): string | null {
  return resolveCommit(root, 'HEAD');
}

function loadBase(root: string, base: string | undefined, snap: string, rel: (p: string) => string): Side {
  if (base === undefined) {
    // The committed snapshots belong to HEAD: the snapshot test holds them equal to HEAD's build.
    return loadDir(snap, rel(snap), 'accept a baseline with `stopwatches snapshot`, or restore the committed one with `git checkout -- test/snapshots`', headCommit(root));
  }
  const dir = resolve(root, base);
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    const source = readSource(dir);
    return loadDir(dir, rel(dir), 'give a folder laid out like test/snapshots/ (numbers.json, figures/, data/)', source?.commit ?? null);
  }
  return loadGitRevision(root, base, rel(snap));
}

/** The source.json of a build folder, if it has a readable one. */
export function readSource(dir: string): BuildSource | null {
  try {
    const s = JSON.parse(readFileSync(outputPaths(dir).source, 'utf8')) as Partial<BuildSource>;
    return { commit: typeof s.commit === 'string' ? s.commit : null, dirty: s.dirty === true };
  } catch {
    return null;
  }
}

/** The input changes since the baseline's commit, or why they cannot be compared. */
function explainInputs(root: string, gen: string, base: Side): WhyMap | string {
  if (!base.commit) return "the baseline's commit is unknown (not a git repository, or a folder without source.json)";
  let experiments: ExperimentInputs[];
  try {
    const index = readJson(outputPaths(gen).experiments, SCHEMAS.experiments, 'rebuild with `stopwatches run`');
    experiments = index.experiments.map((e) => ({ id: e.id, files: [...Object.keys(e.files), ...Object.keys(e.inputs)] }));
  } catch {
    return 'src/generated/experiments.json is missing or unreadable: rebuild with `stopwatches run`';
  }
  try {
    git(root, ['cat-file', '-e', `${base.commit}^{commit}`]);
  } catch {
    return `commit ${base.commit.slice(0, 12)} is not in this repository (fetch it: git fetch origin ${base.commit})`;
  }
  return whyChanged(root, base.commit, experiments);
}

function sourceOf(root: string): BuildSource {
  const commit = headCommit(root);
  let dirty = false;
  if (commit) {
    try {
      dirty = git(root, ['status', '--porcelain', '--untracked-files=no']).toString().trim() !== '';
    } catch {
      dirty = false;
    }
  }
  return { commit, dirty };
}

/** What makes a folder a report of `stopwatches diff`: the marker it writes, or (older reports) exactly its layout. */
const REPORT_FOLDER = { marker: REPORT_MARKER, stamp: 'written by stopwatches diff; this folder is replaced whole by the next one\n', layout: REPORT_LAYOUT };

/**
 * Writes the report folder afresh and whole: into a temp folder first, renamed
 * over the old one at the end, so a failure never leaves half a report. Only a
 * previous report (absent, empty, or carrying the marker) is replaced; any
 * other target is refused with one line before anything is written.
 */
export function writeReport(r: DiffResult, base: Side, cur: Side, outDir: string, root: string, genDir = join(root, GENERATED_DIR)): string {
  const refuse = (problem: string) => refuseOut(outDir, root, problem);
  replaceOwnedFolder(outDir, REPORT_FOLDER, (tmp) => {
    const images = new Map<string, FigureImages>();
    for (const f of r.figures) {
      // A figure drawn only as SVG (a phone-width drawing) is shown from its SVG.
      const old = base.figures.get(`${f.key}.png`) ?? base.figures.get(`${f.key}.svg`);
      const now = cur.figures.get(`${f.key}.png`) ?? cur.figures.get(`${f.key}.svg`);
      images.set(f.key, { ...(old ? { old } : {}), ...(now ? { new: now } : {}), ...(f.diffPng ? { diff: f.diffPng } : {}) });
    }
    const out = reportPaths(tmp);
    writeFileAtomicSync(out.html, renderHtml(r, images));
    const json = { ...r, figures: r.figures.map(({ diffPng: _d, ...f }) => f) };
    writeFileAtomicSync(out.json, reportJson(json));
    writeFileAtomicSync(out.numbersText, numbersTextChunks(r));
    // The current outputs, laid out like test/snapshots/, for `stopwatches snapshot --from`.
    const gen = outputPaths(genDir);
    const build = outputPaths(out.build);
    mkdirSync(build.figures, { recursive: true });
    writeFileAtomicSync(build.numbers, readFileSync(gen.numbers));
    for (const [name, buf] of cur.figures) writeFileAtomicSync(join(build.figures, name), buf);
    for (const name of walkFiles(gen.data)) {
      mkdirSync(dirname(join(build.data, name)), { recursive: true });
      writeFileAtomicSync(join(build.data, name), readFileSync(join(gen.data, name)));
    }
    writeFileAtomicSync(build.source, `${JSON.stringify(sourceOf(root), null, 2)}\n`);
  }, refuse);
  return reportPaths(outDir).html;
}

/**
 * diff.json's text: ±Infinity (a change from 0) written as a string, where JSON would write null.
 * The replacer that does it costs a call per value (twice the time: half a second for 130,000
 * numbers), so it is used only when there is such a value.
 */
function reportJson(value: unknown): string {
  const replacer = hasNonFinite(value) ? (_k: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v) : undefined;
  return `${JSON.stringify(value, replacer, 2)}\n`;
}

function hasNonFinite(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(hasNonFinite);
  for (const k in v) if (hasNonFinite((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** Lines of numbers.txt per chunk: one write per line cost a system call each (1 s for 130,000 numbers). */
const LINES_PER_CHUNK = 1000;

/** numbers.txt, one changed number a line, as chunks (a report of 100,000 numbers is never one string). */
function* numbersTextChunks(r: DiffResult): Generator<string> {
  const rows = inSizeOrder(r.numbers);
  for (let i = 0; i < rows.length; i += LINES_PER_CHUNK) {
    yield rows
      .slice(i, i + LINES_PER_CHUNK)
      .map((n) => `${numberLine(n, r.farOff)}\n`)
      .join('');
  }
}

export { computeDiff, hasChanges, type DiffContext, type DiffResult, type ClaimChange } from './result.ts';
export { renderMarkdown, renderNoBuild, MARKDOWN_LIMIT, COMMENT_MARKER, type Outcome } from './markdown.ts';
export { loadDir, loadGitRevision, type Side } from './sides.ts';
export type { NumberContext, NumberRow, PublishedValue } from './numbers.ts';
