/**
 * Accepting baselines from CI: `stopwatches snapshot --from DIR` takes the
 * outputs a diff report carries (report/build/, with the commit they were
 * built from) into test/snapshots/, only for the commit checked out and only
 * when every file reads back; anything else is one line naming the fix, and
 * nothing is copied.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pngjs from 'pngjs';
import { runDiff } from '../src/pipeline/diff/index.ts';
import { acceptSnapshot } from '../src/pipeline/snapshot.ts';
import { runCli } from './helpers/cli.ts';

const roots: string[] = [];
afterEach(() => {
  while (roots.length) rmSync(roots.pop()!, { recursive: true, force: true });
});

function png(dot: number): Buffer {
  const img = new pngjs.PNG({ width: 4, height: 4 });
  img.data.fill(255);
  img.data.set([0, 0, 0, 255], dot * 4);
  return pngjs.PNG.sync.write(img);
}

function writeOutputs(dir: string, value: number, dot: number) {
  mkdirSync(join(dir, 'figures'), { recursive: true });
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(join(dir, 'numbers.json'), `${JSON.stringify({ 'a.x_ms': { value, unit: 'ms', n: 1, interval: null, experiment: 'a' } })}\n`);
  writeFileSync(join(dir, 'figures', 'a.f.svg'), `<svg><circle r="${dot}"/></svg>\n`);
  writeFileSync(join(dir, 'figures', 'a.f.png'), png(dot));
  writeFileSync(join(dir, 'data', 'a.json'), `${JSON.stringify({ v: value })}\n`);
}

/** A git project whose HEAD has baseline snapshots; src/generated holds a different build; CI's report in ci-artifact/. */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'stopwatches-accept-'));
  roots.push(root);
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  writeOutputs(join(root, 'test', 'snapshots'), 1, 0);
  writeOutputs(join(root, 'src', 'generated'), 2, 5);
  writeFileSync(join(root, '.gitignore'), 'src/generated/\ndist/\nci-artifact/\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  // What CI uploads: the diff's report folder (its build/ has the outputs and their commit).
  runDiff({ root, outDir: join(root, 'ci-artifact', 'report'), log: () => {} });
  rmSync(join(root, 'src', 'generated'), { recursive: true }); // this machine never built
  const snapshots = () => Object.fromEntries(readdirSync(join(root, 'test/snapshots'), { recursive: true }).map((f) => [f, String(f).includes('.') ? readFileSync(join(root, 'test/snapshots', String(f))).toString('base64') : 'dir']));
  return { root, git, snapshots };
}

describe('stopwatches snapshot --from a CI artifact', () => {
  it('accepts the artifact of the commit checked out, without a local build', () => {
    const { root } = project();
    const lines: string[] = [];
    const r = acceptSnapshot({ root, from: 'ci-artifact', env: {}, log: (l) => lines.push(l) });
    expect(r.numbers).toEqual(['a.x_ms']);
    expect(r.figures).toEqual({ changed: ['a.f.png', 'a.f.svg'], added: [], removed: [] });
    expect(lines[0]).toBe('snapshot from ci-artifact/report/build: 1 number changed; figures: 2 changed, 0 new, 0 removed');
    for (const f of ['numbers.json', 'figures/a.f.svg', 'figures/a.f.png', 'data/a.json']) {
      expect(readFileSync(join(root, 'test/snapshots', f)).equals(readFileSync(join(root, 'ci-artifact/report/build', f)))).toBe(true);
    }
    // The artifact's own bookkeeping stays out of the baseline.
    expect(readdirSync(join(root, 'test/snapshots'))).not.toContain('source.json');
  });

  it('refuses an artifact of another commit, a dirty build or an unreadable file, and copies nothing', () => {
    const { root, git, snapshots } = project();
    const before = snapshots();
    const refuse = (match: RegExp, from = 'ci-artifact') => {
      expect(() => acceptSnapshot({ root, from, env: {}, log: () => {} })).toThrow(match);
      expect(snapshots()).toEqual(before);
    };
    writeFileSync(join(root, 'README'), 'x\n');
    git('add', 'README');
    git('commit', '-q', '-m', 'later');
    refuse(/^snapshot --from: ci-artifact\/report\/build was built from commit [0-9a-f]{12}, but HEAD here is [0-9a-f]{12}; check out /);
    git('reset', '-q', '--hard', 'HEAD~1');
    const source = join(root, 'ci-artifact/report/build/source.json');
    const good = readFileSync(source, 'utf8');
    writeFileSync(source, good.replace('"dirty": false', '"dirty": true'));
    refuse(/uncommitted changes/);
    writeFileSync(source, good);
    const pngPath = join(root, 'ci-artifact/report/build/figures/a.f.png');
    const pngBytes = readFileSync(pngPath);
    writeFileSync(pngPath, 'truncated');
    refuse(/^snapshot --from: ci-artifact\/report\/build\/figures\/a\.f\.png is not a readable PNG .*; download the `paper-diff` artifact/);
    writeFileSync(pngPath, pngBytes);
    rmSync(join(root, 'ci-artifact/report/build/source.json'));
    refuse(/source\.json is missing/);
    refuse(/^snapshot --from: nowhere has no numbers\.json/, 'nowhere');
  });

  it('the command prints one line and exits 2 for a wrong artifact, and refuses to run under CI', async () => {
    const { root } = project();
    cpSync(join(root, 'ci-artifact/report'), join(root, 'other'), { recursive: true });
    writeFileSync(join(root, 'other/build/numbers.json'), '{');
    const cli = (env: Record<string, string>) => runCli(['snapshot', '--from', 'other'], { cwd: root, env });
    const bad = await cli({ CI: '' });
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toEqual([expect.stringMatching(/^stopwatches: snapshot --from: other\/build\/numbers\.json is not valid JSON/)]);
    const ci = await cli({ CI: 'true' });
    expect(ci.code).toBe(2);
    expect(ci.err).toContain('refusing to write snapshots under CI');
  }, 30_000);
});
