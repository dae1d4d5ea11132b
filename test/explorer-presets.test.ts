/**
 * The explorer's presets, in Node: each one, run through the explorer's own
 * code path (src/explorer/run.ts), gives exactly what its experiment's own
 * function computes — the same draws, the same server, the same window.
 * Also: the URL form round-trips, and validation names the field.
 */
import { describe, expect, it } from 'vitest';
import { buildPresets, type Preset } from '../src/explorer/presets.ts';
import { activeKeys, defaultParams, fmtInt, fromQuery, lengthBounds, MAX_RECORDED_TOKENS, MAX_SPAN_S, parseValue, toQuery, validate, valueText, fieldOfError, type Params } from '../src/explorer/params.ts';
import { FIELDS, GROUPS, MAX_REQUESTS, rangeMessage, type NumberField } from '../src/explorer/fields.ts';
import { runExplorer, drawInputs, drawnOutputTokens, serverConfig, simulateRun } from '../src/explorer/run.ts';
import { config as fwConfig, runOne } from '../experiments/first-wave.ts';
import { config as mtConfig, metronomeRun } from '../experiments/metronome.ts';
import { config as dfConfig, definitionsRun } from '../experiments/definitions.ts';
import { cappedRun } from '../experiments/omission.ts';
import { closedPoint, openRun } from '../experiments/lib/sweep.ts';
import { createRng } from '../src/rng/index.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { linearPercentile, mean } from '../src/stats/index.ts';
import { formatPlain } from '../src/format/value.ts';
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
    // The Figure 6 run shows its seven definitions too (its longest possible outputs would exceed the page's limit; its drawn ones do not).
    expect(got.speedsNote).toBeNull();
    expect(got.speeds!.rows.filter((r) => r.primary)).toHaveLength(7);
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

describe('the page’s limit on recorded tokens', () => {
  it('holds on the tokens a run emits: every preset fits, the Figure 6 one only by its drawn lengths', () => {
    for (const p of presets) {
      const { workload } = drawInputs(p.params);
      expect(drawnOutputTokens(workload), p.id).toBeLessThanOrEqual(MAX_RECORDED_TOKENS);
    }
    // The open loop at the 64-slot rate could draw more than the limit at its longest lengths: a bound on the lengths would refuse it.
    const o = get('open-64').params;
    expect(o.requests * (lengthBounds(o, 'osl') as [number, number])[1]).toBeGreaterThan(MAX_RECORDED_TOKENS);
  });

  it('still refuses a run whose outputs would not fit, saying how many and what to change', () => {
    const base = defaultParams(1.25);
    const p: Params = { ...base, slots: 4096, requests: MAX_RECORDED_TOKENS / 1000 + 1, lengths: 'fixed', isl: 1, osl: 1000, maxNumSeqs: 4096, kvCapacityTokens: 10_000_000, tokenBudget: 1_048_576 };
    expect(validate(p)).toEqual({});
    const s = simulateRun(p);
    expect(s.sim).toBeNull();
    expect(s.result.speedsNote).toBe(`the per-token definitions need every token's time; this run emits ${fmtInt(p.requests * 1000)} output tokens, above the ${fmtInt(MAX_RECORDED_TOKENS)} a page can hold (fewer requests or shorter outputs)`);
    // One request fewer fits.
    expect(drawnOutputTokens(drawInputs({ ...p, requests: p.requests - 1 }).workload)).toBe(MAX_RECORDED_TOKENS);
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
    expect(bad({ etaCompute: 0 }).etaCompute).toBe('compute efficiency must be from 0.01 to 1');
  });

  it('refuses values a double cannot run on: 1e-300 as a factor or an efficiency, 1e309 as a rate', () => {
    expect(bad({ inflation: 1e-300 }).inflation).toBe('the Llama 2 factor must be from 0.1 to 10');
    expect(bad({ etaCompute: 1e-300 }).etaCompute).toBe('compute efficiency must be from 0.01 to 1');
    expect(bad({ etaMemory: 1e-300 }).etaMemory).toBe('bandwidth efficiency must be from 0.01 to 1');
    // A numeral beyond a double is not `inf`: it reads as no number, which the field refuses.
    expect(parseValue('rate', '1e309')).toBeNaN();
    expect(parseValue('rate', 'inf')).toBe(Infinity);
    expect(bad({ client: 'open', rate: parseValue('rate', '1e309') as number }).rate).toMatch(/^the rate must be above 0/);
    // The formatter writes what it cannot give 100 decimals to with an exponent, instead of throwing.
    expect(formatPlain(1e-300)).toBe('1.00e-300');
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

  // Open-loop rates whose run would not fit: refused beside the rate field, never run.
  const tooSlow: [number, number, RegExp][] = [
    [1e-20, 640, /^at 1\.00e-20 req\/s, 640 requests would arrive over about 2\.0e\+15 years; runs longer than 116 days are refused .* give at least 6\.40e-5 req\/s or fewer requests$/],
    [1e-300, 640, /^at 1\.00e-300 req\/s, 640 requests would arrive over about .*e\+\d+ years; runs longer than 116 days are refused/],
    [0.001, 50_000, /^at 0\.001 req\/s, 50,000 requests would arrive over about 2 years;/],
  ];
  for (const [rate, requests, message] of tooSlow) {
    it(`refuses an open-loop rate of ${rate} req/s for ${requests} requests beside the rate field`, () => {
      for (const client of ['open', 'capped'] as const) {
        const problems = bad({ client, rate, requests, lengths: 'fixed', isl: 100, osl: 100 });
        expect(problems.rate, client).toMatch(message);
        expect(Object.keys(problems)).toEqual(['rate']);
      }
      // A closed loop does not read the rate.
      expect(bad({ client: 'closed', rate, requests }).rate).toBeUndefined();
    });
  }
  it('accepts the slowest rate that fits, and refuses the next one down', () => {
    const lowest = 640 / MAX_SPAN_S;
    expect(bad({ client: 'open', rate: lowest, requests: 640 }).rate).toBeUndefined();
    expect(bad({ client: 'open', rate: lowest * 0.99, requests: 640 }).rate).toMatch(/refused/);
  });
});

describe('explorer fields: one record each', () => {
  it('the form shows every field once, grouped, in the record order', () => {
    expect(GROUPS.flatMap((g) => g.fields.map((f) => f.key))).toEqual(FIELDS.map((f) => f.key));
    expect(new Set(FIELDS.map((f) => f.key)).size).toBe(FIELDS.length);
    expect(GROUPS.every((g) => g.fields.length > 0)).toBe(true);
  });
  it('defaults come from the records and are valid; every field round-trips through its text and the URL', () => {
    const d = defaultParams(1.25);
    expect(Object.keys(d)).toEqual(FIELDS.map((f) => f.key));
    expect(validate(d)).toEqual({});
    for (const f of FIELDS) expect(parseValue(f.key, valueText(f.key, d[f.key])), f.key).toEqual(d[f.key]);
    const every: Params = { ...d, client: 'capped', lengths: 'vllm', ratio: 0.5 };
    expect(activeKeys(every)).toEqual(FIELDS.filter((f) => f.key !== 'slots').map((f) => f.key));
    expect(fromQuery(toQuery(every), d).params).toEqual(every);
  });
  it('each number field refuses values just outside its bounds with its own message, and accepts its bounds', () => {
    const d = defaultParams(1.25);
    const numbers = FIELDS.filter((f): f is NumberField => f.kind === 'number' && Number.isFinite(f.min) && Number.isFinite(f.max));
    for (const f of numbers) {
      const p = (v: number): Params => ({ ...d, client: f.key === 'cap' ? 'capped' : f.key === 'rate' ? 'open' : d.client, warmup: 0, cooldown: 0, requests: f.key === 'warmup' || f.key === 'cooldown' ? MAX_REQUESTS : d.requests, [f.key]: v });
      const below = f.aboveMin ? f.min : f.min - (f.integer ? 1 : 1e-9);
      expect(validate(p(below))[f.key], `${f.key} = ${below}`).toBe(rangeMessage(f));
      expect(validate(p(f.max * 2 + 1))[f.key], `${f.key} above max`).toBe(f.aboveMax ?? rangeMessage(f));
      if (f.integer) expect(validate(p(f.min + 0.5))[f.key], `${f.key} fractional`).toBe(rangeMessage(f));
      if (!['requests', 'warmup', 'cooldown', 'kvCapacityTokens', 'isl', 'osl', 'rate'].includes(f.key)) {
        expect(validate(p(f.max))[f.key], `${f.key} = max`).toBeUndefined();
      }
    }
  });
  it('maps the simulator’s errors to their field through the records', () => {
    expect(fieldOfError('request 0 (isl 16, osl 20, cached 0) needs 9 KV blocks but the pool holds 1; raise kvCapacityTokens')).toBe('kvCapacityTokens');
    expect(fieldOfError('client.cap is 0; it must be an integer ≥ 1')).toBe('cap');
    expect(fieldOfError('workload.osl[3] is 0')).toBe('osl');
    expect(fieldOfError('something else')).toBeNull();
  });
});
