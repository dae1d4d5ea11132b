/**
 * The site's only door to the pipeline's output. Everything the pages show
 * that came out of an experiment is read here, from one directory:
 *
 *   <generated>/numbers.json            id → {value, unit, n, interval, level?, intervalKind?, experiment}
 *   <generated>/figures/index.json      per figure: title, caption, alt, clauses, provenance
 *   <generated>/figures/<exp>.<name>.svg (+ .png)
 *   <generated>/experiments.json        per experiment: id, title, file, config hash, seeds, runtime, status
 *
 * <generated> is `src/generated` under the project root, or the directory
 * named by STOPWATCHES_GENERATED (used for development and tests with a
 * throwaway data set; never commit fake numbers into src/generated).
 *
 * Lookups that miss throw a SiteDataError that names the page and the id:
 * an unknown number or figure fails the build.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, relative } from 'node:path';
import type { Clauses, NumberValue } from '../pipeline/types.ts';

export class SiteDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SiteDataError';
  }
}

export type SiteNumber = NumberValue & { experiment: string };

export interface FigureProvenance {
  /** Experiment module, relative to the project root (e.g. `experiments/first-wave.ts`). */
  file: string;
  configHash: string;
  seeds: number[];
  /** Wall-clock time of the run that produced the data (seconds), or a preformatted string. */
  runtime: number | string | null;
}

export interface FigureMeta {
  /** `<experiment>.<name>` */
  key: string;
  experiment: string;
  name: string;
  title: string;
  caption: string;
  alt: string;
  clauses: Partial<Clauses> & { sampleSize?: string };
  provenance: FigureProvenance;
  /** File names inside the figures directory. */
  svgFile: string;
  pngFile: string;
}

export interface ExperimentMeta {
  id: string;
  title: string;
  file: string | null;
  configHash: string | null;
  seeds: number[];
  runtime: number | string | null;
  status: string | null;
}

/** Where the pipeline's output is read from. */
export function generatedDir(): string {
  const env = process.env.STOPWATCHES_GENERATED;
  return env ? resolve(env) : resolve(process.cwd(), 'src/generated');
}

const cache = new Map<string, unknown>();

function readJson<T>(file: string, what: string): T {
  const hit = cache.get(file);
  if (hit !== undefined) return hit as T;
  if (!existsSync(file)) {
    throw new SiteDataError(
      `${what} not found at ${file}. Run \`npx stopwatches run\` first (or set STOPWATCHES_GENERATED to a directory that holds it).`,
    );
  }
  let v: T;
  try {
    v = JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new SiteDataError(`${what} at ${file} is not valid JSON: ${(e as Error).message}`);
  }
  cache.set(file, v);
  return v;
}

/** All numbers, as numbers.json holds them. */
export function loadNumbers(): Record<string, SiteNumber> {
  return readJson<Record<string, SiteNumber>>(join(generatedDir(), 'numbers.json'), 'numbers.json');
}

/** Numbers when they exist, else an empty map (for pages that report what is missing rather than fail). */
export function loadNumbersIfAny(): Record<string, SiteNumber> {
  const f = join(generatedDir(), 'numbers.json');
  return existsSync(f) ? loadNumbers() : {};
}

export function hasNumber(id: string): boolean {
  return Object.hasOwn(loadNumbersIfAny(), id);
}

/** Files of the site's sources that mention `needle` (to point an error at the right file). */
function filesMentioning(needle: string): string[] {
  const root = process.cwd();
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(astro|mdx?|ts)$/.test(e) && readFileSync(p, 'utf8').includes(needle)) out.push(relative(root, p));
    }
  };
  for (const d of ['src/article', 'src/pages', 'src/components', 'src/layouts']) walk(join(root, d));
  return out;
}

function near(id: string, ids: string[]): string[] {
  const head = id.split('.')[0];
  return ids.filter((k) => k.startsWith(`${head}.`)).slice(0, 8);
}

/** One number by id; throws naming the page and the id when it is unknown. */
export function getNumber(id: string, page: string): SiteNumber {
  if (typeof id !== 'string' || id === '') throw new SiteDataError(`<Num> without an id on page ${page}`);
  const all = loadNumbers();
  const v = all[id];
  if (!v) {
    const files = filesMentioning(`"${id}"`);
    const sib = near(id, Object.keys(all));
    throw new SiteDataError(
      `Unknown number id "${id}" on page ${page}` +
        (files.length ? ` (used in ${files.join(', ')})` : '') +
        `: not in ${join(generatedDir(), 'numbers.json')}.` +
        (sib.length ? ` Ids of the same experiment: ${sib.join(', ')}` : ''),
    );
  }
  if (typeof v.value !== 'number' || typeof v.unit !== 'string') {
    throw new SiteDataError(`Number "${id}" on page ${page} is malformed in numbers.json (needs value and unit).`);
  }
  return v;
}

// ---------------------------------------------------------------- figures

function figuresDir(): string {
  return join(generatedDir(), 'figures');
}

type RawFigure = Record<string, any>;

function str(x: unknown, fallback = ''): string {
  return typeof x === 'string' ? x : fallback;
}

/** Accepts index.json as a map keyed `<exp>.<name>` or as an array of entries with experiment and name. */
function normalizeFigure(key: string | null, raw: RawFigure): FigureMeta {
  const experiment = str(raw.experiment ?? raw.exp, key ? key.slice(0, key.indexOf('.')) : '');
  const name = str(raw.name ?? raw.figure, key ? key.slice(key.indexOf('.') + 1) : '');
  const k = `${experiment}.${name}`;
  const p = raw.provenance ?? {};
  const seeds = p.seeds ?? raw.seeds ?? [];
  return {
    key: k,
    experiment,
    name,
    title: str(raw.title),
    caption: str(raw.caption),
    alt: str(raw.alt ?? raw.description),
    clauses: raw.clauses ?? {},
    provenance: {
      file: str(p.file ?? p.experimentFile ?? raw.file, `experiments/${experiment}.ts`),
      configHash: str(p.configHash ?? p.hash ?? p.key ?? raw.configHash),
      seeds: Array.isArray(seeds) ? seeds : [seeds],
      runtime: p.runtime ?? p.runtimeS ?? p.runtime_s ?? (typeof p.runtimeMs === 'number' ? p.runtimeMs / 1000 : null),
    },
    svgFile: str(raw.svg, `${k}.svg`).replace(/^.*\//, ''),
    pngFile: str(raw.png, `${k}.png`).replace(/^.*\//, ''),
  };
}

export function loadFigureIndex(): Map<string, FigureMeta> {
  const file = join(figuresDir(), 'index.json');
  const memo = cache.get(`${file}#map`);
  if (memo) return memo as Map<string, FigureMeta>;
  const raw = existsSync(file) ? readJson<unknown>(file, 'figures/index.json') : {};
  const map = new Map<string, FigureMeta>();
  const entries: [string | null, RawFigure][] = Array.isArray(raw)
    ? raw.map((r) => [null, r as RawFigure])
    : Object.entries((raw as Record<string, any>).figures ?? (raw as Record<string, any>));
  for (const [k, r] of entries) {
    const f = normalizeFigure(k, r);
    map.set(f.key, f);
  }
  cache.set(`${file}#map`, map);
  return map;
}

/** Figures of the given experiments that exist, in index order (for sections not yet written). */
export function figuresOf(experiments: string[]): FigureMeta[] {
  return [...loadFigureIndex().values()].filter((f) => experiments.includes(f.experiment));
}

export interface LoadedFigure {
  meta: FigureMeta;
  svg: string;
  pngPath: string;
}

/** One figure's metadata and SVG text; throws naming the page when the figure or its files are missing. */
export function getFigure(exp: string, name: string, page: string): LoadedFigure {
  const key = `${exp}.${name}`;
  const idx = loadFigureIndex();
  const meta = idx.get(key);
  if (!meta) {
    const same = [...idx.keys()].filter((k) => k.startsWith(`${exp}.`));
    throw new SiteDataError(
      `Unknown figure "${key}" on page ${page}: not in ${join(figuresDir(), 'index.json')}.` +
        (same.length ? ` Figures of ${exp}: ${same.join(', ')}` : ''),
    );
  }
  const svgPath = join(figuresDir(), meta.svgFile);
  const pngPath = join(figuresDir(), meta.pngFile);
  if (!existsSync(svgPath)) throw new SiteDataError(`Figure "${key}" on page ${page}: ${svgPath} is missing.`);
  if (!existsSync(pngPath)) throw new SiteDataError(`Figure "${key}" on page ${page}: ${pngPath} is missing.`);
  const svg = readFileSync(svgPath, 'utf8');
  if (!/<svg[\s>]/.test(svg)) throw new SiteDataError(`Figure "${key}" on page ${page}: ${svgPath} holds no <svg>.`);
  return { meta, svg, pngPath };
}

// ------------------------------------------------------------ experiments

export function loadExperiments(): ExperimentMeta[] {
  const file = join(generatedDir(), 'experiments.json');
  if (!existsSync(file)) return [];
  const raw = readJson<unknown>(file, 'experiments.json');
  const list: [string | null, Record<string, any>][] = Array.isArray(raw)
    ? raw.map((r) => [null, r])
    : Object.entries((raw as Record<string, any>).experiments ?? (raw as Record<string, any>));
  return list.map(([k, r]) => {
    const p = r.provenance ?? {};
    const rt = p.runtime ?? r.runtime ?? p.runtimeS ?? r.runtimeS;
    const ms = p.runtimeMs ?? r.runtimeMs;
    const seeds = p.seeds ?? r.seeds;
    return {
      id: str(r.id, k ?? ''),
      title: str(r.title),
      file: p.file ?? r.file ?? null,
      configHash: p.configHash ?? r.configHash ?? r.hash ?? r.key ?? null,
      seeds: Array.isArray(seeds) ? seeds : [],
      runtime: rt ?? (typeof ms === 'number' ? ms / 1000 : null),
      status: r.status ?? p.status ?? null,
    };
  });
}

/** Seconds as a reader wants them: `0.4 s`, `12 s`, `3 min 20 s`. */
export function formatRuntime(r: number | string | null): string {
  if (r === null || r === undefined) return 'unknown';
  if (typeof r === 'string') return r;
  if (r < 10) return `${r.toFixed(1)} s`;
  if (r < 120) return `${Math.round(r)} s`;
  const m = Math.floor(r / 60);
  return `${m} min ${Math.round(r - 60 * m)} s`;
}
