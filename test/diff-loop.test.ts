/**
 * The pull-request loop without GitHub, on the fixture project
 * (test/fixtures/pipeline/: three cheap experiments) rather than the whole
 * paper: the loop is the same code whatever the experiments are, and the real
 * paper's diff runs in the pull-request workflow itself (test/diff-workflows
 * holds that). In a scratch git repository holding the project's code with the
 * fixture experiments as its registry and a page citing one of their numbers,
 * the base branch is built and its snapshot committed; a branch that changes
 * nothing, and a branch that changes one constant only alpha imports, each run
 * scripts/pr-diff.sh, the script the pull-request workflow runs. The unchanged
 * branch reports nothing; the changed one yields a comment-sized Markdown that
 * names the constant with both values, lists the cited number that moved, and
 * leaves the experiments that do not import the constant untouched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_LIMIT } from '../src/pipeline/diff/markdown.ts';
import { citedNumbers } from '../src/site/cited.ts';

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

/** The maintainer's side: building and accepting the base's snapshot (which `snapshot` refuses under CI). */
function cli(...args: string[]) {
  const { CI: _ci, ...env } = process.env;
  const r = spawnSync(process.execPath, ['bin/stopwatches.mjs', ...args], { cwd: scratch, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
  expect(r.status, r.stderr + r.stdout).toBe(0);
}

/** Exactly what the workflow's diff step runs. */
function prDiff(out: string) {
  const r = spawnSync('bash', ['scripts/pr-diff.sh', 'main', out, 'https://example.invalid/actions/runs/1'], { cwd: scratch, encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
  expect(r.status, r.stderr + r.stdout).toBe(0);
  return { stdout: r.stdout, md: readFileSync(join(scratch, out, 'summary.md'), 'utf8'), json: JSON.parse(readFileSync(join(scratch, out, 'report', 'diff.json'), 'utf8')) };
}

describe('the pull-request loop in a scratch repository', () => {
  it('an unchanged branch reports nothing; one changed constant is named, with the cited numbers that moved', () => {
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
    // The base branch carries its build's snapshot, as the project's main does.
    cli('run', '--jobs', '2');
    cli('snapshot');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');

    git('checkout', '-q', '-b', 'unchanged');
    writeFileSync(join(scratch, 'NOTES.md'), 'a branch that changes no input\n');
    git('add', 'NOTES.md');
    git('commit', '-q', '-m', 'notes');
    const same = prDiff('out-unchanged');
    expect(same.md).toContain('### Paper diff: nothing changed');
    expect(same.json.numbers).toEqual([]);
    expect(same.json.experiments).toEqual([]);

    git('checkout', '-q', '-b', 'change', 'main');
    const constants = join(scratch, 'experiments', 'lib', 'alpha-only.ts');
    const before = readFileSync(constants, 'utf8');
    const after = before.replace(/SCALE_MS = 10;/, 'SCALE_MS = 12;');
    expect(after, 'the fixture constant moved; update this test').not.toBe(before);
    writeFileSync(constants, after);
    git('commit', '-q', '-am', 'alpha scale 12 ms');
    const { stdout, md, json } = prDiff('out-change');
    // Kept for a reader of a CI run: the comment this change would get.
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    writeFileSync(join(REPO, 'test-artifacts', 'diff-loop-summary.md'), md);
    for (const id of UNTOUCHED) expect(stdout).toMatch(new RegExp(`^${id}\\s+fresh`, 'm'));

    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(md).toContain('experiments/lib/alpha-only.ts changed (SCALE_MS 10 → 12)');
    expect(md).toMatch(/^### Paper diff: \d+ numbers? and \d+ figures? changed$/m);
    expect(md).toContain('Full report: the [`paper-diff` artifact](https://example.invalid/actions/runs/1) of the CI run.');
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
