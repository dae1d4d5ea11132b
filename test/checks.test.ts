/**
 * Checked claims: the predicates, the binding of each declared claim to
 * exactly one <Claim id> in its section's prose, their evaluation on the
 * committed snapshot of the numbers, and the build step's failure line when a
 * perturbed number flips a claim.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { about, above, atLeast, atMost, below, between, every, greater, kOfN, less, monotone, ratioAtLeast, within } from '../src/claims/predicates.ts';
import { evaluateAll, evaluateClaim, failureLine, fillText, seedsText, serializeClaims, type NumberEntry } from '../src/claims/evaluate.ts';
import { sha256 } from '../src/fs/hash.ts';
import { linearPercentile } from '../src/stats/index.ts';
import { registryProblems, sectionClaims, unknownSections } from '../src/claims/registry.ts';
import { ARTICLE_CHECKS } from '../src/article/checks.ts';
import { claimChangesFromNumbers, claimChangesLine, claimsReport, compareClaims } from '../src/claims/diff.ts';
import { loadDir } from '../src/pipeline/diff/sides.ts';
import { outputPaths, readJson, SCHEMAS } from '../src/pipeline/outputs.ts';
import { runCli } from './helpers/cli.ts';

const ROOT = join(import.meta.dirname, '..');
const SECTION_CHECKS = sectionClaims(ARTICLE_CHECKS);
const SNAPSHOT = JSON.parse(readFileSync(join(ROOT, 'test/snapshots/numbers.json'), 'utf8')) as Record<string, NumberEntry>;
const n = (value: number, extra: Partial<NumberEntry> = {}): NumberEntry => ({ value, unit: 'ms', ...extra });
/** The folders the tests write numbers into, removed when the file is done. */
const TMP = mkdtempSync(join(tmpdir(), 'checks-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('predicates', () => {
  const v = { a: 12, b: 10, c: 10.1, k: 3 };
  it('order: greater and less, with the relative gap as slack', () => {
    expect(greater('a', 'b').test(v)).toMatchObject({ holds: true, slack: 0.2 });
    expect(greater('b', 'a').test(v).holds).toBe(false);
    expect(less('b', 'a').test(v).holds).toBe(true);
    expect(less('a', 'b').test(v).slack).toBeLessThan(0);
  });
  it('bounds, counts, ranges, about and agreement', () => {
    expect(above('a', 11).test(v).holds).toBe(true);
    expect(below('a', 11).test(v).holds).toBe(false);
    expect(atLeast('k', 3).test(v)).toMatchObject({ holds: true, slack: 0 });
    expect(atMost('k', 2).test(v)).toMatchObject({ holds: false, slack: -1 });
    expect(between('a', 10, 20).test(v)).toMatchObject({ holds: true, slack: 0.2 });
    expect(between('a', 13, 20).test(v).holds).toBe(false);
    expect(about('a', 12, [11, 14]).kind).toContain('about 12');
    expect(() => about('a', 20, [11, 14])).toThrow(/outside its range/);
    expect(within('b', 'c', 0.02).test(v).holds).toBe(true);
    expect(within('a', 'b', 0.1).test(v).holds).toBe(false);
  });
  it('series and collections: monotone names its tightest step; every its tightest part; kOfN counts', () => {
    const s = { x1: 1, x2: 2, x3: 2.1 };
    const m = monotone(['x1', 'x2', 'x3'], 'rising').test(s);
    expect(m.holds).toBe(true);
    expect(m.margin).toContain('between x2 and x3');
    expect(monotone(['x3', 'x2', 'x1'], 'rising').test(s).holds).toBe(false);
    const e = every([greater('a', 'b'), greater('c', 'b')]).test(v);
    expect(e.holds).toBe(true);
    expect(e.margin).toContain('c vs b');
    expect(every([greater('a', 'b'), greater('b', 'a')]).test(v).holds).toBe(false);
    expect(kOfN([greater('a', 'b'), greater('b', 'a')], 1).test(v)).toMatchObject({ holds: true, slack: 0 });
  });
});

describe('declared claims and the prose', () => {
  const articleDir = join(ROOT, 'src/article');
  const files = readdirSync(articleDir).sort();

  it('the registry is well-formed and lists every src/article/*.checks.ts', () => {
    expect(registryProblems(ARTICLE_CHECKS)).toEqual([]);
    expect(unknownSections(ARTICLE_CHECKS)).toEqual([]);
    const declared = files.filter((f) => f.endsWith('.checks.ts')).map((f) => f.replace(/\.checks\.ts$/, ''));
    expect(SECTION_CHECKS.map((s) => s.section).sort()).toEqual(declared.sort());
  });

  it('every declared claim is rendered exactly once, in its own section, and every <Claim id> is declared', () => {
    const problems: string[] = [];
    const used = new Map<string, string[]>();
    for (const f of files.filter((x) => x.endsWith('.astro'))) {
      const src = readFileSync(join(articleDir, f), 'utf8');
      for (const m of src.matchAll(/<Claim\s+id="([^"]+)"/g)) used.set(m[1], [...(used.get(m[1]) ?? []), f.replace(/\.astro$/, '')]);
    }
    const declared = new Map(SECTION_CHECKS.flatMap((s) => s.claims.map((c) => [c.id, s.section] as const)));
    for (const [id, section] of declared) {
      const where = used.get(id) ?? [];
      if (where.length !== 1) problems.push(`${id}: rendered ${where.length} times (${where.join(', ') || 'nowhere'})`);
      else if (where[0] !== section) problems.push(`${id}: declared in ${section}.checks.ts, rendered in ${where[0]}.astro`);
    }
    for (const id of used.keys()) if (!declared.has(id)) problems.push(`<Claim id="${id}"> is declared in no src/article/*.checks.ts`);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('a contradicted claim is written without a sentence, a checked one around its sentence', () => {
    const problems: string[] = [];
    for (const s of SECTION_CHECKS) {
      const src = readFileSync(join(articleDir, `${s.section}.astro`), 'utf8');
      for (const c of s.claims) {
        const selfClosing = new RegExp(`<Claim\\s+id="${c.id}"\\s*/>`).test(src);
        if (!!c.contradicts !== selfClosing) problems.push(`${c.id}: ${c.contradicts ? 'contradicted, so <Claim id="…" />' : 'wrap the sentence in <Claim>…</Claim>'}`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

describe('evaluation on the committed numbers', () => {
  /** The number an id reads: `a.b@seeds-min` reads a part of `a.b`. */
  const baseId = (id: string) => id.replace(/@[a-z-]+$/, '');
  /** A number moved by a factor, its interval and its distribution over seeds with it (a mode's seed count stays). */
  const scaled = (e: NumberEntry, f: number): NumberEntry => {
    const x = (v: number) => (e.value === 0 ? v + f : v * f);
    const sp = e.spread;
    return {
      ...e,
      value: x(e.value),
      ...(e.interval ? { interval: e.interval.map(x) as [number, number] } : {}),
      ...(sp
        ? { spread: { min: x(sp.min), q1: x(sp.q1), median: x(sp.median), q3: x(sp.q3), max: x(sp.max), ...(sp.modes ? { modes: sp.modes.map((m) => ({ ...m, min: x(m.min), median: x(m.median), max: x(m.max) })) } : {}) } }
        : {}),
    };
  };
  const base = evaluateAll(SECTION_CHECKS, SNAPSHOT);
  const OPEN96 = 'open-closed.slots96.open.p99_ttft_ms';
  /** The open twin's p99 at 96 slots with its median over seeds 10% above the closed loop's. */
  const open96TenPercentAbove = () => {
    const e = SNAPSHOT[OPEN96];
    return scaled(e, (1.1 * SNAPSHOT['open-closed.slots96.closed.p99_ttft_ms'].spread!.median) / e.spread!.median);
  };

  it('no claim fails; every contradicted one is the original article’s', () => {
    const bad = base.claims.filter((c) => c.status === 'fails' || c.status === 'stale').map((c) => `${c.id}: ${c.margin}`);
    expect(bad, bad.join('\n')).toEqual([]);
    for (const c of base.claims.filter((x) => x.status === 'contradicted')) expect(c.article).toBeTruthy();
    expect(base.summary.checked).toBe(base.claims.length);
  });

  it('a claim’s words, filled with this build’s numbers, never repeat the unit the number brings (“64 slots slots”)', () => {
    const doubled = base.claims.flatMap((c) => [c.says, c.article ?? ''].filter((t) => /\b(\w+) \1\b/.test(t)).map((t) => `${c.id}: ${t}`));
    expect(doubled).toEqual([]);
  });

  it('is deterministic: the same numbers give the same bytes', () => {
    expect(serializeClaims(evaluateAll(SECTION_CHECKS, SNAPSHOT))).toBe(serializeClaims(base));
  });

  it('perturbing one number flips the claim that reads it, and only that one', () => {
    // At 96 slots the twins' median p99 values "differ by only a few per cent" (within 5%): move the open one, seeds and all, 10% above the closed one.
    const perturbed = { ...SNAPSHOT, [OPEN96]: open96TenPercentAbove() };
    const after = evaluateAll(SECTION_CHECKS, perturbed);
    const flipped = after.claims.filter((c, i) => c.status !== base.claims[i].status).map((c) => `${c.id}: ${base.claims.find((b) => b.id === c.id)!.status} → ${c.status}`);
    expect(flipped).toEqual(['oc-96-close: holds → fails']);
    const changes = claimChangesFromNumbers(ARTICLE_CHECKS, SNAPSHOT, perturbed);
    expect(changes[0]).toMatchObject({ id: 'oc-96-close', change: 'status' });
    expect(claimChangesLine(changes)).toMatch(/^claims: 1 changed status \(oc-96-close holds → fails\)/);
  });

  /**
   * The ids of the numbers a claim's evaluation reads from the build (its check's numbers and those its
   * words fill in), seen through a proxy; 'all' if it lists them. `evaluateClaim` is a function of what it
   * reads (it is deterministic, above), so only a claim that reads a number can change when that number moves.
   */
  const idsRead = (c: (typeof SECTION_CHECKS)[number]['claims'][number], section: string): Set<string> | 'all' => {
    const read = new Set<string>();
    let listed = false;
    const note = (k: string | symbol) => void (typeof k === 'string' && read.add(k));
    const spy = new Proxy(SNAPSHOT, {
      get: (t, k) => (note(k), Reflect.get(t, k)),
      has: (t, k) => (note(k), Reflect.has(t, k)),
      getOwnPropertyDescriptor: (t, k) => (note(k), Reflect.getOwnPropertyDescriptor(t, k)),
      ownKeys: (t) => ((listed = true), Reflect.ownKeys(t)),
    });
    evaluateClaim(c, section, spy);
    return listed ? 'all' : read;
  };

  it('every claim can be flipped by moving one of its numbers, and a move flips only claims that read that number', () => {
    const FACTORS = [0, 0.5, 0.9, 0.99, 1.01, 1.1, 2, 10, -1];
    // Every claim with its status on the committed numbers (evaluateAll's order) and what its evaluation reads.
    const claims = SECTION_CHECKS.flatMap((s) => s.claims.map((claim) => ({ claim, section: s.section, reads: idsRead(claim, s.section) }))).map((e, i) => ({ ...e, base: base.claims[i] }));
    for (const { reads, base: b } of claims) expect(reads === 'all' || b.numbers.every((m) => reads.has(baseId(m.id))), `${b.id} reads its numbers`).toBe(true);
    /** The claims whose status a move changes: of all claims, only those that read the moved number are evaluated again. */
    const changedBy = (id: string, moved: Record<string, NumberEntry>) =>
      claims.filter((e) => (e.reads === 'all' || e.reads.has(id)) && evaluateClaim(e.claim, e.section, moved).status !== e.base.status).map((e) => e.base);
    const unflippable: string[] = [];
    const strays: string[] = [];
    for (const c of base.claims) {
      let flipped = false;
      for (const id of new Set(c.numbers.map((x) => baseId(x.id)))) {
        const entry = SNAPSHOT[id];
        for (const f of FACTORS) {
          const changed = changedBy(id, { ...SNAPSHOT, [id]: scaled(entry, f) });
          if (changed.some((x) => x.id === c.id)) flipped = true;
          for (const x of changed) if (!x.numbers.some((m) => baseId(m.id) === id)) strays.push(`${id} ×${f} flipped ${x.id}, which does not read it`);
          if (flipped) break;
        }
        if (flipped) break;
      }
      if (!flipped) unflippable.push(c.id);
    }
    expect(strays).toEqual([]);
    expect(unflippable, `claims no single number can flip (a check that cannot fail): ${unflippable.join(', ')}`).toEqual([]);
  });

  it('the build step fails with one line naming the claim, its sentence and the numbers', async () => {
    const dir = mkdtempSync(join(TMP, 'claims-'));
    const perturbed = { ...SNAPSHOT, [OPEN96]: open96TenPercentAbove() };
    writeFileSync(join(dir, 'numbers.json'), JSON.stringify(perturbed));
    const r = await runCli(['claims', '--dir', dir], { cwd: ROOT });
    expect(r.code).toBe(1);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^claim open-and-closed\/oc-96-close fails: “At 96\sslots the two p99 values differ by only a few per cent \(under 5%\) by their medians over seeds\.”/);
    expect(lines[0]).toContain('open-closed.slots96.open.p99_ttft_ms@median = ');
    expect(lines[0]).toContain('src/article/open-and-closed.checks.ts');
    expect(readFileSync(join(dir, 'claims.json'), 'utf8')).toContain('"status": "fails"');

    writeFileSync(join(dir, 'numbers.json'), JSON.stringify(SNAPSHOT));
    const ok = await runCli(['claims', '--dir', dir], { cwd: ROOT });
    expect(ok.code).toBe(0);
    expect(ok.err).toBe('');
    expect(ok.out).toMatch(/^claims: \d+ checked, \d+ hold, \d+ of the original article’s contradicted by this build, 0 fail/);
    // The site reads this file through the outputs contract (strict schema): what the step wrote is what the pages show.
    // It names the numbers.json it was evaluated on, so the site can refuse it once the numbers change.
    expect(readJson(outputPaths(dir).claims, SCHEMAS.claims, 'rerun the claims step')).toEqual({ numbersSha256: sha256(readFileSync(join(dir, 'numbers.json'))), ...evaluateAll(SECTION_CHECKS, SNAPSHOT) });
  });

  it('a missing numbers.json is one line and exit 2', async () => {
    const dir = mkdtempSync(join(TMP, 'claims-'));
    const r = await runCli(['claims', '--dir', dir], { cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/numbers\.json does not exist; run `npx stopwatches run` first/);
  });
});

describe('claims and the spread over seeds', () => {
  const claim = { id: 'x', says: 'a exceeds b', check: greater('a', 'b') };
  it('without a spread there is no seed verdict', () => {
    expect(evaluateClaim(claim, 's', { a: n(12), b: n(10) }).seeds).toBeUndefined();
  });
  /** A number over seeds as an experiment writes it: per-seed values, with the spread they make. */
  const seeded = (values: number[], seeds = values.map((_, i) => i + 1)) => {
    const x = [...values].sort((p, q) => p - q);
    const q = (f: number) => linearPercentile(x, f, { sorted: true });
    return n(q(0.5), { seeds: values.length, spread: { min: x[0], q1: q(0.25), median: q(0.5), q3: q(0.75), max: x[x.length - 1] }, perSeed: { seeds, values } });
  };
  it('pairs the numbers of one seed: a claim true in every run holds in n of n, though the extremes of the two spreads cross', () => {
    // a's minimum (11) is below b's maximum (14), yet a > b in each seed.
    const r = evaluateClaim(claim, 's', { a: seeded([11, 13, 15]), b: seeded([10, 12, 14]) });
    expect(r.seeds).toEqual({ seeds: 3, holds: 3, worstSlack: 0.0714286 });
    expect(seedsText(r)).toBe('holds in 3 of 3 seeds');
  });
  it('counts the seeds in which the claim holds; the rest pull the smallest slack below zero', () => {
    const r = evaluateClaim(claim, 's', { a: seeded([9, 12, 13, 14]), b: seeded([10, 10, 10, 10]) });
    expect(r.status).toBe('holds');
    expect(r.seeds).toMatchObject({ seeds: 4, holds: 3 });
    expect(r.seeds && 'worstSlack' in r.seeds ? r.seeds.worstSlack : null).toBeCloseTo(-0.1);
    // A number without per-seed values (a setting) is read at its value in every seed.
    expect(evaluateClaim(claim, 's', { a: seeded([9, 12, 13, 14]), b: n(10) }).seeds).toMatchObject({ seeds: 4, holds: 3 });
  });
  it('reads only the seeds every per-seed number has (a value only some runs have names its seeds)', () => {
    const r = evaluateClaim(claim, 's', { a: seeded([9, 12, 13, 14]), b: seeded([13, 11], [2, 4]) });
    // Seed 2: 12 > 13 fails; seed 4: 14 > 11 holds.
    expect(r.seeds).toMatchObject({ seeds: 2, holds: 1 });
  });
  it('a claim on the median reads id@median and says "by the median", with the seeds it holds in', () => {
    const c = { id: 'm', says: 'by the median, a exceeds b', check: greater('a@median', 'b') };
    const r = evaluateClaim(c, 's', { a: seeded([9, 12, 13, 14]), b: n(10) });
    expect(r).toMatchObject({ status: 'holds', numbers: [{ id: 'a@median', value: 12.5 }, { id: 'b', value: 10 }] });
    expect(r.seeds).toMatchObject({ seeds: 4, holds: 3, byMedian: true });
    expect(seedsText(r)).toBe('by the median; holds in 3 of 4 seeds');
  });
  it('a claim that sets a number against parts of its own spread is about the distribution: no per-seed verdict', () => {
    // "The latest run came more than twice as late as the median one": one seed's value against the extremes of all is no verdict of that seed.
    const shape = { id: 'w', says: 'the largest is over twice the median', check: ratioAtLeast('a@seeds-max', 'a@median', 2) };
    const r = evaluateClaim(shape, 's', { a: seeded([1, 2, 3, 9]) });
    expect(r.status).toBe('holds');
    expect(r.seeds).toEqual({ seeds: 4, ofSpread: true });
    expect(seedsText(r)).toBe('about the spread over 4 seeds; no per-seed verdict');
    // A part of one number's spread beside another number read by seed keeps the per-seed verdict.
    const mixed = { id: 'v', says: 'a by the median exceeds b’s largest', check: greater('a@median', 'b@seeds-max') };
    expect(evaluateClaim(mixed, 's', { a: seeded([9, 12, 13, 14]), b: seeded([8, 9, 10, 11]) }).seeds).toMatchObject({ seeds: 4, holds: 3, byMedian: true });
  });
  it('a claim marked as the article’s and contradicted turns `stale` (and stops the build) once it holds', () => {
    const marked = { ...claim, contradicts: { article: 'a exceeded b' } };
    expect(evaluateClaim(marked, 's', { a: n(9), b: n(10) }).status).toBe('contradicted');
    const now = evaluateClaim(marked, 's', { a: n(12), b: n(10) });
    expect(now.status).toBe('stale');
    expect(failureLine(now)).toMatch(/^claim s\/x is marked as contradicted by this build but holds: “a exceeds b”.*remove `contradicts`/);
  });
  it('reads the ends of a number’s interval as id@lo and id@hi', () => {
    const overlap = { id: 'o', says: 'the intervals overlap', check: less('a@lo', 'b@hi') };
    const nums = { a: n(12, { interval: [11, 13] }), b: n(10, { interval: [9, 11.5] }) };
    expect(evaluateClaim(overlap, 's', nums)).toMatchObject({ status: 'holds', numbers: [{ id: 'a@lo', value: 11 }, { id: 'b@hi', value: 11.5 }] });
    expect(evaluateClaim(overlap, 's', { a: n(12), b: n(10) })).toMatchObject({ status: 'fails' });
  });
  it('reads a part of a number’s distribution over seeds as id@seeds-min, id@seeds-max, id@lower-mode, id@upper-mode and id@…-mode-seeds', () => {
    const modes = [
      { min: 0.98, median: 1.0, max: 1.02, seeds: 6 },
      { min: 1.12, median: 1.18, max: 1.25, seeds: 14 },
    ];
    const nums = { r: n(1.16, { seeds: 20, spread: { min: 0.98, q1: 1.03, median: 1.16, q3: 1.2, max: 1.25, modes } }) };
    const c = { id: 'p', says: 'a gap in most seeds, none in the rest', check: every([above('r@upper-mode', 1.1), between('r@lower-mode', 0.95, 1.05), greater('r@upper-mode-seeds', 'r@lower-mode-seeds'), below('r@seeds-min', 1), above('r@seeds-max', 1.2)]) };
    const r = evaluateClaim(c, 's', nums);
    expect(r.status).toBe('holds');
    expect(r.numbers.map((x) => x.value)).toEqual([1.18, 1.0, 14, 6, 0.98, 1.25]);
    // A part is a fixed description of the distribution: it carries no spread of its own.
    expect(r.seeds).toBeUndefined();
    // A number with one mode has no lower or upper mode: the claim fails, naming the id.
    const one = evaluateClaim(c, 's', { r: n(1.16, { seeds: 20, spread: { min: 0.98, q1: 1.03, median: 1.16, q3: 1.2, max: 1.25 } }) });
    expect(one).toMatchObject({ status: 'fails' });
    expect(one.margin).toContain('r@upper-mode');
  });
  it('fills {id} with this build’s value and {published:id} with the article’s; an unknown id fails the claim', () => {
    const c = { id: 'f', says: 'at {a} the value exceeds {b}', check: greater('a', 'b') };
    expect(evaluateClaim(c, 's', { a: n(12.5), b: n(10) }).says).toBe('at 12.5\u00a0ms the value exceeds 10\u00a0ms');
    expect(fillText('{published:no.such.id}', {}).missing).toEqual(['published:no.such.id']);
    expect(evaluateClaim({ ...c, says: 'at {zzz}' }, 's', { a: n(12), b: n(10) })).toMatchObject({ status: 'fails' });
  });
  it('a missing number fails the claim, naming the id', () => {
    const r = evaluateClaim(claim, 's', { a: n(12) });
    expect(r).toMatchObject({ status: 'fails', slack: null });
    expect(r.margin).toContain('b');
  });
});

describe('claim changes between two builds', () => {
  it('lists status changes first, then margins by size of move, then additions and removals', () => {
    const mk = (id: string, status: 'holds' | 'fails', slack: number) => ({ id, section: 's', says: id, kind: 'k', basis: 'evidence' as const, status, slack, margin: '', numbers: [] });
    const before = { claims: [mk('a', 'holds', 0.1), mk('b', 'holds', 0.5), mk('c', 'holds', 0.2), mk('gone', 'holds', 1)], summary: { checked: 4, hold: 4, evidence: 4, contradicted: 0, fail: 0 } };
    const after = { claims: [mk('a', 'holds', 0.15), mk('b', 'fails', -0.1), mk('c', 'holds', 0.9), mk('new', 'holds', 1)], summary: { checked: 4, hold: 3, evidence: 3, contradicted: 0, fail: 1 } };
    expect(compareClaims(before, after).map((c) => `${c.id}:${c.change}`)).toEqual(['b:status', 'c:margin', 'a:margin', 'new:added', 'gone:removed']);
    expect(compareClaims(before, before)).toEqual([]);
    expect(claimChangesLine([])).toBe('claims: no checked sentence changed status or margin');
  });
  it('fits the diff report: the two sides the diff loads give the claims line to print first', () => {
    const dir = mkdtempSync(join(TMP, 'diff-'));
    const moved = { ...SNAPSHOT, 'cliff.load90.collapsed': { ...SNAPSHOT['cliff.load90.collapsed'], value: 1 } };
    writeFileSync(join(dir, 'numbers.json'), JSON.stringify(moved));
    const base = loadDir(join(ROOT, 'test/snapshots'), 'snapshots', 'fix');
    const cur = loadDir(dir, 'build', 'fix');
    const { line, changes } = claimsReport(ARTICLE_CHECKS, base.numbers, cur.numbers);
    expect(line).toMatch(/^claims: 1 changed status \(cliff-none-below holds → fails\)/);
    expect(changes.filter((c) => c.change === 'status').map((c) => c.id)).toEqual(['cliff-none-below']);
    expect(claimsReport(ARTICLE_CHECKS, base.numbers, base.numbers).line).toBe('claims: no checked sentence changed status or margin');
  });
});

/** The built site (dist/, from `npm run build`): every claim on the article page once, with its tooltip, and in the dossier. */
describe('checked claims on the built site', () => {
  const dist = join(ROOT, 'dist');
  const built = existsSync(join(dist, 'index.html'));
  if (!built && process.env.CI) throw new Error('checks: dist/index.html is missing; run `npm run build` before `npm test`');
  it.runIf(built)('renders each claim once beside its sentence, with status and margin on hover, and lists it in the dossier', () => {
    const article = parseHTML(readFileSync(join(dist, 'index.html'), 'utf8')).document;
    const dossier = parseHTML(readFileSync(join(dist, 'dossier.html'), 'utf8')).document;
    // Each page walked once: the article's claim elements and the dossier's rows by id.
    const onPage = new Map<string, Element[]>();
    for (const el of article.querySelectorAll('[data-claim]')) onPage.set(el.getAttribute('data-claim')!, [...(onPage.get(el.getAttribute('data-claim')!) ?? []), el]);
    const rows = new Map<string, Element>();
    for (const el of dossier.querySelectorAll('[id^="check-"]')) if (!rows.has(el.id)) rows.set(el.id, el); // the first, as getElementById
    const problems: string[] = [];
    for (const s of SECTION_CHECKS) {
      for (const c of s.claims) {
        const els = onPage.get(c.id) ?? [];
        if (els.length !== 1) {
          problems.push(`${c.id}: ${els.length} elements on the article page`);
          continue;
        }
        const el = els[0];
        const title = el.getAttribute('title') ?? '';
        if (!title.startsWith('Checked on this build’s numbers: ') || !title.includes('Margin: ')) problems.push(`${c.id}: tooltip “${title}”`);
        if (!el.closest(`section[aria-labelledby="${s.section}"]`)) problems.push(`${c.id}: not inside the section ${s.section}`);
        const mark = el.querySelector('a.claim-mark');
        if (!mark || !mark.getAttribute('href')?.endsWith(`dossier.html#check-${c.id}`)) problems.push(`${c.id}: no mark linking to its dossier row`);
        const stated = evaluateClaim(c, s.section, SNAPSHOT).article;
        if (stated && !el.textContent.replace(/\s+/g, ' ').includes(stated.replace(/\s+/g, ' '))) problems.push(`${c.id}: the article’s statement is not printed`);
        const row = rows.get(`check-${c.id}`);
        if (!row) problems.push(`${c.id}: no dossier row`);
        else if (!row.querySelector('.status')?.textContent || row.children.length < 5) problems.push(`${c.id}: dossier row without status and margin`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
