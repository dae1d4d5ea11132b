/**
 * Big result files: `stopwatches metrics` (and `stopwatches audit`, where the
 * command exists) on a ~200 MB file, against the floor of reading the same
 * file with nothing else: a plain streaming pass (readline over a stream,
 * JSON.parse per line) for JSON lines, read + JSON.parse for one JSON
 * document. Each is a child process; its wall time and peak resident memory
 * (the child's own rusage maxRSS, written at exit), each the best of
 * {@link ROUNDS} rounds, are printed as ratios of the plain pass in the same
 * run. Goal: metrics within 3× the time and 6× the peak memory of the plain pass.
 *
 * The files are built deterministically (not committed) under .cache/bench/:
 * an AIPerf profile_export.jsonl from a real export's records, repeated with
 * every nanosecond timestamp shifted past the previous copy, and a vLLM
 * --save-detailed result whose per-request arrays repeat a real vLLM file's
 * requests on one clock. Each copy's inter-chunk gaps are moved by up to a
 * millisecond ({@link jitterNs}), so that nearly every gap has its own value,
 * as in a real run: copied exactly, a 200 MB file would hold a few hundred
 * distinct gaps among millions, which the definitions count instead of
 * sorting, and the bench would time a shortcut real files never take. Set
 * BENCH_METRICS_MB to change the size.
 *
 * Then the explorer's omission-at-90% preset, and the build's definitions
 * run: simulating each vs computing every tool's per-user speeds on it (goal:
 * the definitions take no longer).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REAL = join(ROOT, '..', 'shared', 'real-results');
const OUT = join(ROOT, '.cache', 'bench');
const MB = Number(process.env.BENCH_METRICS_MB ?? 200);
const RUSAGE = join(ROOT, 'bench', 'lib', 'report-rusage.mjs');

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Write `lines()` to path through a temp file, unless the file of that size recipe is already there. */
async function build(path: string, make: (write: (s: string) => Promise<void>) => Promise<void>): Promise<void> {
  if (existsSync(path)) return;
  mkdirSync(OUT, { recursive: true });
  const tmp = `${path}.tmp`;
  const ws = createWriteStream(tmp);
  const write = async (s: string) => {
    if (!ws.write(s)) await once(ws, 'drain');
  };
  await make(write);
  ws.end();
  await once(ws, 'finish');
  renameSync(tmp, path);
}

/**
 * Nanoseconds added to gap `j` of request `i` in copy `copy` (0 for the real
 * file's own copy): a fixed pseudo-random spread over a millisecond (a prime
 * number of values, so the copies of one gap do not repeat each other's).
 */
const jitterNs = (copy: number, i: number, j: number) => (copy === 0 ? 0 : (copy * 7919 + i * 104729 + j * 1299709) % 999_983);

const NS_FIELD = /("(?:credit_issued|request_start|request_ack|request_end|cancellation_time|timestamp)_ns"\s*:\s*)(\d+)/g;

const ICL = /("inter_chunk_latency"\s*:\s*\{\s*"value"\s*:\s*\[)([^\]]+)\]/;

/** AIPerf: the real export's records repeated, each copy shifted by the file's span + 1 s. */
async function aiperfFile(): Promise<string> {
  const src = join(REAL, 'aiperf', 'aiperf-examples-run1_profile_export.jsonl');
  const path = join(OUT, `aiperf-${MB}mb-distinct_profile_export.jsonl`);
  const lines = readFileSync(src, 'utf8').split('\n').filter((l) => l.trim() !== '');
  let lo = -1n;
  let hi = 0n;
  for (const l of lines) for (const m of l.matchAll(NS_FIELD)) {
    const t = BigInt(m[2]);
    if (lo < 0n || t < lo) lo = t;
    if (t > hi) hi = t;
  }
  const shift = hi - lo + 1_000_000_000n;
  const bytesPerCopy = lines.reduce((s, l) => s + l.length + 1, 0);
  const copies = Math.ceil((MB * 1e6) / bytesPerCopy);
  await build(path, async (write) => {
    for (let k = 0; k < copies; k++) {
      const d = shift * BigInt(k);
      let chunk = '';
      lines.forEach((l, i) => {
        const shifted = l.replace(NS_FIELD, (_, key: string, v: string) => key + String(BigInt(v) + d));
        // inter_chunk_latency is in ms with nanosecond digits: each gap moves by its jitter, in whole nanoseconds
        chunk += shifted.replace(ICL, (_, open: string, list: string) => open + list.split(',').map((v, j) => String((Math.round(Number(v) * 1e6) + jitterNs(k, i, j)) / 1e6)).join(',') + ']') + '\n';
      });
      await write(chunk);
    }
  });
  return path;
}

/** vLLM --save-detailed: the real file's requests repeated back to back on one perf_counter clock. */
async function vllmFile(): Promise<string> {
  const src = JSON.parse(readFileSync(join(REAL, 'vllm', 'lambdalabs-llama3-8b-h100-len2048.json'), 'utf8'));
  const path = join(OUT, `vllm-${MB}mb-distinct-detailed.json`);
  const n0 = src.ttfts.length as number;
  const perRequest = JSON.stringify(src.itls).length / n0 + 60;
  const n = Math.ceil((MB * 1e6) / perRequest);
  await build(path, async (write) => {
    // Requests leave every 10 ms; each one's latency is its TTFT + Σ ITL, as the file's writer timed it.
    const itl = (i: number) => (src.itls[i % n0] as number[]).map((v, j) => v + jitterNs(Math.floor(i / n0), i % n0, j) * 1e-9);
    const lat = (i: number) => src.ttfts[i % n0] + itl(i).reduce((a: number, b: number) => a + b, 0);
    const starts: number[] = [];
    for (let i = 0; i < n; i++) starts.push(1000 + i * 0.01);
    const end = starts.reduce((m, s, i) => Math.max(m, s + lat(i)), 0);
    const head = { date: src.date, backend: 'vllm', model_id: src.model_id, tokenizer_id: src.tokenizer_id, num_prompts: n, request_rate: 100, max_concurrency: null, duration: end - 1000, completed: n };
    await write(JSON.stringify(head).slice(0, -1));
    const arr = async (key: string, f: (i: number) => string) => {
      await write(`, "${key}": [`);
      let chunk = '';
      for (let i = 0; i < n; i++) {
        chunk += (i ? ', ' : '') + f(i);
        if (chunk.length > 1 << 20) {
          await write(chunk);
          chunk = '';
        }
      }
      await write(chunk + ']');
    };
    await arr('input_lens', (i) => String(src.input_lens[i % n0]));
    await arr('output_lens', (i) => String(src.output_lens[i % n0]));
    await arr('ttfts', (i) => String(src.ttfts[i % n0]));
    await arr('itls', (i) => JSON.stringify(itl(i)));
    await arr('start_times', (i) => String(starts[i]));
    await arr('latencies', (i) => String(lat(i)));
    await arr('errors', () => '""');
    await write('}\n');
  });
  return path;
}

interface Measured {
  s: number;
  rssBytes: number;
}

/** One child process: wall time and its own peak RSS. */
function run(label: string, args: string[]): Measured {
  const rssFile = join(OUT, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', RUSAGE, ...args], {
    cwd: ROOT,
    env: { ...process.env, BENCH_RUSAGE_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status}): ${r.stderr.toString().slice(-2000)}`);
  const rssBytes = Number(readFileSync(rssFile, 'utf8')) * 1024;
  rmSync(rssFile, { force: true });
  return { s, rssBytes };
}

const PLAIN_LINES = `
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
let n = 0;
const rl = createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity });
rl.on('line', (l) => { if (l.trim()) { JSON.parse(l); n++; } });
rl.on('close', () => { if (n === 0) process.exit(1); });
`;
const PLAIN_DOCUMENT = `
const v = JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'));
if (!v) process.exit(1);
`;

/**
 * Rounds of every command (plain pass, metrics, audit, in that order each round): each is
 * reported by its fastest run and its smallest peak, the same statistic on both sides of a
 * ratio, so that one slow run on a shared machine moves neither side alone.
 */
const ROUNDS = 3;

function compare(name: string, file: string, plainScript: string): void {
  const size = statSync(file).size;
  console.log(`${name}: ${file.slice(ROOT.length)} (${mib(size)})`);
  const commands: [string, string[]][] = [['plain pass', ['-e', plainScript, file]], ['metrics --json', ['bin/stopwatches.mjs', 'metrics', file, '--json']]];
  if (existsSync(join(ROOT, 'src', 'commands', 'audit.ts'))) commands.push(['audit', ['bin/stopwatches.mjs', 'audit', file]]);
  const best = commands.map(() => ({ s: Infinity, rssBytes: Infinity }));
  for (let round = 0; round < ROUNDS; round++) {
    commands.forEach(([label, args], k) => {
      const m = run(label, args);
      best[k] = { s: Math.min(best[k].s, m.s), rssBytes: Math.min(best[k].rssBytes, m.rssBytes) };
    });
  }
  const [plain, ...results] = best;
  console.log(`  ${'plain pass'.padEnd(16)} ${plain.s.toFixed(2).padStart(7)} s  ${mib(plain.rssBytes).padStart(9)} peak   (best of ${ROUNDS})`);
  results.forEach((m, k) => {
    console.log(
      `  ${commands[k + 1][0].padEnd(16)} ${m.s.toFixed(2).padStart(7)} s  ${mib(m.rssBytes).padStart(9)} peak   ` +
        `time ${(m.s / plain.s).toFixed(1)}× (goal ≤ 3×), memory ${(m.rssBytes / plain.rssBytes).toFixed(1)}× (goal ≤ 6×)`,
    );
  });
}

/** Runs of the explorer's preset: each side is its fastest (runs of a few tens of milliseconds vary by half). */
const EXPLORER_RUNS = 15;

async function explorer(): Promise<void> {
  const { buildPresets } = await import('../src/explorer/presets.ts');
  const { simulateRun, speedsOf } = await import('../src/explorer/run.ts');
  // the inflation only scales LLMPerf's token-based speed, not the cost
  const preset = buildPresets(1.25).find((p) => p.id === 'omission-90');
  if (!preset) {
    console.log('explorer: no omission-90 preset');
    return;
  }
  const sim: number[] = [];
  const defs: number[] = [];
  for (let i = 0; i < EXPLORER_RUNS; i++) {
    const s = simulateRun(preset.params);
    sim.push(s.result.timing.simMs);
    defs.push(speedsOf(preset.params, s)!.ms);
  }
  const best = (a: number[]) => Math.min(...a);
  console.log(
    `explorer, ${preset.label} (${preset.params.requests} requests): simulation ${best(sim).toFixed(0)} ms, ` +
      `definitions ${best(defs).toFixed(0)} ms (${(best(defs) / best(sim)).toFixed(2)}× the simulation; goal ≤ 1×; best of ${EXPLORER_RUNS} each)`,
  );
  // the build's one run that every tool's definitions are computed on (experiments/definitions.ts)
  const { config, definitionsSimulation, benchmarkRunOf } = await import('../experiments/definitions.ts');
  const { perUserSpeeds } = await import('../src/metrics/index.ts');
  const bsim: number[] = [];
  const bdefs: number[] = [];
  for (let i = 0; i < EXPLORER_RUNS; i++) {
    const t0 = performance.now();
    const s = definitionsSimulation(config);
    const t1 = performance.now();
    perUserSpeeds(benchmarkRunOf(config, s), { llama2Inflation: 1 });
    bsim.push(t1 - t0);
    bdefs.push(performance.now() - t1);
  }
  console.log(
    `build, the definitions experiment's run (${config.prompts} requests): simulation ${best(bsim).toFixed(1)} ms, ` +
      `definitions ${best(bdefs).toFixed(1)} ms (${(best(bdefs) / best(bsim)).toFixed(2)}× the simulation; goal ≤ 1×; best of ${EXPLORER_RUNS} each)`,
  );
}

export default async function bench(): Promise<void> {
  if (!existsSync(REAL)) {
    console.log(`skipped: the real result files are not at ${REAL}`);
    return;
  }
  // files of other sizes from earlier runs go
  if (existsSync(OUT)) for (const f of readdirSync(OUT)) if (!f.includes(`-${MB}mb`)) rmSync(join(OUT, f), { force: true });
  const t0 = performance.now();
  const aiperf = await aiperfFile();
  const vllm = await vllmFile();
  console.log(`inputs ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  compare('AIPerf profile_export.jsonl', aiperf, PLAIN_LINES);
  compare('vLLM --save-detailed JSON', vllm, PLAIN_DOCUMENT);
  await explorer();
  writeFileSync(join(OUT, 'last-run.txt'), new Date().toISOString() + '\n');
}
