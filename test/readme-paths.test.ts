/**
 * Every repository path the documentation names exists: the README's table of
 * folders, its examples and its links, and the golden-trace README. A path under
 * a git-ignored folder (dist/, src/generated/, .cache/) is a build output, which a
 * fresh checkout does not have; those are skipped, and the test checks that the
 * folder is indeed ignored, so a typo cannot hide behind the rule.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DOCS = ['README.md', 'test/fixtures/golden/README'];

/** Folders .gitignore names (`dist/`, `src/generated/`…): what the build writes. */
const IGNORED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l.endsWith('/') && !l.startsWith('#') && !l.includes('*'));

/** Top-level entries of the repository. */
const TOP = new Set(readdirSync(ROOT));

/**
 * The paths a document names: in `code` spans, code blocks (their comments left out) and
 * link targets, a relative path with a folder in it that starts at a top-level entry of the
 * repository, ends in a file extension or ends with a slash (`src/rng`, `test/sim.golden.test.ts`,
 * `./src/rng/index.ts`, `tokenizers/`). A slash in prose (`old/new`, `I/O`), an identifier such
 * as `llm-sim-golden/1`, an absolute URL path (`/sub/path/`) and a git revision (`REV:test/x`)
 * are not repository paths.
 */
function namedPaths(text: string, top: Set<string> = TOP): string[] {
  const uncomment = (block: string) => block.replace(/(^|\s)(#|\/\/).*$/gm, '');
  const code = [
    ...[...text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((m) => uncomment(m[1])),
    ...[...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
    ...[...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]),
  ].join('\n');
  const out = new Set<string>();
  for (const m of code.matchAll(/(?<![\w/.:~=-])(\.\/)?((?:[\w.@-]+\/)+[\w.@-]*)/g)) {
    const path = m[2].replace(/[.,;:]+$/, '');
    if (/^https?:/.test(path) || path.includes('…')) continue;
    const first = path.split('/')[0];
    if (top.has(first) || path.endsWith('/') || /\.[a-z]+$/i.test(path)) out.add(path);
  }
  return [...out].sort();
}

describe('paths named by the documentation', () => {
  it('the rule ignores prose and URLs and finds paths in code', () => {
    const text =
      'see `src/sim/`, `src/rng` and [x](test/a.ts); old/new I/O req/s `SITE_BASE=/sub/path/` `git show REV:test/x` `llm-sim-golden/1` `srcc/typo.ts`\n' +
      '```ts\nimport a from \'./src/rng/index.ts\'; // old/new\n```\n```sh\nopen dist/x.html   # old/new/pixel-diff\n```';
    expect(namedPaths(text, new Set(['src', 'test', 'dist']))).toEqual(['dist/x.html', 'src/rng', 'src/rng/index.ts', 'src/sim/', 'srcc/typo.ts', 'test/a.ts']);
  });

  for (const doc of DOCS) {
    it(`${doc}: every path it names exists (build outputs excepted)`, () => {
      const paths = namedPaths(readFileSync(join(ROOT, doc), 'utf8'));
      expect(paths.length).toBeGreaterThan(3);
      const missing = paths.filter((p) => !IGNORED.some((dir) => p.startsWith(dir)) && !existsSync(join(ROOT, p)));
      expect(missing, `${doc} names paths that do not exist`).toEqual([]);
    });
  }

  it('the build outputs it skips are git-ignored folders', () => {
    expect(IGNORED).toEqual(expect.arrayContaining(['dist/', 'src/generated/', '.cache/']));
    const skipped = DOCS.flatMap((d) => namedPaths(readFileSync(join(ROOT, d), 'utf8'))).filter((p) => IGNORED.some((dir) => p.startsWith(dir)));
    expect(skipped.every((p) => /^(dist|src\/generated|\.cache|test-artifacts)\//.test(p))).toBe(true);
  });
});
