/** Unit tests of the site's pure parts: formatting, relative links, the data loader's errors, the reproduction table, the registries. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { autoDigits, describe as describeNum, formatPlain, formatValue, ofTotal, pickFrom, valueOrModes } from '../src/format/value.ts';
import { pageFromBase, rel, rootPrefix } from '../src/site/paths.ts';
import { prepareSvg, slug } from '../src/pipeline/inline-svg.ts';
import { reproductionRows, toUnit, FAR_OFF } from '../src/site/reproduction.ts';
import { PUBLISHED } from '../src/published.ts';
import { DOSSIER, checkDossier } from '../src/site/dossier/index.ts';
import { numberWords } from '../src/site/prose.ts';
import { REFERENCES } from '../src/site/references.ts';
import { PROSE_SECTIONS, heading } from '../src/outline.ts';
import { formatConstant } from '../src/format/constant.ts';

describe('number formatting', () => {
  it('shows three significant digits with thousands separators', () => {
    expect(formatPlain(53.27)).toBe('53.3');
    expect(formatPlain(1105.4)).toBe('1,105');
    expect(formatPlain(9.482)).toBe('9.48');
    expect(formatPlain(0.4213)).toBe('0.421');
    expect(formatPlain(160000)).toBe('160,000');
    expect(formatPlain(99.96)).toBe('100');
    expect(formatPlain(-2.5)).toBe('−2.50');
    expect(autoDigits(0)).toBe(0);
  });
  it('joins units the way the prose writes them', () => {
    expect(formatValue(53.3, 'ms')).toBe('53.3\u00a0ms');
    expect(formatValue(2.168, '×')).toBe('2.17×');
    expect(formatValue(18.4, '%')).toBe('18.4%');
    expect(formatValue(0.184, '', { as: 'percent' })).toBe('18.4%');
    expect(formatValue(1, 'runs')).toBe('1\u00a0run');
    expect(formatValue(2, 'runs')).toBe('2\u00a0runs');
    expect(formatValue(1, 'queries')).toBe('1\u00a0query');
    expect(formatValue(1, 'boolean')).toBe('yes');
    expect(formatValue(0, 'boolean')).toBe('no');
    expect(formatValue(1872, '')).toBe('1,872');
    expect(formatValue(1105, 'ms', { as: 'seconds', digits: 2 })).toBe('1.11\u00a0s');
    expect(formatValue(6.287, 'req/s', { digits: 3 })).toBe('6.287\u00a0req/s');
    expect(formatValue(53.3, 'ms', { bare: true })).toBe('53.3');
  });
  it('describes a number with its interval, sample size and kind', () => {
    const d = describeNum('x.p99_ms', { value: 53.3, unit: 'ms', n: 5760, interval: [48, 61.2], intervalKind: 'order-statistic 95%' });
    expect(d).toBe('x.p99_ms = 53.3\u00a0ms [48.0, 61.2\u00a0ms], n = 5,760, order-statistic 95%');
  });
  it('names both uncertainties of a number over seeds, and picks a mode', () => {
    const nv = {
      value: 40.2, unit: 'ms', n: 576, interval: [35.5, 47.1] as [number, number], intervalKind: 'order-statistic 95% (i.i.d.) within one run (median bounds over 20 seeds)',
      seeds: 20, spread: { min: 38.1, q1: 39, median: 40.2, q3: 52.4, max: 58.9, modes: [{ min: 38.1, median: 40, max: 43, seeds: 13 }, { min: 51, median: 55.1, max: 58.9, seeds: 7 }] as [never, never] },
    };
    expect(describeNum('x.p99_ms', nv)).toBe(
      'x.p99_ms = 40.2\u00a0ms, median over 20 seeds; seed to seed 38.1–58.9\u00a0ms (quartiles 39.0–52.4\u00a0ms); two modes: 13 of 20 seeds near 40.0\u00a0ms, 7 near 55.1\u00a0ms, within one run: [35.5, 47.1\u00a0ms], n = 576 per run, order-statistic 95% (i.i.d.) within one run (median bounds over 20 seeds)',
    );
    expect(pickFrom('x', nv, 'upper-mode')).toEqual({ value: 55.1 });
    expect(pickFrom('x', nv, 'upper-mode-seeds')).toEqual({ text: '7 of 20 seeds' });
    expect(pickFrom('x', nv, 'seeds-max')).toEqual({ value: 58.9 });
    expect(() => pickFrom('y', { value: 1, unit: 'ms', n: null, interval: null }, 'upper-mode')).toThrow('y has no spread over seeds');
    expect(() => pickFrom('z', { ...nv, spread: { ...nv.spread, modes: undefined } }, 'lower-mode')).toThrow('z is not bimodal over its 20 seeds');
  });
  it('a number whose seeds split is printed as its two modes, never as a median no seed has', () => {
    const lattice = { value: 5.335, unit: 'req/s', n: null, interval: null, seeds: 20, spread: { min: 5.02, q1: 5.02, median: 5.335, q3: 5.65, max: 5.65, modes: [{ min: 5.02, median: 5.02, max: 5.02, seeds: 10 }, { min: 5.65, median: 5.65, max: 5.65, seeds: 10 }] as [never, never] } };
    expect(valueOrModes(lattice)).toBe('split: 10 of 20 seeds at 5.02\u00a0req/s, 10 at 5.65\u00a0req/s');
    expect(valueOrModes({ ...lattice, spread: { ...lattice.spread, modes: [{ min: 5, median: 5.02, max: 5.1, seeds: 10 }, { min: 5.6, median: 5.65, max: 5.7, seeds: 10 }] as [never, never] } })).toBe('split: 10 of 20 seeds near 5.02\u00a0req/s, 10 near 5.65\u00a0req/s');
    expect(valueOrModes({ ...lattice, spread: { ...lattice.spread, modes: undefined } })).toBe('5.34\u00a0req/s');
  });
  it('prints whole counts without decimals', () => {
    expect(formatValue(47, 'preemptions')).toBe('47\u00a0preemptions');
    expect(formatValue(7, 'runs')).toBe('7\u00a0runs');
    expect(formatValue(12.5, 'preemptions')).toBe('12.5\u00a0preemptions');
    expect(ofTotal(4, 40, 'runs')).toBe('4 of 40 runs');
    expect(ofTotal(0, 1, 'runs')).toBe('0 of 1 run');
  });
  it('prints a percentage exact at fewer decimals with them, and no trailing zeros it cannot claim', () => {
    expect(formatValue(40, '%')).toBe('40%');
    expect(formatValue(100 * (13 / 40), '%')).toBe('32.5%');
    expect(formatValue(1.6, '%')).toBe('1.6%');
    expect(formatValue(40.04, '%')).toBe('40.0%');
    expect(formatValue(18.4, '%', { digits: 2 })).toBe('18.40%');
  });
  it('prints constants with SI prefixes', () => {
    expect(formatConstant(989.4e12, 'FLOP/s')).toBe('989.4\u00a0TFLOP/s');
    expect(formatConstant(3.35e12, 'B/s')).toBe('3.35\u00a0TB/s');
    expect(formatConstant(0.001, 's')).toBe('1\u00a0ms');
    expect(formatConstant(0.75, 'fraction')).toBe('0.75');
    expect(formatConstant(430000, 'tokens')).toBe('430,000\u00a0tokens');
  });
});

describe('relative links', () => {
  it('computes the page below the base and the way back to the root', () => {
    expect(pageFromBase('/sw/reproduction.html', '/sw/')).toBe('reproduction.html');
    expect(pageFromBase('/sw/', '/sw')).toBe('index.html');
    expect(pageFromBase('/', '/')).toBe('index.html');
    expect(rootPrefix('/sw/a/b.html', '/sw/')).toBe('../');
    expect(rel('/sw/index.html', '/sw/', 'figures/x.png')).toBe('./figures/x.png');
    expect(rel('/sw/a/b.html', '/sw/', '/dossier.html#claim-x')).toBe('../dossier.html#claim-x');
    expect(rel('/x.html', '/', 'https://example.org/')).toBe('https://example.org/');
    expect(rel('/x.html', '/', '#top')).toBe('#top');
  });
});

describe('inline SVG', () => {
  it('prefixes ids and their references, and adds role and ARIA', () => {
    const svg = '<?xml version="1.0"?><svg class="plot" role="x"><defs><clipPath id="c1"/></defs><g clip-path="url(#c1)"><use href="#c1"/><use href="#other"/></g></svg>';
    const out = prepareSvg(svg, 'fig-a', 'fig-a-title', 'fig-a-desc');
    expect(out.startsWith('<svg class="plot" role="img" aria-labelledby="fig-a-title" aria-describedby="fig-a-desc">')).toBe(true);
    expect(out).toContain('id="fig-a-c1"');
    expect(out).toContain('url(#fig-a-c1)');
    expect(out).toContain('href="#fig-a-c1"');
    expect(out).toContain('href="#other"');
    expect(slug('fig', 'first-wave', 'TTFT by index')).toBe('fig-first-wave-ttft-by-index');
  });
});

describe('data loader', () => {
  let dir: string;
  let saved: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sw-site-'));
    mkdirSync(join(dir, 'figures'));
    writeFileSync(join(dir, 'numbers.json'), JSON.stringify({
      'first-wave.p99.all_ms': { value: 1100, unit: 'ms', n: 640, interval: [1000, 1200], experiment: 'first-wave' },
      'first-wave.p99.after_ms': { value: 50, unit: 'ms', n: 576, interval: null, experiment: 'first-wave' },
    }));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>';
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    const clauses = { arrivals: 'closed', clock: 'c', window: 'w', definitions: 'd', tokens: 't', prompts: 'p' };
    const provenance = { file: 'experiments/first-wave.ts', configHash: 'abc', seeds: [1], jobs: 1, closure: 3, lockfile: '0123456789abcdef', node: '20.0.0' };
    writeFileSync(join(dir, 'figures', 'index.json'), JSON.stringify({
      'first-wave.ttft': { experiment: 'first-wave', figure: 'ttft', title: 'T', caption: 'C', alt: 'A', svg: 'first-wave.ttft.svg', png: 'first-wave.ttft.png', svgSha256: sha(svg), pngSha256: sha('png'), width: 1, height: 1, clauses, provenance },
    }));
    writeFileSync(join(dir, 'figures', 'first-wave.ttft.svg'), svg);
    writeFileSync(join(dir, 'figures', 'first-wave.ttft.png'), 'png');
    writeFileSync(join(dir, 'figures', 'first-wave.ttft.narrow.svg'), svg);
    saved = process.env.STOPWATCHES_GENERATED;
    process.env.STOPWATCHES_GENERATED = dir;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.STOPWATCHES_GENERATED;
    else process.env.STOPWATCHES_GENERATED = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads numbers and fails on an unknown id, naming page and id', async () => {
    const { getNumber } = await import('../src/site/data.ts');
    expect(getNumber('first-wave.p99.all_ms', '/index.html').value).toBe(1100);
    expect(() => getNumber('first-wave.p99.nope_ms', '/index.html')).toThrow(/Unknown number id "first-wave\.p99\.nope_ms" on page \/index\.html.*first-wave\.p99\.after_ms/s);
  });

  it('refuses a claims.json evaluated on other numbers, in one line', async () => {
    const sha = createHash('sha256').update(readFileSync(join(dir, 'numbers.json'))).digest('hex');
    const claims = (numbersSha256: string) => JSON.stringify({ numbersSha256, claims: [], summary: { checked: 0, hold: 0, evidence: 0, contradicted: 0, fail: 0 } });
    writeFileSync(join(dir, 'claims.json'), claims('0'.repeat(64)));
    vi.resetModules();
    const stale = await import('../src/site/data.ts');
    expect(() => stale.loadClaims()).toThrow(/claims\.json was evaluated on another numbers\.json \(sha256 000000000000…, now [0-9a-f]{12}\); run `npx stopwatches claims` again$/);
    writeFileSync(join(dir, 'claims.json'), claims(sha));
    vi.resetModules();
    const fresh = await import('../src/site/data.ts');
    expect(fresh.loadClaims().numbersSha256).toBe(sha);
    rmSync(join(dir, 'claims.json'));
  });

  it('reads figures and fails on an unknown one, naming the page', async () => {
    const { getFigure } = await import('../src/site/data.ts');
    const f = getFigure('first-wave', 'ttft', '/index.html');
    expect(f.meta.provenance.configHash).toBe('abc');
    expect(f.meta.png).toBe('first-wave.ttft.png');
    expect(f.narrowSvg).toContain('<svg');
    expect(() => getFigure('first-wave', 'nope', '/index.html')).toThrow(/Unknown figure "first-wave\.nope" on page \/index\.html/);
    // A PNG that is not the file the build recorded is never served.
    writeFileSync(join(dir, 'figures', 'first-wave.ttft.png'), 'pnG');
    expect(() => getFigure('first-wave', 'ttft', '/index.html')).toThrow(/first-wave\.ttft\.png is not the file the build wrote \(sha256 differs\)/);
    writeFileSync(join(dir, 'figures', 'first-wave.ttft.png'), 'png');
  });
});

describe('reproduction table', () => {
  const num = (value: number, unit: string, interval: [number, number] | null = null) => ({ value, unit, n: null, interval, experiment: 'e' });
  it('sorts by how far off, missing last, and converts time units', () => {
    const rows = reproductionRows(
      [
        { id: 'a_ms', published: 100, unit: 'ms', where: { in: 'intro' } },
        { id: 'b_s', published: 1, unit: 's', where: { in: 'intro' } },
        { id: 'c', published: 10, unit: '', where: { in: 'intro' } },
        { id: 'd', published: 0, unit: '%', where: { in: 'intro' } },
      ],
      { a_ms: num(101, 'ms'), b_s: num(1500, 'ms', [1400, 1600]), d: num(0, '%') },
    );
    expect(rows.map((r) => r.entry.id)).toEqual(['b_s', 'a_ms', 'd', 'c']);
    expect(rows[0]!.oursInPublishedUnit).toBeCloseTo(1.5);
    expect(rows[0]!.status).toBe('far');
    expect(rows[1]!.status).toBe('close');
    expect(rows[3]!.status).toBe('missing');
    expect(toUnit(2, 'h', 'min')).toBe(120);
    expect(toUnit(1, 'ms', 'tokens')).toBeNull();
    expect(FAR_OFF).toBeGreaterThan(0);
  });
});

describe('registries', () => {
  it('published values: unique ids with a unit suffix convention and a place in the article', () => {
    // One id may carry several published draws (e.g. three collapse times), never the same value twice.
    const keys = PUBLISHED.map((p) => `${p.id}=${p.published}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const p of PUBLISHED) {
      expect(p.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9_-]+)+$/);
      expect(Number.isFinite(p.published)).toBe(true);
      expect(heading(p.where.in).id).toBe(p.where.in);
    }
  });
  it('claims spell out no numbers (a value comes from constant or numberId; formulas like L(1−r) are fine)', () => {
    const problems: string[] = [];
    for (const c of DOSSIER.filter((c) => !c.constant)) {
      for (const h of numberWords(c.statement)) problems.push(`${c.id}: number in words “${h.phrase}”`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
  it('claims: valid grades, unique ids, references that exist', () => {
    checkDossier();
    const refs = new Set(REFERENCES.map((r) => r.n));
    for (const c of DOSSIER) for (const r of c.refs ?? []) expect(refs.has(r), `claim ${c.id} cites [${r}]`).toBe(true);
    expect(DOSSIER.some((c) => c.id.startsWith('const-'))).toBe(true);
  });
  it('sections: one partial per section and no orphan partial', () => {
    const files = readdirSync(join(import.meta.dirname, '..', 'src/article')).filter((f) => f.endsWith('.astro')).map((f) => f.replace(/\.astro$/, ''));
    expect(files.sort()).toEqual(PROSE_SECTIONS.map((s) => s.id).sort());
  });
});
