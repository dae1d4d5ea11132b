/**
 * The diff on the real paper: in a scratch copy of the project, double the
 * simulator's step overhead, rebuild, and diff against the committed
 * snapshots. Exactly the experiments that run the simulator change; the ones
 * that do not (tokens, order statistics) keep every number and figure.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDiff } from '../src/pipeline/diff.ts';
import { EXPERIMENT_ORDER } from '../src/outline.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'stopwatches-paper-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Experiments whose code never imports the simulator. */
const SIM_FREE = ['tokens', 'order-statistics'];

describe('diff of the paper after one constant changes', () => {
  it('lists exactly the numbers and figures that depend on the step overhead', () => {
    for (const f of execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean)) {
      if (!existsSync(join(REPO, f))) continue; // deleted in the work tree
      mkdirSync(dirname(join(scratch, f)), { recursive: true });
      cpSync(join(REPO, f), join(scratch, f));
    }
    symlinkSync(join(REPO, 'node_modules'), join(scratch, 'node_modules'));
    // A warm cache keeps the experiments that do not depend on the change from rerunning.
    if (existsSync(join(REPO, '.cache', 'experiments'))) cpSync(join(REPO, '.cache', 'experiments'), join(scratch, '.cache', 'experiments'), { recursive: true });

    const constants = join(scratch, 'src', 'sim', 'constants.ts');
    const before = readFileSync(constants, 'utf8');
    const after = before.replace(/const stepOverheadS = c\(0\.001,/, 'const stepOverheadS = c(0.002,');
    expect(after, 'the step overhead constant moved; update this test').not.toBe(before);
    writeFileSync(constants, after);

    const run = spawnSync(process.execPath, ['bin/stopwatches.mjs', 'run'], { cwd: scratch, encoding: 'utf8', env: { ...process.env, CI: '' } });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    for (const id of SIM_FREE) expect(run.stdout).toMatch(new RegExp(`^${id}\\s+fresh`, 'm'));

    const { result } = runDiff({ root: scratch, log: () => {} });
    const changedExperiments = new Set(result.numbers.map((n) => n.id.split('.')[0]));
    for (const id of SIM_FREE) expect(changedExperiments.has(id), `${id} changed`).toBe(false);
    expect(result.numbers.find((n) => n.id === 'constants.step_overhead_s')?.kind).toBe('changed');
    // Every experiment that simulates shows the change somewhere.
    expect(EXPERIMENT_ORDER.filter((id) => !SIM_FREE.includes(id) && !changedExperiments.has(id))).toEqual([]);
    const figureExperiments = new Set(result.figures.map((f) => f.key.split('.')[0]));
    for (const id of SIM_FREE) expect(figureExperiments.has(id)).toBe(false);
    expect(figureExperiments.has('first-wave')).toBe(true);
  }, 600_000);
});
