/**
 * The explorer's presets, in Node: each one, run through the explorer's own
 * code path (src/explorer/run.ts), gives exactly what its experiment's own
 * function computes — the same draws, the same server, the same window.
 * Also: the URL form round-trips, and validation names the field.
 */
import { describe, expect, it } from 'vitest';
import { buildPresets, type Preset } from '../src/explorer/presets.ts';
import { defaultParams, fromQuery, toQuery, validate, fieldOfError, type Params } from '../src/explorer/params.ts';
import { runExplorer, drawInputs, serverConfig } from '../src/explorer/run.ts';
import { config as fwConfig, runOne } from '../experiments/first-wave.ts';
import { config as mtConfig, metronomeRun } from '../experiments/metronome.ts';
import { config as dfConfig, definitionsRun } from '../experiments/definitions.ts';
import { cappedRun } from '../experiments/omission.ts';
import { closedPoint, openRun } from '../experiments/lib/sweep.ts';
import { createRng } from '../src/rng/index.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { linearPercentile, mean } from '../src/stats/index.ts';
import requestCount from '../experiments/request-count.ts';
import allAtOnce from '../experiments/all-at-once.ts';
import openClosed from '../experiments/open-closed.ts';
import omission from '../experiments/omission.ts';

const presets = buildPresets(1.25);
const get = (id: string): Preset => {
  const p = presets.find((x) => x.id === id);
  if (!p) throw new Error(`no preset ${id}`);
  return p;
};
const p99 = (x: ArrayLike<number>) => linearPercentile(x, 0.99);

describe('explorer presets reproduce their experiments', () => {
  it('every preset is valid and survives the URL round trip', () => {
    expect(presets.map((p) => p.id)).toEqual([
      'first-wave', 'first-wave-after', 'request-count', 'all-at-once', 'metronome-fixed', 'metronome-ranged',
      'closed-64', 'open-64', 'omission-90', 'omission-150', 'definitions',
    ]);
    for (const p of presets) {
      expect(validate(p.params), p.id).toEqual({});
      const back = fromQuery(toQuery(p.params), defaultParams(7));
      expect(back.found).toBe(true);
      // Fields a configuration does not read are left at the defaults; compare those it reads.
      expect(toQuery(back.params), p.id).toBe(toQuery(p.params));
      expect(p.section, p.id).not.toBeNull();
    }
  });

  it('first wave: the same p99 (from send) and the same p99 after the wave as runOne', () => {
    const f = fwConfig.figure;
    const want = runOne(fwConfig, { slots: f.slots, multiplier: f.multiplier, seed: f.seed }, createRng(f.seed));
    expect(runExplorer(get('first-wave').params).p99Send.value).toBe(want.p99AllMs);
    expect(runExplorer(get('first-wave-after').params).p99Send.value).toBe(want.p99AfterMs);
  });

  it('metronome: fixed and ranged steady-state p99 and median as metronomeRun', () => {
    for (const lengths of ['fixed', 'ranged'] as const) {
      const want = metronomeRun(mtConfig, { lengths, seed: mtConfig.seeds[0] }, createRng(mtConfig.seeds[0]));
      const got = runExplorer(get(`metronome-${lengths}`).params);
      expect(got.p99Send.value).toBe(want.p99Ms);
      expect(got.medianSendMs).toBe(want.medianMs);
      expect(got.p99Send.n).toBe(want.n);
    }
  });

  it('open vs closed at 64 slots: the closed point’s steady window and the open run’s kept window', () => {
    const cp = closedPoint(64);
    const closed = runExplorer(get('closed-64').params);
    expect(closed.p99Send.value).toBe(p99(cp.ttftMs));
    expect(closed.p99Send.n).toBe(cp.ttftMs.length);
    const o = get('open-64').params;
    expect(o.rate).toBe(cp.rate);
    const want = openRun(cp.rate, openClosed.config.openRequests, openClosed.config.seeds[0]);
    const got = runExplorer(o);
    expect(got.p99Send.value).toBe(p99(want.ttftMs));
    expect(got.p99Send.n).toBe(want.ttftMs.length);
  });

  it('coordinated omission at 90% and 150%: p99 from send and from due as cappedRun', () => {
    const c = omission.config;
    const capacity = closedPoint(c.cap).rate;
    for (const load of [90, 150]) {
      const want = cappedRun((capacity * load) / 100, c.cap, c.requests, c.seeds[0]);
      const got = runExplorer(get(`omission-${load}`).params);
      expect(got.p99Send.value).toBe(p99(want.ttftSendMs));
      expect(got.p99Due.value).toBe(p99(want.ttftDueMs));
      expect(got.dueDiffers).toBe(true);
    }
  });

  it('request count and all at once: the experiments’ runs', () => {
    const rc = requestCount.config;
    const slots = Math.max(...rc.concurrency);
    const n = slots * 3;
    const r = simulate(defaultServerConfig(), { isl: fixedLengths(n, rc.isl), osl: fixedLengths(n, rc.osl) }, { kind: 'closed', slots });
    const ttft = Float64Array.from({ length: n }, (_, i) => (r.firstT[i] - r.sendT[i]) * 1000);
    expect(runExplorer(get('request-count').params).meanSendMs).toBe(mean(ttft));
    const aa = allAtOnce.config;
    const r2 = simulate(defaultServerConfig(), { isl: fixedLengths(aa.prompts, aa.isl), osl: fixedLengths(aa.prompts, aa.osl) }, { kind: 'open', times: new Float64Array(aa.prompts) });
    const t2 = Float64Array.from({ length: aa.prompts }, (_, i) => (r2.firstT[i] - r2.sendT[i]) * 1000);
    expect(runExplorer(get('all-at-once').params).p99Send.value).toBe(p99(t2));
  });

  it('definitions: the seven per-user speeds equal definitionsRun’s (LLMPerf factor 1)', () => {
    const want = definitionsRun(dfConfig).rows;
    const got = runExplorer({ ...get('definitions').params, inflation: 1 }).speeds!.rows;
    expect(got.map((r) => [r.tool, r.metric, r.tokPerS])).toEqual(want.map((r) => [r.tool, r.metric, r.tokPerS]));
    expect(got.filter((r) => r.primary).length).toBe(7);
  });
});

describe('explorer inputs', () => {
  const base = defaultParams(1.25);
  const bad = (over: Partial<Params>) => validate({ ...base, ...over });

  it('names the field and its range', () => {
    expect(bad({ slots: 0 }).slots).toBe('slots must be an integer from 1 to 4,096');
    expect(bad({ slots: 2.5 }).slots).toMatch(/integer/);
    expect(bad({ requests: 500_001 }).requests).toMatch(/above 500,000 requests are refused/);
    expect(bad({ client: 'open', rate: -1 }).rate).toMatch(/above 0/);
    expect(bad({ client: 'open', rate: Infinity }).rate).toBeUndefined();
    expect(bad({ warmup: 640 }).warmup).toMatch(/at least one request/);
    expect(bad({ lengths: 'vllm', ratio: 1 }).ratio).toMatch(/vLLM range ratio/);
    expect(bad({ etaCompute: 0 }).etaCompute).toMatch(/fraction/);
  });

  it('refuses a KV pool too small for the longest request, saying how large it must be', () => {
    const msg = bad({ kvCapacityTokens: 1000 }).kvCapacityTokens!;
    expect(msg).toMatch(/raise it to at least 2,048 tokens/);
    // The simulator's own RangeError maps to the same field.
    const p = { ...base, kvCapacityTokens: 1000 };
    let err = '';
    try { simulate(serverConfig(p), drawInputs(p).workload, drawInputs(p).client); } catch (e) { err = (e as Error).message; }
    expect(fieldOfError(err)).toBe('kvCapacityTokens');
  });

  it('reads a query with an infinite rate and leaves unknown keys alone', () => {
    const { params } = fromQuery('?client=open&rate=inf&requests=12&junk=1', base);
    expect(params.rate).toBe(Infinity);
    expect(params.requests).toBe(12);
    expect(fromQuery('?slots=abc', base).params.slots).toBeNaN();
  });
});
