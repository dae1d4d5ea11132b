/**
 * `stopwatches run`: plan lines and exit codes through the command itself
 * (in-process, test/helpers/cli.ts), and Ctrl-C on a real process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, tempRoot, type TempRoot } from './pipeline-helpers.ts';
import { runCli } from './helpers/cli.ts';

const roots: TempRoot[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) r.cleanup();
});

/** `stopwatches run` in `root` under CI (plain progress lines), in-process. */
async function run(root: string, args: string[]) {
  const r = await runCli(['run', ...args], { cwd: root, env: { CI: 'true' } });
  return { code: r.code, stdout: r.out, stderr: r.err };
}

/** `stopwatches run` in `root` as a process, for a signal. */
function cli(root: string, args: string[], onStdout?: (text: string, kill: () => void) => void) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'stopwatches.mjs'), 'run', ...args], { cwd: root, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      onStdout?.(stdout, () => child.kill('SIGINT'));
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function registry(r: TempRoot, paths: string[]) {
  writeFileSync(join(r.root, 'experiments', 'index.ts'), `export const experiments = ${JSON.stringify(paths)};\n`);
}

describe('stopwatches run', () => {
  it('plans, runs, writes outputs, and is fresh the second time', async () => {
    const r = tempRoot();
    roots.push(r);
    registry(r, ['experiments/beta.ts']);
    const first = await run(r.root, ['--jobs', '1']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^beta {2}missing\n/);
    expect(first.stdout).toContain('no snapshot yet (test/snapshots/numbers.json): accept this build with: npm run snapshot');
    expect(first.stdout).toMatch(/built 1 numbers and 0 figures \(1 job run\)/);
    const second = await run(r.root, []);
    expect(second.stdout).toMatch(/^beta {2}fresh\n/);
    expect(existsSync(join(r.root, 'src/generated/experiments.json'))).toBe(true);
    const bad = await run(r.root, ['--only', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('stopwatches: --only: no experiment nope (known: beta)\n');
  });

  it('caps --jobs and says so; a combine that throws is one line, exit 1', async () => {
    const r = tempRoot();
    roots.push(r);
    registry(r, ['experiments/beta.ts']);
    const capped = await run(r.root, ['--jobs', '10000']);
    expect(capped.code).toBe(0);
    expect(capped.stdout).toMatch(/^running 1 job on 1 worker \(--jobs 10000 capped at 1: 1 job to run, \d+ cores?\)$/m);
    r.edit('experiments/beta.ts', (t) => t.replace('combine(config, [r]) {', 'combine(config, [r]) {\n    (null as unknown as { x: number }).x;'));
    const res = await run(r.root, []);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("stopwatches: beta: combine failed: TypeError: Cannot read properties of null (reading 'x')\n");
  });

  it('Ctrl-C stops the pool, leaves no cache entry and exits 130 with one line', async () => {
    const r = tempRoot();
    roots.push(r);
    registry(r, ['experiments/spin.ts']);
    let sent = false;
    const res = await cli(r.root, [], (out, kill) => {
      if (!sent && out.includes('running 1 job')) {
        sent = true;
        setTimeout(kill, 500);
      }
    });
    expect(res.code).toBe(130);
    expect(res.stderr).toMatch(/^stopwatches: interrupted; (\d+ temp files? removed, )?no cache entry was half-written\n$/);
    const cache = join(r.root, '.cache', 'experiments');
    const files = existsSync(cache) ? (readdirSync(cache, { recursive: true }) as string[]).filter((f) => /\.json|\.tmp-/.test(f)) : [];
    expect(files).toEqual([]);
  });
});
