/**
 * The prose checks: (1) the project holds no copy of the article's text: no
 * run of eight words in the site's sources is shared with it (compared by hash
 * against test/fixtures/article-ngrams.json), where a number, typed, spelled
 * out or a <Num/>, never breaks a run (src/site/ngrams.ts); (2) no digit in prose outside
 * <Num/>, except the explicit allow-list in src/site/prose.ts; (3) no number
 * spelled out in words to dodge (2): compound and large number words,
 * percentages and fractions in words, except NUMBER_WORD_ALLOW there.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { hashRun, ngramHashes, numbersAsDigits, NGRAM_SIZE } from '../src/site/ngrams.ts';
import { proseOf, strayDigits, numberWords, allowedPhrasesIn, NUMBER_WORD_ALLOW } from '../src/site/prose.ts';

const ROOT = join(import.meta.dirname, '..');
const DIRS = ['src/article', 'src/pages', 'src/components', 'src/layouts'];
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

  it('a run that spans a number is caught, whether the number is typed, spelled out or a <Num/>', () => {
    const article = 'our closed loop then ran at 95% of the best rate the sweep had found, and twenty times over it collapsed for good';
    const runs = new Set(ngramHashes(article).map((h) => h.hash));
    const shared = (src: string) => ngramHashes(proseOf(numbersAsDigits(src), 'x.astro')).filter((h) => runs.has(h.hash)).map((h) => h.run);
    expect(shared('<p>then ran at <Num id="a.load_pct" /> of the best rate the sweep had found</p>')).toContain('then ran at of the best rate the');
    expect(shared('<p>and <Num id="a.times_x" bare /> times over it <em>collapsed</em> for good, as before</p>')).toContain('and # times over it collapsed for good');
    expect(shared('<p>the loop then ran at <Num id="a.load_pct" /> of its own best rate, far from the edge</p>')).toEqual([]);
    expect(hashRun('then ran at of the best rate the')).toHaveLength(16);
  });

  it('shares no run of eight words with the article', () => {
    const shared: string[] = [];
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      // The source as written (frontmatter and attributes included) and as read (tags gone, a <Num/> a number).
      for (const text of [src, proseOf(numbersAsDigits(src), f, { keepCode: true })]) {
        for (const { run, hash } of ngramHashes(text)) {
          if (articleRuns.has(hash)) shared.push(`${relative(ROOT, f)}: “${run}”`);
        }
      }
    }
    expect([...new Set(shared)], `runs shared with the article:\n${[...new Set(shared)].join('\n')}`).toEqual([]);
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

  it('writes no number in words outside <Num/> (allow-list NUMBER_WORD_ALLOW in src/site/prose.ts)', () => {
    const spelled: string[] = [];
    for (const f of files) {
      for (const h of numberWords(readFileSync(f, 'utf8'), f)) {
        spelled.push(`${relative(ROOT, f)}:${h.line}: “${h.phrase}” (${h.rule}) in: ${h.text}`);
      }
    }
    expect(spelled, `numbers in words (use <Num id="…"/>, with bare or as= so the sentence reads):\n${spelled.join('\n')}`).toEqual([]);
  });

  it('the number-word allow-list holds only live entries', () => {
    const used = new Set(files.flatMap((f) => allowedPhrasesIn(readFileSync(f, 'utf8'), f)));
    const stale = NUMBER_WORD_ALLOW.filter((a) => !used.has(a.phrase)).map((a) => `“${a.phrase}” is in no source any more`);
    const numbersFile = join(ROOT, 'src/generated/numbers.json');
    if (existsSync(numbersFile)) {
      const ids = new Set(Object.keys(JSON.parse(readFileSync(numbersFile, 'utf8'))));
      for (const a of NUMBER_WORD_ALLOW) {
        if (a.kind === 'awaiting' && a.id && ids.has(a.id)) stale.push(`“${a.phrase}”: ${a.id} now exists; write <Num id="${a.id}"/> and drop the entry`);
      }
    }
    for (const a of NUMBER_WORD_ALLOW) if (a.kind === 'awaiting' && !a.id) stale.push(`“${a.phrase}”: an awaiting entry must name the id it waits for`);
    expect(stale, `allow-list entries to remove (src/site/prose.ts):\n${stale.join('\n')}`).toEqual([]);
  });

  it('the number-word check itself: catches spelled-out numbers, spares counting words, <Num>, code and idioms', () => {
    const src = [
      '---', 'const label = "sixty-four slots";', '---',
      '<p>At sixty-four slots and two hundred users the run sent one thousand and twenty-four tokens.</p>',
      '<p>It reached nine tenths of the sweep’s peak, ninety-five per cent, then one and a half times capacity.</p>',
      '<p>Seven tools, three programs, two clocks and one run; a third of <Num id="a.b" /> were <code>thirty-two</code>.</p>',
      '<p>A cost per million tokens, with three hundred and</p>',
      '<p>twenty slots, a tenth of a second and fifty percent.</p>',
    ].join('\n');
    const hits = numberWords(src, 'x.astro');
    expect(hits.map((h) => [h.line, h.phrase])).toEqual([
      [4, 'sixty-four'],
      [4, 'two hundred'],
      [4, 'one thousand and twenty-four'],
      [5, 'nine tenths'],
      [5, 'ninety-five per cent'],
      [5, 'one and a half'],
      [7, 'three hundred and twenty'],
      [8, 'a tenth'],
      [8, 'fifty percent'],
    ]);
    expect(hits[0].text).toContain('At sixty-four slots');
  });
});

/**
 * Text the site shows that lives in TypeScript: claims (the dossier), figure
 * captions and descriptions, clauses, Table 1 and 2 cells, CLI messages. The
 * same eight-word rule applies. Reference titles and file paths are citations,
 * not prose: src/site/references.ts is not scanned.
 */
describe('prose check of site text kept in TypeScript', () => {
  const TS_DIRS = ['src/site', 'src/checks', 'src/article', 'experiments', 'src/metrics', 'src/tools', 'src/stats', 'src/check', 'src/explorer', 'src/sim', 'src/importers', 'src/pipeline', 'src/tokens'];
  const SKIP = new Set(['src/site/references.ts']);
  /** Runs that are quotations or titles, not sentences: each with where it stands. */
  const CITED = [
    'src llmperf ray clients openai chat completions client py', // a source file path
    'etalon holistic performance evaluation framework for llm inference systems arxiv', // a paper title
    'and docs reference effective vs active metrics md', // a documentation file name
    'the only aiperf latency metric that is coordinated omission aware', // quoted from AIPerf's documentation
    'inferencex e2e infx bench fixed seq py', // a source file path
  ];
  const cited = new Set(CITED.flatMap((c) => ngramHashes(c).map((h) => h.hash)));
  const files: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.ts') && !SKIP.has(relative(ROOT, p))) files.push(p);
    }
  };
  for (const d of TS_DIRS) walk(join(ROOT, d));

  it('shares no eight-word run with the article', () => {
    expect(files.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const f of files) {
      for (const { run, hash } of ngramHashes(readFileSync(f, 'utf8'))) {
        if (articleRuns.has(hash) && !cited.has(hash)) problems.push(`${relative(ROOT, f)}: “${run}”`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
