import { describe, expect, it } from 'vitest';
import { UserError } from '../src/errors.ts';
import { exitStatus, littlesLaw, perUserBound, runChecks, totalBound } from '../src/published-row/index.ts';
import { MODELS, GPUS } from '../src/published-row/presets.ts';
import { parseBandwidth, parseDuration, parseRate } from '../src/published-row/units.ts';
import { main } from '../src/cli.ts';

const L8 = MODELS['llama-3.1-8b-bf16'];
const H100 = GPUS['h100-sxm'];

describe("Little's law", () => {
  it("flags the article's example: 64 users, 6 req/s, 30 s mean latency", () => {
    const o = littlesLaw({ concurrency: 64, rate: 6, latency: 30 });
    expect(o.status).toBe('fail');
    expect(o.ratio).toBeCloseTo(180 / 64, 12);
    expect(o.message).toMatch(/^Little's law: 64 in flight but 6 req\/s × 30 s = 180: off by 2\.8×/);
  });
  it('passes the 64-slot simulated point (≈6.29 req/s × ≈10.17 s ≈ 64)', () => {
    // Test input, not a result: a later test feeds the simulator's own numbers.
    const o = littlesLaw({ concurrency: 64, rate: 6.287, latency: 10.172 });
    expect(o.status).toBe('pass');
    expect(o.values.predicted).toBeCloseTo(63.95, 2);
  });
  it('tolerance is relative and symmetric', () => {
    expect(littlesLaw({ concurrency: 100, rate: 10, latency: 10.9 }).status).toBe('pass');
    expect(littlesLaw({ concurrency: 100, rate: 10, latency: 11.2 }).status).toBe('fail');
    expect(littlesLaw({ concurrency: 100, rate: 10, latency: 9.2 }).status).toBe('pass');
    expect(littlesLaw({ concurrency: 100, rate: 10, latency: 8.9 }).status).toBe('fail');
    expect(littlesLaw({ concurrency: 100, rate: 10, latency: 11.2, tolerance: 0.15 }).status).toBe('pass');
  });
});

describe('roofline', () => {
  const base = { weightBytes: L8.weightBytes, hbmBw: H100.hbmBw, peakFlops: H100.peakFlops, flopParams: L8.flopParams, kvBytesPerToken: L8.kvBytesPerToken, layers: L8.layers, dModel: L8.dModel };
  it('batch-one bound: 3.35 TB/s ÷ 15.0 GB = 223 tok/s (the article)', () => {
    expect(perUserBound(base)).toBeCloseTo(3.35e12 / 15_009_849_344, 9);
    expect(Math.round(perUserBound(base))).toBe(223);
  });
  it('per user: passes 105.5 tok/s, flags 300 tok/s with the factor', () => {
    const [ok] = runChecks({ roofline: { ...base, perUserTps: 105.5 } });
    expect(ok.status).toBe('pass');
    const [bad] = runChecks({ roofline: { ...base, perUserTps: 300 } });
    expect(bad.status).toBe('fail');
    expect(bad.message).toMatch(/300 tok\/s per user but 3\.35 TB\/s ÷ 15\.01 GB = 223\.2 tok\/s: over by 1\.34×/);
  });
  it('total: compute ceiling without per-user speed; memory side with context', () => {
    expect(totalBound(base).bound).toBeCloseTo(989.4e12 / (2 * L8.flopParams), 6);
    // at 50 tok/s per user and 1,380 tokens of context, batch ≤ (BW/s − W)/(c·kv)
    const inp = { ...base, context: 1380 };
    const s = 50;
    const b = totalBound(inp, s);
    expect(b.side).toBe('memory');
    expect(b.bound).toBeCloseTo(s * ((3.35e12 / s - L8.weightBytes) / (1380 * L8.kvBytesPerToken)), 6);
    const [, total] = runChecks({ roofline: { ...inp, perUserTps: 50, totalTps: 20000 } });
    expect(total.status).toBe('fail');
    expect(total.ratio).toBeCloseTo(20000 / b.bound, 9);
  });
  it('the simulated peak (10,694 tok/s at 256 slots) sits inside the envelope', () => {
    const outcomes = runChecks({ roofline: { ...base, perUserTps: 10694 / 256, totalTps: 10694, context: 1380 } });
    expect(exitStatus(outcomes)).toBe(0);
  });
  it('multiple GPUs add bandwidth', () => {
    expect(perUserBound({ ...base, gpus: 2 })).toBeCloseTo(2 * perUserBound(base), 9);
  });
});

describe('units', () => {
  it('parses units and refuses ambiguous bare numbers', () => {
    expect(parseDuration('--latency', '30000ms')).toBeCloseTo(30, 12);
    expect(parseRate('--rate', '360/min')).toBeCloseTo(6, 12);
    expect(parseBandwidth('--hbm-bw', '3350GB/s')).toBe(3.35e12);
    expect(() => parseBandwidth('--hbm-bw', '3350')).toThrow(UserError);
    expect(() => parseDuration('--latency', '-3')).toThrow(/must be > 0/);
  });
});

describe('stopwatches check (CLI)', () => {
  async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const w1 = process.stdout.write;
    const w2 = process.stderr.write;
    process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
    process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
    process.exitCode = undefined;
    try {
      const code = await main(['check', ...args]);
      return { code, out, err };
    } finally {
      process.stdout.write = w1;
      process.stderr.write = w2;
      process.exitCode = undefined;
    }
  }
  it('exit 1 and the size of the inconsistency for the article example', async () => {
    const r = await run(['--concurrency', '64', '--rate', '6', '--latency', '30']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL {2}Little's law: 64 in flight but 6 req\/s × 30 s = 180: off by 2\.8×/);
  });
  it('exit 0 with PASS for the 64-slot point; --json', async () => {
    const r = await run(['--concurrency', '64', '--rate', '6.287', '--latency', '10172ms', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.ok).toBe(true);
    expect(j.checks[0].check).toBe('littles-law');
    expect(j.checks[0].values.latency).toBeCloseTo(10.172, 12);
  });
  it('roofline with presets', async () => {
    const r = await run(['--per-user-tps', '105.5', '--total-tps', '10694', '--model', 'llama-3.1-8b-bf16', '--gpu', 'h100-sxm']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter(Boolean)).toHaveLength(2);
  });
  it('exit 2 with one line for bad input', async () => {
    for (const args of [
      ['--concurrency', '64', '--rate', '6'],
      [],
      ['--per-user-tps', '100', '--model', 'gpt-9'],
      ['--per-user-tps', '100', '--model', 'llama-3.1-8b-bf16'],
      ['--latency', 'soon', '--rate', '1', '--concurrency', '1'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  // Each bad input: the arguments, the one line it must print (after `stopwatches: `).
  const P8 = ['--model', 'llama-3.1-8b-bf16', '--gpu', 'h100-sxm'];
  const refused: [string[], RegExp][] = [
    [['--per-user-tps', '100', ...P8, '--gpus', '1.5'], /^--gpus 1\.5: must be a whole number \(it counts GPUs\)$/],
    [['--per-user-tps', '100', ...P8, '--gpus', '1e12'], /^--gpus 1e12: above 100,000, the most this check accepts/],
    [['--per-user-tps', '100', '--total-tps', '1000', ...P8, '--params', '8.5'], /^--params 8\.5: must be a whole number \(it counts parameters\)$/],
    [['--per-user-tps', '100', ...P8, '--context', '0.5'], /^--context 0\.5: must be a whole number/],
    [['--per-user-tps', '1e309', ...P8], /^--per-user-tps 1e309: too large to be a number \(above 1\.8e308\)/],
    [['--concurrency', '1e309', '--rate', '1', '--latency', '1'], /^--concurrency 1e309: too large to be a number/],
    [['--per-user-tps', '100', '--model', 'llama-3.1-8b-bf16', '--hbm-bw', '1e300TB/s'], /^--hbm-bw 1e300TB\/s: too large to be a number once scaled by its unit/],
    [['--per-user-tps', '1e-320', ...P8], /^--per-user-tps 1e-320: too small to compute with/],
    [['--per-user-tps', '100', '--model-bytes', '1e-300B', '--hbm-bw', '3.35TB/s'], /^the per-user roofline: bound comes out as Infinity; the inputs are out of any real range/],
    [['--concurrency', '1e200', '--rate', '1e200', '--latency', '1e200'], /^Little's law: predicted comes out as Infinity/],
    [['--latency', '-3', '--rate', '1', '--concurrency', '1'], /^--latency -3: a time must be > 0$/],
  ];
  for (const [args, line] of refused) {
    it(`refuses with one line: ${args.join(' ')}`, async () => {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.endsWith('\n')).toBe(true);
      const text = r.err.slice(0, -1);
      expect(text).not.toContain('\n');
      expect(text.replace(/^stopwatches: /, '')).toMatch(line);
      expect(text).not.toMatch(/Infinity tok\/s|NaN/);
    });
  }
  it('--json never reports a bound it does not have (no null or Infinity among the values)', async () => {
    const r = await run(['--total-tps', '1000', '--model-bytes', '15GB', '--hbm-bw', '3.35TB/s', '--json']);
    expect(r.code).toBe(0);
    const [c] = JSON.parse(r.out).checks;
    expect(c.status).toBe('skipped');
    expect(Object.values(c.values).every((v) => Number.isFinite(v))).toBe(true);
  });
  it('accepts whole counts written with a suffix (8.03b parameters) and 0 context', async () => {
    const r = await run(['--per-user-tps', '100', '--total-tps', '1000', ...P8, '--params', '8.03b', '--gpus', '2', '--context', '0']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toMatch(/Infinity|NaN/);
  });
});
