/**
 * The build's outputs: where they are, what they hold, how they are read, and
 * how two of them are compared. The runner writes them, the site reads them,
 * `npm run diff` and `npm run snapshot` compare and copy them; all go through
 * this module, so a field or a path is declared once.
 *
 * Layout of a build folder (src/generated/):
 *
 *   numbers.json          id → number entry, one per line, sorted by id
 *   number-ids.d.ts       `NumberId`, the union of every id (so `tsc` and the editor catch a typo)
 *   experiments.json      { experiments: ExperimentIndexEntry[] }, registry order
 *   figures/index.json    FigureIndex: `<experiment>.<figure>` → entry, paper order
 *   figures/<key>.svg     normalized SVG
 *   figures/<key>.png     PNG drawn from that SVG (the index records both files' sha256)
 *   figures/<key>.narrow.svg  the figure drawn again for a phone's width (render.ts: renderNarrowSvg);
 *                         a figure file like the others, so it is snapshotted, compared and
 *                         reviewed under the same rule, as the figure `<key>.narrow` (SVG only)
 *   data/<experiment>.json  combined data, the rows behind the figures
 *   source.json           only in a diff report's build/: the commit it was built from
 *   claims.json           ClaimsFile: every checked claim evaluated on numbers.json, with that
 *                         file's sha256 (written by `stopwatches claims`, read by the site, which
 *                         refuses a claims.json of other numbers; src/claims/evaluate.ts)
 *
 * A snapshot folder (test/snapshots/) holds numbers.json, figures/*.svg|png (narrow drawings included) and
 * data/*.json. A mismatching figure's new version is written beside its
 * snapshot as `<key>-changed.svg|png` (ignored by git, never a snapshot).
 *
 * Run times are wall-clock facts of one machine, not results: they are kept in
 * `.cache/runtimes.json`, outside every folder that must be byte-identical
 * between two builds of one commit.
 *
 * Reading is strict (zod): a file that is not what the writer writes is one
 * `OutputError` naming the file, the field and the fix, never a guess.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.ts';
import { git } from './git.ts';
import type { Clauses, NumbersFile } from './types.ts';

// ---------------------------------------------------------------- layout

/** Root-relative folders. */
export const GENERATED_DIR = 'src/generated';
export const SNAPSHOT_DIR = 'test/snapshots';
/** `stopwatches diff`'s report folder. */
export const DIFF_REPORT_DIR = 'dist/diff';
/** The job cache, the experiments' bundles and the last build's run times: never a deterministic output. */
export const CACHE_DIR = '.cache';
/** Outside every deterministic output: wall-clock run times of the last build. */
export const RUNTIMES_FILE = `${CACHE_DIR}/runtimes.json`;

/** Where a build copied into a report says which commit it is of. */
export const SOURCE_FILE = 'source.json';

/** Paths under a project root's `.cache/`. */
export function cachePaths(root: string) {
  const dir = join(root, CACHE_DIR);
  return {
    dir,
    /** Job results, content-addressed (src/pipeline/cache.ts). */
    experiments: join(dir, 'experiments'),
    /** Bundled experiment modules, imported by the workers. */
    bundles: join(dir, 'bundles'),
    /** Drawn figures by the hash of what they are drawn from (src/pipeline/figure-cache.ts). */
    figures: join(dir, 'figures'),
    runtimes: join(root, RUNTIMES_FILE),
  };
}

/**
 * Paths of a diff report folder: the report in three forms, and `build/`, the
 * current outputs laid out like test/snapshots/ with `source.json` (the commit
 * they are of), which `stopwatches snapshot --from` accepts.
 */
export function reportPaths(dir: string) {
  const build = join(dir, 'build');
  return { dir, html: join(dir, 'index.html'), json: join(dir, 'diff.json'), numbersText: join(dir, 'numbers.txt'), build, marker: join(dir, REPORT_MARKER) };
}

/** The file a diff report folder carries so the next report may replace it (and nothing else is ever replaced). */
export const REPORT_MARKER = '.stopwatches-diff';
/** A report folder's entries besides the marker (reports written before the marker are recognised by exactly these). */
export const REPORT_LAYOUT = ['index.html', 'diff.json', 'numbers.txt', 'build'] as const;

/** Paths of the files of a build (or snapshot) folder. */
export function outputPaths(dir: string) {
  const figures = join(dir, 'figures');
  return {
    dir,
    numbers: join(dir, 'numbers.json'),
    numberIds: join(dir, 'number-ids.d.ts'),
    experiments: join(dir, 'experiments.json'),
    figures,
    figureIndex: join(figures, 'index.json'),
    svg: (key: string) => join(figures, `${key}.svg`),
    png: (key: string) => join(figures, `${key}.png`),
    /** The same figure drawn again for a phone (render.ts: renderNarrowSvg), beside the wide one. */
    narrowSvg: (key: string) => join(figures, narrowFigureFile(key)),
    data: join(dir, 'data'),
    dataFile: (experiment: string) => join(dir, 'data', `${experiment}.json`),
    claims: join(dir, 'claims.json'),
    /** In a build copied into a diff report: the commit it is of (SOURCE_FILE). */
    source: join(dir, SOURCE_FILE),
  };
}

export type OutputPaths = ReturnType<typeof outputPaths>;

const FIGURE_FILE = /^(.+)\.(svg|png)$/;
/** A mismatching snapshot figure's new version (changedFileName), never a snapshot itself. */
export const CHANGED_FIGURE_FILE = /-changed\.(svg|png)$/;

/** The file of a figure's phone-width drawing: `<key>.narrow.svg`, which the comparison reads as the figure `<key>.narrow`. */
export function narrowFigureFile(key: string): string {
  return `${key}.narrow.svg`;
}

/** A figure file of a build or snapshot (`<key>.svg|png`, `<key>.narrow.svg`), not a `-changed` copy. */
export function isFigureFile(name: string): boolean {
  return FIGURE_FILE.test(name) && !CHANGED_FIGURE_FILE.test(name);
}

/** `<key>.svg` → `<key>`. */
export function figureKeyOf(name: string): string {
  return FIGURE_FILE.exec(name)?.[1] ?? name;
}

/** Where the new version of a mismatching snapshot figure is written: `x.svg` → `x-changed.svg`. */
export function changedFileName(name: string): string {
  return name.replace(FIGURE_FILE, '$1-changed.$2');
}

// ---------------------------------------------------------------- types

/** What the build records about how an experiment's outputs were made. Deterministic: no clock, no absolute path. */
export interface Provenance {
  /** Experiment module, root-relative (`experiments/first-wave.ts`). */
  file: string;
  /** sha256 of the canonical config JSON. */
  configHash: string;
  seeds: number[];
  jobs: number;
  /** Files in the bundled import closure. */
  closure: number;
  /** First 16 hex digits of package-lock.json's sha256. */
  lockfile: string;
  node: string;
}

export interface FigureIndexEntry {
  experiment: string;
  figure: string;
  title: string;
  caption: string;
  alt: string;
  /** File names inside the figures folder. */
  svg: string;
  /** null when the build ran with `--no-png`. */
  png: string | null;
  /** sha256 of the SVG file. */
  svgSha256: string;
  /**
   * sha256 of the PNG file, drawn from exactly the SVG above: a PNG whose bytes
   * differ, or whose entry names another SVG, is redrawn by the next build and
   * refused by the site.
   */
  pngSha256: string | null;
  width: number;
  height: number;
  clauses: Clauses;
  provenance: Provenance;
}

/** figures/index.json: `<experiment>.<figure>` → entry, in paper order. */
export type FigureIndex = Record<string, FigureIndexEntry>;

/** How an experiment's outputs stand against the committed snapshot, as of the build that wrote them. */
export interface SnapshotStatus {
  /** `match`: every number and figure equals the snapshot; `differs`; `none`: no snapshot to compare with. */
  status: 'match' | 'differs' | 'none';
  /** Numbers changed, new or gone. */
  numbers: number;
  /** Figures whose SVG or PNG changed, new or gone. */
  figures: number;
}

export interface ExperimentIndexEntry {
  id: string;
  title: string;
  needs: string[];
  config: unknown;
  clauses: Clauses;
  provenance: Provenance;
  /** Declared input files: root-relative path → sha256. */
  inputs: Record<string, string>;
  /** The bundled import closure (root-relative path → sha256): what `stopwatches diff` compares with a baseline's commit to say why outputs moved. */
  files: Record<string, string>;
  /** Full number ids, sorted. */
  numbers: string[];
  /** Figure keys, in display order. */
  figures: string[];
  snapshot: SnapshotStatus;
}

/** experiments.json. */
export interface ExperimentIndex {
  experiments: ExperimentIndexEntry[];
}

/** Wall-clock run times of the last build (RUNTIMES_FILE): experiment id → summed job milliseconds. */
export type Runtimes = Record<string, number>;

/** A checked claim's status on one build's numbers (meanings in src/claims/evaluate.ts). */
export type ClaimStatus = 'holds' | 'fails' | 'contradicted' | 'stale';

/** A claim evaluated seed by seed: "holds in `holds` of `seeds` seeds". */
export type SeedVerdict =
  | {
      /** Seeds in which every per-seed number of the claim has a value. */
      seeds: number;
      /** Of those, the seeds in which the claim holds, its numbers read at that seed. */
      holds: number;
      /** The smallest slack over the seeds. */
      worstSlack: number | null;
      /** The claim reads a median over seeds (`id@median`): its sentence holds by the median, and says so. */
      byMedian?: true;
    }
  | {
      /** Seeds the spread the claim describes is taken over. */
      seeds: number;
      /**
       * The claim compares parts of one number's spread over seeds with each other (its median against its
       * largest, a mode against the other): it describes the distribution, so no single seed can bear it out
       * or refute it, and it has no per-seed verdict.
       */
      ofSpread: true;
    };

/** What a claim rests on: simulated results (`evidence`), or what no change of the simulator can move (src/claims/types.ts). */
export type ClaimBasis = 'evidence' | 'setting' | 'identity' | 'mathematics';
export const CLAIM_BASES = ['evidence', 'setting', 'identity', 'mathematics'] as const;

/** One claim of claims.json. */
export interface ClaimResult {
  id: string;
  section: string;
  says: string;
  kind: string;
  basis: ClaimBasis;
  status: ClaimStatus;
  /** Signed distance to flipping, in the claim's terms (null when a number is missing or infinite). */
  slack: number | null;
  margin: string;
  numbers: { id: string; value: number | null; unit: string }[];
  seeds?: SeedVerdict;
  /** For a claim of the original article: how the article put it. */
  article?: string;
  /** For a claim of the original article: why our numbers may differ, when a difference of set-up is known. */
  why?: string;
}

/** The claims evaluated on one set of numbers. */
export interface ClaimsEvaluation {
  claims: ClaimResult[];
  /** `evidence`: the claims about simulated results that hold (those of another basis are in `checked` and `hold` but not here). */
  summary: { checked: number; hold: number; evidence: number; contradicted: number; fail: number };
}

/** claims.json: the evaluation and the sha256 of the numbers.json it was made on, so a reader can refuse a stale one. */
export interface ClaimsFile extends ClaimsEvaluation {
  numbersSha256: string;
}

// ---------------------------------------------------------------- strict reading

/** A build output or baseline that is missing or not what the writer writes. Exit 2, one line. */
export class OutputError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

const seedModeSchema = z.strictObject({ min: finite, median: finite, max: finite, seeds: z.number().int() });

const numberEntrySchema = z.strictObject({
  value: finite,
  unit: z.string(),
  n: finite.nullable(),
  interval: z.tuple([finite, finite]).nullable(),
  level: finite.optional(),
  intervalKind: z.string().optional(),
  seeds: z.number().int().optional(),
  spread: z
    .strictObject({ min: finite, q1: finite, median: finite, q3: finite, max: finite, modes: z.tuple([seedModeSchema, seedModeSchema]).optional() })
    .optional(),
  perSeed: z.strictObject({ seeds: z.array(z.number().int()), values: z.array(finite) }).optional(),
  experiment: z.string(),
});
const numbersFileSchema: z.ZodType<NumbersFile> = z.record(z.string(), numberEntrySchema);

const clausesSchema: z.ZodType<Clauses> = z.strictObject({
  arrivals: z.string(),
  clock: z.string(),
  window: z.string(),
  definitions: z.string(),
  tokens: z.string(),
  prompts: z.string(),
  speculation: z.string().optional(),
  quality: z.string().optional(),
  versions: z.string().optional(),
});

const provenanceSchema: z.ZodType<Provenance> = z.strictObject({
  file: z.string(),
  configHash: z.string(),
  seeds: z.array(z.number().int()),
  jobs: z.number().int(),
  closure: z.number().int(),
  lockfile: z.string(),
  node: z.string(),
});

const figureIndexSchema: z.ZodType<FigureIndex> = z.record(
  z.string(),
  z.strictObject({
    experiment: z.string(),
    figure: z.string(),
    title: z.string().min(1),
    caption: z.string().min(1),
    alt: z.string().min(1),
    svg: z.string(),
    png: z.string().nullable(),
    svgSha256: z.string().regex(/^[0-9a-f]{64}$/),
    pngSha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
    width: z.number(),
    height: z.number(),
    clauses: clausesSchema,
    provenance: provenanceSchema,
  }),
);

const experimentIndexSchema: z.ZodType<ExperimentIndex> = z.strictObject({
  experiments: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      needs: z.array(z.string()),
      config: z.unknown(),
      clauses: clausesSchema,
      provenance: provenanceSchema,
      inputs: z.record(z.string(), z.string()),
      files: z.record(z.string(), z.string()),
      numbers: z.array(z.string()),
      figures: z.array(z.string()),
      snapshot: z.strictObject({ status: z.enum(['match', 'differs', 'none']), numbers: z.number().int(), figures: z.number().int() }),
    }),
  ),
});

const runtimesSchema: z.ZodType<Runtimes> = z.record(z.string(), z.number());

const claimStateNumber = z.number().nullable();
const claimsFileSchema: z.ZodType<ClaimsFile> = z.strictObject({
  numbersSha256: z.string().regex(/^[0-9a-f]{64}$/),
  claims: z.array(
    z.strictObject({
      id: z.string(),
      section: z.string(),
      says: z.string(),
      kind: z.string(),
      basis: z.enum(CLAIM_BASES),
      status: z.enum(['holds', 'fails', 'contradicted', 'stale']),
      slack: claimStateNumber,
      margin: z.string(),
      numbers: z.array(z.strictObject({ id: z.string(), value: claimStateNumber, unit: z.string() })),
      seeds: z
        .union([
          z.strictObject({
            seeds: z.number().int(),
            holds: z.number().int(),
            worstSlack: claimStateNumber,
            byMedian: z.literal(true).optional(),
          }),
          z.strictObject({ seeds: z.number().int(), ofSpread: z.literal(true) }),
        ])
        .optional(),
      article: z.string().optional(),
      why: z.string().optional(),
    }),
  ),
  summary: z.strictObject({ checked: z.number().int(), hold: z.number().int(), evidence: z.number().int(), contradicted: z.number().int(), fail: z.number().int() }),
});

/** The output files a reader can ask for by kind, with their schemas. */
export const SCHEMAS = {
  numbers: numbersFileSchema,
  figureIndex: figureIndexSchema,
  experiments: experimentIndexSchema,
  runtimes: runtimesSchema,
  claims: claimsFileSchema,
  /** Combined data: any JSON. */
  data: z.unknown(),
} as const;

/**
 * Parses `text` as JSON and checks it against `schema`. `where` names the file
 * in messages (`test/snapshots/numbers.json`, `HEAD~1:test/snapshots/…`), `fix`
 * says what to do; the first problem found is the message.
 */
export function parseOutput<T>(text: string, schema: z.ZodType<T>, where: string, fix: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new OutputError(`${where} is not valid JSON (${(err as Error).message}); ${fix}`);
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : JSON.stringify(p))).join(' → ');
  throw new OutputError(`${where}: ${field ? `${field}: ` : ''}${issue.message}; ${fix}`);
}

/** The largest output file read back (numbers.json of the whole paper is a few MiB). */
export const MAX_OUTPUT_FILE_BYTES = 256 * 2 ** 20;

/** Reads and checks one output file; a missing file is an OutputError too. */
export function readJson<T>(path: string, schema: z.ZodType<T>, fix: string, where: string = path): T {
  let text: string;
  try {
    // an output is a regular file this project wrote: anything else (a link to /dev/zero, a FIFO) is refused unread
    const st = statSync(path);
    if (!st.isFile()) throw new OutputError(`${where} is not a regular file (a device, pipe or folder); ${fix}`);
    if (st.size > MAX_OUTPUT_FILE_BYTES) throw new OutputError(`${where} is ${Math.round(st.size / 2 ** 20)} MiB, above the ${MAX_OUTPUT_FILE_BYTES / 2 ** 20} MiB an output file may hold; ${fix}`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof OutputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`${where} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (err as Error).message})`}; ${fix}`);
  }
  return parseOutput(text, schema, where, fix);
}

/** Like readJson, but a missing file is `undefined` (a first build, a partial one). A present but bad file is still an error. */
export function readJsonIfPresent<T>(path: string, schema: z.ZodType<T>, fix: string, where: string = path): T | undefined {
  return existsSync(path) ? readJson(path, schema, fix, where) : undefined;
}

/** The comparable content of a build or snapshot: numbers, figure files by name, data by experiment. */
export interface OutputSet {
  /** Shown in reports: `test/snapshots`, `git 946dc93 (HEAD~1)`, `src/generated`. */
  label: string;
  numbers: NumbersFile;
  /** `<key>.svg|png` → bytes. */
  figures: Map<string, Buffer>;
  /** Combined data by experiment id; null when the folder has no data/. */
  data: Map<string, unknown> | null;
  /** Where a file of this set is, for messages: `test/snapshots/figures/x.png`, `HEAD~1:test/snapshots/…`. */
  where(path: string): string;
}

/** A folder laid out like test/snapshots/ or src/generated/. `fix` ends every error message. */
export function readOutputDir(dir: string, label: string, fix: string): OutputSet {
  const where = (p: string) => join(label, p);
  const paths = outputPaths(dir);
  const numbers = readJson(paths.numbers, SCHEMAS.numbers, fix, where('numbers.json'));
  const figures = new Map<string, Buffer>();
  if (existsSync(paths.figures)) for (const f of readdirSync(paths.figures).filter(isFigureFile).sort()) figures.set(f, readFileSync(join(paths.figures, f)));
  let data: Map<string, unknown> | null = null;
  if (existsSync(paths.data)) {
    data = new Map();
    for (const f of readdirSync(paths.data).filter((x) => x.endsWith('.json')).sort()) {
      data.set(f.slice(0, -5), readJson(join(paths.data, f), SCHEMAS.data, fix, where(`data/${f}`)));
    }
  }
  return { label, numbers, figures, data, where };
}

/** A folder (default test/snapshots) as committed at `rev`, read with `git show REV:path`; nothing is checked out. */
export function readGitRevision(root: string, rev: string, dir: string = SNAPSHOT_DIR): OutputSet {
  let commit: string;
  try {
    commit = git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).toString().trim();
  } catch {
    throw new OutputError(`${rev} is neither a folder nor a git revision of this repository; give a commit, branch or tag (e.g. HEAD~1, main)`);
  }
  const short = commit.slice(0, 7);
  const label = short === rev || commit === rev ? `git ${short}` : `git ${short} (${rev})`;
  const where = (p: string) => `${rev}:${dir}/${p}`;
  const fix = `pick a revision whose ${dir}/ was accepted with \`npm run snapshot\``;
  let files: string[];
  try {
    files = git(root, ['ls-tree', '-r', '--name-only', commit, '--', `${dir}/`]).toString().split('\n').filter(Boolean);
  } catch (err) {
    throw new OutputError(`could not list ${where('')} (${(err as Error).message.split('\n')[0]}); ${fix}`);
  }
  // ls-tree prints paths relative to the working folder, which is the root.
  const rel = (f: string) => f.slice(dir.length + 1);
  const show = (p: string) => git(root, ['show', `${commit}:./${dir}/${p}`]);
  if (!files.some((f) => rel(f) === 'numbers.json')) throw new OutputError(`${where('numbers.json')} does not exist; ${fix}`);
  const numbers = parseOutput(show('numbers.json').toString('utf8'), SCHEMAS.numbers, where('numbers.json'), fix);
  const figures = new Map<string, Buffer>();
  let data: Map<string, unknown> | null = null;
  for (const f of files.map(rel).sort()) {
    const m = /^figures\/([^/]+)$/.exec(f);
    if (m && isFigureFile(m[1]!)) figures.set(m[1]!, show(f));
    const d = /^data\/([^/]+)\.json$/.exec(f);
    if (d) (data ??= new Map()).set(d[1]!, parseOutput(show(f).toString('utf8'), SCHEMAS.data, where(f), fix));
  }
  return { label, numbers, figures, data, where };
}

// ---------------------------------------------------------------- comparison

type NumberEntry = NumbersFile[string];

/** (b − a) / |a|; 0 when equal, ±Infinity from 0. */
export function relativeChange(a: number, b: number): number {
  if (a === b) return 0;
  return a !== 0 ? (b - a) / Math.abs(a) : Math.sign(b - a) * Infinity;
}

export interface NumberChange {
  id: string;
  old?: NumberEntry;
  new?: NumberEntry;
}

/**
 * Equal as canonical JSON (./hash.ts): the same values under the same keys, in
 * any key order, an undefined field as absent. Compared in place: writing both
 * entries out as text was most of the time of comparing 100,000 numbers.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let fields = 0;
  for (const k in x) {
    if (x[k] === undefined) continue;
    if (!sameJson(x[k], y[k])) return false;
    fields++;
  }
  for (const k in y) if (y[k] !== undefined) fields--;
  return fields === 0;
}

/** Numbers that differ in any field (or exist on one side only), sorted by id. */
export function compareNumbers(base: NumbersFile, cur: NumbersFile): NumberChange[] {
  const ids = [...new Set([...Object.keys(base), ...Object.keys(cur)])].sort();
  const out: NumberChange[] = [];
  for (const id of ids) {
    const a = Object.hasOwn(base, id) ? base[id] : undefined;
    const b = Object.hasOwn(cur, id) ? cur[id] : undefined;
    if (a && b && sameJson(a, b)) continue;
    out.push({ id, ...(a ? { old: a } : {}), ...(b ? { new: b } : {}) });
  }
  return out;
}

/** A number entry on one line for a terminal: `53.3 ms [48, 61.2] (n=640) seeds=20 {min, q1, median, q3, max} modes 13@40.9|7@53.9`. */
export function formatEntry(e: NumberEntry): string {
  const iv = e.interval ? ` [${e.interval[0]}, ${e.interval[1]}]` : '';
  const s = e.spread;
  const sp = s ? ` seeds=${e.seeds} {${[s.min, s.q1, s.median, s.q3, s.max].join(', ')}}${s.modes ? ` modes ${s.modes.map((m) => `${m.seeds}@${m.median}`).join('|')}` : ''}` : '';
  return `${e.value}${e.unit ? ` ${e.unit}` : ''}${iv}${e.n !== null ? ` (n=${e.n})` : ''}${sp}`;
}

/** `id: old → new (+x%)` lines, readable in a terminal and in a test failure. */
export function describeNumberChanges(changes: NumberChange[]): string[] {
  return changes.map((c) => {
    if (!c.old) return `${c.id}: (new) ${formatEntry(c.new!)}`;
    if (!c.new) return `${c.id}: ${formatEntry(c.old)} → (gone)`;
    const rel = c.old.value !== 0 && c.old.value !== c.new.value ? ` (${c.new.value >= c.old.value ? '+' : ''}${(relativeChange(c.old.value, c.new.value) * 100).toPrecision(3)}%)` : '';
    return `${c.id}: ${formatEntry(c.old)} → ${formatEntry(c.new)}${rel}`;
  });
}

export interface FigureChange {
  key: string;
  kind: 'changed' | 'added' | 'removed';
  /** Which files differ (for `added`/`removed`: which exist). */
  svg: boolean;
  png: boolean;
}

/** One figure's files on one side; absent when that side has none. */
export interface FigureFiles {
  svg?: Buffer;
  png?: Buffer;
}

/** How one figure compares between two sides, under the one rule (figureRule). */
export interface FigureVerdict {
  kind: 'changed' | 'added' | 'removed';
  /** The SVGs differ (or one side has none). */
  svg: boolean;
  /** The PNGs differ (or only one side has one). */
  png: boolean;
  /** Only the PNG differs: the same SVG rendered differently on another machine. Reported apart, never counted as a change. */
  renderOnly: boolean;
}

/**
 * The figure-change rule, stated once for the snapshot comparison, the runner
 * and `stopwatches diff`: a figure changes when its SVG does, the
 * deterministic output. A PNG that differs under an identical SVG (another
 * machine's fonts or librsvg, or a `--no-png` side) is `renderOnly`: reported
 * apart and not counted. Null when nothing differs.
 */
export function figureRule(base: FigureFiles, cur: FigureFiles): FigureVerdict | null {
  const differs = (a?: Buffer, b?: Buffer) => (a && b ? !a.equals(b) : !!a !== !!b);
  const svg = differs(base.svg, cur.svg);
  const png = differs(base.png, cur.png);
  if (!svg && !png) return null;
  const inBase = !!(base.svg || base.png);
  const inCur = !!(cur.svg || cur.png);
  const kind = inBase && inCur ? 'changed' : inBase ? 'removed' : 'added';
  return { kind, svg, png, renderOnly: kind === 'changed' && !svg };
}

/** A figure's files in a `<key>.svg|png` → bytes map. */
export function figureFiles(files: Map<string, Buffer>, key: string): FigureFiles {
  const svg = files.get(`${key}.svg`);
  const png = files.get(`${key}.png`);
  return { ...(svg ? { svg } : {}), ...(png ? { png } : {}) };
}

/** Figures that changed under figureRule, sorted by key, and apart from them the keys whose PNG alone differs. */
export function compareFigureFiles(base: Map<string, Buffer>, cur: Map<string, Buffer>): { changes: FigureChange[]; renderOnly: string[] } {
  const keys = [...new Set([...base.keys(), ...cur.keys()].map(figureKeyOf))].sort();
  const changes: FigureChange[] = [];
  const renderOnly: string[] = [];
  for (const key of keys) {
    const a = figureFiles(base, key);
    const b = figureFiles(cur, key);
    const v = figureRule(a, b);
    if (!v) continue;
    if (v.renderOnly) renderOnly.push(key);
    else if (v.kind === 'changed') changes.push({ key, kind: 'changed', svg: v.svg, png: v.png });
    else {
      const m = v.kind === 'removed' ? a : b;
      changes.push({ key, kind: v.kind, svg: !!m.svg, png: !!m.png });
    }
  }
  return { changes, renderOnly };
}

export interface Comparison {
  /** Figures whose PNG alone differs (figureRule): reported apart, not counted. */
  renderOnly: string[];
  numbers: NumberChange[];
  figures: FigureChange[];
  /** Experiments whose combined data differ (or exist on one side only); empty when either side has no data. */
  data: string[];
}

/** Everything that differs between a baseline and a build. */
export function compareOutputs(base: OutputSet, cur: OutputSet): Comparison {
  const data: string[] = [];
  if (base.data && cur.data) {
    for (const id of [...new Set([...base.data.keys(), ...cur.data.keys()])].sort()) {
      const a = base.data.get(id);
      const b = cur.data.get(id);
      if (a === undefined || b === undefined || JSON.stringify(a) !== JSON.stringify(b)) data.push(id);
    }
  }
  const figures = compareFigureFiles(base.figures, cur.figures);
  return { numbers: compareNumbers(base.numbers, cur.numbers), figures: figures.changes, renderOnly: figures.renderOnly, data };
}

export function hasChanges(c: Comparison): boolean {
  return c.numbers.length + c.figures.length + c.data.length > 0;
}

/** Per experiment, how its numbers and figures stand against the comparison (null comparison: no snapshot). */
export function snapshotStatus(experiment: string, c: Comparison | null): SnapshotStatus {
  if (!c) return { status: 'none', numbers: 0, figures: 0 };
  const mine = (id: string) => id.startsWith(`${experiment}.`);
  const numbers = c.numbers.filter((n) => mine(n.id)).length;
  const figures = c.figures.filter((f) => mine(f.key)).length;
  return { status: numbers + figures ? 'differs' : 'match', numbers, figures };
}
