/**
 * `stopwatches simulate`: a golden case through the CLI gives the expected result; every
 * bad input gives exit status 2, one line naming the file and the field, and no output file.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.ts';
import { scratchDir } from './helpers/scratch.ts';

const golden = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/golden');
const load = (name: string) => JSON.parse(readFileSync(join(golden, name), 'utf8'));

let dir: string;
let stderr: string;
let stdout: string;

beforeEach(() => {
  dir = scratchDir('sim-cli-');
  stderr = '';
  stdout = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function run(...args: string[]): Promise<number> {
  return main(['simulate', ...args]);
}

describe('stopwatches simulate', () => {
  it('replays a golden case into --out, in the shape of expected', async () => {
    for (const name of ['capped_poisson.json', 'preempt_small_kv.json']) {
      const out = join(dir, `${name}.result.json`);
      expect(await run(join(golden, name), '--out', out)).toBe(0);
      const got = JSON.parse(readFileSync(out, 'utf8'));
      const exp = load(name).expected;
      expect(got.steps).toBe(exp.steps);
      expect(got.preemptions).toBe(exp.preemptions);
      expect(got.makespan).toBe(exp.makespan);
      for (const k of ['send_t', 'first_t', 'finish_t', 'npre']) expect(got.requests[k]).toEqual(exp.requests[k]);
      expect(got.requests.due_t).toEqual(load(name).client.times);
      expect(stdout).toBe('');
    }
  });

  it('writes to stdout, with token times and the step trace on request', async () => {
    expect(await run(join(golden, 'edge_mix.json'), '--tokens', '--steps')).toBe(0);
    const got = JSON.parse(stdout);
    const c = load('edge_mix.json');
    expect(got.requests.token_times.length).toBe(c.workload.n);
    got.requests.token_times.forEach((tt: number[], i: number) => {
      expect(tt.length).toBe(c.workload.osl[i]);
      expect(tt[0]).toBe(got.requests.first_t[i]);
      expect(tt[tt.length - 1]).toBe(got.requests.finish_t[i]);
    });
    expect(got.step_trace.slice(0, 64)).toEqual(c.expected.first_steps);
    expect(got.step_trace.length).toBe(c.expected.steps);
  });

  // Each bad input: [what, mutate the closed_fixed / capped case, pattern the one-line message must match]
  type Mut = (c: any) => void;
  const bad: [string, string, Mut, RegExp][] = [
    ['missing field', 'closed_fixed.json', (c) => delete c.config.hw.hbm_bw, /config\.hw\.hbm_bw is missing/],
    ['missing section', 'closed_fixed.json', (c) => delete c.workload, /workload is missing/],
    ['wrong type', 'closed_fixed.json', (c) => (c.config.block_size = '16'), /config\.block_size is the string "16"/],
    ['zero length', 'closed_fixed.json', (c) => (c.workload.isl[3] = 0), /workload\.isl\[3\] is 0; it must be ≥ 1/],
    ['negative length', 'closed_fixed.json', (c) => (c.workload.osl[5] = -2), /workload\.osl\[5\] is -2/],
    ['non-integer length', 'closed_fixed.json', (c) => (c.workload.osl[2] = 1.5), /workload\.osl\[2\] is 1\.5; it must be an integer/],
    ['length mismatch', 'closed_fixed.json', (c) => c.workload.isl.pop(), /workload\.isl has 159 entries but workload\.n is 160/],
    ['cached mismatch', 'closed_fixed.json', (c) => (c.workload.cached = [0]), /workload\.cached has 1 entries/],
    ['cached ≥ isl', 'cached_prefix.json', (c) => (c.workload.cached[4] = c.workload.isl[4]), /workload\.cached\[4\] is \d+ but isl\[4\]/],
    ['cached < 0', 'cached_prefix.json', (c) => (c.workload.cached[1] = -1), /workload\.cached\[1\] is -1/],
    ['slots < 1', 'closed_fixed.json', (c) => (c.client.n_slots = 0), /client\.n_slots is 0; it must be ≥ 1/],
    ['cap < 1', 'capped_poisson.json', (c) => (c.client.cap = 0), /client\.cap is 0; it must be ≥ 1/],
    ['unsorted times', 'open_poisson.json', (c) => ([c.client.times[7], c.client.times[8]] = [c.client.times[8], c.client.times[7]]), /client\.times\[8\] is .* non-decreasing/],
    ['times mismatch', 'open_poisson.json', (c) => c.client.times.pop(), /client\.times has 299 entries/],
    ['bad kind', 'closed_fixed.json', (c) => (c.client.kind = 'burst'), /client\.kind is the string "burst"/],
    ['KV pool too small', 'closed_fixed.json', (c) => (c.config.kv_capacity_tokens = 1000), /config\.kv_capacity_tokens is 1000 .* needs 72 blocks; raise it to at least 1152/],
    ['zero budget', 'closed_fixed.json', (c) => (c.config.token_budget = 0), /config\.token_budget is 0/],
    ['efficiency out of range', 'closed_fixed.json', (c) => (c.config.hw.eta_memory = 1.5), /config\.hw\.eta_memory is 1\.5; it must be in \(0, 1\]/],
    // A field the format does not have is an error naming the nearest known name, never ignored.
    ['misspelt workload field', 'cached_prefix.json', (c) => ((c.workload.cache = c.workload.cached), delete c.workload.cached), /workload\.cache is not a field of workload; did you mean workload\.cached\?/],
    ['misspelt hw field', 'closed_fixed.json', (c) => (c.config.hw.peak_flop = 1), /config\.hw\.peak_flop is not a field of config\.hw; did you mean config\.hw\.peak_flops\?/],
    ['camelCase model field', 'closed_fixed.json', (c) => (c.config.model.dModel = 4096), /config\.model\.dModel is not a field of config\.model; did you mean config\.model\.d_model\?/],
    ['misspelt section', 'closed_fixed.json', (c) => (c.confg = c.config), /confg is not a field of the top level; did you mean config\?/],
    ['field in the wrong section', 'closed_fixed.json', (c) => (c.config.hw.block_size = 16), /config\.hw\.block_size is not a field of config\.hw; it belongs in config \(config\.block_size\)/],
    ['unrelated field', 'closed_fixed.json', (c) => (c.workload.zzz = 1), /workload\.zzz is not a field of workload; its fields are n, isl, osl, cached/],
    ['field of another client kind', 'closed_fixed.json', (c) => (c.client.cap = 4), /client\.cap is not read by a "closed" client \(only by "capped"\)/],
    ['another schema', 'closed_fixed.json', (c) => (c.schema = 'llm-sim-golden/2'), /schema is the string "llm-sim-golden\/2"; this version reads "llm-sim-golden\/1" only/],
    // Step times that are not a finite number of seconds.
    ['peak FLOP/s that underflows', 'closed_fixed.json', (c) => (c.config.hw.peak_flops = 1e-300), /config\.hw\.peak_flops is 1\.000e-300 .* one step would take Infinity s; give the peak in FLOP\/s/],
    ['bandwidth that underflows', 'closed_fixed.json', (c) => (c.config.hw.hbm_bw = 1e-310), /config\.hw\.hbm_bw is .* one step would take Infinity s; give the bandwidth in bytes per second/],
    ['model that overflows', 'closed_fixed.json', (c) => (c.config.model.body_params = 1e306), /config\.model gives Infinity FLOPs for one step of 8192 tokens/],
    // Work above the limits is refused before it runs.
    ['one request of 10^9 output tokens', 'closed_fixed.json', (c) => Object.assign(c, { workload: { n: 1, isl: [16], osl: [1e9], cached: null }, config: { ...c.config, kv_capacity_tokens: 2e9 } }),
      /the run would take at least \d+ s \(1 request, at least 1,000,000,000 engine steps\), above the limit of 60 s; shorten the workload or raise --max-seconds/],
  ];

  for (const [what, base, mutate, pattern] of bad) {
    it(`rejects: ${what}`, async () => {
      const c = load(base);
      mutate(c);
      const file = join(dir, 'case.json');
      writeFileSync(file, JSON.stringify(c));
      const out = join(dir, 'result.json');
      expect(await run(file, '--out', out)).toBe(2);
      expectOneLine(file, pattern);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(dir)).toEqual(['case.json']);
    });
  }

  it('refuses a result above --max-output-mb before running, and names the flags that shrink or allow it', async () => {
    const file = join(dir, 'case.json');
    writeFileSync(file, readFileSync(join(golden, 'burst_1000.json')));
    const out = join(dir, 'result.json');
    expect(await run(file, '--tokens', '--max-output-mb', '1', '--out', out)).toBe(2);
    expectOneLine(file, /the result would take about \d+ MB \(1,000 requests, [\d,]+ token times\), above the limit of 1 MB; leave out --tokens\/--steps, shorten the workload or raise --max-output-mb/);
    expect(readdirSync(dir)).toEqual(['case.json']);
    stderr = '';
    expect(await run(file, '--tokens', '--max-output-mb', '50', '--out', out)).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).requests.token_times).toHaveLength(1000);
  });

  it('refuses --tokens beyond what the engine can index, even with the limits raised', async () => {
    const c = load('closed_fixed.json');
    Object.assign(c, { workload: { n: 3, isl: [16, 16, 16], osl: [1e9, 1e9, 1e9], cached: null } });
    c.config.kv_capacity_tokens = 2e9;
    const file = join(dir, 'case.json');
    writeFileSync(file, JSON.stringify(c));
    expect(await run(file, '--tokens', '--max-seconds', '1e12', '--max-output-mb', '1e9')).toBe(2);
    expectOneLine(file, /--tokens would record 3,000,000,000 token times; .* at most 2,147,483,647: leave out --tokens or shorten the workload/);
  });

  it('refuses a run above --max-seconds, and runs it when the flag raises the limit', async () => {
    const file = join(golden, 'closed_fixed.json');
    expect(await run(file, '--max-seconds', '1e-6')).toBe(2);
    expectOneLine(file, /the run would take at least [\d.e-]+ s \(160 requests, at least [\d,]+ engine steps\), above the limit of 1\.0e-6 s; shorten the workload or raise --max-seconds/);
    stderr = '';
    expect(await run(file, '--max-seconds', '1')).toBe(0);
    expect(JSON.parse(stdout).steps).toBe(load('closed_fixed.json').expected.steps);
  });

  it('stops a run that takes more steps than estimated at the limit, naming both counts', async () => {
    // an open run whose arrivals are spread out: idle gaps make many more steps than the batch needs
    const c = load('open_poisson.json');
    const file = join(dir, 'case.json');
    writeFileSync(file, JSON.stringify(c));
    const { caseFromJson, estimateWork, kernelSeconds } = await import('../src/sim/case.ts');
    const w = estimateWork(caseFromJson(c, file));
    const limit = kernelSeconds(w.steps + 1, w.requests, 0);
    expect(c.expected.steps).toBeGreaterThan(w.steps + 1);
    expect(await run(file, '--max-seconds', String(limit))).toBe(2);
    expectOneLine(file, /stopped after [\d,]+ engine steps, more than the [\d,]+ estimated before the run: .* raise --max-seconds/);
  });

  it('never refuses a run that finishes in seconds: a 256,000-request closed loop', async () => {
    const { estimateWork, SIMULATE_LIMITS } = await import('../src/sim/case.ts');
    const { Rng } = await import('../src/rng/index.ts');
    const { defaultServerConfig, inferencexLengths } = await import('../src/sim/index.ts');
    const rng = new Rng(2024);
    const n = 256_000;
    const workload = { isl: inferencexLengths(rng.fork('isl'), n, 1024, 0.8), osl: inferencexLengths(rng.fork('osl'), n, 1024, 0.8), cached: null };
    const w = estimateWork({ cfg: defaultServerConfig(), workload, client: { kind: 'closed', slots: 256 } } as never);
    // the request-steps (the old bound) are far above 10^8; the time on the event kernel is well below the limit
    expect(w.requestSteps).toBeGreaterThan(2e8);
    expect(w.seconds).toBeLessThan(SIMULATE_LIMITS.seconds / 10);
  });

  it('estimates 2×10^7 requests as a result far above the default limit (refused before any work)', async () => {
    const { estimateWork, SIMULATE_LIMITS } = await import('../src/sim/case.ts');
    const n = 2e7;
    const ones = new Int32Array(n).fill(1);
    const w = estimateWork({ cfg: { tokenBudget: 8192, maxNumSeqs: 1024 } as never, workload: { isl: ones, osl: ones, cached: null }, client: { kind: 'closed', slots: 64 } });
    expect(w.requestSteps).toBe(n);
    expect(w.outputBytes).toBeGreaterThan(SIMULATE_LIMITS.outputMB * 1e6);
  });

  it('writes the same bytes as JSON.stringify, in pieces', async () => {
    const { caseFromJson, resultChunks, resultToJson } = await import('../src/sim/case.ts');
    const { runEngine } = await import('../src/sim/engine.ts');
    const c = caseFromJson(load('edge_mix.json'), 'edge_mix.json');
    const r = runEngine(c.cfg, c.workload, c.client, { recordTokens: true, recordSteps: true });
    for (const opts of [{}, { tokens: true }, { steps: true }, { tokens: true, steps: true }]) {
      expect([...resultChunks(r, opts)].join('')).toBe(JSON.stringify(resultToJson(r, opts)));
    }
  });

  it('--help states the limits the code applies', async () => {
    const { buildProgram } = await import('../src/cli.ts');
    const { SIMULATE_LIMITS } = await import('../src/sim/case.ts');
    const help = buildProgram().commands.find((c) => c.name() === 'simulate')!.helpInformation();
    expect(help).toContain(`default ${SIMULATE_LIMITS.seconds})`);
    expect(help).toContain(`default ${SIMULATE_LIMITS.outputMB})`);
  });

  it('rejects a missing file', async () => {
    const file = join(dir, 'nope.json');
    expect(await run(file, '--out', join(dir, 'r.json'))).toBe(2);
    expectOneLine(file, /no such file/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('rejects a file that is not JSON', async () => {
    const file = join(dir, 'case.json');
    writeFileSync(file, '{"config": {');
    expect(await run(file, '--out', join(dir, 'r.json'))).toBe(2);
    expectOneLine(file, /not valid JSON/);
    expect(readdirSync(dir)).toEqual(['case.json']);
  });

  it('rejects an --out path it cannot write, leaving nothing behind', async () => {
    const out = join(dir, 'no-such-dir', 'r.json');
    expect(await run(join(golden, 'edge_mix.json'), '--out', out)).toBe(2);
    expectOneLine(out, /cannot write the result/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('test/fixtures/golden/README', () => {
  it('lists every case with the counts its file holds', () => {
    const text = readFileSync(join(golden, 'README'), 'utf8');
    const rows = [...text.matchAll(/^\| `(\w+\.json)` \| (closed|open|capped)[^|]* \|[^|]*\| (\d+) \| (\d+) \| (\d+) \|$/gm)];
    const files = readdirSync(golden).filter((f) => f.endsWith('.json')).sort();
    expect(rows.map((r) => r[1]).sort()).toEqual(files);
    for (const [, file, kind, n, steps, preemptions] of rows) {
      const c = load(file);
      expect([c.client.kind, c.workload.n, c.expected.steps, c.expected.preemptions], file).toEqual([kind, Number(n), Number(steps), Number(preemptions)]);
    }
  });
  it('names every field simulate reads, and simulate reads every field it names', async () => {
    const { CASE_FIELDS } = await import('../src/sim/case.ts');
    const text = readFileSync(join(golden, 'README'), 'utf8');
    const named = new Set([...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    for (const [section, fields] of Object.entries(CASE_FIELDS)) {
      for (const f of fields) expect(named.has(f), `${section}.${f}`).toBe(true);
    }
  });
});

function expectOneLine(file: string, pattern: RegExp): void {
  expect(stderr.endsWith('\n')).toBe(true);
  const line = stderr.slice(0, -1);
  expect(line).not.toContain('\n');
  expect(line).toContain(file);
  expect(line).toMatch(pattern);
  expect(line).not.toMatch(/\bat .*:\d+:\d+/); // no stack trace
  expect(stdout).toBe('');
}
