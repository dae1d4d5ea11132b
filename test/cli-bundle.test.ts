/**
 * The bundled start of the command line (src/cli-bundle.ts, bin/bundled.mjs):
 * it prints what the sources print, byte for byte, and it is never run once a
 * file it was built from or a file of its own has changed.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledEntry } from '../bin/bundled.mjs';
import { buildCliBundle, CLI_BUNDLE_DIR, type CliBundleManifest } from '../src/cli-bundle.ts';
import { runCli } from './helpers/cli.ts';

const ROOT = join(import.meta.dirname, '..');
const REAL = join(ROOT, '..', 'shared', 'real-results');
const scratch = mkdtempSync(join(tmpdir(), 'stopwatches-cli-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'stopwatches.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('the bundled command line', () => {
  it('prints what the sources print (metrics --json, audit, a file that is not there)', async () => {
    // the largest vLLM file of the real ones (per-request data), a CSV fixture, and a file that is not there
    // (`run` from the bundle: test/diff-loop.test.ts, whose workflow steps start the command line)
    const vllm = readdirSync(join(REAL, 'vllm')).map((f) => join(REAL, 'vllm', f)).sort((a, b) => statSync(b).size - statSync(a).size || a.localeCompare(b))[0]!;
    const csv = join(ROOT, 'test', 'fixtures', 'results', 'aiperf-oct2025_profile_export_aiperf.csv');
    const runs = [['metrics', vllm, '--json'], ['audit', csv], ['metrics', join(scratch, 'no-such-file.json')]];
    // The sources' own `main`, run in this process (test/helpers/cli.ts): what a start through tsx runs,
    // without its second of start-up per run. A start builds the bundle when there is none.
    const sources: ReturnType<typeof cli>[] = [];
    for (const args of runs) {
      const r = await runCli(args, { cwd: ROOT, env: { NO_COLOR: '1' } });
      sources.push({ status: r.code, out: r.out, err: r.err });
    }
    if (!bundledEntry(ROOT)) cli(['metrics', '--help']);
    expect(bundledEntry(ROOT), 'no verified bundle after a start').not.toBeNull();
    runs.forEach((args, k) => expect(cli(args), args.join(' ')).toEqual(sources[k]));
    // STOPWATCHES_NO_BUNDLE=1 starts the sources (through tsx) even with a verified bundle there.
    vi.stubEnv('STOPWATCHES_NO_BUNDLE', '1');
    try {
      expect(bundledEntry(ROOT)).toBeNull();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is not run once a source it was built from, the compiler settings or one of its own files changed', async () => {
    for (const d of ['bin', 'src']) cpSync(join(ROOT, d), join(scratch, d), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(scratch, f));
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));
    rmSync(join(scratch, CLI_BUNDLE_DIR), { recursive: true, force: true });
    expect(bundledEntry(scratch)).toBeNull();
    let m: CliBundleManifest = await buildCliBundle(scratch);
    expect(m.inputs).toHaveProperty(['src/commands/metrics.ts']);
    expect(bundledEntry(scratch)).toBe(`file://${join(scratch, CLI_BUNDLE_DIR, m.dir, 'cli.js')}`);
    // a source edited after the build
    const source = join(scratch, 'src', 'commands', 'metrics.ts');
    appendFileSync(source, '\n');
    expect(bundledEntry(scratch)).toBeNull();
    m = await buildCliBundle(scratch);
    expect(bundledEntry(scratch)).not.toBeNull();
    // the compiler settings changed (not a source, but they shaped the bundle)
    appendFileSync(join(scratch, 'tsconfig.json'), '\n');
    expect(bundledEntry(scratch)).toBeNull();
    m = await buildCliBundle(scratch);
    // a file of the bundle changed
    const chunk = join(scratch, CLI_BUNDLE_DIR, m.dir, Object.keys(m.outputs).find((f) => f !== m.entry)!);
    appendFileSync(chunk, 'throw new Error("changed");\n');
    expect(bundledEntry(scratch)).toBeNull();
    // rebuilt, the changed folder is replaced by the true files
    const again = await buildCliBundle(scratch);
    expect(again.dir).toBe(m.dir);
    expect(readFileSync(chunk, 'utf8')).not.toContain('changed');
    expect(bundledEntry(scratch)).not.toBeNull();
    // a manifest that is not one
    writeFileSync(join(scratch, CLI_BUNDLE_DIR, 'current.json'), '{');
    expect(bundledEntry(scratch)).toBeNull();
  }, 60_000);
});
