/**
 * The Markdown summary fits one pull-request comment: with thousands of
 * changed numbers it shortens the tables (internal numbers first, the cited
 * ones and the reasons last) and says how many rows it left out; cited numbers
 * come before internal ones, which are folded; the changed constant is named;
 * the same diff gives the same bytes. With the build's outcome it opens with
 * the verdict and the claims that flipped, then why, the flags, the figures
 * and the numbers, its counts agreeing with one another.
 */
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, MARKDOWN_LIMIT, renderMarkdown } from '../src/pipeline/diff/markdown.ts';
import { EMPTY_CONTEXT, type NumberContext } from '../src/pipeline/diff/numbers.ts';
import { computeDiff } from '../src/pipeline/diff/result.ts';
import type { Side } from '../src/pipeline/diff/sides.ts';
import type { WhyMap } from '../src/pipeline/diff/why.ts';
import type { NumbersFile } from '../src/pipeline/types.ts';

const side = (label: string, numbers: NumbersFile, commit: string | null = null): Side => ({
  label,
  commit,
  numbers,
  figures: new Map(),
  data: new Map(),
  where: (p) => `${label}/${p}`,
});

/** `n` numbers over 12 experiments, every one moved by `factor` in the current side. */
function pair(n: number, factor: number) {
  const base: NumbersFile = {};
  const cur: NumbersFile = {};
  for (let i = 0; i < n; i++) {
    const exp = `exp${i % 12}`;
    const id = `${exp}.group${Math.floor(i / 12)}.value_with_a_long_name_${i}_ms`;
    base[id] = { value: 100 + i, unit: 'ms', n: 1000, interval: null, experiment: exp };
    cur[id] = { ...base[id]!, value: (100 + i) * factor };
  }
  return { base: side('git abc1234 (main)', base, 'abc1234'), cur: side('src/generated', cur) };
}

const why = (ids: string[]): WhyMap =>
  new Map(ids.map((id) => [id, [{ path: 'src/sim/constants.ts', kind: 'changed' as const, values: [{ name: 'stepOverheadS', old: '0.001', new: '0.0012' }], lines: 1 }]]));

describe('the Markdown summary', () => {
  it('fits one comment however many numbers moved, says how many rows it left out, and lists cited numbers first', () => {
    const { base, cur } = pair(4000, 1.05);
    const cited = new Map(Object.keys(cur.numbers).filter((_, i) => i % 40 === 0).map((id) => [id, ['article: the-first-wave']]));
    const ctx: NumberContext = { ...EMPTY_CONTEXT, cited };
    const r = computeDiff(base, cur, ctx, why([...Array(12).keys()].map((i) => `exp${i}`)));
    const md = renderMarkdown(r, { reportUrl: 'https://example.invalid/runs/1' });
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(md.startsWith(COMMENT_MARKER)).toBe(true);
    // Unshortened it would be several times the limit.
    expect(renderMarkdown(r, { limit: 10_000_000 }).length).toBeGreaterThan(3 * MARKDOWN_LIMIT);
    const leftOut = [...md.matchAll(/_… (\d+) more rows? left out to fit one comment/g)].map((m) => Number(m[1]));
    expect(leftOut.length).toBeGreaterThan(0);
    const citedAt = md.indexOf(`#### Cited numbers that moved (${cited.size})`);
    const internalAt = md.indexOf(`<summary>Internal numbers that moved (${4000 - cited.size})</summary>`);
    expect(citedAt).toBeGreaterThan(0);
    expect(internalAt).toBeGreaterThan(citedAt);
    // Internal numbers are shortened before any cited one is left out.
    const citedRows = md.slice(citedAt, internalAt).split('\n').filter((l) => l.startsWith('| `')).length;
    expect(citedRows).toBe(cited.size);
    // Shown rows plus those left out account for every internal number.
    const internalRows = md.slice(internalAt).split('\n').filter((l) => l.startsWith('| `')).length;
    expect(internalRows + leftOut.at(-1)!).toBe(4000 - cited.size);
    // Why: the twelve experiments share one reason, which names the constant and both values.
    expect(md).toContain('- **exp0, exp1, exp10, exp11, exp2, exp3, exp4, exp5, exp6, exp7, exp8, exp9**: src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)');
    expect(md).toContain('Full report: the [`paper-diff` artifact](https://example.invalid/runs/1) of the CI run.');
    // Same input, same bytes (also from a diff computed again).
    expect(renderMarkdown(computeDiff(base, cur, ctx, why([...Array(12).keys()].map((i) => `exp${i}`))), { reportUrl: 'https://example.invalid/runs/1' })).toBe(md);
  });

  it('a small change is shown whole, with Δ%, the published neighbourhood and the exact-by-construction flag', () => {
    const base = side('test/snapshots', {
      'first-wave.p99_ms': { value: 1000, unit: 'ms', n: 640, interval: [900, 1100], experiment: 'first-wave' },
      'first-wave.config.slots': { value: 64, unit: 'slots', n: null, interval: null, experiment: 'first-wave' },
      'first-wave.internal_ms': { value: 5, unit: 'ms', n: 10, interval: null, experiment: 'first-wave' },
    });
    const cur = side('src/generated', {
      'first-wave.p99_ms': { value: 1200, unit: 'ms', n: 640, interval: [1080, 1320], experiment: 'first-wave' },
      'first-wave.config.slots': { value: 128, unit: 'slots', n: null, interval: null, experiment: 'first-wave' },
      'first-wave.internal_ms': { value: 5.5, unit: 'ms', n: 10, interval: null, experiment: 'first-wave' },
    });
    const ctx: NumberContext = {
      ...EMPTY_CONTEXT,
      published: new Map([['first-wave.p99_ms', { value: 1.05, unit: 's' }]]),
      toUnit: (v, from, to) => (from === to ? v : from === 'ms' && to === 's' ? v / 1000 : null),
      cited: new Map([['first-wave.p99_ms', ['article: the-first-wave', 'reproduction page']]]),
    };
    const md = renderMarkdown(computeDiff(base, cur, ctx, why(['first-wave'])));
    expect(md).not.toContain('left out');
    expect(md).toContain('### Paper diff: 3 numbers and 0 figures changed');
    expect(md).toContain('1 number LEFT the published value\'s neighbourhood (±10%): `first-wave.p99_ms`');
    expect(md).toContain('1 number exact by construction (settings, closed-form values) changed');
    expect(md).toContain('| `first-wave.p99_ms` | 1000 ms | 1200 ms | +20.0% | article: the-first-wave, reproduction page | **LEFT ±10% of published 1.05 s** |');
    expect(md).toContain('| `first-wave.config.slots` | 64 slots | 128 slots | +100% | **a setting changed** |');
    expect(md).toContain('- **first-wave**: src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)');
  });

  it('an unchanged diff says so in one short comment', () => {
    const { base } = pair(10, 1);
    const md = renderMarkdown(computeDiff(base, { ...base, label: 'src/generated' }), { reportPath: 'dist/diff/index.html' });
    expect(md).toBe(`${COMMENT_MARKER}\n### Paper diff: nothing changed\n\nCommit \`abc1234\` against \`git abc1234 (main)\`: no number or figure changed (10 numbers, 0 figures). Full report: \`dist/diff/index.html\`.\n`);
  });

  it('with a failed build: the verdict and the flipped claims first, then why, flags, figures, numbers; the rest folded; counts agree', () => {
    const entry = (value: number, unit = 'ms') => ({ value, unit, n: 100, interval: null, experiment: 'first-wave' });
    const base = side('git abc1234 (main)', { 'first-wave.a_ms': entry(10), 'first-wave.b_ms': entry(20), 'first-wave.c_ms': { ...entry(30), interval: [29, 31] as [number, number] }, 'first-wave.d_ms': entry(40) }, 'abc1234');
    const cur = side('src/generated', { 'first-wave.a_ms': entry(12), 'first-wave.b_ms': entry(25), 'first-wave.c_ms': { ...entry(30), interval: [28, 32] as [number, number] }, 'first-wave.d_ms': entry(40) }, 'feedface0123456789');
    const ctx = {
      ...EMPTY_CONTEXT,
      cited: new Map([['first-wave.a_ms', ['article: the-first-wave']], ['first-wave.c_ms', ['article: the-first-wave']]]),
      claimChanges: () => [
        { id: 'wave-fast', claim: 'The wave is fast: '.padEnd(600, 'x'), change: 'status' as const, old: { status: 'holds', margin: '10 ms < 11 ms' }, new: { status: 'fails', margin: '12 ms is not below 11 ms' } },
        { id: 'wave-margin', claim: 'A margin moved.', change: 'margin' as const, old: { status: 'holds', margin: 'by 5' }, new: { status: 'holds', margin: 'by 4' } },
      ],
    };
    const r = computeDiff(base, cur, ctx, why(['first-wave']));
    const md = renderMarkdown(r, { build: 'failure', tests: 'skipped', reportUrl: 'https://example.invalid/runs/2' });
    const lines = md.split('\n');
    expect(lines[0]).toBe(COMMENT_MARKER);
    // Two numbers moved (a, b); c kept its value while its interval moved: counted apart, in the heading and the line below alike.
    expect(lines[1]).toBe('### Build fails: 1 checked claim flipped (1 no longer holds); 2 numbers and 0 figures changed');
    expect(lines[3]).toMatch(/^Commit `feedface0123` against `git abc1234 \(main\)`\. Numbers: 2 moved, 0 new, 0 removed \(1 cited; of 4\); 1 more number kept its value with another interval or spread\./);
    const at = (s: string) => md.indexOf(s);
    const order = ['#### Claims that flipped (1)', '- `wave-fast` holds → **fails**', '#### Why', '#### Cited numbers that moved (1)', '<summary>Internal numbers that moved (1)</summary>', '<summary>Numbers whose value stayed while their interval or spread moved (1)</summary>', '<summary>Claims whose margin moved, added or removed (1)</summary>'].map(at);
    expect(order.every((i) => i > 0), String(order)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Only what changed: the unchanged number is nowhere; the margin-only claim is folded, not among the flipped.
    expect(md).not.toContain('first-wave.d_ms');
    expect(md.slice(0, at('<details>'))).not.toContain('wave-margin');
    // A long sentence is cut, the decisive "now" stays on the line.
    const flippedLine = lines.find((l) => l.startsWith('- `wave-fast`'))!;
    expect(flippedLine.length).toBeLessThan(500);
    expect(flippedLine).toContain('(12 ms is not below 11 ms)');
    const cited = md.slice(at('#### Cited numbers that moved (1)'), at('<details>'));
    expect([...cited.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1])).toEqual(['first-wave.a_ms']);
    // A build that passes says so; without an outcome (a local diff) there is no verdict.
    expect(renderMarkdown(r, { build: 'success', tests: 'failure' }).split('\n')[1]).toBe('### Build passes, tests fail: 1 checked claim flipped (1 no longer holds); 2 numbers and 0 figures changed');
    expect(renderMarkdown(r).split('\n')[1]).toBe('### Paper diff: 2 numbers and 0 figures changed');
  });
});
