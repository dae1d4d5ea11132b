/**
 * The repository stands on its own: no tracked file points a reader at a
 * document outside it. Research notes the project was built from are cited by
 * their upstream source (repository, file, commit) or by the project's own
 * docs/, never by a path a reader of the repository cannot open.
 *
 * A failure lists every tracked file and line that still refers to such a
 * document; the message names the file to fix.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ngramHashes } from '../src/site/ngrams.ts';

const ROOT = join(import.meta.dirname, '..');

/** Documents that live beside the repository, not in it. */
const OUTSIDE = /\b(?:TOOLS|EXPERIMENTS|DESIGN|STACK)\.md\b|\barticle\.txt\b|\.\.\/shared\/paper\b|\/work\/shared\//;

/** Files that must name an outside path to do their job: this test (the pattern above). */
const SELF = new Set(['test/self-contained.test.ts']);

/**
 * LEFTOVERS TO SWEEP — files that still cite a document outside the
 * repository (in src/sim, src/metrics, src/importers, src/pipeline, src/check).
 * Each entry must still hold such a reference: once one is reworded, the test
 * fails with "stale" and the entry goes. Any file NOT listed here that gains a
 * reference fails at once. The goal is an empty list.
 */
const LEFTOVERS = new Set([
  'src/importers/aiperf.ts',
  'src/importers/detect.ts',
  'src/importers/guidellm.ts',
  'src/importers/llmperf.ts',
  'src/importers/mlperf.ts',
  'src/importers/sglang.ts',
  'src/importers/vllm.ts',
  'src/metrics/guidellm.ts',
  'src/metrics/llmperf.ts',
  'src/sim/constants.ts',
  'src/sim/engine.ts',
  'src/sim/index.ts',
  'src/sim/types.ts',
  'src/sim/workloads.ts',
]);

function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
}

describe('a repository that stands on its own', () => {
  it('the pattern catches each kind of outside reference and spares the project’s own docs', () => {
    for (const hit of ['see TOOLS.md §4', '(EXPERIMENTS.md §7)', 'DESIGN.md, "The simulator"', 'STACK.md §4', 'tsx x.ts ../shared/paper/article.txt', '/work/shared/paper/TOOLS.md']) {
      expect(OUTSIDE.test(hit), hit).toBe(true);
    }
    for (const ok of ['docs/definitions.md', 'docs/experiments.md §7', 'README.md', 'corpora/parallel/README.md', 'ARTICLE.txt']) expect(OUTSIDE.test(ok), ok).toBe(false);
  });

  // Leftovers this catches are listed file by file: replace each reference with the
  // upstream source or with docs/model.md, docs/definitions.md or docs/experiments.md.
  it('no tracked file refers to TOOLS.md, EXPERIMENTS.md, DESIGN.md, STACK.md, article.txt or ../shared/paper', () => {
    const hits: string[] = [];
    const leftover = new Set<string>();
    for (const f of tracked()) {
      if (SELF.has(f) || f.startsWith('test/snapshots/')) continue;
      let text: string;
      try {
        text = readFileSync(join(ROOT, f), 'utf8');
      } catch {
        continue; // deleted in the work tree
      }
      if (text.includes('\0')) continue; // binary
      text.split('\n').forEach((line, i) => {
        if (!OUTSIDE.test(line)) return;
        if (LEFTOVERS.has(f)) leftover.add(f);
        else hits.push(`${f}:${i + 1}: ${line.trim().slice(0, 140)}`);
      });
    }
    for (const f of LEFTOVERS) if (!leftover.has(f)) hits.push(`${f}: stale entry in LEFTOVERS (no outside reference left): remove it`);
    expect(hits, `references to documents outside the repository:\n${hits.join('\n')}`).toEqual([]);
  });

  it('the snapshots carry no such reference either (they are regenerated, so fix the source that writes them)', () => {
    const hits = tracked()
      .filter((f) => f.startsWith('test/snapshots/') && f.endsWith('.json'))
      .filter((f) => OUTSIDE.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(hits).toEqual([]);
  });
});

describe('docs/ is written in our own words', () => {
  const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/article-ngrams.json'), 'utf8')) as { hashes: string[] };
  const articleRuns = new Set(fixture.hashes);
  /** Source paths and file names cited in the docs, not prose. */
  const CITED = [
    'inferencex inferencex e2e infx bench fixed seq py', // repository and file in the provenance table
    'token benchmark ray py src llmperf ray clients openai chat completions client py', // two file paths
    'src aiperf config flags cli config py docs', // a file path and the docs folder
  ];
  const cited = new Set(CITED.flatMap((c) => ngramHashes(c).map((h) => h.hash)));

  it('shares no eight-word run with the article (numbers skipped or read as wildcards)', () => {
    const docs = tracked().filter((f) => f.startsWith('docs/') && f.endsWith('.md'));
    expect(docs.length).toBeGreaterThanOrEqual(3);
    const shared: string[] = [];
    for (const f of docs) {
      for (const { run, hash } of ngramHashes(readFileSync(join(ROOT, f), 'utf8'))) {
        if (articleRuns.has(hash) && !cited.has(hash)) shared.push(`${f}: “${run}”`);
      }
    }
    expect(shared, shared.join('\n')).toEqual([]);
  });
});
