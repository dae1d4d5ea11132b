/**
 * The pull-request path without GitHub, on the fixture project
 * (test/fixtures/pipeline/: three cheap experiments) rather than the whole
 * paper: the path is the same code whatever the experiments are, and the real
 * paper's diff runs in the pull-request workflow itself (test/diff-workflows
 * lints it). In a scratch git repository holding the project's code with the
 * fixture experiments as its registry, a page citing one of their numbers and
 * one checked claim over it (the fixture has no site, so its build is the
 * experiments and the claims), the base branch is built and its snapshot
 * committed. A branch that changes nothing and a branch that changes one
 * constant only alpha imports, breaking the claim, each run the workflow's
 * own `build` and `diff against the base` steps, read from
 * .github/workflows/pull-request.yml and run as the workflow runs them (its
 * shell, its environment). The unchanged branch's build passes and reports
 * nothing; the changed one's build fails, and its review still exists: it says
 * first that the build fails and which claim flipped, names the head commit,
 * names the constant with both values, lists the cited number that moved,
 * leaves the experiments that do not import the constant untouched, and fits
 * one GitHub comment.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { COMMENT_MARKER, MARKDOWN_LIMIT } from '../src/pipeline/diff/markdown.ts';
import { citedNumbers } from '../src/site/cited.ts';
import { runCli } from './helpers/cli.ts';
import { bundledEntry } from '../bin/bundled.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'stopwatches-loop-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The fixture registry: gamma needs beta; only alpha imports experiments/lib/alpha-only.ts. */
const REGISTRY = ['alpha', 'beta', 'gamma'];
/** Experiments that do not import the changed constant. */
const UNTOUCHED = ['beta', 'gamma'];
/** What the fixture page cites (src/site/cited.ts reads `<Num id>` tags of src/article/*.astro). */
const CITED = 'alpha.mean_ms';

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=ci@example.invalid', '-c', 'user.name=ci', '-c', 'commit.gpgsign=false', ...args], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * The maintainer's side: building and accepting the base's snapshot (which `snapshot` refuses under CI).
 * Not a step of the workflow, so the CLI runs in-process (test/helpers/cli.ts): the same commands
 * without two process start-ups.
 */
async function cli(...args: string[]) {
  const r = await runCli(args, { cwd: scratch, env: { CI: undefined, NO_COLOR: '1' } });
  expect(r.code, r.err + r.out).toBe(0);
}

/** GitHub's comment limit (the Markdown aims lower: MARKDOWN_LIMIT). */
const GITHUB_COMMENT_LIMIT = 65_536;
/** The fixture claim: alpha's mean is exponential draws × SCALE_MS, about 10 ms at the base and 12 ms on the changed branch; 11 ms sits between. */
const CLAIM = { id: 'fixture-alpha-below-11', says: 'The fixture’s mean latency is below 11 ms.' };

interface Step { name?: string; id?: string; run?: string; shell?: string; env?: Record<string, string> }
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
const workflow = yaml.load(readFileSync(join(REPO, '.github', 'workflows', 'pull-request.yml'), 'utf8')) as { jobs: Record<string, { env?: Record<string, string>; steps: Step[] }> };
const job = Object.values(workflow.jobs)[0]!;

/** `${{ expr }}` of a step, from what the test says the context holds; an expression it does not know fails the test. */
function expand(value: string, ctx: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_m, expr: string) => {
    expect(ctx, `the test does not know \${{ ${expr} }}`).toHaveProperty([expr]);
    return ctx[expr]!;
  });
}

/** Runs one step of the pull-request workflow as GitHub does: its `run` text under its shell (bash: -eo pipefail), with the job's and the step's env. */
function step(name: string, ctx: Record<string, string>) {
  const s = job.steps.find((x) => x.name === name);
  expect(s?.run, `pull-request.yml has no step "${name}" with a run`).toBeTruthy();
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const [k, v] of Object.entries({ ...job.env, ...s!.env })) env[k] = expand(String(v), ctx);
  const shell = s!.shell === 'bash' ? ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c'] : ['sh', '-e', '-c'];
  const r = spawnSync(shell[0]!, [...shell.slice(1), expand(s!.run!, ctx)], { cwd: scratch, encoding: 'utf8', env });
  return { status: r.status, out: r.stdout + r.stderr, outcome: r.status === 0 ? 'success' : 'failure' };
}

/** The workflow's build step, then its diff step with the build's outcome (the test step is skipped after a failed build, as in the workflow). */
function pullRequest(out: string) {
  const build = step('build', {});
  const tests = build.outcome === 'success' ? 'success' : 'skipped';
  const ctx = {
    'steps.build.outcome': build.outcome,
    'steps.test.outcome': tests,
    'github.event.pull_request.base.sha': 'main',
    'github.server_url': 'https://example.invalid',
    'github.repository': 'o/r',
    'github.run_id': '1',
  };
  const diff = step('diff against the base', ctx);
  expect(diff.status, diff.out).toBe(0);
  const md = readFileSync(join(scratch, 'paper-diff', 'summary.md'), 'utf8');
  const json = JSON.parse(readFileSync(join(scratch, 'paper-diff', 'report', 'diff.json'), 'utf8'));
  cpSync(join(scratch, 'paper-diff'), join(scratch, out), { recursive: true });
  rmSync(join(scratch, 'paper-diff'), { recursive: true, force: true });
  return { build, stdout: diff.out, md, json };
}

describe('the pull-request loop in a scratch repository', () => {
  it('an unchanged branch reports nothing; one changed constant is named, with the cited numbers that moved', async () => {
    // The project's code (not its experiments, tests or article data), the fixture experiments as the registry.
    const code = execFileSync('git', ['ls-files', 'bin', 'src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', '.gitignore'], { cwd: REPO, encoding: 'utf8' });
    for (const f of code.split('\n').filter(Boolean)) {
      if (!existsSync(join(REPO, f))) continue; // deleted in the work tree
      mkdirSync(dirname(join(scratch, f)), { recursive: true });
      cpSync(join(REPO, f), join(scratch, f));
    }
    cpSync(join(REPO, 'test', 'fixtures', 'pipeline'), join(scratch, 'experiments'), { recursive: true });
    writeFileSync(join(scratch, 'experiments', 'index.ts'), `export const experiments = ${JSON.stringify(REGISTRY.map((id) => `experiments/${id}.ts`))};\n`);
    writeFileSync(join(scratch, 'src', 'article', 'loop-fixture.astro'), `---\n---\n<p>The fixture's mean is <Num id="${CITED}" />.</p>\n`);
    symlinkSync(join(REPO, 'node_modules'), join(scratch, 'node_modules'));
    // The fixture's checked claim stands in for the article's; its build is the experiments and the claims (no site to build).
    writeFileSync(join(scratch, 'src', 'article', 'checks.ts'), `import { below } from '../claims/predicates.ts';\nexport const ARTICLE_CHECKS = { intro: [{ ...${JSON.stringify(CLAIM)}, check: below('${CITED}', 11) }] };\n`);
    const pkg = JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8'));
    pkg.scripts.build = 'node bin/stopwatches.mjs run && node bin/stopwatches.mjs claims';
    writeFileSync(join(scratch, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    // The base branch carries its build's snapshot, as the project's main does.
    await cli('run', '--jobs', '2');
    await cli('snapshot');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');

    git('checkout', '-q', '-b', 'unchanged');
    writeFileSync(join(scratch, 'NOTES.md'), 'a branch that changes no input\n');
    git('add', 'NOTES.md');
    git('commit', '-q', '-m', 'notes');
    const same = pullRequest('out-unchanged');
    expect(same.build.status, same.build.out).toBe(0);
    // The first start built the command line's bundle (src/cli-bundle.ts): every later step ran from it.
    expect(bundledEntry(scratch), 'no verified bundle of the command line after the first build').not.toBeNull();
    expect(same.md.split('\n')[1]).toBe('### Build passes: nothing changed');
    expect(same.json.numbers).toEqual([]);
    expect(same.json.experiments).toEqual([]);

    git('checkout', '-q', '-b', 'change', 'main');
    const constants = join(scratch, 'experiments', 'lib', 'alpha-only.ts');
    const before = readFileSync(constants, 'utf8');
    const after = before.replace(/SCALE_MS = 10;/, 'SCALE_MS = 12;');
    expect(after, 'the fixture constant moved; update this test').not.toBe(before);
    writeFileSync(constants, after);
    git('commit', '-q', '-am', 'alpha scale 12 ms');
    const { build, stdout, md, json } = pullRequest('out-change');
    const head = git('rev-parse', 'HEAD').trim();
    // Kept for a reader of a CI run: the comment this change would get.
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    writeFileSync(join(REPO, 'test-artifacts', 'diff-loop-summary.md'), md);
    for (const id of UNTOUCHED) expect(stdout).toMatch(new RegExp(`^${id}\\s+fresh`, 'm'));

    // The build fails (the claim), and the review exists all the same: the verdict first, the head commit named, one comment's size.
    expect(build.status, build.out).not.toBe(0);
    expect(build.out).toContain(CLAIM.id);
    const lines = md.split('\n');
    expect(lines[0]).toBe(COMMENT_MARKER);
    expect(lines[1]).toMatch(/^### Build fails: 1 checked claim flipped \(1 no longer holds\); \d+ numbers? and \d+ figures? changed$/);
    expect(lines[3]).toMatch(new RegExp(`^Commit \`${head.slice(0, 12)}\` against `));
    expect(md).toContain(`#### Claims that flipped (1)\n\n- \`${CLAIM.id}\` holds → **fails**: “${CLAIM.says}”`);
    expect(md.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(md.indexOf('#### Claims that flipped')).toBeLessThan(md.indexOf('#### Why'));
    expect(md).toContain('experiments/lib/alpha-only.ts changed (SCALE_MS 10 → 12)');
    expect(md).toContain('Full report: the [`paper-diff` artifact](https://example.invalid/o/r/actions/runs/1) of the CI run.');
    // The experiment that imports the constant moved, for that reason; the others did not move.
    const moved = new Map<string, { path: string; values: { name: string }[] }[]>(json.experiments.map((e: { id: string; inputs: never }) => [e.id, e.inputs]));
    expect([...moved.keys()]).toEqual(['alpha']);
    for (const [id, inputs] of moved) expect(inputs.map((i) => i.path), id).toEqual(['experiments/lib/alpha-only.ts']);
    // The cited numbers that moved are listed, in their own table (which precedes the internal one: test/diff-markdown.test.ts).
    const cited = citedNumbers(scratch);
    expect(cited.get(CITED)).toEqual(['article: loop-fixture']);
    const movedCited = json.numbers.filter((n: { id: string; kind: string }) => n.kind === 'changed' && cited.has(n.id)).map((n: { id: string }) => n.id);
    expect(movedCited).toEqual([CITED]);
    const table = md.slice(md.indexOf(`#### Cited numbers that moved (${movedCited.length})`));
    expect(table.length).toBeLessThan(md.length);
    const listed = [...table.slice(0, table.indexOf('\n####') > 0 ? table.indexOf('\n####') : undefined).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
    expect(listed).toEqual([CITED]);
    expect(md).toContain('#### Figures that changed');
    // The full report is one file that opens without a server.
    const html = readFileSync(join(scratch, 'out-change', 'report', 'index.html'), 'utf8');
    expect(html).toContain('data:image/png;base64,');
    expect(html).not.toMatch(/(?:src|href)="(?!#|data:)/);
  }, 300_000);
});
