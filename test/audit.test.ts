/**
 * `stopwatches audit` on simulated runs with known truth: each scenario is
 * simulated and written by `simulate --as` in the vLLM and the AIPerf
 * formats, and each finding must warn where the run has its pitfall and stay
 * ok where it does not. The truth is the scenario's construction (all slots
 * at t = 0, a ramp, a schedule below or above capacity, a cap, fixed
 * lengths, 100 or 5,000 requests), never a number read off the audit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { FINDING_IDS, type AuditReport } from '../src/audit/index.ts';
import { runCli } from './helpers/cli.ts';
import { audit, finding, removeSimulatedFiles, simulatedFile, verdicts, type Scenario } from './helpers/audit-runs.ts';

afterAll(removeSimulatedFiles);

const FORMATS = ['vllm', 'aiperf'] as const;

const CLOSED: Scenario = { client: 'closed', n: 400, slots: 32 };
const RAMP: Scenario = { client: 'ramp', n: 400, slots: 32, rampGapS: 0.05 };
const OPEN_BELOW: Scenario = { client: 'open', n: 1000, rate: 20 };
// 1,024-token prompts against an 8,192-token budget: prefill alone tops out near 50 req/s on this server
const OPEN_ABOVE: Scenario = { client: 'open', n: 2000, rate: 70 };
const CAPPED: Scenario = { client: 'capped', n: 400, rate: 30, slots: 16 };
const BURST: Scenario = { client: 'burst', n: 100 };
const FIXED: Scenario = { client: 'closed', n: 400, slots: 32, fixed: true };
const SMALL: Scenario = { client: 'closed', n: 100, slots: 16 };
const BIG: Scenario = { client: 'closed', n: 5000, slots: 16 };
// 100 requests over 64 slots: the last send comes before the first wave has drained
const SHORT_WIDE: Scenario = { client: 'closed', n: 100, slots: 64 };

/** Reports of the unedited runs, by scenario and format: most tests audit the same few files again (the audit is deterministic). */
const audited = new Map<string, AuditReport>();

async function run(s: Scenario, as: (typeof FORMATS)[number], edit?: (t: string) => string) {
  const key = JSON.stringify([s, as]);
  const done = edit ? undefined : audited.get(key);
  if (done) return done;
  const f = await simulatedFile(s, as, edit);
  const report = audit(f.path, f.text);
  if (!edit) audited.set(key, report);
  return report;
}

describe.each(FORMATS)('audit of simulated runs written as %s', (as) => {
  it('first-wave: warns on a closed loop whose slots all open at t = 0, not on the same loop ramped, an open loop, or a wave diluted by 5,000 requests', async () => {
    const closed = await run(CLOSED, as);
    const f = finding(closed, 'first-wave');
    expect(f.verdict).toBe('warn');
    expect(f.numbers.wave_size.value).toBe(CLOSED.slots);
    expect(f.numbers.ttft_p99_with.value).toBeGreaterThan(f.numbers.ttft_p99_without.value);
    expect(f.numbers.wave_depth_predicted.value).toBeGreaterThan(0);
    expect(finding(await run(RAMP, as), 'first-wave').verdict).toBe('ok');
    expect(finding(await run(OPEN_BELOW, as), 'first-wave').verdict).toBe('ok');
    const big = finding(await run(BIG, as), 'first-wave');
    expect(big.verdict).toBe('ok');
    expect(big.numbers.wave_size.value).toBe(BIG.slots);
  });

  it('client-queue: warns on a capped Poisson run from its due times, cannot tell without them, and is ok for open and closed loops', async () => {
    const capped = finding(await run(CAPPED, as), 'client-queue');
    expect(capped.verdict).toBe('warn');
    expect(capped.numbers.ttft_p50_from_due.value).toBeGreaterThan(capped.numbers.ttft_p50_printed.value);
    // the same run written by a version that keeps no due times (vLLM without queue_times, AIPerf without credits)
    const drop = as === 'vllm'
      ? (t: string) => { const o = JSON.parse(t); delete o.queue_times; return JSON.stringify(o); }
      : (t: string) => t.replace(/"credit_issued_ns":\d+,/g, '');
    const blind = finding(await run(CAPPED, as, drop), 'client-queue');
    expect(blind.verdict).toBe('unknown');
    expect(blind.message).toMatch(as === 'vllm' ? /cap of 16 .* no due times/ : /neither a rate nor a cap/);
    expect(finding(await run(OPEN_BELOW, as), 'client-queue').verdict).toBe('ok');
    expect(finding(await run(CLOSED, as), 'client-queue').verdict).toBe('ok');
  });

  it('client-queue: without a cap no request waits, so a burst and an open loop print no wait rows of zeros but say why', async () => {
    for (const s of [BURST, OPEN_BELOW]) {
      const f = finding(await run(s, as), 'client-queue');
      expect(f.verdict).toBe('ok');
      expect(f.message).toMatch(/no cap|no client cap/);
      expect(f.message).toMatch(/kept no queue and there is no wait to report/);
      if (s === BURST) expect(f.message).toMatch(/burst/);
      expect(Object.keys(f.numbers).filter((k) => k.startsWith('wait') || k.includes('_from_due'))).toEqual([]);
    }
  });

  it('sample-size: no 95% bound for a p99 from 100 requests; 5,000 bound it', async () => {
    const small = finding(await run(SMALL, as), 'sample-size');
    expect(small.verdict).toBe('warn');
    expect(small.numbers.ttft_p99_needs_n.value).toBe(299);
    expect(small.numbers.ttft_p99.note).toMatch(/no 95% upper bound/);
    const big = finding(await run(BIG, as), 'sample-size');
    expect(big.verdict).toBe('ok');
    expect(big.numbers.ttft_p99.interval![0]).toBeLessThanOrEqual(big.numbers.ttft_p99.value);
    expect(big.numbers.effective_n.value).toBeLessThanOrEqual(BIG.n);
  });

  it('window: warns when the run never leaves its ramp and drain, ok over a long closed loop', async () => {
    const wide = finding(await run(SHORT_WIDE, as), 'window');
    expect(wide.verdict).toBe('warn');
    expect(wide.numbers.steady_end_s.value).toBeLessThan(wide.numbers.steady_start_s.value);
    const big = finding(await run(BIG, as), 'window');
    expect(big.verdict).toBe('ok');
    expect(big.numbers.steady_start_s.value).toBeLessThan(big.numbers.steady_end_s.value);
  });

  it('steady-state: warns on an open loop above capacity, not below it, nor on a closed loop or a saturated cap', async () => {
    const above = finding(await run(OPEN_ABOVE, as), 'steady-state');
    expect(above.verdict).toBe('warn');
    expect(above.numbers.in_flight_median_second_half.value).toBeGreaterThan(above.numbers.in_flight_median_first_half.value);
    for (const s of [OPEN_BELOW, CLOSED, CAPPED]) expect(finding(await run(s, as), 'steady-state').verdict).toBe('ok');
  });

  it('metronome: warns on fixed lengths in a closed loop, ok with ranged lengths or an open loop', async () => {
    const fixed = finding(await run(FIXED, as), 'metronome');
    expect(fixed.verdict).toBe('warn');
    expect(fixed.numbers.cohort_size_median.value).toBeGreaterThan(1);
    expect(fixed.numbers.prompt_tokens.value).toBe(1024);
    expect(finding(await run(CLOSED, as), 'metronome').verdict).toBe('ok');
    expect(finding(await run({ ...OPEN_BELOW, fixed: true }, as), 'metronome').verdict).toBe('ok');
  });

  it('littles-law: the in-flight count from the file matches a closed loop, and a claim the run did not keep is a warning', async () => {
    const closed = finding(await run(CLOSED, as), 'littles-law');
    expect(closed.verdict).toBe('ok');
    if (as === 'vllm') {
      expect(closed.numbers.in_flight_steady.value).toBeCloseTo(CLOSED.slots!, 0);
      // the same file claiming 64 in flight (a cap the 32-slot client never reached)
      const claim = (t: string) => { const o = JSON.parse(t); o.max_concurrency = 64; return JSON.stringify(o); };
      expect(finding(await run(CLOSED, as, claim), 'littles-law').verdict).toBe('warn');
    } else {
      expect(closed.message).toMatch(/no concurrency claimed/); // AIPerf's per-request export records no settings
    }
  });

  it('errors: 5% failures can take any p99; none is ok', async () => {
    const fail = as === 'vllm'
      ? (t: string) => { const o = JSON.parse(t); o.errors = o.errors.map((e: string, i: number) => (i % 20 === 7 ? 'timeout' : e)); return JSON.stringify(o); }
      : (t: string) => t.split('\n').map((l, i) => (i % 20 === 7 ? l.replace('"error":null', '"error":{"code":504,"type":"Timeout","message":"t"}') : l)).join('\n');
    const failed = finding(await run(CLOSED, as, fail), 'errors');
    expect(failed.verdict).toBe('warn');
    expect(failed.numbers.failed.value).toBe(CLOSED.n / 20);
    expect(failed.message).toMatch(/p99 TTFT .* could be unbounded/);
    expect(finding(await run(CLOSED, as), 'errors').verdict).toBe('ok');
  });

  it('tokens: the server’s counts are ok; AIPerf’s own count is named as such', async () => {
    expect(finding(await run(CLOSED, as), 'tokens').verdict).toBe(as === 'vllm' ? 'ok' : 'warn');
  });

  it('every finding has a verdict, a message, and numbers with units; unknown says why', async () => {
    const r = await run(SHORT_WIDE, as);
    expect(r.findings.map((f) => f.id)).toEqual(FINDING_IDS);
    for (const f of r.findings) {
      expect(['warn', 'ok', 'unknown']).toContain(f.verdict);
      expect(f.message.length).toBeGreaterThan(10);
      for (const n of Object.values(f.numbers)) {
        expect(Number.isFinite(n.value), `${f.id}: ${JSON.stringify(n)}`).toBe(true);
        expect(typeof n.unit).toBe('string');
      }
    }
    expect(Object.keys(r.clauses).sort()).toEqual(['arrivals', 'clock', 'definitions', 'prompts', 'tokens', 'versions', 'window']);
  });
});

describe('stopwatches audit (the command)', () => {
  it('prints a summary line first, one line per finding, then the clauses; --json is one object per file, an array for several; exit 0', async () => {
    const a = await simulatedFile(SMALL, 'vllm');
    const b = await simulatedFile(SMALL, 'aiperf');
    const text = await runCli(['audit', a.path]);
    expect(text.code).toBe(0);
    const lines = text.out.split('\n');
    expect(lines[1]).toMatch(/^2 warnings: the p99 TTFT is the opening wave \([\d,.]+ ms with it, [\d,.]+ ms without\); a p99 from 100 requests has no 95% bound$/);
    for (const id of FINDING_IDS) expect(text.out).toMatch(new RegExp(`^(WARN|ok  |\\?   ) ${id}: `, 'm'));
    expect(text.out).toMatch(/^ {2}arrivals +closed loop: rate inf, at most 16 in flight/m);
    const one = await runCli(['audit', a.path, '--json']);
    const obj = JSON.parse(one.out);
    expect(Object.keys(obj)).toEqual(['file', 'format', 'findings', 'clauses']);
    expect(obj.format).toBe('vllm');
    expect(Object.keys(obj.findings[0])).toEqual(['id', 'verdict', 'message', 'numbers']);
    const two = JSON.parse((await runCli(['audit', a.path, b.path, '--json'])).out);
    expect(two.map((r: { format: string }) => r.format)).toEqual(['vllm', 'aiperf']);
  });

  it('a file it cannot read is one line and exit 2', async () => {
    const r = await runCli(['audit', join(import.meta.dirname, 'no-such-file.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^stopwatches: .*no-such-file\.json: cannot read \(no such file\)\n$/);
    const notJson = await simulatedFile(SMALL, 'vllm', (t) => t.slice(0, 100));
    const bad = await runCli(['audit', notJson.path]);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
  });
});

describe('stopwatches simulate --as', () => {
  /** `metrics --json` of a file: what it printed, and one tool's rows by metric. */
  async function metrics(path: string, tool: string): Promise<{ out: string; rows: Map<string, number | null> }> {
    const r = await runCli(['metrics', path, '--json']);
    expect(r.code, r.err).toBe(0);
    return { out: r.out, rows: new Map(JSON.parse(r.out).rows.filter((x: { tool: string }) => x.tool === tool).map((x: { metric: string; value: number | null }) => [x.metric, x.value])) };
  }

  it.each([['vllm', 'capped_poisson'], ['aiperf', 'closed_ranged']] as const)('writes %s’s format, which `metrics` reads back to the simulator’s own numbers (%s)', async (as, golden) => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'as-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const casePath = join(import.meta.dirname, 'fixtures/golden', `${golden}.json`);
    const own = join(dir, 'own.json');
    const tool = join(dir, as === 'vllm' ? 'run.json' : 'profile_export.jsonl');
    expect((await runCli(['simulate', casePath, '--tokens', '--out', own])).code).toBe(0);
    expect((await runCli(['simulate', casePath, '--as', as, '--out', tool])).code).toBe(0);
    const written = await metrics(tool, as);
    expect(written.out).toContain(`"format": "${as}"`);
    const a = (await metrics(own, as)).rows;
    const b = written.rows;
    let compared = 0;
    for (const [metric, v] of a) {
      const w = b.get(metric);
      if (v === null || w === null || w === undefined) continue; // a definition one of the two files cannot support
      expect(Math.abs(w - v), metric).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v)));
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
    if (as === 'aiperf') expect(readFileSync(tool, 'utf8').split('\n')[0]).toMatch(/^\{"metadata":\{.*"credit_issued_ns":\d+,"request_start_ns":\d+/);
  });

  it('refuses an unknown --as with one line', async () => {
    const r = await runCli(['simulate', join(import.meta.dirname, 'fixtures/golden/closed_fixed.json'), '--as', 'sglang']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--as "sglang": unknown; use vllm or aiperf/);
  });
});

it('verdicts helper covers every finding', async () => {
  expect(Object.keys(verdicts(await run(SMALL, 'vllm')))).toEqual([...FINDING_IDS]);
});

describe('the pieces the findings share', () => {
  it('reads which percentile a tool’s key names, whatever the tool', async () => {
    const { percentileOf } = await import('../src/audit/printed.ts');
    const cases: [string, number | null][] = [
      ['p99_ttft_ms', 0.99], ['median_ttft_ms', 0.5], ['time_to_first_token.p90', 0.9], ['results_ttft_s_quantiles_p95', 0.95],
      ['result_first_token_99.90_percentile_latency_ns', 0.999], ['90.0th_first_token_percentile_latency_ns', 0.9],
      ['mean_ttft_ms', null], ['std_ttft_ms', null], ['ttft.avg', null],
    ];
    for (const [key, p] of cases) {
      const got = percentileOf(key);
      if (p === null) expect(got, key).toBeNull();
      else expect(got, key).toBeCloseTo(p, 12);
    }
  });

  it('discounts correlated samples by the AR(1) factor and never credits negative correlation', async () => {
    const { effectiveSampleSize } = await import('../src/audit/findings/sample-size.ts');
    expect(effectiveSampleSize(1000, 0)).toBe(1000);
    expect(effectiveSampleSize(1000, 0.5)).toBeCloseTo(1000 / 3, 9);
    expect(effectiveSampleSize(1000, -0.3)).toBe(1000);
    expect(effectiveSampleSize(1000, NaN)).toBe(1000);
  });
});
