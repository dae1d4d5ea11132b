/**
 * Every command ends a failure the user can act on with one line and an exit status,
 * never a stack trace: the top-level handler (src/cli.ts, src/errors.ts), the standard
 * streams (a closed pipe, a full disk) and `simulate --out` on links, devices and FIFOs.
 * The standard-stream cases run the real entry point in a child process, as a shell would;
 * `--out` goes through the same main() in-process (no process start-up per case).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFailure, fsErrorLine, isUserErrorLike, UserError } from '../src/errors.ts';
import { runCli } from './helpers/cli.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/stopwatches.mjs');
const GOLDEN = join(ROOT, 'test/fixtures/golden');
const STACK = /^\s+at .*:\d+:\d+\)?$/m;

/** A fresh folder per test, all under one that goes when the file is done. */
const base = mkdtempSync(join(tmpdir(), 'cli-'));
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(base, 't-'));
});
afterEach(() => {
  process.exitCode = undefined;
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const sysError = (code: string, path?: string, syscall = 'open') => Object.assign(new Error(`${code}: failed, ${syscall} '${path}'`), { code, path, syscall, errno: -1 });

describe('the top-level handler', () => {
  const cases: [string, unknown, RegExp, number][] = [
    ['UserError', new UserError('case.json: workload.n is 0'), /^case\.json: workload\.n is 0$/, 2],
    ['an error shaped like a UserError (another module copy, a subclass)', Object.assign(new Error('job x failed: y'), { name: 'JobError', exitCode: 1 }), /^job x failed: y$/, 1],
    ['EACCES', sysError('EACCES', '.cache/experiments/a.json'), /^\.cache\/experiments\/a\.json: permission denied; make it readable\/writable/, 2],
    ['EISDIR', sysError('EISDIR', '.cache/x', 'read'), /^\.cache\/x: is a directory where a file was expected/, 2],
    ['ENOSPC', sysError('ENOSPC', '/dev/full', 'write'), /^\/dev\/full: no space left on the device; free some space or write somewhere else$/, 2],
    ['EROFS', sysError('EROFS', 'src/generated/n.json'), /^src\/generated\/n\.json: the file system is read-only/, 2],
    ['an unlisted errno', sysError('ENXIO', '/dev/x'), /^\/dev\/x: ENXIO on open/, 2],
    ['a failed allocation', new RangeError('Array buffer allocation failed'), /^out of memory \(Array buffer allocation failed\)/, 2],
  ];
  for (const [what, err, line, code] of cases) {
    it(`one line for ${what}`, () => {
      const f = describeFailure(err);
      expect(f).not.toBeNull();
      expect(f!.line).toMatch(line);
      expect(f!.line).not.toContain('\n');
      expect(f!.exitCode).toBe(code);
    });
  }
  it('leaves a bug to its stack: a TypeError is not a user failure', () => {
    expect(describeFailure(new TypeError('x is undefined'))).toBeNull();
    expect(isUserErrorLike(Object.assign(new Error('x'), { exitCode: 0 }))).toBe(false);
  });
  it('names the path the user gave when asked to', () => {
    expect(fsErrorLine(sysError('ENOSPC', '/tmp/r.json.tmp-1'), 'r.json')).toMatch(/^r\.json: no space left/);
  });
  it('main() prints one line and returns the status; unknown commands are commander’s (status 2)', async () => {
    const r = await runCli(['simulate', join(dir, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^stopwatches: .*missing\.json: no such file; check the path\n$/);
    const u = await runCli(['frobnicate']);
    expect(u.code).toBe(2);
  });
});

/** Runs the real entry point with its standard output on `stdout`, a file descriptor (a shell's `>`). */
function cli(args: string[], stdout: number): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', stdout, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

// Each case waits on its own process start-up (about a second under tsx): the two start together.
describe.concurrent('standard streams', () => {
  it('EPIPE: `simulate … | head -c 100` exits quietly (status 0, nothing on stderr)', async () => {
    const child = spawn(process.execPath, [BIN, 'simulate', join(GOLDEN, 'burst_1000.json'), '--tokens'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    let got = 0;
    child.stdout.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= 100) child.stdout.destroy(); // what `head -c 100` does once it has its bytes
    });
    const code = await new Promise<number | null>((ok) => child.on('close', ok));
    expect(got).toBeGreaterThanOrEqual(100);
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('ENOSPC on stdout (`> /dev/full`): one line naming standard output, status 2', async () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const r = await cli(['simulate', join(GOLDEN, 'closed_fixed.json')], fd);
      expect(r.stderr).toBe('stopwatches: standard output: no space left on the device; free some space or write somewhere else\n');
      expect(r.status).toBe(2);
    } finally {
      closeSync(fd);
    }
  });
});

describe('simulate --out on special files', () => {
  const CASE = join(GOLDEN, 'edge_mix.json');
  let stdoutResult: string | null = null;
  const expected = async () => {
    if (stdoutResult === null) {
      const r = await runCli(['simulate', CASE]);
      expect(r.code).toBe(0);
      stdoutResult = r.out;
    }
    return stdoutResult;
  };

  it('writes through a symbolic link: the link stays, its target gets the result', async () => {
    const target = join(dir, 'real.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    const r = await runCli(['simulate', CASE, '--out', link]);
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(await expected());
    expect(readdirSync(dir).sort()).toEqual(['link.json', 'real.json']);
  });

  it('writes through a dangling link, creating the file it names', async () => {
    const link = join(dir, 'link.json');
    symlinkSync('made.json', link);
    expect((await runCli(['simulate', CASE, '--out', link])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'made.json'), 'utf8')).toBe(await expected());
  });

  it('keeps the permissions of a file it replaces', async () => {
    const out = join(dir, 'r.json');
    writeFileSync(out, 'old');
    chmodSync(out, 0o640);
    expect((await runCli(['simulate', CASE, '--out', out])).code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o640);
  });

  it('writes directly to a FIFO, which stays a FIFO', async () => {
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('sh', ['-c', `cat "${fifo}" > "${join(dir, 'got.json')}"`]);
    const done = new Promise<number | null>((ok) => reader.on('close', ok));
    expect((await runCli(['simulate', CASE, '--out', fifo])).code).toBe(0);
    expect(await done).toBe(0);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readFileSync(join(dir, 'got.json'), 'utf8')).toBe(await expected());
  });

  it('writes directly to /dev/null, which stays a device', async () => {
    expect((await runCli(['simulate', CASE, '--out', '/dev/null'])).code).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('ENOSPC on /dev/full: one line, status 2, and the device is never replaced', async () => {
    const r = await runCli(['simulate', CASE, '--out', '/dev/full']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('stopwatches: cannot write the result: /dev/full: no space left on the device; free some space or write somewhere else\n');
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter((f) => f.startsWith('full.tmp-'))).toEqual([]);
  });

  it('refuses a directory with one line', async () => {
    mkdirSync(join(dir, 'sub'));
    const r = await runCli(['simulate', CASE, '--out', join(dir, 'sub')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`stopwatches: ${join(dir, 'sub')}: is a directory; give a file path for --out\n`);
    expect(r.err).not.toMatch(STACK);
  });
});
