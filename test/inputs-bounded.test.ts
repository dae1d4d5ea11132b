/**
 * Every input is read within a stated bound and every cut-off or impossible
 * file gets one line and exit 2 (issue 29's reading side), on real files and
 * real devices: /dev/zero, a pipe on /dev/stdin, a link to /dev/zero, a file
 * larger than a whole-text read allows, and real result files cut short.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';

const ROOT = join(import.meta.dirname, '..');
const REAL = join(ROOT, '..', 'shared', 'real-results');
const dir = mkdtempSync(join(tmpdir(), 'stopwatches-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's one line of error for `args`, after checking it is exactly one line and exit 2. */
async function refusal(args: string[]): Promise<string> {
  const r = await runCli(args);
  expect(r.code, r.err).toBe(2);
  const lines = r.err.trimEnd().split('\n');
  expect(lines, r.err).toHaveLength(1);
  expect(r.err).not.toMatch(/Invalid string length|\n\s+at /);
  return lines[0];
}

describe('inputs that never end', () => {
  it('metrics /dev/zero is read up to its limit, then refused naming the limit', async () => {
    expect(await refusal(['metrics', '/dev/zero'])).toMatch(/^stopwatches: \/dev\/zero: not a regular file \(a pipe or device\); the input holds more than 128 MiB, the limit for this input: save it to a file first$/);
  });
  it('simulate /dev/zero likewise', async () => {
    expect(await refusal(['simulate', '/dev/zero'])).toMatch(/\/dev\/zero: not a regular file .* the case file holds more than 256 MiB, the limit for this input/);
  });
  it('claims with numbers.json linked to /dev/zero is refused unread', async () => {
    const d = join(dir, 'generated');
    rmSync(d, { recursive: true, force: true });
    spawnSync('mkdir', ['-p', d]);
    symlinkSync('/dev/zero', join(d, 'numbers.json'));
    expect(await refusal(['claims', '--dir', d])).toMatch(/numbers\.json is not a regular file \(a device, pipe or folder\)/);
  });
  it('a file above the whole-text limit is refused by its size, before a byte is read', async () => {
    const f = join(dir, 'mlperf_log_summary.txt');
    const fd = openSync(f, 'w');
    ftruncateSync(fd, 600 * 2 ** 20); // sparse: no disk used
    closeSync(fd);
    expect(await refusal(['metrics', f])).toMatch(/mlperf_log_summary\.txt: the file \(600 MiB\) is larger than 128 MiB, the most this format is read as one text/);
  });
});

describe('a pipe is read once', () => {
  /**
   * `cat file | …` into a process that holds the pipe's read end as its standard input, as a shell sets up
   * `cat file | stopwatches metrics /dev/stdin`: /dev/stdin is the link /proc/self/fd/0 in the reader, and
   * /proc/<pid>/fd/0 reaches the same pipe from here, in this process (no CLI start-up per case).
   */
  async function shellPipe(file: string): Promise<{ path: string; close(): void }> {
    // The holder says its pid once its standard input is the pipe, then becomes `sleep` (same pid, same input).
    const sh = spawn('sh', ['-c', 'cat "$1" | sh -c \'echo $$; exec sleep 600\'', 'sh', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = Number(await new Promise<string>((ok) => sh.stdout.once('data', (d: Buffer) => ok(d.toString()))));
    return { path: `/proc/${pid}/fd/0`, close: () => process.kill(pid) };
  }

  it('metrics /dev/stdin reads the piped file (one pass: recognition reads only what the reader reads)', async () => {
    for (const f of ['vllm-bench-serve.json', 'profile_export.jsonl']) {
      const pipe = await shellPipe(`test/fixtures/results/${f}`);
      try {
        const r = await runCli(['metrics', pipe.path, '--json'], { cwd: ROOT });
        expect(r.code, r.err).toBe(0);
        expect(r.err).toBe(''); // progress is for a terminal only
        const piped = JSON.parse(r.out);
        const direct = JSON.parse((await runCli(['metrics', join('test/fixtures/results', f), '--json'], { cwd: ROOT })).out);
        expect(piped).toStrictEqual(direct);
      } finally {
        pipe.close();
      }
    }
  });
  it('metrics on a named FIFO reads what its writer wrote (the FIFO is opened once)', async () => {
    // A FIFO gives its bytes to the open that met its writer: opened again, it waits for a writer that may
    // have written and gone (whether it has depends on timing, so this cannot force it). The CLI runs as a
    // child with a time limit, so a reader that hangs on it fails here instead of hanging the worker.
    const f = 'test/fixtures/results/vllm-bench-serve.json';
    const fifo = join(dir, 'results.fifo');
    spawnSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', f, fifo], { cwd: ROOT, stdio: 'ignore' });
    try {
      const r = spawnSync(process.execPath, ['bin/stopwatches.mjs', 'metrics', fifo, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(r.signal, 'metrics on a FIFO did not finish: it waited on a second open').toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toStrictEqual(JSON.parse((await runCli(['metrics', f, '--json'], { cwd: ROOT })).out));
    } finally {
      writer.kill();
    }
  });
});

describe('files cut off or incomplete', () => {
  it('an MLPerf summary cut mid-number is refused, not read as a smaller number', async () => {
    const text = readFileSync(join(REAL, 'mlperf', 'scc24-server-demo_mlperf_log_summary.txt'), 'utf8');
    const at = text.indexOf('Mean latency (ns)');
    const line = text.slice(at, text.indexOf('\n', at));
    const f = join(dir, 'cut_mlperf_log_summary.txt');
    writeFileSync(f, text.slice(0, at + line.length - 3)); // "… : 38822" of "… : 3882235"
    expect(await refusal(['metrics', f])).toMatch(/the file ends inside line \d+ \("Mean latency \(ns\)\s+: \d+"\) without a line end: it looks cut off/);
  });
  it('an MLPerf detail log with only its first line is not an empty run', async () => {
    const text = readFileSync(join(REAL, 'mlperf', 'scc24-server-demo_mlperf_log_detail.txt'), 'utf8');
    const f = join(dir, 'mlperf_log_detail.txt');
    writeFileSync(f, text.slice(0, text.indexOf('\n') + 1));
    expect(await refusal(['metrics', f])).toMatch(/mlperf_log_detail\.txt: holds 1 MLLOG line and no result_\* entry: .* cut off or the run did not finish/);
  });
  it('a truncated SGLang line is called truncated, not blamed on the Infinity SGLang writes', async () => {
    const text = readFileSync(join(REAL, 'sglang', 'tonyli-agg_n50_in128_out64_c8.jsonl'), 'utf8');
    const first = text.split('\n')[0];
    expect(first).toContain('Infinity');
    const f = join(dir, 'cut.jsonl');
    writeFileSync(f, first.slice(0, Math.floor(first.length / 2)));
    const line = await refusal(['metrics', f]);
    expect(line).toMatch(/truncated/);
    expect(line).not.toMatch(/Unexpected token 'I'|Infinity/);
  });
});

describe('files whose times or fields cannot be trusted', () => {
  const golden = join(ROOT, 'test', 'fixtures', 'golden');
  /** A simulator result of a golden case, with every token time (`simulate --tokens`): simulated once, a fresh copy each call. */
  let simulated: string | undefined;
  async function simResult(): Promise<{ requests: Record<string, number[] | number[][]> }> {
    if (simulated === undefined) {
      const r = await runCli(['simulate', join(golden, 'closed_fixed.json'), '--tokens'], { cwd: ROOT });
      expect(r.code, r.err).toBe(0);
      simulated = r.out;
    }
    return JSON.parse(simulated);
  }
  it('metrics on a simulator result refuses a first_t that is not the first token time', async () => {
    const res = await simResult();
    (res.requests.first_t as number[])[3] += 0.5;
    const f = join(dir, 'sim-first.json');
    writeFileSync(f, JSON.stringify(res));
    expect(await refusal(['metrics', f])).toMatch(/requests\.first_t\[3\] = [\d.]+ but token_times\[3\]\[0\] = [\d.]+: first_t is the first token's time/);
  });
  it('metrics on a simulator result refuses an osl smaller than the token times', async () => {
    const res = await simResult();
    res.requests.osl = (res.requests.token_times as number[][]).map((t, i) => (i === 2 ? t.length - 5 : t.length));
    const f = join(dir, 'sim-osl.json');
    writeFileSync(f, JSON.stringify(res));
    expect(await refusal(['metrics', f])).toMatch(/requests\.osl\[2\] = \d+ is smaller than the \d+ token times of request 2/);
  });
  it('times of 1e17 s are refused where they lose precision: simulate and metrics', async () => {
    const c = JSON.parse(readFileSync(join(golden, 'open_poisson.json'), 'utf8'));
    c.client.times = c.client.times.map((t: number) => t + 1e17);
    const f = join(dir, 'shifted.json');
    writeFileSync(f, JSON.stringify(c));
    expect(await refusal(['simulate', f])).toMatch(/client\.times\[0\] is [\d.e+]+ s; times beyond 1e10 s keep less than microsecond resolution/);
    const v = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'results', 'vllm-bench-serve.json'), 'utf8'));
    v.start_times = v.start_times.map((t: number) => t + 1e17);
    const g = join(dir, 'vllm-shifted.json');
    writeFileSync(g, JSON.stringify(v));
    expect(await refusal(['metrics', g])).toMatch(/start_times\[0\] = [\d.e+]+ s: beyond 1e10 s a time keeps less than microsecond resolution/);
  });
});

describe('text from a file reaches the terminal without control characters', () => {
  it('an escape sequence in a real detail log’s loadgen_version is not printed', async () => {
    const text = readFileSync(join(REAL, 'mlperf', 'scc24-server-demo_mlperf_log_detail.txt'), 'utf8');
    const evil = text.replace(/("key": "loadgen_version", "value": ")([^"]*)"/, '$1\\u001b]0;pwned\\u0007$2"');
    expect(evil).not.toBe(text);
    const f = join(dir, 'evil_mlperf_log_detail.txt');
    writeFileSync(f, evil);
    const r = await runCli(['metrics', f]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(']0;pwned');
    expect(r.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    // and in an error line
    const cut = join(dir, 'evil_mlperf_log_summary.txt');
    writeFileSync(cut, readFileSync(join(REAL, 'mlperf', 'scc24-server-demo_mlperf_log_summary.txt'), 'utf8').trimEnd() + '\nName\u001b[31m : 12');
    const line = await refusal(['metrics', cut]);
    expect(line).toContain('Name[31m : 12');
    expect(line).not.toContain('\u001b');
  });
});
