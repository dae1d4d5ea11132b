/**
 * The pull-request loop without GitHub. In a scratch git repository holding
 * the project, the base branch is committed as it is; a branch that changes
 * nothing, and a branch that changes one constant of the simulator, each run
 * scripts/pr-diff.sh, the script the pull-request workflow runs. The unchanged
 * branch reports nothing; the changed one yields a comment-sized Markdown that
 * names the constant with both values, lists the cited numbers that moved, and
 * leaves the experiments that never simulate untouched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_LIMIT } from '../src/pipeline/diff/markdown.ts';
import { EXPERIMENT_ORDER } from '../src/outline.ts';
import { citedNumbers } from '../src/site/cited.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'stopwatches-loop-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Experiments whose code never imports the simulator. */
const SIM_FREE = ['tokens', 'order-statistics'];

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=ci@example.invalid', '-c', 'user.name=ci', '-c', 'commit.gpgsign=false', ...args], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Exactly what the workflow's diff step runs. */
function prDiff(out: string) {
  const r = spawnSync('bash', ['scripts/pr-diff.sh', 'main', out, 'https://example.invalid/actions/runs/1'], { cwd: scratch, encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
  expect(r.status, r.stderr + r.stdout).toBe(0);
  return { stdout: r.stdout, md: readFileSync(join(scratch, out, 'summary.md'), 'utf8'), json: JSON.parse(readFileSync(join(scratch, out, 'report', 'diff.json'), 'utf8')) };
}

describe('the pull-request loop in a scratch repository', () => {
  it('an unchanged branch reports nothing; one changed constant is named, with the cited numbers that moved', () => {
    for (const f of execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean)) {
      if (!existsSync(join(REPO, f))) continue; // deleted in the work tree
      mkdirSync(dirname(join(scratch, f)), { recursive: true });
      cpSync(join(REPO, f), join(scratch, f));
    }
    symlinkSync(join(REPO, 'node_modules'), join(scratch, 'node_modules'));
    // A warm cache (content-addressed) keeps the experiments the change does not touch from rerunning.
    if (existsSync(join(REPO, '.cache', 'experiments'))) cpSync(join(REPO, '.cache', 'experiments'), join(scratch, '.cache', 'experiments'), { recursive: true });
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
    const constants = join(scratch, 'src', 'sim', 'constants.ts');
    const before = readFileSync(constants, 'utf8');
    const after = before.replace(/const stepOverheadS = c\(0\.001,/, 'const stepOverheadS = c(0.0012,');
    expect(after, 'the step overhead constant moved; update this test').not.toBe(before);
    writeFileSync(constants, after);
    git('commit', '-q', '-am', 'step overhead 1.2 ms');
    const { stdout, md, json } = prDiff('out-change');
    // Kept for a reader of a CI run: the comment this change would get.
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    writeFileSync(join(REPO, 'test-artifacts', 'diff-loop-summary.md'), md);
    for (const id of SIM_FREE) expect(stdout).toMatch(new RegExp(`^${id}\\s+fresh`, 'm'));

    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(md).toContain('src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)');
    expect(md).toMatch(/^### Paper diff: \d+ numbers and \d+ figures changed$/m);
    expect(md).toContain('Full report: the [`paper-diff` artifact](https://example.invalid/actions/runs/1) of the CI run.');
    // Every experiment that simulates moved, for that reason; the others did not move.
    const moved = new Map<string, { path: string; values: { name: string }[] }[]>(json.experiments.map((e: { id: string; inputs: never }) => [e.id, e.inputs]));
    for (const id of SIM_FREE) expect(moved.has(id), `${id} moved`).toBe(false);
    expect(EXPERIMENT_ORDER.filter((id) => !SIM_FREE.includes(id) && !moved.has(id))).toEqual([]);
    for (const [id, inputs] of moved) expect(inputs.map((i) => i.path), id).toEqual(['src/sim/constants.ts']);
    // The cited numbers that moved are listed, in their own table before the internal ones.
    const cited = citedNumbers(scratch);
    const movedCited = json.numbers.filter((n: { id: string; kind: string }) => n.kind === 'changed' && cited.has(n.id)).map((n: { id: string }) => n.id);
    expect(movedCited.length).toBeGreaterThan(0);
    const table = md.slice(md.indexOf(`#### Cited numbers that moved (${movedCited.length})`));
    expect(table.length).toBeLessThan(md.length);
    const listed = [...table.slice(0, table.indexOf('\n####') > 0 ? table.indexOf('\n####') : undefined).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(0);
    for (const id of listed) expect(cited.has(id), id).toBe(true);
    expect(md).toContain('`constants.step_overhead_s`');
    expect(md.indexOf('#### Cited numbers that moved')).toBeLessThan(md.indexOf('#### Internal numbers that moved'));
    expect(md).toContain('#### Figures that changed');
    // The full report is one file that opens without a server.
    const html = readFileSync(join(scratch, 'out-change', 'report', 'index.html'), 'utf8');
    expect(html).toContain('data:image/png;base64,');
    expect(html).not.toMatch(/(?:src|href)="(?!#|data:)/);
  }, 1_800_000);
});
