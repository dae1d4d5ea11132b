/**
 * The constants, the roofline checks of docs/model.md ("Checks"), and the workload draws.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/rng/index.ts';
import {
  CONSTANTS,
  CONSTANTS_TABLE,
  defaultServerConfig,
  inferencexBounds,
  inferencexLengths,
  poissonTimes,
  sglangBounds,
  sglangLengths,
  simulate,
  stepTime,
  vllmRangeBounds,
  vllmRangeLengths,
  withOverrides,
} from '../src/sim/index.ts';

const cfg = defaultServerConfig();
const ms = (s: number) => Math.round(s * 1e4) / 10; // seconds → ms, one decimal

describe('constants', () => {
  it('derives the model numbers of §0', () => {
    const m = cfg.model;
    expect(m.kvBytesPerToken).toBe(131_072);
    expect(m.lmHeadParams).toBe(525_336_576);
    expect(m.bodyParams).toBe(6_979_588_096);
    expect(m.streamedWeightBytes).toBe(15_009_849_344);
    expect(cfg.kvCapacityTokens).toBe(430_000);
    expect(cfg.tokenBudget).toBe(8192);
    expect(cfg.maxNumSeqs).toBe(1024);
    expect(cfg.blockSize).toBe(16);
  });

  it('gives every constant a unit, a source and a grade; derived ones are graded C', () => {
    for (const row of CONSTANTS_TABLE) {
      expect(row.unit.length, row.name).toBeGreaterThan(0);
      expect(row.source.length, row.name).toBeGreaterThan(0);
      expect(['A', 'B', 'C', 'D']).toContain(row.grade);
    }
    for (const k of ['bodyParams', 'lmHeadParams', 'streamedWeightBytes', 'kvBytesPerToken'] as const) {
      expect(CONSTANTS[k].grade).toBe('C');
    }
  });

  it('applies overrides without touching the base', () => {
    const o = withOverrides({ etaCompute: 0.6, kvCapacityTokens: 300_000, tokenBudget: 2048, stepOverheadS: 0.002 });
    expect(o.hw.etaCompute).toBe(0.6);
    expect(o.hw.stepOverheadS).toBe(0.002);
    expect(o.kvCapacityTokens).toBe(300_000);
    expect(o.tokenBudget).toBe(2048);
    expect(o.hw.etaMemory).toBe(0.85);
    expect(defaultServerConfig().hw.etaCompute).toBe(0.75);
    expect(() => withOverrides({ etaMemory: 0 })).toThrow(/etaMemory/);
    expect(() => withOverrides({ tokenBudget: 1.5 })).toThrow(/tokenBudget/);
  });
});

describe('roofline checks of §0', () => {
  it('batch-one decode: 6.3 ms (158 tok/s)', () => {
    const c0 = 1024;
    const dt = stepTime(cfg, 1, 1, c0 + 1, 0, c0);
    expect(ms(dt)).toBe(6.3);
    expect(Math.round(1 / dt)).toBe(158);
  });

  it('a 1,024-token prefill: 20.6 ms', () => {
    expect(ms(stepTime(cfg, 1024, 1, 0, (1024 * 1025) / 2, 0))).toBe(20.6);
  });

  it('eight 1,024-token prompts in one step: 158 ms, about 52,000 tok/s', () => {
    const dt = stepTime(cfg, 8192, 8, 0, (8 * 1024 * 1025) / 2, 0);
    expect(Math.round(dt * 1000)).toBe(158);
    expect(Math.round(8192 / dt / 1000)).toBe(52);
  });

  it('the engine reproduces them: one request, then eight at once', () => {
    const one = simulate(cfg, { isl: [1024], osl: [3] }, { kind: 'open', times: [0] }, { recordSteps: true });
    const tr = one.stepTrace!;
    expect(ms(tr.dt[0])).toBe(20.6);
    expect(ms(tr.dt[1])).toBe(6.3);
    const eight = simulate(cfg, { isl: new Array(8).fill(1024), osl: new Array(8).fill(1) }, { kind: 'closed', slots: 8 });
    expect(eight.steps).toBe(1);
    expect(Math.round(eight.makespan * 1000)).toBe(158);
  });
});

describe('workloads', () => {
  it('uses each tool\'s bounds', () => {
    expect(inferencexBounds(1024, 0.8)).toEqual([819, 1024]);
    expect(sglangBounds(1024, 0.8)).toEqual([819, 1024]);
    expect(sglangBounds(1024, 0)).toEqual([1, 1024]);
    expect(vllmRangeBounds(1024, 0)).toEqual([1024, 1024]);
    expect(vllmRangeBounds(1024, 0.2)).toEqual([819, 1229]);
    expect(vllmRangeBounds(128, 0.5)).toEqual([64, 192]);
    expect(() => vllmRangeBounds(1024, 1)).toThrow(/range ratio/);
    expect(() => inferencexBounds(1024, 0)).toThrow(/0-token/);
  });

  it('draws uniform integers inside the bounds, reproducibly, covering both ends', () => {
    const a = inferencexLengths(new Rng(7), 20_000, 1024, 0.8);
    const b = inferencexLengths(new Rng(7), 20_000, 1024, 0.8);
    expect(a).toEqual(b);
    expect(Math.min(...a)).toBe(819);
    expect(Math.max(...a)).toBe(1024);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    expect(Math.abs(mean - 921.5)).toBeLessThan(1.5);
    const v = vllmRangeLengths(new Rng(1), 5000, 100, 0.5);
    expect(Math.min(...v)).toBe(50);
    expect(Math.max(...v)).toBe(150);
    const s = sglangLengths(new Rng(1), 5000, 10, 0);
    expect(Math.min(...s)).toBe(1);
    expect(Math.max(...s)).toBe(10);
  });

  it('draws Poisson arrivals: increasing, mean gap 1/rate', () => {
    const t = poissonTimes(new Rng(3), 50_000, 12);
    let sorted = true;
    for (let i = 1; i < t.length; i++) if (t[i] < t[i - 1]) sorted = false;
    expect(sorted).toBe(true);
    expect(t[0]).toBeGreaterThan(0);
    expect(Math.abs(t[t.length - 1] / t.length - 1 / 12)).toBeLessThan(0.002);
    expect(() => poissonTimes(new Rng(3), 3, 0)).toThrow(/rate/);
  });
});
