/**
 * Each figure module (experiments/figures/<id>.ts) renders, from the committed
 * data of its experiment (test/snapshots/data/<id>.json), exactly the committed
 * SVGs (test/snapshots/figures/<id>.<name>.svg and its phone-width drawing
 * <id>.<name>.narrow.svg) — no experiment is run, so a
 * change to a figure's drawing is caught in about a second. Figures share one
 * frame and one palette (src/figure-style.ts): the site's CSS custom
 * properties and the explorer's charts use the same colours.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderNarrowSvg, renderSvg } from '../src/pipeline/render.ts';
import type { Figures, NumberValue } from '../src/pipeline/types.ts';
import { FIGURE_WIDTH, PALETTE } from '../src/figure-style.ts';
import { FIGURES } from '../src/outline.ts';

const ROOT = join(import.meta.dirname, '..');
const modules = readdirSync(join(ROOT, 'experiments/figures')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort();
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('figure modules render the committed figures from the committed data', () => {
  it('has a module for every experiment with figures in the outline', () => {
    expect(modules).toEqual([...new Set(FIGURES.map((f) => f.exp))].sort());
  });

  for (const id of modules) {
    it(id, async () => {
      const mod = (await import(pathToFileURL(join(ROOT, 'experiments/figures', `${id}.ts`)).href)) as { figures: Figures };
      const data = JSON.parse(read(`test/snapshots/data/${id}.json`)) as unknown;
      const numbers = JSON.parse(read('test/snapshots/numbers.json')) as Record<string, NumberValue>;
      const own = (n: string) => numbers[`${id}.${n}`] ?? expect.fail(`${id}: no number ${id}.${n} in test/snapshots/numbers.json`);
      const names = Object.keys(mod.figures);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const svg = renderSvg(mod.figures[name]!(data as never, own), `${id}.${name}`);
        expect(svg === read(`test/snapshots/figures/${id}.${name}.svg`), `${id}.${name}: the SVG differs from test/snapshots/figures/${id}.${name}.svg`).toBe(true);
        const narrow = renderNarrowSvg(mod.figures[name]!(data as never, own), `${id}.${name}`);
        expect(narrow === read(`test/snapshots/figures/${id}.${name}.narrow.svg`), `${id}.${name}: the phone-width SVG differs from test/snapshots/figures/${id}.${name}.narrow.svg`).toBe(true);
      }
    });
  }
});

/** Every fractional number in a value times 1.1: the same shapes and counts, other measurements. */
function perturb(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) && !Number.isInteger(v) ? v * 1.1 : v;
  if (Array.isArray(v)) return v.map(perturb);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, perturb(x)]));
  return v;
}

describe('text descriptions are read from the data', () => {
  // A description typed as a fixed string keeps its words when the data move; one written from the data cannot.
  for (const id of modules) {
    it(id, async () => {
      const mod = (await import(pathToFileURL(join(ROOT, 'experiments/figures', `${id}.ts`)).href)) as { figures: Figures };
      const data = JSON.parse(read(`test/snapshots/data/${id}.json`)) as unknown;
      const numbers = JSON.parse(read('test/snapshots/numbers.json')) as Record<string, NumberValue>;
      const own = (n: string) => numbers[`${id}.${n}`]!;
      const moved = (n: string) => perturb(own(n)) as NumberValue;
      for (const [name, fn] of Object.entries(mod.figures)) {
        const before = fn(data as never, own);
        const after = fn(perturb(data) as never, moved);
        expect(after.alt, `${id}.${name}: its text description does not change when its data do`).not.toBe(before.alt);
        expect(before.alt, `${id}.${name}: a no-break space in the description (it is the SVG's aria-label)`).not.toMatch(/\u00a0/);
      }
    });
  }
});

describe('one frame and one palette', () => {
  it('figure modules type no colour and no width of their own', () => {
    const problems: string[] = [];
    for (const id of modules) {
      const src = read(`experiments/figures/${id}.ts`);
      if (/#[0-9a-fA-F]{3,8}\b/.test(src)) problems.push(`experiments/figures/${id}.ts: a hex colour (use PALETTE from src/figure-style.ts)`);
      if (/\bwidth:\s*\d/.test(src)) problems.push(`experiments/figures/${id}.ts: a typed width (the frame's default is ${FIGURE_WIDTH}; use WIDE_FIGURE_WIDTH for a wide one)`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the site’s CSS custom properties hold the palette’s colours', () => {
    const css = read('src/styles/site.css');
    const problems: string[] = [];
    for (const [name, hex] of Object.entries(PALETTE)) {
      const m = new RegExp(`--oi-${name}:\\s*(#[0-9a-fA-F]{6})`).exec(css);
      if (!m) problems.push(`--oi-${name} is missing from src/styles/site.css`);
      else if (m[1]!.toLowerCase() !== hex.toLowerCase()) problems.push(`--oi-${name} is ${m[1]}, the palette says ${hex}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the explorer draws with the palette, through the article’s renderer', () => {
    const src = read('src/explorer/main.ts') + read('src/explorer/figures.ts');
    expect(src.match(/#[0-9a-fA-F]{6}\b/g) ?? []).toEqual([]);
    expect(read('src/explorer/main.ts')).toMatch(/import \{ plotSvg \} from '\.\.\/pipeline\/plot-svg\.ts'/);
  });
});
