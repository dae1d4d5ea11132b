/**
 * `stopwatches diff`: a scratch baseline/current pair (numbers.json, figures,
 * data) with one number and one figure changed lists exactly those, in a
 * self-contained HTML report; an unchanged build reports nothing; a missing or
 * corrupt baseline is one clear line and exit 2; a git revision is read
 * without a checkout; and end to end, a changed constant in a scratch git
 * project run by the real pipeline lists exactly the numbers and the figure
 * that depend on it, with the constant named as the reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';
import { UserError } from '../src/errors.ts';
import { compareData, dataRows } from '../src/pipeline/diff/data.ts';
import { numberLine, summaryLines } from '../src/pipeline/diff/format.ts';
import { formatChange } from '../src/format/text.ts';
import { runDiff } from '../src/pipeline/diff/index.ts';
import { numberRows, EMPTY_CONTEXT, type NumberContext } from '../src/pipeline/diff/numbers.ts';
import { computeDiff, hasChanges } from '../src/pipeline/diff/result.ts';
import { loadDir } from '../src/pipeline/diff/sides.ts';
import { describeInput, valueChanges } from '../src/pipeline/diff/why.ts';
import { acceptSnapshot } from '../src/pipeline/snapshot.ts';
import { toUnit } from '../src/site/reproduction.ts';
import { tempRoot, type TempRoot } from './pipeline-helpers.ts';
import { runCli } from './helpers/cli.ts';
import { compareOutputs, hasChanges as outputsChanged, readOutputDir } from '../src/pipeline/outputs.ts';

const { PNG } = pngjs;
const REPO = fileURLToPath(new URL('..', import.meta.url));

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'stopwatches-diff-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** A w×h white PNG with black pixels at `dots` ([x, y]). */
function png(w: number, h: number, dots: [number, number][] = []): Buffer {
  const img = new PNG({ width: w, height: h });
  img.data.fill(255);
  for (const [x, y] of dots) img.data.set([0, 0, 0, 255], (y * w + x) * 4);
  return PNG.sync.write(img);
}

const num = (value: number, unit = 'ms', extra: object = {}) => ({ value, unit, n: 100, interval: null, experiment: 'a', ...extra });

interface Build {
  numbers: Record<string, unknown>;
  figures: Record<string, Buffer | string>;
  data?: Record<string, unknown>;
}

function writeBuild(dir: string, b: Build): string {
  mkdirSync(join(dir, 'figures'), { recursive: true });
  writeFileSync(join(dir, 'numbers.json'), JSON.stringify(b.numbers));
  for (const [f, buf] of Object.entries(b.figures)) writeFileSync(join(dir, 'figures', f), buf);
  if (b.data) {
    mkdirSync(join(dir, 'data'), { recursive: true });
    for (const [e, d] of Object.entries(b.data)) writeFileSync(join(dir, 'data', `${e}.json`), `${JSON.stringify(d)}\n`);
  }
  return dir;
}

const baseBuild = (): Build => ({
  numbers: { 'a.x_ms': num(10.5), 'a.y_ms': num(20), 'a.gone': num(3, '') },
  figures: {
    'a.one.svg': '<svg><rect x="1"/></svg>\n',
    'a.one.png': png(20, 10),
    'a.two.svg': '<svg><rect x="2"/></svg>\n',
    'a.two.png': png(20, 10, [[1, 1]]),
    'b.three.svg': '<svg/>\n',
    'b.three.png': png(8, 8),
  },
  data: { a: { rows: [{ k: 1, v: 2 }, { k: 2, v: 3 }], meta: { label: 'x' } }, b: { xs: [1, 2, 3] } },
});

/** The baseline with exactly one number moved (and one added, one removed) and one figure changed. */
const currentBuild = (): Build => {
  const b = baseBuild();
  return {
    numbers: { 'a.x_ms': num(12), 'a.y_ms': num(20), 'a.new': num(7, 'req') },
    figures: { ...b.figures, 'a.one.svg': '<svg><rect x="1.5"/></svg>\n', 'a.one.png': png(20, 10, [[0, 0], [5, 5], [19, 9]]) },
    data: { a: { rows: [{ k: 1, v: 2 }, { k: 2, v: 4 }], meta: { label: 'x' } }, b: { xs: [1, 2, 3] } },
  };
};

/** a.x_ms has a published value (0.01 s) and is cited; the others are internal. */
const CTX: NumberContext = { ...EMPTY_CONTEXT, published: new Map([['a.x_ms', { value: 0.01, unit: 's' }]]), toUnit, cited: new Map([['a.x_ms', ['article: test']]]) };

/** A scratch project root: test/snapshots (baseline) and src/generated (current). */
function scratch(base: Build, cur: Build): string {
  const root = tmp();
  writeBuild(join(root, 'test', 'snapshots'), base);
  writeBuild(join(root, 'src', 'generated'), cur);
  return root;
}

function diffIn(root: string, extra: Partial<Parameters<typeof runDiff>[0]> = {}) {
  const lines: string[] = [];
  const out = runDiff({ root, context: CTX, log: (l) => lines.push(l), ...extra });
  return { ...out, lines, html: readFileSync(out.report, 'utf8') };
}

describe('npm run diff on a scratch pair', () => {
  it('lists exactly the number and the figure that changed, with the published neighbourhood, pixels and data rows', () => {
    const root = scratch(baseBuild(), currentBuild());
    const { result, report, lines, html } = diffIn(root);
    expect(report).toBe(join(root, 'dist', 'diff', 'index.html'));
    expect(result.numbers.map((n) => [n.id, n.kind])).toEqual([
      ['a.gone', 'removed'],
      ['a.new', 'added'],
      ['a.x_ms', 'changed'],
    ]);
    const x = result.numbers.find((n) => n.id === 'a.x_ms')!;
    expect(x.abs).toBeCloseTo(1.5);
    expect(x.rel).toBeCloseTo(1.5 / 10.5);
    // 10.5 ms is within 10% of the published 0.01 s; 12 ms is not.
    expect(x.neighbourhood).toBe('left');
    expect(result.figures.map((f) => [f.key, f.kind, f.svgChanged, f.pngChanged, f.pixels])).toEqual([['a.one', 'changed', true, true, 3]]);
    expect(result.figures[0]!.data).toEqual([{ path: 'rows[1]', kind: 'changed', old: { k: 2, v: 3 }, new: { k: 2, v: 4 }, fields: ['v'] }]);
    expect(result.sameFigures).toBe(2);

    expect(lines[0]).toBe('diff against test/snapshots: numbers 1 changed, 1 new, 1 removed (of 3; 1 of them cited); figures 1 changed, 0 new, 0 removed');
    expect(lines).toContain('  published neighbourhood (±10%): 1 left, 0 entered');
    // The cited number comes before the internal ones.
    const cited = lines.indexOf('  cited numbers that moved, largest first (1):');
    expect(cited).toBeGreaterThan(0);
    expect(lines[cited + 1]).toBe('    a.x_ms: 10.5 ms → 12 ms (+14.3%)  [LEFT ±10% of published 0.01 s]');
    expect(lines.indexOf('  internal numbers that moved, largest first (2):')).toBeGreaterThan(cited);
    expect(lines).toContain('  figure a.one: changed, 3 px differ (1.5% of the image), 1 data row changed');
    // Not a git repository: no commit to compare the inputs with, and it says so.
    expect(lines).toContain("  a: inputs not compared: the baseline's commit is unknown (not a git repository, or a folder without source.json)");
    expect(lines.at(-1)).toBe('  report: dist/diff/index.html');

    // The report: one self-contained file (figures inlined), no link leaves it.
    expect(existsSync(join(root, 'dist/diff/figures'))).toBe(false);
    const links = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l).toMatch(/^(#[\w.-]+|data:image\/png;base64,[A-Za-z0-9+/=]+)$/);
    expect(html).not.toMatch(/https?:|<script|<link/);
    // Old, new and difference inline, in all four views of the changed figure.
    const inlined = new Set(links.filter((l) => l.startsWith('data:')));
    expect(inlined.has(`data:image/png;base64,${(currentBuild().figures['a.one.png'] as Buffer).toString('base64')}`)).toBe(true);
    expect(inlined.has(`data:image/png;base64,${(baseBuild().figures['a.one.png'] as Buffer).toString('base64')}`)).toBe(true);
    expect(inlined.size).toBe(3);
    for (const view of ['side by side', 'slider', 'onion skin', 'difference']) expect(html).toContain(`>${view}</label>`);
    expect(html).toContain('<code>a.x_ms</code>');
    expect(html).toContain('LEFT ±10% of published 0.01 s');
    expect(html).toContain('3 of 200 pixels differ');
    expect(html).toContain('<b>v</b>: 3 → 4 (+33.3%)');
    const json = JSON.parse(readFileSync(join(root, 'dist/diff/diff.json'), 'utf8'));
    expect(json.figures[0].key).toBe('a.one');
    expect(readFileSync(join(root, 'dist/diff/numbers.txt'), 'utf8').split('\n')[0]).toMatch(/^a\.x_ms: /);
    // The current outputs travel with the report, for `stopwatches snapshot --from`.
    expect(readFileSync(join(root, 'dist/diff/build/numbers.json'), 'utf8')).toBe(JSON.stringify(currentBuild().numbers));
    expect(existsSync(join(root, 'dist/diff/build/figures/a.one.png'))).toBe(true);
    expect(existsSync(join(root, 'dist/diff/build/data/a.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(root, 'dist/diff/build/source.json'), 'utf8'))).toEqual({ commit: null, dirty: false });
  });

  it('reports nothing for an unchanged build, and clears a stale report of its own', () => {
    const root = scratch(baseBuild(), baseBuild());
    diffIn(root);
    mkdirSync(join(root, 'dist', 'diff', 'figures'), { recursive: true });
    writeFileSync(join(root, 'dist/diff/figures/stale.png'), 'x');
    const { result, lines, html, markdown } = diffIn(root);
    expect(hasChanges(result)).toBe(false);
    expect(result.numbers).toEqual([]);
    expect(result.figures).toEqual([]);
    expect(result.dataOnly).toEqual([]);
    expect(result.experiments).toEqual([]);
    expect(lines).toEqual(['diff: no number or figure changed against test/snapshots (3 numbers, 3 figures)', '  report: dist/diff/index.html']);
    expect(html).toContain('No number or figure changed.');
    expect(markdown).toContain('### Paper diff: nothing changed');
    expect(existsSync(join(root, 'dist/diff/figures/stale.png'))).toBe(false);
  });

  it('says when PNG sizes differ and still draws the difference', () => {
    const cur = baseBuild();
    cur.figures['b.three.png'] = png(8, 12);
    cur.figures['b.three.svg'] = '<svg height="12"/>\n';
    const { result, lines, html } = diffIn(scratch(baseBuild(), cur));
    const f = result.figures.find((x) => x.key === 'b.three')!;
    expect([f.oldSize, f.newSize, f.svgChanged, f.pngChanged, f.renderOnly]).toEqual([[8, 8], [8, 12], true, true, false]);
    expect(f.pixels).toBe(0); // the new rows are white, as is the padding
    expect(lines.some((l) => l.includes('figure b.three: changed') && l.includes('size 8×8 → 8×12'))).toBe(true);
    expect(html).toContain('The PNG sizes differ: 8×8 → 8×12 px');
  });

  it('a PNG that differs under an identical SVG is a rendering difference, not a change', () => {
    const cur = baseBuild();
    cur.figures['b.three.png'] = png(8, 8, [[2, 2]]);
    const { result, lines, markdown } = diffIn(scratch(baseBuild(), cur));
    expect(result.figures.map((f) => [f.key, f.renderOnly, f.pixels])).toEqual([['b.three', true, 1]]);
    expect(hasChanges(result)).toBe(false);
    expect(lines[0]).toMatch(/^diff: no number or figure changed/);
    expect(lines).toContain('  rendered differently with identical SVG (not a change): b.three');
    expect(markdown).toContain('rendered to different pixels from an identical SVG');
  });

  it('the snapshot comparison applies the same figure rule as the diff: a PNG-only difference is reported apart, not counted', () => {
    const cur = baseBuild();
    cur.figures['b.three.png'] = png(8, 8, [[2, 2]]);
    const root = scratch(baseBuild(), cur);
    const c = compareOutputs(readOutputDir(join(root, 'test/snapshots'), 'snapshots', 'fix'), readOutputDir(join(root, 'src/generated'), 'build', 'fix'));
    expect(c.figures).toEqual([]);
    expect(c.renderOnly).toEqual(['b.three']);
    expect(outputsChanged(c)).toBe(false);
    // An SVG that differs is a change in both.
    cur.figures['b.three.svg'] = '<svg height="9"/>\n';
    const root2 = scratch(baseBuild(), cur);
    const c2 = compareOutputs(readOutputDir(join(root2, 'test/snapshots'), 'snapshots', 'fix'), readOutputDir(join(root2, 'src/generated'), 'build', 'fix'));
    expect(c2.figures).toEqual([{ key: 'b.three', kind: 'changed', svg: true, png: true }]);
    expect(diffIn(root2).result.figures.map((f) => [f.key, f.renderOnly])).toEqual([['b.three', false]]);
  });

  it('marks a value-same change (interval only), an entered neighbourhood, and a data-only change', () => {
    const base = baseBuild();
    const cur = baseBuild();
    base.numbers['a.x_ms'] = num(12);
    cur.numbers['a.x_ms'] = num(10.2);
    cur.numbers['a.y_ms'] = num(20, 'ms', { interval: [19, 21] });
    cur.data = { ...cur.data, b: { xs: [1, 2, 5] } };
    cur.figures['b.three.svg'] = base.figures['b.three.svg']!;
    const { result, lines } = diffIn(scratch(base, cur));
    expect(result.numbers.map((n) => [n.id, n.neighbourhood, n.valueSame])).toEqual([
      ['a.x_ms', 'entered', false],
      ['a.y_ms', null, true],
    ]);
    expect(lines).toContain('    a.y_ms: 20 ms unchanged; interval none → [19, 21]');
    expect(result.dataOnly).toEqual([{ experiment: 'b', rows: 1 }]);
  });

  it('notes a baseline without data snapshots instead of failing', () => {
    const base = baseBuild();
    delete base.data;
    const { result, html } = diffIn(scratch(base, currentBuild()));
    expect(result.figures[0]!.data).toBeNull();
    expect(result.figures[0]!.dataNote).toContain('has no data snapshot');
    expect(html).toContain('stopwatches snapshot');
  });
});

describe('a missing or corrupt baseline', () => {
  const fails = (root: string, match: RegExp, extra = {}) => {
    let err: unknown;
    try {
      diffIn(root, extra);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as Error).message).not.toContain('\n');
    expect((err as Error).message).toMatch(match);
  };

  it('names the file and the fix', () => {
    const root = scratch(baseBuild(), currentBuild());
    rmSync(join(root, 'test/snapshots/numbers.json'));
    fails(root, /^diff: test\/snapshots\/numbers\.json does not exist; accept a baseline with `stopwatches snapshot`/);
    writeFileSync(join(root, 'test/snapshots/numbers.json'), '{"a.x_ms": {"value": 1, ');
    fails(root, /^diff: test\/snapshots\/numbers\.json is not valid JSON \(.*\); accept a baseline with `stopwatches snapshot`/);
    writeFileSync(join(root, 'test/snapshots/numbers.json'), '[1, 2]');
    fails(root, /^diff: test\/snapshots\/numbers\.json: .*expected record/);
    writeFileSync(join(root, 'test/snapshots/numbers.json'), JSON.stringify(baseBuild().numbers));
    writeFileSync(join(root, 'test/snapshots/figures/a.one.png'), 'not a png');
    fails(root, /^diff: test\/snapshots\/figures\/a\.one\.png is not a readable PNG \(.*\); fix or re-accept the baseline/);
    writeFileSync(join(root, 'test/snapshots/figures/a.one.png'), baseBuild().figures['a.one.png']!);
    writeFileSync(join(root, 'test/snapshots/data/a.json'), '{');
    fails(root, /^diff: test\/snapshots\/data\/a\.json is not valid JSON/);
  });

  it('a missing build, an unknown revision', () => {
    const root = scratch(baseBuild(), currentBuild());
    fails(root, /^diff: nope-not-a-rev is neither a folder nor a git revision/, { base: 'nope-not-a-rev' });
    rmSync(join(root, 'src/generated'), { recursive: true });
    fails(root, /^diff: src\/generated\/numbers\.json does not exist; build first: `npm run build`/);
  });

  it('`stopwatches diff` exits 2 with one line on stderr, 0 with changes, and writes the Markdown', async () => {
    const root = scratch(baseBuild(), currentBuild());
    const run = (...args: string[]) => runCli(['diff', ...args], { cwd: root, env: { NO_COLOR: '1' } });
    const ok = await run('--md', 'out/summary.md', '--out', 'out/report', '--report-url', 'https://example.invalid/run/1');
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('diff against test/snapshots: numbers 1 changed');
    expect(existsSync(join(root, 'out/report/index.html'))).toBe(true);
    const md = readFileSync(join(root, 'out/summary.md'), 'utf8');
    expect(md).toContain('Full report: the [`paper-diff` artifact](https://example.invalid/run/1) of the CI run.');
    expect(md).toContain('| `a.one` | 1.5% (3 px) | 1 |');
    const again = await run('--md', 'out/again.md', '--out', 'out/report', '--report-url', 'https://example.invalid/run/1');
    expect(again.code).toBe(0);
    expect(readFileSync(join(root, 'out/again.md'), 'utf8')).toBe(md); // same input, same bytes
    expect((await run('a', 'b')).code).toBe(2);
    rmSync(join(root, 'test/snapshots/numbers.json'));
    const bad = await run();
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toEqual([expect.stringMatching(/^stopwatches: diff: test\/snapshots\/numbers\.json does not exist; /)]);
  }, 60_000);
});

describe('against a git revision', () => {
  it('reads test/snapshots at the revision with git show, without touching the work tree', () => {
    const root = scratch(baseBuild(), currentBuild());
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', 'test/snapshots');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'baseline');
    // Accept the current build in the work tree; the revision still holds the old baseline.
    cpSync(join(root, 'src/generated'), join(root, 'test/snapshots'), { recursive: true });
    expect(hasChanges(diffIn(root).result)).toBe(false);
    const { result, lines } = diffIn(root, { base: 'HEAD' });
    expect(result.base).toMatch(/^git [0-9a-f]{7} \(HEAD\)$/);
    expect(result.numbers.map((n) => n.id)).toEqual(['a.gone', 'a.new', 'a.x_ms']);
    expect(result.figures.map((f) => f.key)).toEqual(['a.one']);
    expect(result.figures[0]!.pixels).toBe(3);
    expect(result.figures[0]!.data?.map((r) => r.path)).toEqual(['rows[1]']);
    expect(lines[0]).toMatch(/^diff against git [0-9a-f]{7} \(HEAD\): numbers 1 changed/);
    expect(result.baseCommit).toBe(git('rev-parse', 'HEAD').trim());
    expect(git('status', '--porcelain', 'test/snapshots')).not.toBe('');
  });
});

describe('boundaries', () => {
  it('src/pipeline reads nothing of src/site: the diff command hands the site\'s knowledge in', () => {
    const dir = join(REPO, 'src', 'pipeline');
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(ts|mjs)$/.test(f));
    expect(files).toContain(join('diff', 'numbers.ts'));
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/from '(\.\.\/)+site\/|import\('(\.\.\/)+site\//);
  });
});

describe('helpers', () => {
  it('flattens data into rows by path', () => {
    const rows = dataRows({ rows: [{ a: 1, iv: [0, 1] }], xs: [5, 6, 7, 8, 9], meta: { n: 3, deep: { z: true } }, empty: [] });
    expect([...rows.entries()]).toEqual([
      ['(top)', { empty: [] }],
      ['rows[0]', { a: 1, iv: [0, 1] }],
      ['xs[0]', 5],
      ['xs[1]', 6],
      ['xs[2]', 7],
      ['xs[3]', 8],
      ['xs[4]', 9],
      ['meta', { n: 3 }],
      ['meta.deep', { z: true }],
    ]);
    expect(compareData({ xs: [1, 2, 3, 4, 5] }, { xs: [1, 3, 3, 4, 5, 6] })).toEqual([
      { path: 'xs[1]', kind: 'changed', old: 2, new: 3 },
      { path: 'xs[5]', kind: 'added', new: 6 },
    ]);
  });

  it('names the literals a changed line assigns, with both values', () => {
    const diff = [
      '@@ -70 +70 @@',
      "-const stepOverheadS = c(0.001, 's', 'vLLM step overhead', 'D');",
      "+const stepOverheadS = c(0.0012, 's', 'vLLM step overhead', 'D');",
      '@@ -12,2 +12,2 @@',
      '-  runs: { slots: [1, 4, 16], seed: 1, label: "a" },',
      '-  // a comment',
      '+  runs: { slots: [1, 4, 16, 64], seed: 2, label: "a" },',
      '+  // another comment',
      '@@ -40 +40 @@',
      '-  if (x == 3) return y;',
      '+  if (x == 4) return y;',
    ].join('\n');
    expect(valueChanges(diff)).toEqual({
      values: [
        { name: 'stepOverheadS', old: '0.001', new: '0.0012' },
        { name: 'slots', old: '[1, 4, 16]', new: '[1, 4, 16, 64]' },
        { name: 'seed', old: '1', new: '2' },
      ],
      lines: 4,
    });
    expect(describeInput({ path: 'src/sim/constants.ts', kind: 'changed', values: valueChanges(diff).values.slice(0, 1), lines: 1 })).toBe('src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)');
    expect(describeInput({ path: 'src/sim/engine.ts', kind: 'changed', values: [], lines: 3 })).toBe('src/sim/engine.ts changed (3 lines)');
  });

  it('formats relative changes', () => {
    expect([formatChange(0), formatChange(0.1234), formatChange(-0.5), formatChange(2.5), formatChange(0.00001), formatChange(Infinity)]).toEqual(['0%', '+12.3%', '-50.0%', '+250%', '+0.0010%', '+∞ (from 0)']);
  });

  it('loads a folder baseline and summarizes a computed diff', () => {
    const a = loadDir(writeBuild(tmp(), baseBuild()), 'A', 'fix');
    const b = loadDir(writeBuild(tmp(), currentBuild()), 'B', 'fix');
    const r = computeDiff(a, b, CTX);
    expect(summaryLines(r, null)[0]).toBe('diff against A: numbers 1 changed, 1 new, 1 removed (of 3; 1 of them cited); figures 1 changed, 0 new, 0 removed');
  });
});

describe('end to end: one constant changed in a scratch project', () => {
  let r: TempRoot | undefined;
  afterEach(() => r?.cleanup());

  it('lists exactly the numbers and the figure that depend on it, and names the constant as the reason', async () => {
    r = tempRoot(['experiments/alpha.ts', 'experiments/beta.ts']);
    await r.run();
    acceptSnapshot({ root: r.root, env: {}, log: () => {} });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: r!.root, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    writeFileSync(join(r.root, '.gitignore'), 'node_modules\n.cache/\nsrc/generated/\ndist/\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'baseline');
    expect(hasChanges(runDiff({ root: r.root, log: () => {} }).result)).toBe(false);

    r.edit('experiments/lib/alpha-only.ts', (t) => t.replace('SCALE_MS = 10', 'SCALE_MS = 12'));
    await r.run();
    const lines: string[] = [];
    const { result } = runDiff({ root: r.root, log: (l) => lines.push(l) });
    // alpha's mean scales by 1.2; its seed count and beta's mean do not depend on the constant.
    expect(result.numbers.map((n) => [n.id, n.kind])).toEqual([['alpha.mean_ms', 'changed']]);
    expect(result.numbers[0]!.rel).toBeCloseTo(0.2, 10);
    // The phone-width drawing moved with it: a figure under review too, drawn only as SVG (no pixels to count).
    expect(result.figures.map((f) => [f.key, f.kind])).toEqual([['alpha.samples', 'changed'], ['alpha.samples.narrow', 'changed']]);
    expect(result.figures[0]!.pixels).toBeGreaterThan(0);
    expect([result.figures[1]!.svgChanged, result.figures[1]!.pixels]).toEqual([true, null]);
    expect(readFileSync(join(r.root, 'dist/diff/index.html'), 'utf8'), 'the report shows the phone-width drawing from its SVG').toContain('data:image/svg+xml;base64,');
    expect(result.figures[0]!.data).toHaveLength(75); // every drawn point moved
    expect(result.figures[0]!.data!.every((d) => d.fields?.join() === 'ms')).toBe(true);
    expect(lines[0]).toBe('diff against test/snapshots: numbers 1 changed, 0 new, 0 removed (of 3; 0 of them cited); figures 2 changed, 0 new, 0 removed');
    // Why: the committed snapshots belong to HEAD, and against HEAD one line of alpha's closure moved.
    expect(result.experiments.map((e) => [e.id, e.inputs])).toEqual([
      ['alpha', [{ path: 'experiments/lib/alpha-only.ts', kind: 'changed', values: [{ name: 'SCALE_MS', old: '10', new: '12' }], lines: 1 }]],
    ]);
    expect(lines).toContain('  alpha: experiments/lib/alpha-only.ts changed (SCALE_MS 10 → 12)');
    // The same through a git revision as the baseline.
    expect(runDiff({ root: r.root, base: 'HEAD', log: () => {} }).result.experiments[0]!.inputs![0]!.values).toEqual([{ name: 'SCALE_MS', old: '10', new: '12' }]);
  }, 60_000);
});

describe('numbers over seeds in the diff', () => {
  it('names a change of the spread over seeds (and of the modes) when the value stays', () => {
    const entry = (q3: number, modes?: [number, number]) => ({
      value: 40, unit: 'ms', n: 576, interval: null, experiment: 'e', seeds: 20,
      spread: { min: 38, q1: 39, median: 40, q3, max: 59, ...(modes ? { modes: [{ min: 38, median: 39, max: 42, seeds: modes[0] }, { min: 51, median: 55, max: 59, seeds: modes[1] }] } : {}) },
    });
    const rows = numberRows({ 'e.p99_ms': entry(52) as never }, { 'e.p99_ms': entry(53, [13, 7]) as never });
    expect(rows).toHaveLength(1);
    const line = numberLine(rows[0]!, 0.1);
    expect(line).toContain('unchanged');
    expect(line).toContain('spread over seeds 20 seeds 38–59 (q 39–52) → 20 seeds 38–59 (q 39–53), modes 13|7');
  });
});
