/**
 * The reproduction page's data: every published value names a number of ours
 * that exists (or says, with a reason, that it does not exist yet), in a unit
 * we can compare, tied to an article section; no value listed twice; every
 * far-off row explained; notes written as site prose (no typed digits, no
 * run of eight words shared with the article).
 *
 * Our numbers come from src/generated/numbers.json (after `node
 * bin/stopwatches.mjs run`), else from the committed baseline
 * test/snapshots/numbers.json. Nothing here hard-codes a result.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLISHED, printedRange, whereText, withinPrinted, type Published } from '../src/published.ts';
import { sectionClaims } from '../src/claims/registry.ts';
import { evaluateAll } from '../src/claims/evaluate.ts';
import { ARTICLE_CHECKS } from '../src/article/checks.ts';
import { reproductionRow, reproductionRows, bandCounts, contradictedClaims, groupRows, groupCounts, sectionOf, seedPosition, toUnit, BANDS, GROUPS, FAR_OFF, NEAR, SHARE_ALPHA } from '../src/site/reproduction.ts';
import { heading } from '../src/outline.ts';
import { numberWords, strayDigits } from '../src/site/prose.ts';
import { ngramHashes, NGRAM_SIZE } from '../src/site/ngrams.ts';
import type { SiteNumber } from '../src/site/data.ts';
import type { SeedSpread } from '../src/pipeline/types.ts';

const ROOT = join(import.meta.dirname, '..');
const GENERATED = join(ROOT, 'src/generated/numbers.json');
const SNAPSHOT = join(ROOT, 'test/snapshots/numbers.json');
const source = existsSync(GENERATED) ? GENERATED : SNAPSHOT;
const numbers = JSON.parse(readFileSync(source, 'utf8')) as Record<string, SiteNumber>;
const has = (id: string) => Object.hasOwn(numbers, id);

const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/article-ngrams.json'), 'utf8')) as { n: number; hashes: string[] };
const articleRuns = new Set(fixture.hashes);

const proseOfEntry = (p: Published) => [p.note, p.missing].filter((x): x is string => typeof x === 'string');

describe('published values against our numbers', () => {
  it(`reads our numbers (${source.endsWith('snapshots/numbers.json') ? 'committed baseline' : 'this build'})`, () => {
    expect(Object.keys(numbers).length).toBeGreaterThan(0);
    expect(PUBLISHED.length).toBeGreaterThan(0);
  });

  it('every id exists in numbers.json, or the entry says why not (and only then)', () => {
    const problems: string[] = [];
    for (const p of PUBLISHED) {
      const reason = p.missing?.trim() ?? '';
      if (!has(p.id) && reason.length === 0) problems.push(`${p.id}: not in numbers.json and no \`missing\` reason`);
      if (has(p.id) && p.missing !== undefined) problems.push(`${p.id}: exists now; remove its \`missing\` marker`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('no published value is listed twice (one id may stand for several published draws)', () => {
    const seen = new Map<string, number>();
    for (const p of PUBLISHED) seen.set(`${p.id}=${p.published}`, (seen.get(`${p.id}=${p.published}`) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice, `listed more than once: ${twice.join(', ')}`).toEqual([]);
    // Several draws on one id only make sense against a distribution over seeds.
    const ids = new Map<string, number>();
    for (const p of PUBLISHED) ids.set(p.id, (ids.get(p.id) ?? 0) + 1);
    const notSeeded = [...ids].filter(([id, k]) => k > 1 && has(id) && !numbers[id]!.spread).map(([id]) => id);
    expect(notSeeded, `listed more than once without a spread over seeds: ${notSeeded.join(', ')}`).toEqual([]);
  });

  it('every row whose number exists is classified, and none of them reads as not reproduced', () => {
    const rows = reproductionRows(PUBLISHED, numbers);
    const problems = rows.filter((r) => r.ours && (r.group === 'missing' || r.status === 'missing')).map((r) => r.entry.id);
    expect(problems).toEqual([]);
    for (const r of rows) expect(['simulated', 'analytic', 'setting']).toContain(r.kind);
    // A simulated number over seeds is located in its distribution.
    for (const r of rows.filter((x) => x.ours?.spread && x.kind === 'simulated' && !x.share)) expect(r.seedPosition, r.entry.id).not.toBeNull();
  });

  it('every simulated number the reproduction page compares has at least twenty seeds, or draws nothing at random', () => {
    const rows = reproductionRows(PUBLISHED, numbers);
    // A value over a subset of the seeds (collapse times, over the runs that collapsed) counts its experiment's seeds.
    const seedsOf = (r: (typeof rows)[number]) => numbers[`${r.ours!.experiment}.config.seeds`]?.value ?? r.ours!.seeds!;
    const few = rows.filter((r) => r.ours?.seeds !== undefined && (seedsOf(r) < 20 || r.ours.seeds > seedsOf(r))).map((r) => `${r.entry.id} (${r.ours!.seeds} of ${seedsOf(r)} seeds)`);
    expect(few, few.join('\n')).toEqual([]);
    const shares = rows.filter((r) => r.share && r.share.n < 20).map((r) => `${r.entry.id} (${r.share!.n} runs)`);
    expect(shares, shares.join('\n')).toEqual([]);
  });

  it('the article’s contradicted statements are the checked claims marked as the article’s that fail on our numbers; their words are site prose', () => {
    const SECTION_CHECKS = sectionClaims(ARTICLE_CHECKS);
    const marked = SECTION_CHECKS.flatMap((s) => s.claims.filter((c) => c.contradicts));
    const listed = contradictedClaims(evaluateAll(SECTION_CHECKS, numbers));
    const problems: string[] = [];
    for (const r of listed) {
      if (!marked.some((c) => c.id === r.id)) problems.push(`${r.id}: listed but not marked as the article’s`);
      if (r.status !== 'contradicted') problems.push(`${r.id}: listed with status ${r.status}`);
      if (!r.article || r.numbers.some((n) => n.value === null)) problems.push(`${r.id}: listed without the article’s words or without our numbers`);
    }
    for (const c of marked) {
      // The words are templates: {id} and {published:id} are filled from the numbers, so only the words around them are prose.
      for (const text of [c.contradicts!.article, c.contradicts!.why ?? ''].map((t) => t.replace(/\{[^}]*\}/g, 'X'))) {
        for (const h of strayDigits(text)) problems.push(`${c.id}: digit in “${h.text}”`);
        for (const h of numberWords(text)) problems.push(`${c.id}: number in words “${h.phrase}” (${h.rule})`);
        for (const { run, hash } of ngramHashes(text)) if (articleRuns.has(hash)) problems.push(`${c.id}: shares “${run}” with the article`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('each published unit is comparable with ours (same unit or a time conversion)', () => {
    const problems = PUBLISHED.filter((p) => has(p.id) && toUnit(numbers[p.id]!.value, numbers[p.id]!.unit, p.unit) === null).map(
      (p) => `${p.id}: ours in “${numbers[p.id]!.unit}”, published in “${p.unit}”`,
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('a published figure is one the section of its heading places (src/outline.ts)', () => {
    const problems = PUBLISHED.filter((p) => p.where.figure !== undefined && !heading(p.where.in).section.figures.some((f) => f.article === p.where.figure)).map(
      (p) => `${p.id}: Figure ${p.where.figure} is not placed in section ${heading(p.where.in).section.id}`,
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it(`every row more than ${FAR_OFF * 100}% off carries a reason`, () => {
    const rows = reproductionRows(PUBLISHED, numbers);
    const bare = rows.filter((r) => r.status === 'far' && !(r.entry.note ?? '').trim()).map((r) => r.entry.id);
    expect(bare, `far off without a note: ${bare.join(', ')}`).toEqual([]);
  });

  it('notes are site prose: no typed digits beyond the allow-list, no numbers spelled out, no eight-word run shared with the article', () => {
    expect(fixture.n).toBe(NGRAM_SIZE);
    const problems: string[] = [];
    for (const p of PUBLISHED) {
      for (const text of proseOfEntry(p)) {
        for (const h of strayDigits(text)) problems.push(`${p.id}: digit in “${h.text}”`);
        for (const h of numberWords(text)) problems.push(`${p.id}: number in words “${h.phrase}” (${h.rule})`);
        for (const { run, hash } of ngramHashes(text)) if (articleRuns.has(hash)) problems.push(`${p.id}: shares “${run}” with the article`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

describe('reproduction rows, bands and sections', () => {
  const num = (value: number, unit: string, interval: [number, number] | null = null): SiteNumber =>
    ({ value, unit, n: null, interval, experiment: 'e' }) as SiteNumber;
  const entries: Published[] = [
    { id: 'x.near_ms', published: 100, unit: 'ms', where: { in: 'the-first-wave' } },
    { id: 'x.mid_ms', published: 100, unit: 'ms', where: { in: 'the-first-wave', figure: 2 } },
    { id: 'x.far_s', published: 1, unit: 's', where: { in: 'how-much-is-the-model', figure: 10 } },
    { id: 'x.gone_ms', published: 1, unit: 'ms', where: { in: 'the-instrument', also: 'appendix-the-model' }, missing: 'not computed' },
    { id: 'x.other', published: 1, unit: 'tokens', where: { in: 'open-and-closed', also: 'two-checks' } },
  ];
  const ours = { 'x.near_ms': num(102, 'ms'), 'x.mid_ms': num(107, 'ms'), 'x.far_s': num(1500, 'ms', [1000, 2000]), 'x.other': num(1, 'ms') };

  it('bands by the size of the gap and counts every row once', () => {
    const rows = reproductionRows(entries, ours);
    const band = Object.fromEntries(rows.map((r) => [r.entry.id, r.band]));
    expect(band).toEqual({ 'x.near_ms': 'within5', 'x.mid_ms': 'within10', 'x.far_s': 'further', 'x.gone_ms': 'missing', 'x.other': 'unit-mismatch' });
    const c = bandCounts(rows);
    expect(BANDS.reduce((s, b) => s + c[b], 0)).toBe(rows.length);
    const g = groupCounts(rows);
    expect(GROUPS.reduce((s, b) => s + g[b], 0)).toBe(rows.length);
    expect(groupRows(rows).map((x) => x.group)).toEqual(GROUPS);
    expect(rows.find((r) => r.entry.id === 'x.far_s')!.withinInterval).toBe(true);
    expect(NEAR).toBeLessThan(FAR_OFF);
  });

  it('classifies: over seeds by position and mode, shares by their interval, analytic by the printed digits, settings apart', () => {
    const spread: SeedSpread = { min: 38, q1: 39, median: 40, q3: 52, max: 59, modes: [{ min: 38, median: 39.5, max: 42, seeds: 13 }, { min: 51, median: 55, max: 59, seeds: 7 }] };
    const n = (o: Partial<SiteNumber>): SiteNumber => ({ value: 40, unit: 'ms', n: null, interval: null, experiment: 'first-wave', ...o }) as SiteNumber;
    const numbers: Record<string, SiteNumber> = {
      'a.p99_ms': n({ seeds: 20, spread: spread as SiteNumber['spread'] }),
      'a.share_pct': n({ value: 10, unit: '%', n: 40, interval: [4, 23], intervalKind: 'Wilson score 95%', experiment: 'cliff' }),
      'o.rank': n({ value: 983, unit: 'rank', experiment: 'order-statistics' }),
      's.tokens': n({ value: 1380, unit: 'tokens', experiment: 'derivations' }),
    };
    const rows = reproductionRows(
      [
        { id: 'a.p99_ms', published: 53, unit: 'ms', where: { in: 'the-first-wave' } },
        { id: 'a.p99_ms', published: 70, unit: 'ms', where: { in: 'the-first-wave' } },
        { id: 'a.share_pct', published: 0, of: 14, unit: '%', where: { in: 'the-first-wave' } },
        { id: 'o.rank', published: 983, unit: 'rank', where: { in: 'the-first-wave' } },
        { id: 's.tokens', published: 1380, unit: 'tokens', where: { in: 'the-first-wave' }, kind: 'setting' },
      ],
      numbers,
    );
    const at = (id: string, p: number) => rows.find((r) => r.entry.id === id && r.entry.published === p)!;
    expect(at('a.p99_ms', 53)).toMatchObject({ kind: 'simulated', group: 'inside', seedPosition: 'q4', mode: 'upper' });
    expect(at('a.p99_ms', 70)).toMatchObject({ group: 'outside', seedPosition: 'above' });
    // 4 of 40 against the article's 0 of 14: Fisher's exact test p = 0.56, the same share as far as so few runs tell.
    expect(at('a.share_pct', 0)).toMatchObject({ group: 'inside', withinInterval: true, share: { k: 4, n: 40 } });
    expect(at('a.share_pct', 0).share!.p).toBeCloseTo(0.5626, 4);
    expect(at('o.rank', 983)).toMatchObject({ kind: 'analytic', group: 'analytic', exact: true });
    expect(at('s.tokens', 1380)).toMatchObject({ kind: 'setting', group: 'setting' });
    expect(seedPosition(30, spread)).toBe('below');
    expect(seedPosition(39.5, spread)).toBe('q2');
  });

  it('compares at the printed precision: 0.42 covers [0.415, 0.425), an approximate value a whole step either side', () => {
    const n = (o: Partial<SiteNumber>): SiteNumber => ({ value: 1, unit: '×', n: null, interval: null, experiment: 'order-statistics', ...o }) as SiteNumber;
    const row = (entry: Published, ours: SiteNumber) => reproductionRow(entry, { [entry.id]: ours });
    const p042: Published = { id: 'o.ratio_x', published: 0.42, unit: '×', where: { in: 'the-first-wave' } };
    expect(printedRange(p042)).toMatchObject({ lo: 0.415, hi: 0.425, hiOpen: true });
    expect(row(p042, n({ value: 0.4151 })).exact).toBe(true);
    expect(row(p042, n({ value: 0.415 })).exact).toBe(true);
    expect(row(p042, n({ value: 0.425 })).exact).toBe(false);
    expect(row(p042, n({ value: 0.4149 })).exact).toBe(false);
    // "About 20 ms": 19 to 21 in; a value printed in seconds and kept in ms (1.14 s) has a step of 10 ms.
    expect(withinPrinted({ ...p042, published: 20, approx: true }, 21)).toBe(true);
    expect(withinPrinted({ ...p042, published: 20 }, 20.6)).toBe(false);
    expect(withinPrinted({ ...p042, published: 1140, step: 10 }, 1144.9)).toBe(true);
    // Over seeds: a published value just below every seed is inside when its printed range reaches the lowest seed.
    const spread = { min: 0.424, q1: 0.43, median: 0.44, q3: 0.45, max: 0.46 };
    const seeded = n({ value: 0.44, seeds: 20, spread, experiment: 'first-wave' });
    expect(row(p042, seeded)).toMatchObject({ group: 'inside', seedPosition: 'below', byPrecision: true });
    expect(row({ ...p042, published: 0.41 }, seeded)).toMatchObject({ group: 'outside', byPrecision: false });
  });

  it('shares: outside only when Fisher’s exact test says the two counts differ', () => {
    const share = (k: number, n: number): SiteNumber => ({ value: (100 * k) / n, unit: '%', n, interval: [0, 100], intervalKind: 'Wilson score 95%', experiment: 'cliff' }) as SiteNumber;
    const entry: Published = { id: 'c.share_pct', published: 0, of: 14, unit: '%', where: { in: 'the-first-wave' } };
    // 0 of 14 against 13 of 40: p = 0.0128, below α.
    expect(reproductionRow(entry, { 'c.share_pct': share(13, 40) })).toMatchObject({ group: 'outside', withinInterval: false });
    expect(reproductionRow(entry, { 'c.share_pct': share(4, 40) })).toMatchObject({ group: 'inside' });
    expect(SHARE_ALPHA).toBe(0.05);
  });

  it('links to our heading and names it by the site’s own title (not the original article’s), with the figure', () => {
    expect(sectionOf(entries[1]!)).toEqual({ id: 'the-first-wave', title: heading('the-first-wave').title });
    expect(sectionOf(entries[2]!).id).toBe('how-much-is-the-model');
    const t = (id: Parameters<typeof heading>[0]) => heading(id).title;
    expect(whereText(entries[1]!.where)).toBe(`${t('the-first-wave')}; Figure 2`);
    expect(whereText(entries[2]!.where)).toBe(`${t('how-much-is-the-model')}; Figure 10`);
    expect(whereText(entries[4]!.where)).toBe(`${t('open-and-closed')}; ${t('two-checks')}`);
    for (const e of entries) expect(whereText(e.where)).not.toMatch(/The first wave|How much of this is the model|Open and closed|Two checks anyone can run/);
  });
});
