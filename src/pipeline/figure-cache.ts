/**
 * The figure cache: an experiment's drawn figures (each one's SVG, its phone
 * SVG, title, caption and description) under .cache/figures/<experiment>/,
 * one entry per key.
 *
 * Drawing is pure: the same figures code, over the same combined data and
 * numbers, through the same renderer and npm packages, gives the same bytes.
 * The key hashes exactly those, so a build whose figures' inputs did not move
 * takes the SVGs from here and never loads Plot or a DOM (about a second of a
 * warm build's start, and another second of drawing on the paper). Anything
 * else (an edited figures module, a moved number, a renderer change, another
 * lockfile) is another key, and the figure is drawn again.
 *
 * An entry is one header line of JSON (format, key, sha256 and size of the
 * body), a newline, then the body. Reading re-hashes the body: an entry whose
 * bytes do not match is not trusted and the figures are drawn again. Writes are
 * atomic, like every cache write.
 */
import { readFileSync } from 'node:fs';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../fs/hash.ts';
import { canonicalJson } from './hash.ts';
import type { WriteFile } from './cache.ts';

/** Bump when the entry format or what a key covers changes: every entry becomes a miss. */
export const FIGURE_CACHE_FORMAT = 1;

/** Entries kept per experiment (the newest): enough to switch branches back and forth. */
const ENTRIES_KEPT = 4;

/**
 * The renderer's own code, package-relative: figure spec → SVG, with what its
 * types import (to be safe). Its hash is in every key; test/pipeline-figures.test.ts
 * holds this list equal to the import closure of render.ts. Plot's and
 * linkedom's code are pinned by the lockfile.
 */
export const RENDERER_FILES = ['src/figure-style.ts', 'src/pipeline/plot-svg.ts', 'src/pipeline/render.ts', 'src/pipeline/types.ts', 'src/rng/index.ts'];

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

let rendererHash: string | undefined;

/** sha256 over the renderer's files (read once per process). */
function renderer(): string {
  rendererHash ??= sha256(RENDERER_FILES.map((f) => `${f}\n${sha256(readFileSync(join(PACKAGE_ROOT, f)))}\n`).join(''));
  return rendererHash;
}

/** One drawn figure, as the build writes and indexes it. */
export interface DrawnFigure {
  name: string;
  title: string;
  caption: string;
  alt: string;
  svg: string;
  narrow: string;
}

/** What a figure cache key covers. */
export interface FigureInputs {
  experiment: string;
  /** The figures module's bundled closure: path → sha256 (bundle.ts). */
  code: Record<string, string>;
  /** The experiment's combined data and numbers, as its figures read them. */
  data: unknown;
  numbers: unknown;
  /** sha256 of package-lock.json. */
  lockfile: string;
}

/**
 * A value as JSON that keeps what plain JSON would blur (NaN, ±Infinity and
 * undefined read as null or vanish there, yet a figure may draw them differently).
 */
function exactJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `\u0000${v}` : v === undefined ? '\u0000undefined' : v)) ?? '';
}

export function figureKey(inputs: FigureInputs): string {
  const { data, numbers, ...rest } = inputs;
  return sha256(canonicalJson({ format: FIGURE_CACHE_FORMAT, renderer: renderer(), node: process.versions.node, ...rest, data: sha256(exactJson(data)), numbers: sha256(exactJson(numbers)) }));
}

export class FigureCache {
  constructor(
    readonly dir: string,
    private readonly write: WriteFile,
  ) {}

  private entry(experiment: string, key: string): string {
    return join(this.dir, experiment, `${key}.json`);
  }

  /** The figures drawn under `key`, or null (absent, or not the bytes that were written: drawn again). */
  async get(experiment: string, key: string): Promise<DrawnFigure[] | null> {
    let raw: Buffer;
    try {
      raw = await readFile(this.entry(experiment, key));
    } catch {
      return null;
    }
    const nl = raw.indexOf(10);
    if (nl < 0) return null;
    try {
      const header = JSON.parse(raw.subarray(0, nl).toString('utf8')) as { format: number; key: string; sha256: string; bytes: number };
      const body = raw.subarray(nl + 1);
      if (header.format !== FIGURE_CACHE_FORMAT || header.key !== key || body.length !== header.bytes || sha256(body) !== header.sha256) return null;
      return (JSON.parse(body.toString('utf8')) as { figures: DrawnFigure[] }).figures;
    } catch {
      return null;
    }
  }

  async put(experiment: string, key: string, figures: DrawnFigure[]): Promise<void> {
    const body = Buffer.from(JSON.stringify({ figures }));
    const header = JSON.stringify({ format: FIGURE_CACHE_FORMAT, key, sha256: sha256(body), bytes: body.length });
    await this.write(this.entry(experiment, key), Buffer.concat([Buffer.from(`${header}\n`), body]));
    await this.prune(experiment);
  }

  private async prune(experiment: string): Promise<void> {
    const dir = join(this.dir, experiment);
    const names = (await readdir(dir)).filter((f) => /^[0-9a-f]{64}\.json$/.test(f));
    if (names.length <= ENTRIES_KEPT) return;
    const dated = await Promise.all(names.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
    dated.sort((a, b) => b.t - a.t || (a.f < b.f ? -1 : 1));
    for (const { f } of dated.slice(ENTRIES_KEPT)) await rm(join(dir, f), { force: true });
  }
}
