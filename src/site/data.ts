/**
 * The site's only door to the pipeline's output: numbers.json, figures/index.json,
 * the figure files, experiments.json and claims.json of one build folder, read strictly with
 * the types the runner writes them with (src/pipeline/outputs.ts).
 *
 * The folder is `src/generated` under the project root, or the one named by
 * STOPWATCHES_GENERATED (development and tests with a throwaway data set;
 * never commit fake numbers into src/generated).
 *
 * Lookups that miss throw a SiteDataError that names the page and the id: an
 * unknown number or figure fails the build. A figure whose SVG or PNG is not
 * the file the build recorded is refused, never served.
 */
import { sha256 } from '../fs/hash.ts';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, relative } from 'node:path';
import type { z } from 'zod';
import { GENERATED_DIR, OutputError, outputPaths, readJson, SCHEMAS, type ClaimResult, type ClaimsFile, type ExperimentIndexEntry, type FigureIndexEntry } from '../pipeline/outputs.ts';
import type { NumberValue } from '../pipeline/types.ts';

export class SiteDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SiteDataError';
  }
}

export type SiteNumber = NumberValue & { experiment: string };

/** A figure's index entry and its key (`<experiment>.<figure>`). */
export type FigureMeta = FigureIndexEntry & { key: string };

/** Where the pipeline's output is read from. */
export function generatedDir(): string {
  const env = process.env.STOPWATCHES_GENERATED;
  return env ? resolve(env) : resolve(process.cwd(), GENERATED_DIR);
}

const paths = () => outputPaths(generatedDir());
const FIX = 'run `npx stopwatches run` first (or set STOPWATCHES_GENERATED to a folder that holds a build)';
const memo = new Map<string, unknown>();

function read<T>(file: string, schema: z.ZodType<T>, fix: string = FIX): T {
  if (memo.has(file)) return memo.get(file) as T;
  let v: T;
  try {
    v = readJson(file, schema, fix);
  } catch (err) {
    throw err instanceof OutputError ? new SiteDataError(err.message) : err;
  }
  memo.set(file, v);
  return v;
}

/** All numbers, as numbers.json holds them. */
export function loadNumbers(): Record<string, SiteNumber> {
  return read(paths().numbers, SCHEMAS.numbers);
}

/** Numbers when they exist, else an empty map (for pages that report what is missing rather than fail). */
export function loadNumbersIfAny(): Record<string, SiteNumber> {
  return existsSync(paths().numbers) ? loadNumbers() : {};
}

/** The checked claims as the build's claims step evaluated them (claims.json): the site never evaluates a claim itself. */
export function loadClaims(): ClaimsFile {
  const p = paths();
  const file = read(p.claims, SCHEMAS.claims, 'run `npx stopwatches claims` after `npx stopwatches run` (`npm run build` runs both)');
  // A claims.json evaluated on other numbers would put yesterday's verdicts beside today's values.
  if (!memo.has(`${p.claims}#fresh`)) {
    const now = existsSync(p.numbers) ? sha256(readFileSync(p.numbers)) : 'missing';
    if (now !== file.numbersSha256) {
      throw new SiteDataError(`${p.claims} was evaluated on another numbers.json (sha256 ${file.numbersSha256.slice(0, 12)}…, now ${now.slice(0, 12)}); run \`npx stopwatches claims\` again`);
    }
    memo.set(`${p.claims}#fresh`, true);
  }
  return file;
}

/** Claims when claims.json exists, else none (for the page that reports what is missing rather than fail, as loadNumbersIfAny). */
export function loadClaimsIfAny(): ClaimsFile {
  return existsSync(paths().claims) ? loadClaims() : { numbersSha256: '', claims: [], summary: { checked: 0, hold: 0, contradicted: 0, fail: 0 } };
}

/** One checked claim of claims.json; a SiteDataError naming the page when no section declares it. */
export function getClaim(id: string, page: string): ClaimResult {
  const c = loadClaims().claims.find((x) => x.id === id);
  if (!c) throw new SiteDataError(`<Claim id="${id}"> on page ${page}: no claim "${id}" is declared in src/article/*.checks.ts`);
  return c;
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

/** One number by id; throws naming the page and the id when it is unknown. */
export function getNumber(id: string, page: string): SiteNumber {
  if (typeof id !== 'string' || id === '') throw new SiteDataError(`<Num> without an id on page ${page}`);
  const all = loadNumbers();
  const v = Object.hasOwn(all, id) ? all[id] : undefined;
  if (!v) {
    const files = filesMentioning(`"${id}"`);
    const head = id.split('.')[0];
    const sib = Object.keys(all).filter((k) => k.startsWith(`${head}.`)).slice(0, 8);
    throw new SiteDataError(
      `Unknown number id "${id}" on page ${page}` +
        (files.length ? ` (used in ${files.join(', ')})` : '') +
        `: not in ${paths().numbers}.` +
        (sib.length ? ` Ids of the same experiment: ${sib.join(', ')}` : ''),
    );
  }
  return v;
}

// ---------------------------------------------------------------- figures

/** Every figure of the build, keyed `<experiment>.<figure>`, in paper order. */
function loadFigureIndex(): Map<string, FigureMeta> {
  const file = paths().figureIndex;
  const key = `${file}#map`;
  if (memo.has(key)) return memo.get(key) as Map<string, FigureMeta>;
  const index = existsSync(file) ? read(file, SCHEMAS.figureIndex) : {};
  const map = new Map(Object.entries(index).map(([k, e]) => [k, { ...e, key: k }]));
  memo.set(key, map);
  return map;
}

export interface LoadedFigure {
  meta: FigureMeta;
  svg: string;
  /** The figure drawn for a phone's width (figures-narrow/), shown below 36rem. */
  narrowSvg: string;
  pngPath: string;
}

/**
 * One figure's metadata and SVG text. Throws naming the page when the figure
 * is unknown, or when its SVG or PNG is missing or not the bytes the build
 * recorded (a PNG is served only beside the SVG it was drawn from).
 */
export function getFigure(exp: string, name: string, page: string): LoadedFigure {
  const key = `${exp}.${name}`;
  const idx = loadFigureIndex();
  const meta = idx.get(key);
  if (!meta) {
    const same = [...idx.keys()].filter((k) => k.startsWith(`${exp}.`));
    throw new SiteDataError(`Unknown figure "${key}" on page ${page}: not in ${paths().figureIndex}.` + (same.length ? ` Figures of ${exp}: ${same.join(', ')}` : ''));
  }
  const verified = (file: string, hash: string | null): Buffer => {
    const path = join(paths().figures, file);
    if (!existsSync(path)) throw new SiteDataError(`Figure "${key}" on page ${page}: ${path} is missing; ${FIX}`);
    const bytes = readFileSync(path);
    if (hash !== null && sha256(bytes) !== hash) throw new SiteDataError(`Figure "${key}" on page ${page}: ${path} is not the file the build wrote (sha256 differs); run \`npx stopwatches run\` to redraw it`);
    return bytes;
  };
  if (meta.png === null) throw new SiteDataError(`Figure "${key}" on page ${page}: the build ran with --no-png; ${FIX}`);
  const svg = verified(meta.svg, meta.svgSha256).toString('utf8');
  verified(meta.png, meta.pngSha256);
  const narrow = paths().narrowSvg(key);
  if (!existsSync(narrow)) throw new SiteDataError(`Figure "${key}" on page ${page}: ${narrow} is missing; ${FIX}`);
  return { meta, svg, narrowSvg: readFileSync(narrow, 'utf8'), pngPath: join(paths().figures, meta.png) };
}

// ------------------------------------------------------------ experiments

/** The experiments of the build, in registry order; empty before the first build. */
export function loadExperiments(): ExperimentIndexEntry[] {
  const file = paths().experiments;
  return existsSync(file) ? read(file, SCHEMAS.experiments).experiments : [];
}
