/**
 * The experiment runner, as named phases over options resolved once:
 *
 *   load      bundle every registered module and import it (its closure is its code identity)
 *   select    `--only` and the experiments they need; combine order
 *   plan      a key per job, looked up in the cache; one line per experiment
 *   execute   the misses on the worker pool; each result cached at once
 *   combine   in dependency order, in the main thread
 *   draw      figures (SVG, from the figure cache when their inputs did not move; then the
 *             PNG tied to it) and each experiment's data
 *   publish   numbers.json, number-ids.d.ts, the indexes; compared with the snapshot
 *
 * Every effect that is not pure computation goes through `Effects` (reporter,
 * output writes, cache writes, the job runner), so tests drive the whole
 * pipeline in temp directories with failures injected where they want them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { UserError } from '../errors.ts';
import { hashLabel } from '../rng/index.ts';
import { bundleError, bundleExperiment, bundleFigures, type ExperimentBundle } from './bundle.ts';
import { JobCache, jobKey, type EntryHeader, type JobManifest, type Lookup, type WriteFile } from './cache.ts';
import { describeRemote, keepFetched, pullFromRemote, type RemoteCache, type RemoteStats } from './remote/cache.ts';
import { describeShare, estimateRuntimes, shareOf, type Shard, type ShardReport } from './shard.ts';
import { removeTempFiles, sweepOrphanTemps, writeFileAtomic } from '../fs/atomic.ts';
import { walkFiles } from '../fs/walk.ts';
import { describeFsError, toPosix } from './fsutil.ts';
import { decodeResult } from './codec.ts';
import { sha256, sha256File } from '../fs/hash.ts';
import { canonicalJson, deepFreeze } from './hash.ts';
import { formatNumbersFile, formatNumberIds, mergeNumbers, sortNumbers, validateNumbers } from './numbers.ts';
import {
  compareOutputs,
  describeNumberChanges,
  GENERATED_DIR,
  OutputError,
  outputPaths,
  readJsonIfPresent,
  readOutputDir,
  cachePaths,
  SCHEMAS,
  SNAPSHOT_DIR,
  snapshotStatus,
  type Comparison,
  type ExperimentIndexEntry,
  type FigureIndex,
  type FigureIndexEntry,
  type NumberChange,
  type OutputPaths,
  type Provenance,
  type Runtimes,
  narrowFigureFile,
} from './outputs.ts';
import { defaultThreads, WorkerPool, type JobRunner } from './pool.ts';
import { plainReporter, type Reporter } from './progress.ts';
import { resolveRegistry } from './registry.ts';
import { FigureCache, figureKey, type DrawnFigure } from './figure-cache.ts';
import type { CombineDeps, ExperimentDefinition, Figures, FigureSpec, JobSpec, Numbers, NumbersFile } from './types.ts';

/** Per-job timeout when neither the experiment nor `--timeout` sets one: generous, paper-size runs take minutes. */
export const DEFAULT_TIMEOUT_SECONDS = 30 * 60;

/** The renderer (Plot over a DOM, sharp): loaded when a figure is drawn, never by a build whose figures are all cached. */
let rendererModule: Promise<typeof import('./render.ts')> | undefined;
const loadRenderer = () => (rendererModule ??= import('./render.ts'));

/** The RNG module bundled for `ctx.rng` (this project's, also when the root is a test's temp copy). */
const RNG_MODULE = fileURLToPath(new URL('../rng/index.ts', import.meta.url));
const CODEC_MODULE = fileURLToPath(new URL('./codec.ts', import.meta.url));

export interface Effects {
  reporter: Reporter;
  /** Writes a generated output file (atomic by default). */
  writeFile: WriteFile;
  /** Writes a cache entry (atomic by default); tests inject one that fails half-way. */
  writeCacheEntry: WriteFile;
  /** Creates the job runner; default the piscina worker pool. */
  createRunner(threads: number): JobRunner;
}

export interface RunOptions {
  /** Project root: registry paths, inputs and outputs are relative to it. */
  root: string;
  /** Experiment module paths (root-relative) in paper order. */
  registry: string[];
  /** Only these experiment ids (others keep their previous outputs). */
  only?: string[];
  /** Rerun every selected job, ignoring the cache. */
  force?: boolean;
  /** Worker threads; capped at the jobs to run and the cores (default: one per core). */
  jobs?: number;
  /** Per-job timeout in seconds, overriding the experiments' own. */
  timeoutSeconds?: number;
  /** Default `<root>/.cache/experiments`. */
  cacheDir?: string;
  /** Default `<root>/.cache/bundles`; must be inside the root (bundles import npm packages from its node_modules). */
  bundleDir?: string;
  /** Default `<root>/src/generated`. */
  outDir?: string;
  /** Default `<root>/test/snapshots`; compared with after the run. */
  snapshotDir?: string;
  /** Default `<root>/package-lock.json`. */
  lockfile?: string;
  /** Render PNGs (default true). */
  png?: boolean;
  /** Ctrl-C: aborts running jobs. */
  signal?: AbortSignal;
  /** Order misses are handed to the pool; `reverse` lets tests prove completion order does not matter. */
  submitOrder?: 'registry' | 'reverse';
  /** Run only this shard's share of the missing jobs and write cache entries only (no outputs). */
  shard?: Shard;
  /** Shared results: read before running, written after (when writable). */
  remote?: RemoteCache;
  effects?: Partial<Effects>;
}

export interface ExperimentReport {
  id: string;
  file: string;
  /** The plan line's status: `fresh`, `missing`, `stale: …`, `forced`, `corrupt: …`. */
  plan: string;
  jobs: number;
  /** Jobs computed in this build. */
  ran: number;
}

export interface RunResult {
  experiments: ExperimentReport[];
  numbers: NumbersFile;
  /** `<experiment>.<figure>` keys, in paper order. */
  figures: string[];
  /** Against the snapshot; null when there is no snapshot yet. */
  numberChanges: NumberChange[] | null;
  /** Keys of figures whose SVG or PNG differ from the snapshot (or are new or gone), sorted. */
  figureChanges: string[];
  /** PNGs drawn in this build (missing, drawn from another SVG, or corrupt). */
  pngsDrawn: string[];
  /** Figures drawn in this build; the others came from the figure cache (their inputs did not move). */
  figuresDrawn: string[];
  /** A shard run: what it ran. It combines nothing, so numbers and figures are empty. */
  shard?: ShardReport;
  remote?: RemoteStats;
}

/** A Ctrl-C: the CLI prints the message and exits 130. */
export class InterruptedError extends UserError {
  constructor(removed: number) {
    super(`interrupted; ${removed ? `${removed} temp file${removed === 1 ? '' : 's'} removed, ` : ''}no cache entry was half-written`, 130);
    this.name = 'InterruptedError';
  }
}

/** Options with every default applied: the one place paths and flags are decided. */
interface Run {
  root: string;
  registry: string[];
  only: string[];
  force: boolean;
  jobs: number | undefined;
  timeoutSeconds: number | undefined;
  png: boolean;
  cacheDir: string;
  cache: JobCache;
  /** Drawn figures by the hash of what they are drawn from (figure-cache.ts). */
  figureCache: FigureCache;
  bundleDir: string;
  out: OutputPaths;
  snapshot: OutputPaths;
  /** The folders this build writes into: a failed or interrupted build removes its temp files there, never another build's. */
  writes: string[];
  /** sha256 of package-lock.json ('none' without one): in every job key and in provenance. */
  lockfile: string;
  runtimesPath: string;
  signal: AbortSignal | undefined;
  submitOrder: 'registry' | 'reverse';
  shard: Shard | undefined;
  remote: RemoteCache | undefined;
  fx: Effects;
  log(line: string): void;
  /** Root-relative POSIX path for messages. */
  rel(path: string): string;
  checkAbort(): void;
}

interface Loaded {
  path: string;
  file: string;
  bundle: ExperimentBundle;
  def: ExperimentDefinition;
  /** The figures module's bundle (never in a job key), null without one; its closure is in the figures' cache key. */
  figuresBundle: ExperimentBundle | null;
  /** The figures module's figures, imported on first call (only a build that draws one needs Plot); empty without one. */
  figures: () => Promise<Figures>;
}

interface PlannedJob {
  spec: JobSpec;
  seed: number;
  manifest: JobManifest;
  key: string;
  lookup: Lookup | { status: 'forced' };
  text?: string;
  runtimeMs?: number;
  /** Fetched from the remote cache (its integrity checked; written to the local cache after the build's sample agreed). */
  remote?: { header: EntryHeader; text: string };
  /** Fetched, and in the sample recomputed to check the remote (`--verify-remote`): runs as a miss. */
  verifying?: boolean;
}

interface Planned {
  loaded: Loaded;
  id: string;
  configHash: string;
  inputs: Record<string, string>;
  jobs: PlannedJob[];
  timeoutMs: number;
  plan: string;
}

interface Combined {
  data: unknown;
  numbers: Numbers;
}

/** What `draw` made of one experiment, before the snapshot comparison adds its status. */
interface Drawn {
  figures: FigureIndex;
  experiment: Omit<ExperimentIndexEntry, 'snapshot'>;
}

function defaultEffects(): Effects {
  return {
    reporter: plainReporter((l) => process.stderr.write(`${l}\n`)),
    writeFile: (p, d) => writeFileAtomic(p, d),
    writeCacheEntry: (p, d) => writeFileAtomic(p, d),
    createRunner: (n) => new WorkerPool(n),
  };
}

function resolveOptions(options: RunOptions): Run {
  const root = resolve(options.root);
  const fx: Effects = { ...defaultEffects(), ...options.effects };
  const bundleDir = options.bundleDir ?? cachePaths(root).bundles;
  if (relative(root, resolve(bundleDir)).startsWith('..')) throw new UserError(`bundleDir ${bundleDir} must be inside the project root ${root}`);
  const signal = options.signal;
  const cacheDir = options.cacheDir ?? cachePaths(root).experiments;
  const lockfilePath = options.lockfile ?? join(root, 'package-lock.json');
  const out = outputPaths(options.outDir ?? join(root, GENERATED_DIR));
  /** Where this build writes (its temp files are there): what a failed or interrupted build cleans. */
  const figureCacheDir = cachePaths(root).figures;
  const writes = [root, resolve(cacheDir), resolve(figureCacheDir), resolve(out.dir)];
  return {
    root,
    registry: options.registry,
    only: options.only ?? [],
    force: options.force ?? false,
    jobs: options.jobs,
    timeoutSeconds: options.timeoutSeconds,
    png: options.png !== false,
    cacheDir,
    cache: new JobCache(cacheDir, fx.writeCacheEntry),
    figureCache: new FigureCache(figureCacheDir, fx.writeCacheEntry),
    bundleDir,
    out,
    writes,
    snapshot: outputPaths(options.snapshotDir ?? join(root, SNAPSHOT_DIR)),
    lockfile: existsSync(lockfilePath) ? sha256File(lockfilePath) : 'none',
    runtimesPath: cachePaths(root).runtimes,
    signal,
    submitOrder: options.submitOrder ?? 'registry',
    shard: options.shard,
    remote: options.remote,
    fx,
    log: (l) => fx.reporter.log(l),
    rel: (p) => toPosix(relative(root, p)) || '.',
    checkAbort() {
      if (signal?.aborted) throw new InterruptedError(removeTempFiles(writes));
    },
  };
}

/** Runs the pipeline. Throws UserError for what the user can fix, InterruptedError on abort. */
export async function runPipeline(options: RunOptions): Promise<RunResult> {
  try {
    const run = resolveOptions(options);
    sweepTemps(run);
    const loaded = await load(run);
    const { selected, combineOrder } = select(run, loaded);
    const planned = await plan(run, selected);
    const shard = await execute(run, planned);
    if (run.remote) {
      checkVerified(run.remote, planned);
      await keepFetched(run.cache, planned.flatMap((p) => p.jobs.filter((j) => j.remote && !j.verifying)));
      run.log(describeRemote(run.remote, ranJobs(planned)));
    }
    if (shard) return shardResult(planned, shard, run.remote);
    const combined = combine(run, planned, combineOrder);
    const { drawn, pngsDrawn, figuresDrawn } = await draw(run, planned, combined);
    return { ...(await publish(run, loaded, planned, combined, drawn)), pngsDrawn, figuresDrawn, remote: run.remote?.stats };
  } catch (err) {
    throw describeFsError(err, resolve(options.root)) ?? err;
  }
}

// ---------------------------------------------------------------- sweep

/** Temp files of writers killed before they could clean up, in every folder the build writes. */
function sweepTemps(run: Run): void {
  for (const dir of new Set([run.cacheDir, run.figureCache.dir, run.bundleDir, run.out.dir, dirname(run.runtimesPath)])) sweepOrphanTemps(dir);
}

// ---------------------------------------------------------------- load

function validateDefinition(def: unknown, path: string): asserts def is ExperimentDefinition {
  const d = def as Partial<ExperimentDefinition> & { figures?: unknown } | undefined;
  const bad = (what: string) => new UserError(`${path}: ${what} (export default defineExperiment({...}))`);
  if (!d || typeof d !== 'object') throw bad('no default export');
  if (typeof d.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(d.id)) throw bad(`id ${JSON.stringify(d.id)} is not kebab-case`);
  if (typeof d.title !== 'string') throw bad('title is missing');
  if (typeof d.runJob !== 'function') throw bad('runJob is missing');
  if (typeof d.combine !== 'function') throw bad('combine is missing');
  if (!d.clauses || typeof d.clauses !== 'object') throw bad('clauses are missing');
  if (d.jobs !== undefined && typeof d.jobs !== 'function') throw bad('jobs must be a function of the config');
  if (d.needs !== undefined && !(Array.isArray(d.needs) && d.needs.every((n) => typeof n === 'string'))) throw bad('needs must be an array of experiment ids');
  if (d.figures !== undefined) {
    throw new UserError(`${path}: figures belong in ${toPosix(join(dirname(path), 'figures', basename(path)))} (export const figures), where editing them re-renders without rerunning a job`);
  }
}

/** The figures module of an experiment module: `figures/<same file name>` beside it (experiments/figures/first-wave.ts). */
export function figuresModulePath(experimentFile: string): string {
  return join(dirname(experimentFile), 'figures', basename(experimentFile));
}

/** Says so when a bundle on disk was not the bytes it was built as (edited, truncated): it was rewritten before use. */
function reportRepaired(run: Run, bundle: ExperimentBundle): void {
  if (bundle.repaired) run.log(`corrupt: bundle ${run.rel(bundle.file)} (${bundle.repaired}); rebuilt`);
}

/** Bundles an experiment's figures module, if it has one. Its own bundle, so its code is in no job key. */
async function bundleFiguresOf(run: Run, file: string): Promise<ExperimentBundle | null> {
  const figFile = figuresModulePath(file);
  if (!existsSync(figFile)) return null;
  let bundle: ExperimentBundle;
  try {
    bundle = await bundleFigures({ root: run.root, entry: figFile, outDir: run.bundleDir, name: `figures.${basename(figFile).replace(/\.[^.]+$/, '')}` });
  } catch (err) {
    throw bundleError(run.rel(figFile), err);
  }
  reportRepaired(run, bundle);
  return bundle;
}

/** Imports a figures bundle and checks what it exports. */
async function importFigures(run: Run, file: string, bundle: ExperimentBundle): Promise<Figures> {
  const figures = ((await import(pathToFileURL(bundle.file).href)) as { figures?: unknown }).figures;
  if (!figures || typeof figures !== 'object' || Array.isArray(figures) || !Object.values(figures).every((f) => typeof f === 'function')) {
    throw new UserError(`${run.rel(figuresModulePath(file))}: must export const figures: Figures<Data> = { name: (data) => FigureSpec, … }`);
  }
  return figures as Figures;
}

async function load(run: Run): Promise<Loaded[]> {
  const present = resolveRegistry(run.root, run.registry);
  const loaded = await Promise.all(
    present.map(async ({ path, file }): Promise<Loaded> => {
      let bundle: ExperimentBundle;
      try {
        bundle = await bundleExperiment({ root: run.root, entry: file, rngModule: RNG_MODULE, codecModule: CODEC_MODULE, outDir: run.bundleDir, name: basename(file).replace(/\.[^.]+$/, '') });
      } catch (err) {
        throw bundleError(path, err);
      }
      reportRepaired(run, bundle);
      const mod = (await import(pathToFileURL(bundle.file).href)) as { experiment?: unknown };
      validateDefinition(mod.experiment, path);
      const figuresBundle = await bundleFiguresOf(run, file);
      let figures: Promise<Figures> | undefined;
      return { path, file, bundle, def: mod.experiment, figuresBundle, figures: () => (figures ??= figuresBundle ? importFigures(run, file, figuresBundle) : Promise.resolve({})) };
    }),
  );
  run.checkAbort();
  return loaded;
}

// ---------------------------------------------------------------- select

function select(run: Run, loaded: Loaded[]): { selected: Loaded[]; combineOrder: string[] } {
  const byId = new Map<string, Loaded>();
  for (const l of loaded) {
    const prior = byId.get(l.def.id);
    if (prior) throw new UserError(`experiment id ${l.def.id} is used by both ${prior.path} and ${l.path}`);
    byId.set(l.def.id, l);
  }
  for (const l of loaded) {
    for (const need of l.def.needs ?? []) {
      if (!byId.has(need)) throw new UserError(`${l.path}: needs ${need}, which is not in the registry (known: ${[...byId.keys()].join(', ')})`);
    }
  }
  const combineOrder = dependencyOrder(loaded.map((l) => l.def));
  if (!run.only.length) return { selected: loaded, combineOrder };
  const unknown = run.only.filter((id) => !byId.has(id));
  if (unknown.length) throw new UserError(`--only: no experiment ${unknown.join(', ')} (known: ${[...byId.keys()].join(', ') || 'none'})`);
  // An experiment's needs come along: its combine reads their numbers.
  const wanted = new Set<string>();
  const add = (id: string) => {
    if (wanted.has(id)) return;
    wanted.add(id);
    for (const n of byId.get(id)!.def.needs ?? []) add(n);
  };
  for (const id of run.only) add(id);
  return { selected: loaded.filter((l) => wanted.has(l.def.id)), combineOrder };
}

/** Experiment ids, each after the ones it needs, otherwise in registry order; a cycle is an error naming it. */
export function dependencyOrder(defs: Pick<ExperimentDefinition, 'id' | 'needs'>[]): string[] {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const out: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') throw new UserError(`experiments need each other in a cycle: ${[...path.slice(path.indexOf(id)), id].join(' → ')}`);
    state.set(id, 'visiting');
    for (const n of byId.get(id)?.needs ?? []) if (byId.has(n)) visit(n, [...path, id]);
    state.set(id, 'done');
    out.push(id);
  };
  for (const d of defs) visit(d.id, []);
  return out;
}

// ---------------------------------------------------------------- plan

/** Declared inputs (files or folders, root-relative) → sha256 per file, sorted. */
function hashInputs(root: string, id: string, inputs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (abs: string) => {
    // A declared folder is walked without following links (a loop would never end).
    if (statSync(abs).isDirectory()) for (const name of walkFiles(abs)) out[toPosix(relative(root, join(abs, name)))] = sha256File(join(abs, name));
    else out[toPosix(relative(root, abs))] = sha256File(abs);
  };
  for (const input of inputs) {
    const abs = resolve(root, input);
    if (!existsSync(abs)) throw new UserError(`${id}: declared input ${input} does not exist`);
    add(abs);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function jobSeed(experiment: string, spec: JobSpec): number {
  const s = (spec.params as { seed?: unknown } | null)?.seed;
  if (s === undefined) return hashLabel(`${experiment}/${spec.id}`);
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > 0xffffffff) {
    throw new UserError(`${experiment}: job ${spec.id} has params.seed = ${JSON.stringify(s)}; an integer in [0, 2^32) is required`);
  }
  return s;
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function planLine(p: Planned, force: boolean): string {
  const miss = p.jobs.filter((j) => j.lookup.status !== 'fresh' && !j.verifying);
  const remote = p.jobs.filter((j) => j.remote).length;
  const checking = p.jobs.filter((j) => j.verifying).length;
  const check = checking ? `, ${checking} recomputed to check it` : '';
  if (miss.length === 0) return remote ? `fresh (${remote} from remote${check})` : 'fresh';
  const of = miss.length < p.jobs.length ? ` (${miss.length} of ${p.jobs.length} jobs)` : p.jobs.length > 1 ? ` (${p.jobs.length} jobs)` : '';
  if (force) return `forced${of}`;
  const stale = uniq(miss.flatMap((j) => (j.lookup.status === 'stale' ? j.lookup.reasons : [])));
  const corrupt = miss.flatMap((j) => (j.lookup.status === 'corrupt' ? [`entry of job ${j.spec.id} corrupt (${j.lookup.reason})`] : []));
  const reasons = [...stale, ...corrupt];
  if (reasons.length === 0) return `missing${of}`;
  const shown = reasons.slice(0, 3).join(', ') + (reasons.length > 3 ? `, +${reasons.length - 3} more` : '');
  return `${stale.length ? 'stale' : 'corrupt'}: ${shown}${of}`;
}

async function plan(run: Run, selected: Loaded[]): Promise<Planned[]> {
  const { cache, lockfile } = run;
  const node = process.versions.node;
  const planned: Planned[] = [];
  for (const l of selected) {
    const { def } = l;
    deepFreeze(def.config);
    let configJson: string;
    try {
      configJson = canonicalJson(def.config ?? null, 'config');
    } catch (err) {
      throw new UserError(`${l.path}: ${(err as Error).message}`);
    }
    const configHash = sha256(configJson);
    const inputs = hashInputs(run.root, def.id, def.inputs ?? []);
    const specs: JobSpec[] = def.jobs ? def.jobs(def.config) : [{ id: 'all', params: {} }];
    const seen = new Set<string>();
    const jobs: PlannedJob[] = [];
    for (const spec of specs) {
      if (typeof spec?.id !== 'string' || !spec.id) throw new UserError(`${def.id}: every job needs a string id`);
      if (seen.has(spec.id)) throw new UserError(`${def.id}: job id ${spec.id} is used twice`);
      seen.add(spec.id);
      let params: unknown;
      try {
        params = JSON.parse(canonicalJson(spec.params ?? {}, `job ${spec.id} params`));
      } catch (err) {
        throw new UserError(`${def.id}: ${(err as Error).message}`);
      }
      const seed = jobSeed(def.id, spec);
      const manifest: JobManifest = { experiment: def.id, job: spec.id, params, seed, config: configHash, files: l.bundle.files, inputs, lockfile, node };
      const key = jobKey(manifest);
      const lookup = run.force ? ({ status: 'forced' } as const) : await cache.lookup(manifest, key);
      const job: PlannedJob = { spec: { id: spec.id, params }, seed, manifest, key, lookup };
      if (lookup.status === 'fresh') {
        job.text = lookup.text;
        job.runtimeMs = lookup.header.runtimeMs;
      }
      jobs.push(job);
    }
    const timeoutS = run.timeoutSeconds ?? def.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    planned.push({ loaded: l, id: def.id, configHash, inputs, jobs, timeoutMs: timeoutS * 1000, plan: '' });
  }
  if (run.remote && !run.force) await pullMissing(run, run.remote, planned);
  for (const p of planned) p.plan = planLine(p, run.force);
  const width = Math.max(0, ...planned.map((p) => p.id.length));
  for (const p of planned) run.log(`${p.id.padEnd(width)}  ${p.plan}`);
  if (planned.length === 0) run.log('no experiments registered (experiments/index.ts)');
  run.checkAbort();
  return planned;
}

/**
 * What the local cache lacks may be in the remote cache (not with --force: that reruns).
 * The remote's time budget is what recomputing these jobs would take: their expected run
 * times (as shards estimate them) over the workers. A sample of the hits (`remote.verify`
 * of them, ranked by a hash seeded with the build's key set, so the same build samples the
 * same jobs) is recomputed and compared after the run.
 */
async function pullMissing(run: Run, remote: RemoteCache, planned: Planned[]): Promise<void> {
  const lacking = planned.flatMap((p) => p.jobs.filter((j) => j.lookup.status !== 'fresh').map((j) => ({ p, j })));
  const previous = await Promise.all(lacking.map(({ j }) => run.cache.previousRuntimeMs(j.manifest, j.key)));
  const expected = estimateRuntimes(lacking.map(({ p, j }, i) => ({ label: `${p.id}/${j.spec.id}`, experiment: p.id, previousMs: previous[i] })));
  remote.setBudget(expected.reduce((a, b) => a + b, 0) / workerCount(run.jobs, lacking.length));
  await pullFromRemote(remote, lacking.map(({ j }) => j));
  const fetched = lacking.map(({ j }) => j).filter((j) => j.remote);
  const seed = sha256(fetched.map((j) => j.key).sort().join('\n'));
  const sample = new Set([...fetched].sort((a, b) => (sha256(seed + a.key) < sha256(seed + b.key) ? -1 : 1)).slice(0, remote.verify));
  for (const j of fetched) {
    if (sample.has(j)) {
      j.verifying = true;
      continue;
    }
    j.lookup = { status: 'fresh', ...j.remote! };
    j.text = j.remote!.text;
    j.runtimeMs = j.remote!.header.runtimeMs;
  }
}

/**
 * After the run: every fetched job recomputed here matched its remote entry, or the build
 * stops naming the entry (nothing fetched is kept; a trusted writer has replaced it).
 */
function checkVerified(remote: RemoteCache, planned: Planned[]): void {
  const wrong: string[] = [];
  for (const p of planned) {
    for (const j of p.jobs) {
      if (!j.verifying || j.text === undefined) continue;
      if (j.text === j.remote!.text) remote.stats.verified = (remote.stats.verified ?? 0) + 1;
      else wrong.push(`${p.id}/${j.spec.id} (ac/${j.key})`);
    }
  }
  if (!wrong.length) return;
  const repaired = remote.writable && !remote.stats.unavailable;
  throw new UserError(
    `remote cache ${remote.where}: the entry for ${wrong.join(', ')} holds another result than the one recomputed here, so the remote's other entries are not used` +
      (repaired
        ? `; it was replaced with this build's result (--remote-write): run again`
        : `; remove it from the server (or let a trusted build with --remote-write replace it), or build without the remote cache`),
  );
}

// ---------------------------------------------------------------- execute

/** Worker threads for `misses` jobs: never more than the jobs, nor than the cores. */
export function workerCount(requested: number | undefined, misses: number, cores = defaultThreads()): number {
  return Math.max(1, Math.min(requested ?? cores, misses, cores));
}

/**
 * Runs the misses (with `--shard`, this shard's share of them) on the pool;
 * each finished job is cached at once (a later failure keeps it) and, when the
 * remote cache is writable, uploaded.
 */
async function execute(run: Run, planned: Planned[]): Promise<ShardReport | undefined> {
  const { fx, signal, cache } = run;
  let misses = planned.flatMap((p) => p.jobs.filter((j) => j.text === undefined).map((j) => ({ p, j })));
  let shard: ShardReport | undefined;
  if (run.shard) {
    const previous = new Map(await Promise.all(misses.map(async ({ j }) => [j, await cache.previousRuntimeMs(j.manifest, j.key)] as const)));
    const share = shareOf(misses, ({ p, j }) => ({ label: `${p.id}/${j.spec.id}`, experiment: p.id, previousMs: previous.get(j) }), run.shard);
    [misses, shard] = [share.mine, share.report];
    run.log(describeShare(shard));
  }
  if (run.submitOrder === 'reverse') misses.reverse();
  if (!misses.length) return shard;
  const threads = workerCount(run.jobs, misses.length);
  const capped = run.jobs !== undefined && run.jobs > threads ? ` (--jobs ${run.jobs} capped at ${threads}: ${misses.length} job${misses.length === 1 ? '' : 's'} to run, ${defaultThreads()} core${defaultThreads() === 1 ? '' : 's'})` : '';
  run.log(`running ${misses.length} job${misses.length === 1 ? '' : 's'} on ${threads} worker${threads === 1 ? '' : 's'}${capped}`);
  fx.reporter.queued?.(misses.length);
  // Per experiment: jobs left, and when its first job started (for its "done" line).
  const left = new Map<string, { n: number; start: number }>();
  for (const { p } of misses) left.set(p.id, { n: (left.get(p.id)?.n ?? 0) + 1, start: Number.POSITIVE_INFINITY });
  const runner = fx.createRunner(threads);
  const stop = new AbortController();
  const jobSignal = signal ? AbortSignal.any([stop.signal, signal]) : stop.signal;
  let firstError: unknown;
  try {
    await Promise.all(
      misses.map(async ({ p, j }) => {
        const label = `${p.id}/${j.spec.id}`;
        let start = performance.now();
        let started = false;
        const begin = () => {
          if (started) return;
          started = true;
          start = performance.now();
          const e = left.get(p.id)!;
          e.start = Math.min(e.start, start);
          fx.reporter.jobStart(label);
        };
        try {
          const text = await runner.run(
            { bundle: p.loaded.bundle.file, experiment: p.id, job: j.spec.id, params: j.spec.params, seed: j.seed, root: run.root },
            { timeoutMs: p.timeoutMs, signal: jobSignal, onStart: begin, onProgress: (pr) => (begin(), fx.reporter.jobProgress(label, pr)) },
          );
          begin();
          const ms = Math.round(performance.now() - start);
          fx.reporter.jobDone(label, ms);
          const e = left.get(p.id)!;
          if (--e.n === 0) fx.reporter.experimentDone?.(p.id, p.jobs.filter((x) => x.lookup.status !== 'fresh').length, performance.now() - e.start);
          // A fetched job recomputed to check the remote: a different result marks its entry bad, which a trusted writer replaces now.
          if (j.verifying && text !== j.remote!.text) run.remote?.markBad(j.key);
          const header = await cache.store(j.manifest, j.key, text, ms);
          await run.remote?.upload(header, text);
          j.text = text;
          j.runtimeMs = ms;
        } catch (err) {
          if (firstError === undefined) {
            firstError = err;
            stop.abort(err); // fail fast: the other jobs' results would not be combined anyway
          }
        }
      }),
    );
  } finally {
    await runner.destroy();
  }
  if (signal?.aborted) throw new InterruptedError(removeTempFiles(run.writes));
  if (firstError !== undefined) {
    removeTempFiles(run.writes);
    throw firstError;
  }
  run.checkAbort();
  return shard;
}

/** Jobs computed in this build (not fresh in the local or remote cache, and done). */
function ranJobs(planned: Planned[]): number {
  return planned.reduce((s, p) => s + p.jobs.filter((j) => j.lookup.status !== 'fresh' && j.text !== undefined).length, 0);
}

/** A shard's results are its cache entries; the build after `stopwatches cache merge` combines them. */
function shardResult(planned: Planned[], shard: ShardReport, remote: RemoteCache | undefined): RunResult {
  return {
    experiments: planned.map((p) => ({ id: p.id, file: p.loaded.path, plan: p.plan, jobs: p.jobs.length, ran: ranJobs([p]) })),
    numbers: {},
    figures: [],
    numberChanges: null,
    figureChanges: [],
    pngsDrawn: [],
    figuresDrawn: [],
    shard,
    remote: remote?.stats,
  };
}

// ---------------------------------------------------------------- combine

/** Combines in dependency order (an experiment after those it needs); all in the main thread (cheap, pure). */
function combine(run: Run, planned: Planned[], combineOrder: string[]): Map<string, Combined> {
  const combined = new Map<string, Combined>();
  const plannedById = new Map(planned.map((p) => [p.id, p]));
  for (const id of combineOrder) {
    const p = plannedById.get(id);
    if (!p) continue;
    const { def } = p.loaded;
    const results = p.jobs.map((j) => decodeResult(j.text!));
    const deps: CombineDeps = {
      number(full: string) {
        const owner = (def.needs ?? []).find((n) => full.startsWith(`${n}.`));
        if (!owner) throw new UserError(`${def.id}: deps.number(${JSON.stringify(full)}): not a number of an experiment it needs (needs: ${(def.needs ?? []).join(', ') || 'none'})`);
        const v = combined.get(owner)?.numbers[full.slice(owner.length + 1)];
        if (!v) throw new UserError(`${def.id}: deps.number(${JSON.stringify(full)}): ${owner} has no such number`);
        return { ...v, experiment: owner };
      },
    };
    let out: Combined;
    try {
      out = def.combine(def.config, results, deps) as Combined;
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`${def.id}: combine failed: ${errorText(err)}`, 1);
    }
    if (!out || typeof out !== 'object' || !('numbers' in out)) throw new UserError(`${def.id}: combine() must return { data, numbers }`);
    validateNumbers(def.id, out.numbers);
    combined.set(id, out);
  }
  run.checkAbort();
  return combined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
}

// ---------------------------------------------------------------- draw

async function writeIfChanged(write: WriteFile, path: string, data: string | Uint8Array): Promise<boolean> {
  try {
    const old = await readFile(path);
    if (old.equals(typeof data === 'string' ? Buffer.from(data) : Buffer.from(data))) return false;
  } catch {
    /* absent or unreadable: write it */
  }
  await write(path, data);
  return true;
}

/**
 * The figure index of the previous build, for tying PNGs to their SVGs. An
 * unreadable one is no error here: every PNG is then redrawn.
 */
function previousFigureIndex(run: Run): FigureIndex {
  try {
    return readJsonIfPresent(run.out.figureIndex, SCHEMAS.figureIndex, 'rewritten', run.rel(run.out.figureIndex)) ?? {};
  } catch (err) {
    if (!(err instanceof OutputError)) throw err;
    run.log(`corrupt: ${err.message.replace(/; rewritten$/, '')}; every PNG is redrawn`);
    return {};
  }
}

async function fileHash(path: string): Promise<string | undefined> {
  try {
    return sha256(await readFile(path));
  } catch {
    return undefined;
  }
}

/**
 * An experiment's figures, drawn from its combined data and numbers, or taken
 * from the figure cache when the same figures code drew them from the same
 * inputs (`--force` draws them again). In the figures module's order.
 */
async function drawnFigures(run: Run, p: Planned, c: Combined): Promise<{ figures: DrawnFigure[]; cached: boolean }> {
  const { def, figuresBundle } = p.loaded;
  if (!figuresBundle) return { figures: [], cached: false };
  const key = figureKey({ experiment: def.id, code: figuresBundle.files, data: c.data, numbers: c.numbers, lockfile: run.lockfile });
  const cached = run.force ? null : await run.figureCache.get(def.id, key);
  if (cached) return { figures: cached, cached: true };
  const { renderSvg, renderNarrowSvg } = await loadRenderer();
  const drawn: DrawnFigure[] = [];
  for (const [name, fn] of Object.entries(await p.loaded.figures())) {
    const id = `${def.id}.${name}`;
    let spec: FigureSpec;
    try {
      spec = fn(c.data, (n) => {
        if (!Object.hasOwn(c.numbers, n)) throw new Error(`no number ${def.id}.${n} (the experiment publishes ${Object.keys(c.numbers).length} numbers; add it to its combine)`);
        return c.numbers[n]!;
      });
    } catch (err) {
      throw new UserError(`figure ${id} failed: ${errorText(err)}`, 1);
    }
    for (const f of ['title', 'caption', 'alt'] as const) {
      if (typeof spec?.[f] !== 'string' || !spec[f]) throw new UserError(`figure ${id}: ${f} is missing`);
    }
    drawn.push({ name, title: spec.title, caption: spec.caption, alt: spec.alt, svg: renderSvg(spec, id), narrow: renderNarrowSvg(spec, id) });
    run.checkAbort();
  }
  await run.figureCache.put(def.id, key, drawn);
  return { figures: drawn, cached: false };
}

/**
 * Renders figures (SVG, and the PNG drawn from exactly that SVG) and writes
 * each experiment's data. A PNG is kept only when the previous index says it
 * was drawn from the same SVG bytes and the file still has the bytes it had
 * then; otherwise (missing, drawn from another SVG, corrupt) it is redrawn.
 */
async function draw(run: Run, planned: Planned[], combined: Map<string, Combined>): Promise<{ drawn: Map<string, Drawn>; pngsDrawn: string[]; figuresDrawn: string[] }> {
  const { fx } = run;
  const previous = previousFigureIndex(run);
  const lockfile = run.lockfile.slice(0, 16);
  const drawn = new Map<string, Drawn>();
  const pngsDrawn: string[] = [];
  const figuresDrawn: string[] = [];
  for (const p of planned) {
    const { def } = p.loaded;
    const c = combined.get(p.id)!;
    const provenance: Provenance = {
      file: p.loaded.path,
      configHash: p.configHash,
      seeds: uniq(p.jobs.map((j) => j.seed)),
      jobs: p.jobs.length,
      closure: Object.keys(p.loaded.bundle.files).length,
      lockfile,
      node: process.versions.node,
    };
    const figures: FigureIndex = {};
    const made = await drawnFigures(run, p, c);
    for (const f of made.figures) {
      const key = `${def.id}.${f.name}`;
      if (!made.cached) figuresDrawn.push(key);
      const svgSha256 = sha256(f.svg);
      await writeIfChanged(fx.writeFile, run.out.svg(key), f.svg);
      await writeIfChanged(fx.writeFile, run.out.narrowSvg(key), f.narrow);
      let pngSha256: string | null = null;
      if (run.png) {
        const before = previous[key];
        const onDisk = await fileHash(run.out.png(key));
        if (before?.svgSha256 === svgSha256 && before.pngSha256 && onDisk === before.pngSha256) pngSha256 = onDisk;
        else {
          const png = await (await loadRenderer()).renderPng(f.svg);
          await fx.writeFile(run.out.png(key), png);
          pngSha256 = sha256(png);
          pngsDrawn.push(key);
        }
      }
      const w = Number(/\swidth="([\d.]+)"/.exec(f.svg)?.[1] ?? 0);
      const h = Number(/\sheight="([\d.]+)"/.exec(f.svg)?.[1] ?? 0);
      const entry: FigureIndexEntry = {
        experiment: def.id,
        figure: f.name,
        title: f.title,
        caption: f.caption,
        alt: f.alt,
        svg: `${key}.svg`,
        png: run.png ? `${key}.png` : null,
        svgSha256,
        pngSha256,
        width: w,
        height: h,
        clauses: def.clauses,
        provenance,
      };
      figures[key] = entry;
      run.checkAbort();
    }
    await writeIfChanged(fx.writeFile, run.out.dataFile(def.id), `${JSON.stringify(c.data ?? null)}\n`);
    drawn.set(p.id, {
      figures,
      experiment: {
        id: def.id,
        title: def.title,
        needs: def.needs ?? [],
        config: def.config,
        clauses: def.clauses,
        provenance,
        inputs: p.inputs,
        files: p.loaded.bundle.files,
        numbers: Object.keys(c.numbers).map((id) => `${def.id}.${id}`).sort(),
        figures: Object.keys(figures),
      },
    });
  }
  return { drawn, pngsDrawn, figuresDrawn };
}

// ---------------------------------------------------------------- publish

async function removeStale(dir: string, keepNames: Set<string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const n of names) if (!keepNames.has(n) && !n.includes('.tmp-')) await rm(join(dir, n), { force: true, recursive: true });
}

/**
 * Writes numbers.json, number-ids.d.ts and the indexes (with `--only`, the other
 * experiments keep what the previous build wrote), compares the whole build
 * with the snapshot, and records run times outside the deterministic outputs.
 */
async function publish(run: Run, loaded: Loaded[], planned: Planned[], combined: Map<string, Combined>, drawn: Map<string, Drawn>): Promise<Omit<RunResult, 'pngsDrawn' | 'figuresDrawn'>> {
  const { fx, out } = run;
  const registryIds = loaded.map((l) => l.def.id);
  const ran = new Set(planned.map((p) => p.id));
  const partial = run.only.length > 0;
  const keep = (experiment: string) => partial && !ran.has(experiment) && registryIds.includes(experiment);
  const fix = 'run a full build (without --only) to rewrite it';
  const previousNumbers = partial ? (readJsonIfPresent(out.numbers, SCHEMAS.numbers, fix, run.rel(out.numbers)) ?? {}) : {};
  const previousFigures = partial ? (readJsonIfPresent(out.figureIndex, SCHEMAS.figureIndex, fix, run.rel(out.figureIndex)) ?? {}) : {};
  const previousExperiments = partial ? (readJsonIfPresent(out.experiments, SCHEMAS.experiments, fix, run.rel(out.experiments))?.experiments ?? []) : [];

  const kept: NumbersFile = {};
  for (const [id, v] of Object.entries(previousNumbers)) if (keep(v.experiment)) kept[id] = v;
  const numbers = sortNumbers(mergeNumbers(planned.map((p) => ({ experiment: p.id, numbers: combined.get(p.id)!.numbers })), kept));
  await writeIfChanged(fx.writeFile, out.numbers, formatNumbersFile(numbers));
  await writeIfChanged(fx.writeFile, out.numberIds, formatNumberIds(numbers));

  const figures: FigureIndex = {};
  const experiments: Omit<ExperimentIndexEntry, 'snapshot'>[] = [];
  for (const id of registryIds) {
    const d = drawn.get(id);
    if (d) {
      Object.assign(figures, d.figures);
      experiments.push(d.experiment);
    } else if (keep(id)) {
      for (const [k, v] of Object.entries(previousFigures)) if (v.experiment === id) figures[k] = v;
      const e = previousExperiments.find((x) => x.id === id);
      if (e) experiments.push(e);
    }
  }
  // Outputs of figures and experiments that no longer exist would linger in the site: remove them.
  await removeStale(out.figures, new Set(Object.keys(figures).flatMap((k) => [`${k}.svg`, `${k}.png`, narrowFigureFile(k)]).concat('index.json')));
  await removeStale(out.data, new Set(experiments.map((e) => `${e.id}.json`)));

  // The snapshot comparison covers numbers, SVGs and PNGs; each experiment records where it stands.
  const comparison = compareWithSnapshot(run, numbers, figures);
  const experimentIndex: ExperimentIndexEntry[] = experiments.map((e) => ({ ...e, snapshot: snapshotStatus(e.id, comparison) }));
  await writeIfChanged(fx.writeFile, out.figureIndex, `${JSON.stringify(figures, null, 2)}\n`);
  await writeIfChanged(fx.writeFile, out.experiments, `${JSON.stringify({ experiments: experimentIndex }, null, 2)}\n`);
  await writeRuntimes(run, planned);
  reportComparison(run, comparison, numbers, figures);

  return {
    experiments: planned.map((p) => ({ id: p.id, file: p.loaded.path, plan: p.plan, jobs: p.jobs.length, ran: p.jobs.filter((j) => j.lookup.status !== 'fresh').length })),
    numbers,
    figures: Object.keys(figures),
    numberChanges: comparison?.numbers ?? null,
    figureChanges: comparison?.figures.map((f) => f.key) ?? [],
  };
}

/** This build against the snapshot folder; null when there is no snapshot yet. */
function compareWithSnapshot(run: Run, numbers: NumbersFile, figures: FigureIndex): Comparison | null {
  if (!existsSync(run.snapshot.numbers)) return null;
  const baseline = readOutputDir(run.snapshot.dir, run.rel(run.snapshot.dir), 'accept a baseline with `npm run snapshot`, or restore the committed one with `git checkout -- test/snapshots`');
  const files = new Map<string, Buffer>();
  for (const e of Object.values(figures)) {
    files.set(e.svg, readFileSync(join(run.out.figures, e.svg)));
    if (e.png) files.set(e.png, readFileSync(join(run.out.figures, e.png)));
    const narrow = narrowFigureFile(`${e.experiment}.${e.figure}`);
    files.set(narrow, readFileSync(join(run.out.figures, narrow)));
  }
  return compareOutputs(baseline, { label: run.rel(run.out.dir), numbers, figures: files, data: null, where: (p) => p });
}

function reportComparison(run: Run, c: Comparison | null, numbers: NumbersFile, figures: FigureIndex): void {
  const rel = run.rel(run.snapshot.dir);
  if (!c) {
    run.log(`no snapshot yet (${rel}/numbers.json): accept this build with: npm run snapshot`);
    return;
  }
  // Reported apart and not counted (figureRule): the same SVG rendered to different pixels.
  if (c.renderOnly.length) run.log(`figures whose PNG alone differs from ${rel}/ (SVG identical, not a change): ${c.renderOnly.join(', ')}`);
  if (c.numbers.length === 0 && c.figures.length === 0) {
    run.log(`numbers and figures match ${rel}/ (${Object.keys(numbers).length} numbers, ${Object.keys(figures).length} figures)`);
    return;
  }
  const changed = c.numbers.filter((n) => n.old && n.new).length;
  const added = c.numbers.filter((n) => !n.old).length;
  const gone = c.numbers.filter((n) => !n.new).length;
  run.log(`numbers: ${changed} changed, ${added} new, ${gone} gone against ${rel}/numbers.json; figures: ${c.figures.length} changed`);
  const lines = describeNumberChanges(c.numbers);
  for (const l of lines.slice(0, 10)) run.log(`  ${l}`);
  if (lines.length > 10) run.log(`  … ${lines.length - 10} more`);
  if (c.figures.length) run.log(`  figures: ${c.figures.map((f) => `${f.key}${f.kind === 'changed' ? ` (${[f.svg ? 'SVG' : '', f.png ? 'PNG' : ''].filter(Boolean).join(', ')})` : ` (${f.kind})`}`).join(', ')}`);
  run.log('accept them with: npm run snapshot');
}

/** Wall-clock run times per experiment, kept out of src/generated/ so two builds of one commit are byte-identical. */
async function writeRuntimes(run: Run, planned: Planned[]): Promise<void> {
  let runtimes: Runtimes = {};
  try {
    runtimes = readJsonIfPresent(run.runtimesPath, SCHEMAS.runtimes, 'rewritten') ?? {};
  } catch (err) {
    if (!(err instanceof OutputError)) throw err;
  }
  for (const p of planned) runtimes[p.id] = p.jobs.reduce((s, j) => s + (j.runtimeMs ?? 0), 0);
  await run.fx.writeFile(run.runtimesPath, `${JSON.stringify(runtimes, null, 2)}\n`);
}
