/**
 * One way to write a file (src/fs/atomic.ts), and what it may replace: a regular
 * file atomically, through a symbolic link (the link stays), into a FIFO or a
 * device (which stay what they are), never a folder. Every module writes through
 * it (checked by reading the sources). `stopwatches diff --out` replaces only a
 * report of its own (src/fs/folder.ts) and refuses anything else with one line
 * and exit 2, before anything is written; `--md` follows the writer's rule.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempFiles, writeFileAtomic, writeFileAtomicSync, type TempWriter } from '../src/fs/atomic.ts';
import { walkFiles } from '../src/fs/walk.ts';
import { runDiff } from '../src/pipeline/diff/index.ts';
import { REPORT_MARKER } from '../src/pipeline/outputs.ts';
import { runCli } from './helpers/cli.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const STACK = /\n\s+at /;

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'stopwatches-writer-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

describe('the one writer: where a write lands', () => {
  it('replaces a regular file whole and keeps its permissions', async () => {
    const d = tmp();
    const f = join(d, 'r.json');
    writeFileSync(f, 'old');
    chmodSync(f, 0o640);
    writeFileAtomicSync(f, 'new');
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    await writeFileAtomic(f, 'newer');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(d)).toEqual(['r.json']);
  });

  it('writes through a symbolic link (also a dangling one) and keeps the link', async () => {
    const d = tmp();
    writeFileSync(join(d, 'target'), 'old');
    symlinkSync('target', join(d, 'link'));
    writeFileAtomicSync(join(d, 'link'), 'via link');
    expect(lstatSync(join(d, 'link')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('via link');
    symlinkSync('made-by-write', join(d, 'dangling'));
    await writeFileAtomic(join(d, 'dangling'), 'created');
    expect(readlinkSync(join(d, 'dangling'))).toBe('made-by-write');
    expect(readFileSync(join(d, 'made-by-write'), 'utf8')).toBe('created');
  });

  it('writes into a FIFO and a device, which stay what they are', async () => {
    const d = tmp();
    const fifo = join(d, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (b: Buffer) => (got += b.toString()));
    const closed = new Promise((ok) => reader.on('close', ok));
    await writeFileAtomic(fifo, 'through the pipe');
    await closed;
    expect(got).toBe('through the pipe');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    writeFileAtomicSync('/dev/null', 'gone');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync(d)).toEqual(['pipe']);
  });

  it('refuses a folder (EISDIR), leaving it as it was', () => {
    const d = tmp();
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'keep'), 'x');
    expect(() => writeFileAtomicSync(join(d, 'sub'), 'y')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(join(d, 'sub'))).toEqual(['keep']);
    expect(readdirSync(d)).toEqual(['sub']);
  });
});

describe('the one writer: cleaning up after a failure', () => {
  it('a build that cleans up takes away the temp files in its own folders, never another build\'s', async () => {
    const mine = tmp();
    const other = tmp();
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    // A write held between its temp file and its rename, as a cache entry is while a job fails elsewhere.
    const held: TempWriter = async (t, data) => {
      writeFileSync(t, data);
      await gate;
    };
    const pending = writeFileAtomic(join(other, 'entry.json'), 'theirs', held);
    while (readdirSync(other).length === 0) await new Promise((ok) => setTimeout(ok, 5));
    expect(removeTempFiles([mine])).toBe(0);
    expect(readdirSync(other)).toHaveLength(1);
    release();
    await pending;
    expect(readFileSync(join(other, 'entry.json'), 'utf8')).toBe('theirs');
    // Its own folder's temp file is removed, and its write fails rather than publishing a missing file.
    let release2!: () => void;
    const gate2 = new Promise<void>((ok) => (release2 = ok));
    const pending2 = writeFileAtomic(join(mine, 'entry.json'), 'mine', async (t, data) => {
      writeFileSync(t, data);
      await gate2;
    });
    while (readdirSync(mine).length === 0) await new Promise((ok) => setTimeout(ok, 5));
    expect(removeTempFiles([mine])).toBe(1);
    expect(readdirSync(mine)).toEqual([]);
    release2();
    await expect(pending2).rejects.toThrow();
    expect(existsSync(join(mine, 'entry.json'))).toBe(false);
  });
});

describe('every module writes files through src/fs/', () => {
  // Any of these outside src/fs/ is a second way to write (or replace) a file.
  const WRITES = /(?<![.\w])(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|cpSync|renameSync|rename|symlinkSync|linkSync|truncateSync)\s*\(|\bcp\s*\(|\bopenSync\([^)]*['"][wa]/;
  const sources = (dir: string) => walkFiles(join(REPO, dir)).filter((f) => /\.(ts|mjs|js)$/.test(f)).map((f) => join(dir, f));

  it('finds the calls it looks for (the check can fail)', () => {
    expect(WRITES.test("  await writeFile(tmp, data);")).toBe(true);
    expect(WRITES.test("  renameSync(tmp, outDir);")).toBe(true);
    expect(WRITES.test("  fd = openSync(target, 'w');")).toBe(true);
    expect(WRITES.test("  writeFileAtomicSync(file, markdown);")).toBe(false);
    expect(WRITES.test("  await fx.writeFile(path, png);")).toBe(false); // the injected writer, which is writeFileAtomic
  });

  it('src/ and bin/ hold no write outside src/fs/', () => {
    const offenders: string[] = [];
    for (const file of [...sources('src'), ...sources('bin')]) {
      if (file.startsWith(join('src', 'fs'))) continue;
      readFileSync(join(REPO, file), 'utf8').split('\n').forEach((line, i) => {
        if (WRITES.test(line) && !/^\s*(\/\/|\*)/.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});

/** A project with a baseline and a build that differ in one number. */
function project(): string {
  const root = tmp();
  const num = (value: number) => ({ value, unit: 'ms', n: 10, interval: null, experiment: 'a' });
  for (const [dir, v] of [['test/snapshots', 1], ['src/generated', 2]] as const) {
    mkdirSync(join(root, dir, 'figures'), { recursive: true });
    writeFileSync(join(root, dir, 'numbers.json'), JSON.stringify({ 'a.x_ms': num(v) }));
  }
  return root;
}

/** `stopwatches diff` in `root`, in-process (test/helpers/cli.ts). */
async function cli(root: string, args: string[]) {
  const r = await runCli(['diff', ...args], { cwd: root });
  return { status: r.code, stderr: r.err };
}

/** Every file under `dir` with its bytes (links as their target), to show nothing changed. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = join(rel, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isSymbolicLink()) out[p] = `-> ${readlinkSync(join(dir, p))}`;
      else out[p] = readFileSync(join(dir, p), 'latin1');
    }
  };
  visit('');
  return out;
}

describe('stopwatches diff --out replaces only a report of its own', () => {
  it('refuses the project itself, test/snapshots, a file and a symbolic link: one line, exit 2, nothing touched', async () => {
    const root = project();
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(root, 'README.md'), '# mine\n');
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere', 'keep.txt'), 'keep');
    symlinkSync('elsewhere', join(root, 'link'));
    const before = tree(root);
    for (const [out, problem] of [
      ['.', /exists and is not a folder this command wrote/],
      ['test/snapshots', /exists and is not a folder this command wrote/],
      ['README.md', /is a file/],
      ['link', /is a symbolic link/],
    ] as const) {
      const r = await cli(root, ['--out', out]);
      expect(r.status, out).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^stopwatches: diff --out ${out.replace('.', '\\.')}: `));
      expect(r.stderr).toMatch(problem);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK);
    }
    expect(tree(root)).toEqual(before);
  });

  it('refuses a device and a FIFO, which stay what they are', async () => {
    const root = project();
    const fifo = join(root, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const out of [fifo, '/dev/null']) {
      const r = await cli(root, ['--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/is not a folder \(a device, FIFO or socket\)/);
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('writes a new folder with its marker, replaces it next time, and also an empty folder', () => {
    const root = project();
    runDiff({ root, outDir: join(root, 'r'), log: () => {} });
    expect(existsSync(join(root, 'r', REPORT_MARKER))).toBe(true);
    writeFileSync(join(root, 'r', 'stale.txt'), 'from the previous report');
    runDiff({ root, outDir: join(root, 'r'), log: () => {} });
    expect(existsSync(join(root, 'r', 'stale.txt'))).toBe(false);
    expect(readdirSync(join(root, 'r')).sort()).toEqual([REPORT_MARKER, 'build', 'diff.json', 'index.html', 'numbers.txt'].sort());
    mkdirSync(join(root, 'empty'));
    runDiff({ root, outDir: join(root, 'empty'), log: () => {} });
    expect(existsSync(join(root, 'empty', 'index.html'))).toBe(true);
    // Nothing beside the reports: no temp or old folder left.
    expect(readdirSync(root).sort()).toEqual(['empty', 'r', 'src', 'test']);
  });

  it('a report folder written before the marker (exactly its layout) is still replaced', () => {
    const root = project();
    runDiff({ root, outDir: join(root, 'r'), log: () => {} });
    rmSync(join(root, 'r', REPORT_MARKER));
    runDiff({ root, outDir: join(root, 'r'), log: () => {} });
    expect(existsSync(join(root, 'r', REPORT_MARKER))).toBe(true);
  });
});

describe('stopwatches diff --md follows the writer', () => {
  it('writes through a link, into a FIFO and /dev/null, and refuses a folder before writing anything', async () => {
    const root = project();
    writeFileSync(join(root, 'summary-target.md'), 'old');
    symlinkSync('summary-target.md', join(root, 'summary.md'));
    expect((await cli(root, ['--md', 'summary.md', '--out', 'r1'])).status).toBe(0);
    expect(lstatSync(join(root, 'summary.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'summary-target.md'), 'utf8')).toMatch(/^<!-- /);

    expect((await cli(root, ['--md', '/dev/null', '--out', 'r2'])).status).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);

    const fifo = join(root, 'md-pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The reader drains the FIFO into a file, so a write this process blocks in can always finish.
    const reader = spawn('sh', ['-c', `cat "${fifo}" > "${join(root, 'md-got')}"`]);
    const closed = new Promise<number | null>((ok) => reader.on('close', ok));
    expect((await cli(root, ['--md', fifo, '--out', 'r3'])).status).toBe(0);
    expect(await closed).toBe(0);
    expect(readFileSync(join(root, 'md-got'), 'utf8')).toMatch(/Paper diff/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);

    mkdirSync(join(root, 'a-folder'));
    const r = await cli(root, ['--md', 'a-folder', '--out', 'r4']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`stopwatches: diff --md a-folder: is a directory where a file was expected; give a file path or remove the directory\n`);
    expect(existsSync(join(root, 'r4'))).toBe(false);
    expect(relative(root, join(root, 'a-folder'))).toBe('a-folder');
  });
});

describe('a failed write or read names the user\'s file, never a temp file, and says which it was', () => {
  it('the writer reports the target, not its temp file', () => {
    const d = tmp();
    // A folder that cannot hold the temp file: ENOENT on the temp name, reported on the target.
    const target = join(d, 'gone', 'r.json');
    let err: NodeJS.ErrnoException | undefined;
    try {
      writeFileAtomicSync(target, 'x');
    } catch (e) {
      err = e as NodeJS.ErrnoException;
    }
    expect(err?.code).toBe('ENOENT');
    expect(err?.path).toBe(target);
    expect(err?.message).not.toContain('.tmp-');
  });

  it('a read failure is "cannot read", a write failure "cannot write", each with its fix', async () => {
    const { describeFsError } = await import('../src/pipeline/fsutil.ts');
    const d = tmp();
    writeFileSync(join(d, 'corpus.txt'), 'x');
    const errno = (code: string, syscall: string, path: string) => Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
    expect(describeFsError(errno('EACCES', 'scandir', join(d, 'corpora')), d)?.message).toBe('cannot read corpora: permission denied; make it readable (chmod u+r) or run as its owner (EACCES)');
    expect(describeFsError(errno('EACCES', 'open', join(d, 'new.json.tmp-1-ab')), d)?.message).toBe('cannot write new.json: permission denied; make it writable (chmod -R u+w) or run as its owner (EACCES)');
  });
});
