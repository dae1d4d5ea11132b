/**
 * The prose checks: (1) the project holds no copy of the article's text: no
 * run of eight words in the site's sources is shared with it (compared by hash
 * against test/fixtures/article-ngrams.json); (2) no digit in prose outside
 * <Num/>, except the explicit allow-list in src/site/prose.ts.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ngramHashes, NGRAM_SIZE } from '../src/site/ngrams.ts';
import { proseOf, strayDigits } from '../src/site/prose.ts';

const ROOT = join(import.meta.dirname, '..');
const DIRS = ['src/content', 'src/pages', 'src/components', 'src/layouts'];
const EXT = /\.(md|mdx|astro)$/;

function sources(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (EXT.test(e)) out.push(p);
    }
  };
  for (const d of DIRS) walk(join(ROOT, d));
  return out;
}

const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/article-ngrams.json'), 'utf8')) as { n: number; hashes: string[] };
const articleRuns = new Set(fixture.hashes);

describe('prose check', () => {
  const files = sources();

  it('has a fixture of the article’s eight-word runs and site sources to scan', () => {
    expect(fixture.n).toBe(NGRAM_SIZE);
    expect(articleRuns.size).toBeGreaterThan(1000);
    expect(files.length).toBeGreaterThan(5);
  });

  it('detects a shared run (self-test with a run from the fixture’s own normalization)', () => {
    // Any eight words hashed the same way must be found if present; a fresh sentence must not.
    const fresh = 'these eight words were written for this self test only';
    expect(ngramHashes(fresh).some((h) => articleRuns.has(h.hash))).toBe(false);
  });

  it('shares no run of eight words with the article', () => {
    const shared: string[] = [];
    for (const f of files) {
      for (const { run, hash } of ngramHashes(readFileSync(f, 'utf8'))) {
        if (articleRuns.has(hash)) shared.push(`${relative(ROOT, f)}: “${run}”`);
      }
    }
    expect(shared, `runs shared with the article:\n${shared.join('\n')}`).toEqual([]);
  });

  it('types no digit in prose outside <Num/> (allow-list in src/site/prose.ts)', () => {
    const stray: string[] = [];
    for (const f of files) {
      for (const h of strayDigits(readFileSync(f, 'utf8'), f)) stray.push(`${relative(ROOT, f)}:${h.line}: ${h.text}`);
    }
    expect(stray, `digits in prose (use <Num id="…"/>):\n${stray.join('\n')}`).toEqual([]);
  });

  it('the digit check itself: catches typed numbers, spares <Num>, code and allowed names', () => {
    const src = [
      '---', 'const x = 42;', '---',
      '<p>The p99 was <Num id="first-wave.p99.all_ms" digits={2} /> on Llama 3.1 8B in 2026 (Figure 2) [12].</p>',
      '<p>It took 1,105 ms.</p>',
      '<p>An H100 at p99.9 with the 1k/1k workload and <code>--num-warmups 128</code>.</p>',
      '<p>{rows.map((r) => <td>{r.value * 100}</td>)}</p>',
    ].join('\n');
    const hits = strayDigits(src, 'x.astro');
    expect(hits.map((h) => h.line)).toEqual([5]);
    expect(proseOf('<Num id="a.b_ms"/> fine', 'x.astro').trim()).toBe('fine');
  });
});
