/**
 * Compute apart from drawing: an experiment's figures live in its figures
 * module (experiments/figures/<file>), bundled apart and in no job key. Editing
 * it re-renders the figures from cached data without rerunning a job; editing
 * the experiment module still reruns. Drawn figures are kept in the figure
 * cache: a build whose figures' inputs did not move draws none.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { figuresModulePath } from '../src/pipeline/runner.ts';
import { RENDERER_FILES } from '../src/pipeline/figure-cache.ts';
import { importClosure, importGraph } from './helpers/import-graph.ts';
import { planOf, tempRoots, type TempRoot } from './pipeline-helpers.ts';

const make = tempRoots();

const FIGURE = 'src/generated/figures/alpha.samples';

/** The import closure recorded in every cache entry of an experiment. */
function closures(r: TempRoot, experiment: string): string[][] {
  const dir = join(r.root, '.cache', 'experiments', experiment);
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.json'))
    .map((f) => Object.keys(JSON.parse(readFileSync(join(dir, f), 'utf8').split('\n', 1)[0]!).manifest.files as Record<string, string>));
}

describe('figures module', () => {
  it('is found beside the experiment module, under figures/', () => {
    expect(figuresModulePath('/p/experiments/first-wave.ts')).toBe('/p/experiments/figures/first-wave.ts');
  });

  it('re-renders on a figure edit without rerunning a job; an experiment edit still reruns', async () => {
    const r = make();
    const cold = await r.run();
    expect(planOf(cold.lines, 'alpha')).toBe('missing (3 jobs)');
    expect(cold.figures).toEqual(['alpha.samples']);
    expect(cold.figuresDrawn).toEqual(['alpha.samples']);
    // The figures module is in no job's key.
    for (const files of closures(r, 'alpha')) {
      expect(files).toContain('experiments/alpha.ts');
      // Paths are root-relative (a file outside the root, ../…, may sit in a folder of any name).
      expect(files.filter((f) => /(^|\/)experiments\/figures\//.test(f))).toEqual([]);
    }
    // Accept this build as the snapshot.
    cpSync(join(r.root, 'src/generated/numbers.json'), join(r.root, 'test/snapshots/numbers.json'));
    cpSync(join(r.root, 'src/generated/figures'), join(r.root, 'test/snapshots/figures'), { recursive: true });
    const svg = r.read(`${FIGURE}.svg`);
    const png = r.read(`${FIGURE}.png`);

    r.edit('experiments/figures/alpha.ts', (t) => t.replace("label: 'latency (ms)'", "label: 'latency (milliseconds)'").replace('Plot.ruleY([0])', "Plot.ruleY([0], { stroke: '#D55E00' })"));
    const restyled = await r.run();
    expect(planOf(restyled.lines, 'alpha')).toBe('fresh');
    expect(planOf(restyled.lines, 'beta')).toBe('fresh');
    expect(restyled.experiments.map((e) => e.ran)).toEqual([0, 0]);
    expect(restyled.lines.some((l) => l.startsWith('running '))).toBe(false);
    expect(restyled.numbers).toEqual(cold.numbers);
    const restyledSvg = r.read(`${FIGURE}.svg`).toString();
    expect(restyledSvg).toContain('latency (milliseconds)');
    expect(restyledSvg).toContain('stroke="#D55E00"');
    expect(r.read(`${FIGURE}.png`).equals(png)).toBe(false);
    expect(restyled.numberChanges).toEqual([]);
    // The phone-width drawing is a figure under review too.
    expect(restyled.figureChanges).toEqual(['alpha.samples', 'alpha.samples.narrow']);

    // Back to the old style: the old bytes, still without a job.
    r.edit('experiments/figures/alpha.ts', (t) => t.replace("label: 'latency (milliseconds)'", "label: 'latency (ms)'").replace("Plot.ruleY([0], { stroke: '#D55E00' })", 'Plot.ruleY([0])'));
    const back = await r.run();
    expect(back.experiments.map((e) => e.ran)).toEqual([0, 0]);
    // The figure cache still holds what the old style drew from these inputs: nothing is drawn.
    expect(back.figuresDrawn).toEqual([]);
    expect(r.read(`${FIGURE}.svg`).equals(svg)).toBe(true);
    expect(back.figureChanges).toEqual([]);

    r.edit('experiments/alpha.ts', (t) => `${t}// a comment is a change too\n`);
    const recomputed = await r.run();
    expect(planOf(recomputed.lines, 'alpha')).toBe('stale: experiments/alpha.ts changed (3 jobs)');
    expect(recomputed.experiments.map((e) => e.ran)).toEqual([3, 0]);
  });

  it('refuses figures in the experiment module, and a figures module without a figures export', async () => {
    const r = make(['experiments/alpha.ts']);
    r.edit('experiments/alpha.ts', (t) => t.replace('  clauses:', '  figures: {},\n  clauses:'));
    await expect(r.run()).rejects.toThrow('experiments/alpha.ts: figures belong in experiments/figures/alpha.ts (export const figures)');
    r.edit('experiments/alpha.ts', (t) => t.replace('  figures: {},\n', ''));
    r.edit('experiments/figures/alpha.ts', (t) => t.replace('export const figures', 'export const drawings'));
    await expect(r.run()).rejects.toThrow('experiments/figures/alpha.ts: must export const figures');
    r.edit('experiments/figures/alpha.ts', (t) => t.replace('export const drawings', 'export const figures').replace('Plot.ruleY([0])', 'Plot.ruleY([0]'));
    await expect(r.run()).rejects.toThrow(/^experiments\/figures\/alpha\.ts: cannot bundle: /);
  });

  it('takes a figure whose inputs did not move from the figure cache; a moved number, a corrupt entry or --force draws it again, the same bytes', async () => {
    const r = make();
    await r.run();
    const svg = r.read(`${FIGURE}.svg`);
    const narrow = r.read(`${FIGURE}.narrow.svg`);
    const warm = await r.run();
    expect(warm.figuresDrawn).toEqual([]);
    expect(warm.figures).toEqual(['alpha.samples']);
    expect(r.read(`${FIGURE}.svg`).equals(svg)).toBe(true);
    // A corrupt entry is not trusted: the figure is drawn again, to the same bytes.
    const dir = join(r.root, '.cache', 'figures', 'alpha');
    const [entry] = readdirSync(dir);
    writeFileSync(join(dir, entry!), readFileSync(join(dir, entry!), 'utf8').replace('<svg', '<svG'));
    expect((await r.run()).figuresDrawn).toEqual(['alpha.samples']);
    expect(r.read(`${FIGURE}.svg`).equals(svg)).toBe(true);
    expect(r.read(`${FIGURE}.narrow.svg`).equals(narrow)).toBe(true);
    expect((await r.run({ force: true })).figuresDrawn).toEqual(['alpha.samples']);
    // Data that moves (the constant only alpha imports) is another key.
    r.edit('experiments/lib/alpha-only.ts', (t) => t.replace(/SCALE_MS = 10;/, 'SCALE_MS = 12;'));
    const moved = await r.run();
    expect(moved.figuresDrawn).toEqual(['alpha.samples']);
    expect(r.read(`${FIGURE}.svg`).equals(svg)).toBe(false);
  });

  it('keys figures by the renderer\u2019s whole import closure', () => {
    expect([...RENDERER_FILES].sort()).toEqual(importClosure(importGraph(), 'src/pipeline/render.ts'));
  });
});
