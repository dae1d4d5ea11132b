/**
 * The experiment runner: plan (bundle, key, look up), run the misses on the
 * worker pool, combine in registry order, render figures, write outputs.
 *
 * Every effect that is not pure computation goes through `Effects` (reporter,
 * output writes, cache writes, the job runner), so tests drive the whole
 * pipeline in temp directories with failures injected where they want them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { UserError } from '../errors.ts';
import { hashLabel } from '../rng/index.ts';
import { bundleExperiment, bundleFigures, type ExperimentBundle } from './bundle.ts';
import { JobCache, jobKey, type JobManifest, type Lookup, type WriteFile } from './cache.ts';
import { removeTempFiles, sweepOrphanTemps, toPosix, writeFileAtomic } from './fsutil.ts';
import { decodeResult } from './codec.ts';
import { canonicalJson, deepFreeze, sha256 } from './hash.ts';
import { describeNumberChanges, diffNumbers, formatNumbersFile, mergeNumbers, sortNumbers, validateNumbers, type NumberChange } from './numbers.ts';
import { defaultThreads, WorkerPool, type JobRunner } from './pool.ts';
import { plainReporter, type Reporter } from './progress.ts';
import { resolveRegistry, type RegistryEntry } from './registry.ts';
import { renderPng, renderSvg } from './render.ts';
import type { Clauses, CombineDeps, ExperimentDefinition, Figures, FigureSpec, JobSpec, Numbers, NumbersFile } from './types.ts';

/** Per-job timeout when neither the experiment nor `--timeout` sets one: generous, paper-size runs take minutes. */
export const DEFAULT_TIMEOUT_SECONDS = 30 * 60;

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
  /** Experiment modules in paper order. */
  registry: RegistryEntry[];
  /** Only these experiment ids (others keep their previous outputs). */
  only?: string[];
  /** Rerun every selected job, ignoring the cache. */
  force?: boolean;
  /** Worker threads (default: one per core). */
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
  /** Experiments listed but not written yet (ifPresent). */
  absent: string[];
  numbers: NumbersFile;
  /** `<experiment>.<figure>` keys, in paper order. */
  figures: string[];
  /** Against the snapshot; null when there is no snapshot yet. */
  numberChanges: NumberChange[] | null;
  figureChanges: string[];
}

/** A Ctrl-C: the CLI prints the message and exits 130. */
export class InterruptedError extends UserError {
  constructor(removed: number) {
    super(`interrupted; ${removed ? `${removed} temp file${removed === 1 ? '' : 's'} removed, ` : ''}no cache entry was half-written`, 130);
    this.name = 'InterruptedError';
  }
}

interface Loaded {
  path: string;
  file: string;
  bundle: ExperimentBundle;
  def: ExperimentDefinition;
  /** From the figures module (never in a job key), else the definition's legacy `figures`. */
  figures: Figures;
}

interface PlannedJob {
  spec: JobSpec;
  seed: number;
  manifest: JobManifest;
  key: string;
  lookup: Lookup | { status: 'forced' };
  text?: string;
  runtimeMs?: number;
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

function defaultEffects(): Effects {
  return {
    reporter: plainReporter((l) => process.stderr.write(`${l}\n`)),
    writeFile: (p, d) => writeFileAtomic(p, d),
    writeCacheEntry: (p, d) => writeFileAtomic(p, d),
    createRunner: (n) => new WorkerPool(n),
  };
}

function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Declared inputs (files or folders, root-relative) → sha256 per file, sorted. */
function hashInputs(root: string, id: string, inputs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (abs: string) => {
    const st = statSync(abs);
    if (st.isDirectory()) {
      for (const name of (readdirSync(abs) as string[]).sort()) add(join(abs, name));
    } else out[toPosix(relative(root, abs))] = fileSha256(abs);
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

function validateDefinition(def: unknown, path: string): asserts def is ExperimentDefinition {
  const d = def as Partial<ExperimentDefinition> | undefined;
  const bad = (what: string) => new UserError(`${path}: ${what} (export default defineExperiment({...}))`);
  if (!d || typeof d !== 'object') throw bad('no default export');
  if (typeof d.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(d.id)) throw bad(`id ${JSON.stringify(d.id)} is not kebab-case`);
  if (typeof d.title !== 'string') throw bad('title is missing');
  if (typeof d.runJob !== 'function') throw bad('runJob is missing');
  if (typeof d.combine !== 'function') throw bad('combine is missing');
  if (!d.clauses || typeof d.clauses !== 'object') throw bad('clauses are missing');
  if (d.jobs !== undefined && typeof d.jobs !== 'function') throw bad('jobs must be a function of the config');
  if (d.needs !== undefined && !(Array.isArray(d.needs) && d.needs.every((n) => typeof n === 'string'))) throw bad('needs must be an array of experiment ids');
}

/** The figures module of an experiment module: `figures/<same file name>` beside it (experiments/figures/first-wave.ts). */
export function figuresModulePath(experimentFile: string): string {
  return join(dirname(experimentFile), 'figures', basename(experimentFile));
}

/**
 * Bundles and imports an experiment's figures module, if it has one. Its own
 * bundle, so its code is in no job key: editing it re-renders, never reruns.
 */
async function loadFigures(root: string, bundleDir: string, path: string, file: string, def: ExperimentDefinition): Promise<Figures> {
  const figFile = figuresModulePath(file);
  if (!existsSync(figFile)) return def.figures ?? {};
  const rel = toPosix(relative(root, figFile));
  if (def.figures !== undefined) throw new UserError(`${path}: has figures and so does ${rel}; keep them in ${rel} only (figure code in the experiment module is in every job's key)`);
  let bundle: ExperimentBundle;
  try {
    bundle = await bundleFigures({ root, entry: figFile, outDir: bundleDir, name: `figures.${basename(figFile).replace(/\.[^.]+$/, '')}` });
  } catch (err) {
    const first = (err as { errors?: { text: string; location?: { file: string; line: number } }[] }).errors?.[0];
    throw new UserError(`${rel}: cannot bundle: ${first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : (err as Error).message}`);
  }
  const figures = ((await import(pathToFileURL(bundle.file).href)) as { figures?: unknown }).figures;
  if (!figures || typeof figures !== 'object' || Array.isArray(figures) || !Object.values(figures).every((f) => typeof f === 'function')) {
    throw new UserError(`${rel}: must export const figures: Figures<Data> = { name: (data) => FigureSpec, … }`);
  }
  return figures as Figures;
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function planLine(p: Planned, force: boolean): string {
  const miss = p.jobs.filter((j) => j.lookup.status !== 'fresh');
  if (miss.length === 0) return 'fresh';
  const of = miss.length < p.jobs.length ? ` (${miss.length} of ${p.jobs.length} jobs)` : p.jobs.length > 1 ? ` (${p.jobs.length} jobs)` : '';
  if (force) return `forced${of}`;
  const stale = uniq(miss.flatMap((j) => (j.lookup.status === 'stale' ? j.lookup.reasons : [])));
  const corrupt = miss.flatMap((j) => (j.lookup.status === 'corrupt' ? [`entry of job ${j.spec.id} corrupt (${j.lookup.reason})`] : []));
  const reasons = [...stale, ...corrupt];
  if (reasons.length === 0) return `missing${of}`;
  const shown = reasons.slice(0, 3).join(', ') + (reasons.length > 3 ? `, +${reasons.length - 3} more` : '');
  return `${stale.length ? 'stale' : 'corrupt'}: ${shown}${of}`;
}

async function writeIfChanged(write: WriteFile, path: string, data: string | Uint8Array): Promise<boolean> {
  try {
    const old = await readFile(path);
    if (old.equals(typeof data === 'string' ? Buffer.from(data) : Buffer.from(data))) return false;
  } catch {
    /* absent */
  }
  await write(path, data);
  return true;
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export interface Provenance {
  file: string;
  configHash: string;
  seeds: number[];
  jobs: number;
  /** Compute time of the jobs when they ran (summed; from the cache when fresh). Not deterministic: never in numbers or SVGs. */
  runtimeMs: number;
  /** Files in the bundled import closure. */
  closure: number;
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
  png: string | null;
  width: number;
  height: number;
  clauses: Clauses;
  provenance: Provenance;
}

export interface ExperimentIndexEntry {
  id: string;
  title: string;
  needs: string[];
  config: unknown;
  clauses: Clauses;
  provenance: Provenance;
  inputs: Record<string, string>;
  /** The bundled import closure (root-relative path → sha256): what `stopwatches diff` compares to say why outputs moved. */
  files: Record<string, string>;
  numbers: string[];
  figures: string[];
}

/** Runs the pipeline. Throws UserError for what the user can fix, InterruptedError on abort. */
export async function runPipeline(options: RunOptions): Promise<RunResult> {
  const root = resolve(options.root);
  const fx: Effects = { ...defaultEffects(), ...options.effects };
  const log = (l: string) => fx.reporter.log(l);
  const cacheDir = options.cacheDir ?? join(root, '.cache', 'experiments');
  const bundleDir = options.bundleDir ?? join(root, '.cache', 'bundles');
  if (relative(root, resolve(bundleDir)).startsWith('..')) throw new UserError(`bundleDir ${bundleDir} must be inside the project root ${root}`);
  const outDir = options.outDir ?? join(root, 'src', 'generated');
  const snapshotDir = options.snapshotDir ?? join(root, 'test', 'snapshots');
  const lockfilePath = options.lockfile ?? join(root, 'package-lock.json');
  const force = options.force ?? false;
  const signal = options.signal;
  const checkAbort = () => {
    if (signal?.aborted) throw new InterruptedError(removeTempFiles());
  };

  sweepOrphanTemps(cacheDir);
  const cache = new JobCache(cacheDir, fx.writeCacheEntry);

  // 1. Load: bundle every registered module (its closure is its code identity) and import the bundle;
  //    its figures module, if any, is bundled apart (in no key).
  const { present, absent } = resolveRegistry(root, options.registry);
  const loaded: Loaded[] = await Promise.all(
    present.map(async ({ path, file }) => {
      let bundle: ExperimentBundle;
      try {
        bundle = await bundleExperiment({ root, entry: file, rngModule: RNG_MODULE, codecModule: CODEC_MODULE, outDir: bundleDir, name: basename(file).replace(/\.[^.]+$/, '') });
      } catch (err) {
        const errors = (err as { errors?: { text: string; location?: { file: string; line: number } }[] }).errors;
        const first = errors?.[0];
        throw new UserError(`${path}: cannot bundle: ${first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : (err as Error).message}`);
      }
      const mod = (await import(pathToFileURL(bundle.file).href)) as { experiment?: unknown };
      validateDefinition(mod.experiment, path);
      const figures = await loadFigures(root, bundleDir, path, file, mod.experiment);
      return { path, file, bundle, def: mod.experiment, figures };
    }),
  );
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
  let wanted: Set<string> | undefined;
  if (options.only?.length) {
    const unknown = options.only.filter((id) => !byId.has(id));
    if (unknown.length) throw new UserError(`--only: no experiment ${unknown.join(', ')} (known: ${[...byId.keys()].join(', ') || 'none'})`);
    // An experiment's needs come along: its combine reads their numbers.
    wanted = new Set<string>();
    const add = (id: string) => {
      if (wanted!.has(id)) return;
      wanted!.add(id);
      for (const n of byId.get(id)!.def.needs ?? []) add(n);
    };
    for (const id of options.only) add(id);
  }
  const selected = loaded.filter((l) => !wanted || wanted.has(l.def.id));
  checkAbort();

  // 2. Plan: a key per job, looked up in the cache; one line per experiment.
  const lockfile = existsSync(lockfilePath) ? fileSha256(lockfilePath) : 'none';
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
    const inputs = hashInputs(root, def.id, def.inputs ?? []);
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
      const lookup = force ? ({ status: 'forced' } as const) : await cache.lookup(manifest, key);
      jobs.push({ spec: { id: spec.id, params }, seed, manifest, key, lookup });
    }
    const timeoutS = options.timeoutSeconds ?? def.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    const p: Planned = { loaded: l, id: def.id, configHash, inputs, jobs, timeoutMs: timeoutS * 1000, plan: '' };
    p.plan = planLine(p, force);
    planned.push(p);
  }
  const width = Math.max(0, ...planned.map((p) => p.id.length));
  for (const p of planned) log(`${p.id.padEnd(width)}  ${p.plan}`);
  for (const a of absent) log(`${'(skipped)'.padEnd(width)}  ${a} is not written yet`);
  if (planned.length === 0) log('no experiments registered (experiments/index.ts)');
  checkAbort();

  // 3. Run the misses on the pool; each finished job is cached at once (a later failure keeps it).
  for (const p of planned) for (const j of p.jobs) if (j.lookup.status === 'fresh') {
    j.text = j.lookup.text;
    j.runtimeMs = j.lookup.header.runtimeMs;
  }
  const misses = planned.flatMap((p) => p.jobs.filter((j) => j.text === undefined).map((j) => ({ p, j })));
  if (options.submitOrder === 'reverse') misses.reverse();
  if (misses.length) {
    const threads = Math.max(1, Math.min(options.jobs ?? defaultThreads(), misses.length));
    log(`running ${misses.length} job${misses.length === 1 ? '' : 's'} on ${threads} worker${threads === 1 ? '' : 's'}`);
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
              { bundle: p.loaded.bundle.file, experiment: p.id, job: j.spec.id, params: j.spec.params, seed: j.seed, root },
              { timeoutMs: p.timeoutMs, signal: jobSignal, onStart: begin, onProgress: (pr) => (begin(), fx.reporter.jobProgress(label, pr)) },
            );
            begin();
            const ms = Math.round(performance.now() - start);
            fx.reporter.jobDone(label, ms);
            const e = left.get(p.id)!;
            if (--e.n === 0) fx.reporter.experimentDone?.(p.id, p.jobs.filter((x) => x.lookup.status !== 'fresh').length, performance.now() - e.start);
            await cache.store(j.manifest, j.key, text, ms);
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
    if (signal?.aborted) throw new InterruptedError(removeTempFiles());
    if (firstError !== undefined) {
      removeTempFiles();
      throw firstError;
    }
  }
  checkAbort();

  // 4. Combine in registry order, then figures; all in the main thread (cheap, pure).
  const figuresDir = join(outDir, 'figures');
  const dataDir = join(outDir, 'data');
  const parts: { experiment: string; numbers: Numbers }[] = [];
  const figureIndex: Record<string, FigureIndexEntry> = {};
  const experimentIndex: ExperimentIndexEntry[] = [];
  const producedFigures: string[] = [];
  // Combine in dependency order (an experiment after those it needs), output in registry order.
  const combinedById = new Map<string, { data: unknown; numbers: Numbers }>();
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
        const v = combinedById.get(owner)?.numbers[full.slice(owner.length + 1)];
        if (!v) throw new UserError(`${def.id}: deps.number(${JSON.stringify(full)}): ${owner} has no such number`);
        return { ...v, experiment: owner };
      },
    };
    let combined: { data: unknown; numbers: Numbers };
    try {
      combined = def.combine(def.config, results, deps) as typeof combined;
    } catch (err) {
      if (!(err instanceof UserError)) (err as Error).message = `${def.id}: combine failed: ${(err as Error).message}`;
      throw err;
    }
    if (!combined || typeof combined !== 'object' || !('numbers' in combined)) throw new UserError(`${def.id}: combine() must return { data, numbers }`);
    validateNumbers(def.id, combined.numbers);
    combinedById.set(id, combined);
  }
  for (const p of planned) {
    const { def } = p.loaded;
    const combined = combinedById.get(p.id)!;
    parts.push({ experiment: def.id, numbers: combined.numbers });
    const provenance: Provenance = {
      file: p.loaded.path,
      configHash: p.configHash,
      seeds: uniq(p.jobs.map((j) => j.seed)),
      jobs: p.jobs.length,
      runtimeMs: p.jobs.reduce((s, j) => s + (j.runtimeMs ?? 0), 0),
      closure: Object.keys(p.loaded.bundle.files).length,
      lockfile: lockfile.slice(0, 16),
      node,
    };
    const figureKeys: string[] = [];
    for (const [name, fn] of Object.entries(p.loaded.figures)) {
      const key = `${def.id}.${name}`;
      let spec: FigureSpec;
      try {
        spec = fn(combined.data);
      } catch (err) {
        (err as Error).message = `figure ${key} failed: ${(err as Error).message}`;
        throw err;
      }
      for (const f of ['title', 'caption', 'alt'] as const) {
        if (typeof spec?.[f] !== 'string' || !spec[f]) throw new UserError(`figure ${key}: ${f} is missing`);
      }
      const svg = renderSvg(spec, key);
      const svgPath = join(figuresDir, `${key}.svg`);
      const pngPath = join(figuresDir, `${key}.png`);
      const svgChanged = await writeIfChanged(fx.writeFile, svgPath, svg);
      if (options.png !== false && (svgChanged || !existsSync(pngPath))) await fx.writeFile(pngPath, await renderPng(svg));
      const w = Number(/\swidth="([\d.]+)"/.exec(svg)?.[1] ?? 0);
      const h = Number(/\sheight="([\d.]+)"/.exec(svg)?.[1] ?? 0);
      figureIndex[key] = { experiment: def.id, figure: name, title: spec.title, caption: spec.caption, alt: spec.alt, svg: `${key}.svg`, png: options.png === false ? null : `${key}.png`, width: w, height: h, clauses: def.clauses, provenance };
      figureKeys.push(key);
      producedFigures.push(key);
      checkAbort();
    }
    await writeIfChanged(fx.writeFile, join(dataDir, `${def.id}.json`), `${JSON.stringify(combined.data ?? null)}\n`);
    experimentIndex.push({
      id: def.id,
      title: def.title,
      needs: def.needs ?? [],
      config: def.config,
      clauses: def.clauses,
      provenance,
      inputs: p.inputs,
      files: p.loaded.bundle.files,
      numbers: Object.keys(combined.numbers).map((id) => `${def.id}.${id}`).sort(),
      figures: figureKeys,
    });
  }

  // 5. Outputs. With --only, the other experiments keep what the previous build wrote.
  const registryIds = loaded.map((l) => l.def.id);
  const ran = new Set(planned.map((p) => p.id));
  const partial = !!options.only?.length;
  const keep = (experiment: string) => partial && !ran.has(experiment) && registryIds.includes(experiment);
  const numbersPath = join(outDir, 'numbers.json');
  const previousNumbers = partial ? (readJson<NumbersFile>(numbersPath) ?? {}) : {};
  const kept: NumbersFile = {};
  for (const [id, v] of Object.entries(previousNumbers)) if (keep(v.experiment)) kept[id] = v;
  const numbers = sortNumbers(mergeNumbers(parts, kept));
  await writeIfChanged(fx.writeFile, numbersPath, formatNumbersFile(numbers));

  const previousFigures = partial ? (readJson<Record<string, FigureIndexEntry>>(join(figuresDir, 'index.json')) ?? {}) : {};
  const previousExperiments = partial ? (readJson<{ experiments: ExperimentIndexEntry[] }>(join(outDir, 'experiments.json'))?.experiments ?? []) : [];
  const allFigures: Record<string, FigureIndexEntry> = {};
  const allExperiments: ExperimentIndexEntry[] = [];
  for (const id of registryIds) {
    if (ran.has(id)) {
      for (const [k, v] of Object.entries(figureIndex)) if (v.experiment === id) allFigures[k] = v;
      allExperiments.push(experimentIndex.find((e) => e.id === id)!);
    } else if (keep(id)) {
      for (const [k, v] of Object.entries(previousFigures)) if (v.experiment === id) allFigures[k] = v;
      const e = previousExperiments.find((x) => x.id === id);
      if (e) allExperiments.push(e);
    }
  }
  await writeIfChanged(fx.writeFile, join(figuresDir, 'index.json'), `${JSON.stringify(allFigures, null, 2)}\n`);
  await writeIfChanged(fx.writeFile, join(outDir, 'experiments.json'), `${JSON.stringify({ experiments: allExperiments }, null, 2)}\n`);
  // Outputs of figures and experiments that no longer exist would linger in the site: remove them.
  await removeStale(figuresDir, new Set(Object.keys(allFigures).flatMap((k) => [`${k}.svg`, `${k}.png`]).concat('index.json')));
  await removeStale(dataDir, new Set(allExperiments.map((e) => `${e.id}.json`)));

  // 6. Against the committed snapshot.
  const snapshotNumbersPath = join(snapshotDir, 'numbers.json');
  const snapshotNumbers = readJson<NumbersFile>(snapshotNumbersPath);
  const numberChanges = snapshotNumbers ? diffNumbers(snapshotNumbers, numbers) : null;
  const figureChanges = compareFigureSnapshots(join(snapshotDir, 'figures'), figuresDir, Object.keys(allFigures));
  const rel = toPosix(relative(root, snapshotDir)) || '.';
  if (!snapshotNumbers) {
    log(`no snapshot yet (${rel}/numbers.json): accept this build with: npm run snapshot`);
  } else if (numberChanges!.length === 0 && figureChanges.length === 0) {
    log(`numbers and figures match ${rel}/ (${Object.keys(numbers).length} numbers, ${Object.keys(allFigures).length} figures)`);
  } else {
    const changed = numberChanges!.filter((c) => c.old && c.new).length;
    const added = numberChanges!.filter((c) => !c.old).length;
    const gone = numberChanges!.filter((c) => !c.new).length;
    log(`numbers: ${changed} changed, ${added} new, ${gone} gone against ${rel}/numbers.json; figures: ${figureChanges.length} changed`);
    const lines = describeNumberChanges(numberChanges!);
    for (const l of lines.slice(0, 10)) log(`  ${l}`);
    if (lines.length > 10) log(`  … ${lines.length - 10} more`);
    if (figureChanges.length) log(`  figures: ${figureChanges.join(', ')}`);
    log('accept them with: npm run snapshot');
  }

  return {
    experiments: planned.map((p) => ({ id: p.id, file: p.loaded.path, plan: p.plan, jobs: p.jobs.length, ran: p.jobs.filter((j) => j.lookup.status !== 'fresh').length })),
    absent,
    numbers,
    figures: Object.keys(allFigures),
    numberChanges,
    figureChanges,
  };
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

async function removeStale(dir: string, keepNames: Set<string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const n of names) if (!keepNames.has(n) && !n.includes('.tmp-')) await rm(join(dir, n), { force: true, recursive: true });
}

/** Figure keys whose SVG differs from the snapshot's (or that are new or gone), sorted. */
export function compareFigureSnapshots(snapshotFigures: string, figuresDir: string, keys: string[]): string[] {
  const out = new Set<string>();
  for (const k of keys) {
    const a = join(snapshotFigures, `${k}.svg`);
    const b = join(figuresDir, `${k}.svg`);
    if (!existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b))) out.add(k);
  }
  let snap: string[] = [];
  try {
    snap = readdirSync(snapshotFigures).filter((f) => f.endsWith('.svg') && !f.endsWith('-changed.svg')).map((f) => f.slice(0, -4));
  } catch {
    /* no snapshot folder */
  }
  for (const k of snap) if (!keys.includes(k)) out.add(k);
  return [...out].sort();
}
