/**
 * The shared series the tools read (src/tools/base/series.ts) and the ways they
 * are built faster without changing a bit: a simulated run's pooled chunk
 * gaps counted on its step clock (src/tools/sim/step-gaps.ts) instead of
 * sorted, a run of equal values summed in a few steps (src/stats/repeated-sum.ts),
 * the maximum of a sorted series read off its end, GuideLLM's weighted
 * percentiles merged without a comparator sort, a definition collected once
 * per list of records and shared. Each is held equal, to the
 * last bit, to the plain computation it replaces.
 */
import { describe, expect, it } from 'vitest';
import { defaultParams, type Params } from '../src/explorer/params.ts';
import { simulateRun, speedsOf } from '../src/explorer/run.ts';
import { aiperfMetrics, fromSimResult, inferencexMetrics, perUserSpeeds, sglangMetrics, vllmMetrics, type BenchmarkRun, type RequestRecord } from '../src/metrics/index.ts';
import { collect, collectAll, medianOf, none, some, summarize, withOption } from '../src/tools/base/definitions.ts';
import { countAbove, largest, pooledChunkGaps, pooledChunkGapsFrom, seriesRuns } from '../src/tools/base/series.ts';
import { gapTallyOnStepClock } from '../src/tools/sim/step-gaps.ts';
import { addRepeated } from '../src/stats/repeated-sum.ts';
import { runsOf } from '../src/stats/runs.ts';
import { sortAsc, weightedPercentiles } from '../src/stats/percentile.ts';
import { expectEqual } from './helpers/same.ts';

/** The explorer's run of these parameters, kept whole (no warm-up or cool-down left out). */
function simulated(over: Partial<Params>) {
  const p: Params = { ...defaultParams(1), warmup: 0, cooldown: 0, ...over };
  return { p, s: simulateRun(p) };
}

/** The run, its gaps counted on the step clock (withClock) or sorted the ordinary way (neither counted on the clock nor as repeats). */
function runOf(s: ReturnType<typeof simulateRun>, p: Params, withClock: boolean, window?: { from: number; to: number }): BenchmarkRun {
  const client = p.client === 'closed' ? s.client : { kind: p.client, cap: p.cap, rate: p.rate };
  const run = fromSimResult(s.sim!, { client, requestRate: p.client === 'closed' ? undefined : p.rate, requests: window ?? { from: 0, to: p.requests }, ...(withClock ? { stepEnds: s.stepEnds } : {}) });
  if (!withClock) pooledChunkGapsFrom(run, () => null);
  return run;
}

/** Every statistic of every tool that reads the pooled gaps, and the seven per-user speeds, as exact text. */
function everything(run: BenchmarkRun, p: Params): string {
  return JSON.stringify([perUserSpeeds(run, { llama2Inflation: p.inflation }), vllmMetrics(run, { percentiles: [50, 90, 99, 99.9] }), sglangMetrics(run), inferencexMetrics(run), aiperfMetrics(run)]);
}

/** The doubles' bit patterns (a series may be a view of runs: read it into an array first). */
const bits = (values: ArrayLike<number>) => {
  const a = Float64Array.from(values);
  return Array.from(new Uint32Array(a.buffer));
};

describe('pooled chunk gaps counted on the step clock', () => {
  // a pool too small for the batch: requests are preempted and recomputed, so some gaps span many steps
  const cases: [string, Partial<Params>][] = [
    ['a closed loop', { client: 'closed', slots: 32, requests: 160, lengths: 'inferencex', isl: 512, osl: 256, ratio: 0.5 }],
    ['a closed loop with preemptions', { client: 'closed', slots: 64, requests: 192, lengths: 'fixed', isl: 256, osl: 512, kvCapacityTokens: 16_384 }],
    ['an open loop past capacity, a small token budget', { client: 'open', rate: 40, requests: 300, lengths: 'vllm', isl: 400, osl: 200, ratio: 0.5, tokenBudget: 512 }],
  ];
  for (const [name, over] of cases) {
    it(`${name}: the same sorted gaps, bit for bit, and every statistic of every tool the same`, () => {
      const { p, s } = simulated(over);
      const plain = runOf(s, p, false);
      const clocked = runOf(s, p, true);
      const a = pooledChunkGaps(plain);
      const b = pooledChunkGaps(clocked);
      expect(a.length).toBeGreaterThan(1000);
      // the statistics first: the per-user speeds' one order statistic (vLLM's median) is selected from the tally, before anything sorts it
      expect(everything(clocked, p)).toBe(everything(runOf(s, p, false), p));
      expectEqual(bits(b), bits(a));
      if (name.includes('preemptions')) expect(s.result.preemptions).toBeGreaterThan(0);
    });
  }

  it('a window of the run (warm-up and cool-down left out) counts only its requests', () => {
    const { p, s } = simulated(cases[0][1]);
    const w = { from: 32, to: 128 };
    expectEqual(bits(pooledChunkGaps(runOf(s, p, true, w))), bits(pooledChunkGaps(runOf(s, p, false, w))));
    expect(pooledChunkGaps(runOf(s, p, true, w)).length).toBeLessThan(pooledChunkGaps(runOf(s, p, true)).length);
  });

  it('a token time that is no step end: no runs, and the gaps are sorted the ordinary way', () => {
    const { p, s } = simulated(cases[0][1]);
    const tt = s.sim!.tokenTimes!;
    expect(gapTallyOnStepClock(tt.times, tt.offsets, 0, p.requests, s.stepEnds)).not.toBeNull();
    const hit = s.stepEnds.indexOf(tt.times[tt.offsets[0]]); // the step the first request's first token came at
    expect(hit).toBeGreaterThanOrEqual(0);
    const shifted = s.stepEnds.map((t, i) => (i === hit ? t + 1e-9 : t));
    expect(gapTallyOnStepClock(tt.times, tt.offsets, 0, p.requests, shifted)).toBeNull();
    const run = fromSimResult(s.sim!, { client: s.client, stepEnds: shifted });
    expectEqual(bits(pooledChunkGaps(run)), bits(pooledChunkGaps(runOf(s, p, false))));
  });

  it('steps whose lengths share their high word (long runs of one high word) and steps spread wide: runs equal to the sorted gaps', () => {
    // requests served on every step of a stretch of the clock: their gaps are those steps' lengths
    let seed = 7;
    const u = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const S = 20_000;
    const stepEnds = new Float64Array(S);
    // every third step 0.02 s give or take a nanosecond (one high word), the others anywhere from 1 ms to 1 s
    for (let s = 1; s < S; s++) stepEnds[s] = stepEnds[s - 1] + (s % 3 === 0 ? 0.02 + u() * 1e-9 : 10 ** (-3 + 3 * u()));
    const spans: [number, number][] = Array.from({ length: 40 }, (_, r) => [r * 211, S - 1 - r * 97]);
    const offsets = new Int32Array(spans.length + 1);
    spans.forEach(([a, b], r) => (offsets[r + 1] = offsets[r] + b - a + 1));
    const times = new Float64Array(offsets[spans.length]);
    spans.forEach(([a, b], r) => times.set(stepEnds.subarray(a, b + 1), offsets[r]));
    const tally = gapTallyOnStepClock(times, offsets, 0, spans.length, stepEnds)!;
    expect(tally).not.toBeNull();
    const runs = runsOf(tally);
    const gaps: number[] = [];
    for (let r = 0; r < spans.length; r++) for (let k = offsets[r] + 1; k < offsets[r + 1]; k++) gaps.push(times[k] - times[k - 1]);
    expect(runs.counts.reduce((n, k) => n + k, 0)).toBe(gaps.length);
    const expanded = Float64Array.from(Array.from(runs.values).flatMap((v, k) => Array<number>(runs.counts[k]).fill(v)));
    expect(Buffer.from(expanded.buffer).equals(Buffer.from(Float64Array.from(gaps).sort().buffer))).toBe(true);
    // distinct values, thousands of them next to one of the same high word
    const hi = new Uint32Array(runs.values.buffer, runs.values.byteOffset, 2 * runs.values.length).filter((_, i) => i % 2 === 1);
    expect(new Set(runs.values).size).toBe(runs.values.length);
    expect(hi.filter((h, i) => i > 0 && h === hi[i - 1]).length).toBeGreaterThan(1000);
    // requests whose first steps come in any order (each request's first step is searched from the one before it): the same runs
    for (const order of [spans.map((_, r) => spans.length - 1 - r), spans.map((_, r) => (r * 17) % spans.length)]) {
      const o = new Int32Array(spans.length + 1);
      order.forEach((r, k) => (o[k + 1] = o[k] + offsets[r + 1] - offsets[r]));
      const t = new Float64Array(times.length);
      order.forEach((r, k) => t.set(times.subarray(offsets[r], offsets[r + 1]), o[k]));
      const again = runsOf(gapTallyOnStepClock(t, o, 0, spans.length, stepEnds)!);
      expect(Buffer.from(again.values.buffer, again.values.byteOffset, again.values.byteLength).equals(Buffer.from(runs.values.buffer, runs.values.byteOffset, runs.values.byteLength))).toBe(true);
      expect(Array.from(again.counts)).toEqual(Array.from(runs.counts));
    }
  });

  it("the explorer's definitions read the clock it kept and give what the plain path gives", () => {
    const { p, s } = simulated({ ...cases[2][1], warmup: 30, cooldown: 30 });
    const rows = speedsOf(p, s)!.rows.map(({ toolName: _n, clock: _c, ...row }) => row);
    expect(JSON.stringify(rows)).toBe(JSON.stringify(perUserSpeeds(runOf(s, p, false, { from: 30, to: p.requests - 30 }), { llama2Inflation: p.inflation })));
  });
});

describe('pooled chunk gaps that repeat, counted from any source', () => {
  /** A vLLM-like run: each request's chunks `gap(i, k)` apart, from a send time on one clock. */
  function recorded(requests: number, chunks: number, gap: (i: number, k: number) => number): BenchmarkRun {
    const records: RequestRecord[] = [];
    for (let i = 0; i < requests; i++) {
      const sendT = 1000 + i * 0.0137;
      const c = new Float64Array(chunks);
      c[0] = sendT + 0.05 + (i % 7) * 0.001;
      for (let k = 1; k < chunks; k++) c[k] = c[k - 1] + gap(i, k);
      records.push({ dueT: null, sendT, chunkTimes: c, chunkTokens: null, firstT: c[0], finishT: c[chunks - 1], inputTokens: 100, outputTokens: chunks, ok: i % 50 !== 3, preemptions: null });
    }
    return { records, source: 'test', maxConcurrency: null, requestRate: null, startT: 1000, endT: records.reduce((m, r) => Math.max(m, r.finishT), 0) };
  }
  /** The same records in a run whose gaps are sorted, not counted. */
  const sortedTwin = (run: BenchmarkRun): BenchmarkRun => {
    const twin = { ...run, records: run.records.map((r) => ({ ...r })) };
    pooledChunkGapsFrom(twin, () => null);
    return twin;
  };
  const p = { inflation: 1.25 } as Params;
  const steps = [0.021, 0.0215, 0.0232, 0.0198, 0.14];

  it('few distinct gaps: runs, the same sorted gaps bit for bit, and every statistic of every tool the same', () => {
    const run = recorded(3000, 12, (i, k) => steps[(i * 3 + k) % steps.length]);
    const gaps = pooledChunkGaps(run);
    expect(seriesRuns(gaps)).not.toBeNull();
    expect(gaps.length).toBeGreaterThan(1 << 14);
    const twin = sortedTwin(run);
    const plain = pooledChunkGaps(twin);
    expect(seriesRuns(plain)).toBeNull();
    expectEqual(bits(gaps), bits(plain));
    expect(everything(run, p)).toBe(everything(twin, p));
    expect(countAbove(gaps, 0.1)).toBe(countAbove(Float64Array.from(plain), 0.1));
    expect(largest(gaps)).toBe(largest(Float64Array.from(plain)));
  });

  it('distinct gaps, a NaN or a −0 among them: sorted as before', () => {
    const distinct = recorded(3000, 12, (i, k) => 0.02 + ((i * 12 + k) % 9973) * 1e-7);
    expect(seriesRuns(pooledChunkGaps(distinct))).toBeNull();
    const nan = recorded(3000, 12, (i, k) => (i === 1700 && k === 5 ? NaN : steps[k % steps.length]));
    expect(seriesRuns(pooledChunkGaps(nan))).toBeNull();
    expect(everything(nan, p)).toBe(everything(sortedTwin(nan), p));
    const negZero = recorded(3000, 12, (_i, k) => steps[k % steps.length]);
    negZero.records[10].chunkTimes = Float64Array.of(-0, 0); // 0 − (−0) is +0; (−0) − 0 is −0
    negZero.records[11].chunkTimes = Float64Array.of(0, -0);
    expect(seriesRuns(pooledChunkGaps(negZero))).toBeNull();
  });

  it('a run of few gaps is sorted, whatever they repeat', () => {
    expect(seriesRuns(pooledChunkGaps(recorded(100, 12, () => 0.02)))).toBeNull();
  });
});

describe('addRepeated: count additions of one value, without the loop', () => {
  const loop = (s: number, x: number, c: number) => {
    for (let j = 0; j < c; j++) s += x;
    return s;
  };
  it('gives the double the loop gives: ties, crossings of powers of two, sums below the value, values below half an ulp', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const cases: [number, number, number][] = [
      [1, 2 ** -53, 100], // exactly half an ulp: ties to even, the sum never moves
      [1, 3 * 2 ** -53, 100], // halfway every time, rounding alternates
      [0, 0.1, 5000],
      [-0, -0, 3],
      [5, -1, 4], // negative: added one by one
      [1e300, 1e300, 10],
      [0, 5e-324, 1000],
      [2 ** 52, 0.75, 500],
    ];
    for (let i = 0; i < 4000; i++) {
      const c = Math.floor(rnd() ** 2 * 3000);
      const k = i % 4;
      if (k === 0) cases.push([rnd() * 1000, rnd() * 10, c]);
      else if (k === 1) cases.push([2 ** Math.floor(rnd() * 40 - 20), 2 ** Math.floor(rnd() * 60 - 50) * (1 + Math.floor(rnd() * 8) / 8), c]);
      else if (k === 2) cases.push([rnd() * 1e6, rnd() * 1e-9, c]);
      else cases.push([0, rnd() * 50, c]);
    }
    const wrong = cases.filter(([s, x, c]) => !Object.is(addRepeated(s, x, c), loop(s, x, c)));
    expect(wrong).toEqual([]);
  });
});

describe('largest', () => {
  it('is what a pass of v > max finds, for a shared sorted series and for any array', () => {
    const { p, s } = simulated({ client: 'closed', slots: 8, requests: 16, lengths: 'fixed', isl: 64, osl: 32 });
    const gaps = pooledChunkGaps(runOf(s, p, true)); // a view of the runs the step clock counted
    let max = -Infinity;
    for (const g of Float64Array.from(gaps)) if (g > max) max = g;
    expect(largest(gaps)).toBe(max);
    expect(largest(pooledChunkGaps(runOf(s, p, false)))).toBe(max);
    expect(largest([3, NaN, 7, 1])).toBe(7);
    expect(largest([])).toBe(-Infinity);
    expect(Object.is(largest(sortAsc([-0, 0])), -0)).toBe(true); // not a shared series: the pass keeps the first zero
  });
});

describe('weightedPercentiles without the comparator sort', () => {
  /** The merge as it was: indices sorted by value (stable), duplicates merged in that order. */
  function reference(values: number[], ps: number[], weights?: number[]): number[] {
    const idx = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
    const v: number[] = [];
    const w: number[] = [];
    let total = 0;
    for (const i of idx) {
      const wi = weights ? weights[i] : 1;
      total += wi;
      if (v.length > 0 && v[v.length - 1] === values[i]) w[w.length - 1] += wi;
      else {
        v.push(values[i]);
        w.push(wi);
      }
    }
    if (!(total > 0)) return ps.map(() => NaN);
    const order = ps.map((_, j) => j).sort((a, b) => ps[a] - ps[b]);
    const out = ps.map(() => v[v.length - 1]);
    let j = 0;
    let cum = 0;
    for (let k = 0; k < v.length && j < order.length; k++) {
      cum += w[k] / total;
      while (j < order.length && cum >= ps[order[j]]) out[order[j++]] = v[k];
    }
    return out;
  }
  it('gives what the ordered merge gives: ties, −0 and +0, infinities, weights of one, token weights, fractional weights (the ordered merge itself)', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const ps = [0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1];
    for (let t = 0; t < 200; t++) {
      const n = 1 + Math.floor(rnd() * 300);
      const pool = [-0, 0, Infinity, -Infinity, 1, 2.5, ...Array.from({ length: 20 }, () => rnd() * 100)];
      const values = Array.from({ length: n }, () => (rnd() < 0.5 ? pool[Math.floor(rnd() * pool.length)] : rnd() * 100));
      // none, GuideLLM's weights of one (counted per distinct value), token counts, fractions
      const weights = t % 4 === 0 ? undefined : t % 4 === 3 ? new Array<number>(n).fill(1) : Array.from({ length: n }, () => (t % 4 === 1 ? Math.floor(rnd() * 500) : rnd() * 3));
      const got = weightedPercentiles(values, ps, weights);
      const want = reference(values, ps, weights);
      expect(got.map((x) => (Object.is(x, -0) ? '-0' : x))).toEqual(want.map((x) => (Object.is(x, -0) ? '-0' : x)));
    }
  });

  it('gives what the ordered merge gives on large series with token weights (buckets sorted by their low bits, negative values, zeros of both signs)', () => {
    let seed = 12;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const ps = [0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1];
    for (const [n, spread] of [[50_000, 1e-3], [50_000, 1e6], [3_000, 10]] as const) {
      const values = Array.from({ length: n }, (_, i) => (i % 97 === 0 ? -0 : i % 89 === 0 ? 0 : i % 83 === 0 ? -rnd() * spread : i % 5 === 0 ? Math.round(rnd() * 20) : 17 + rnd() * spread));
      const weights = Array.from({ length: n }, () => Math.floor(rnd() * 500));
      const got = weightedPercentiles(values, ps, weights);
      const want = reference(values, ps, weights);
      expect(got.map((x) => (Object.is(x, -0) ? '-0' : x)), `n = ${n}, spread ${spread}`).toEqual(want.map((x) => (Object.is(x, -0) ? '-0' : x)));
    }
  });
});

describe('a definition collected once per list of records', () => {
  it('gives the first collection again for the same function and records, and a new one for more records or another function', () => {
    const { p, s } = simulated({ requests: 300 });
    const run = runOf(s, p, false);
    const recs = [...run.records];
    const ttft = (r: RequestRecord) => (r.firstT === null ? none('no first token') : some(r.firstT - r.sendT));
    const first = collect(recs, ttft);
    expect(collect(recs, ttft)).toBe(first);
    expect(collect(recs, (r) => ttft(r))).not.toBe(first);
    expect(collect(recs, (r) => ttft(r))).toStrictEqual(first);
    expect(summarize(first.values, { unit: 'ms', percents: [99] })).toStrictEqual(summarize([...first.values], { unit: 'ms', percents: [99] }));
    recs.push({ ...recs[0], sendT: recs[0].sendT - 1 });
    const more = collect(recs, ttft);
    expect(more.values.length).toBe(first.values.length + 1);
    expect(more.values[more.values.length - 1]).toBe(first.values[0] + 1);
  });
  it('several definitions in one pass: what each alone gives; equal values shared as one series, summarised as separate copies are', () => {
    const { p, s } = simulated({ requests: 300 });
    const recs = [...runOf(s, p, false).records];
    const ttft = (r: RequestRecord) => (r.firstT === null ? none('no first token') : some(r.firstT - r.sendT));
    const same = (r: RequestRecord) => (r.firstT === null ? none('none at all') : some(r.firstT - r.sendT));
    const e2e = (r: RequestRecord) => (r.sendT > recs[150].sendT ? none('late') : some(r.finishT - r.sendT));
    const negZero = (r: RequestRecord) => some(r === recs[7] ? -0 : r.firstT! - r.firstT!); // +0 everywhere but one −0
    const zero = (r: RequestRecord) => some(r.firstT! - r.firstT!);
    const [a, b, c, d, z] = collectAll(recs, [ttft, same, e2e, negZero, zero]);
    const alone = (f: (r: RequestRecord) => ReturnType<typeof ttft>) => collect([...recs], f);
    for (const [got, f] of [[a, ttft], [b, same], [c, e2e], [d, negZero], [z, zero]] as const) expect(got).toStrictEqual(alone(f));
    expect(collect(recs, ttft)).toBe(a); // kept, as collect() keeps it
    expect(b.values).toBe(a.values); // the same numbers: one array, one sort
    expect(b.excluded).toBe(a.excluded?.replace('no first token', 'none at all'));
    expect(d.values).not.toBe(z.values); // −0 is not +0
    expect(Object.is(d.values[7], -0)).toBe(true);
    const opts = { unit: 'ms' as const, percents: [1, 50, 90, 99, 99.9] };
    for (const x of [a, b, c, d, z]) {
      expect(summarize(x.values, opts)).toStrictEqual(summarize(Float64Array.from(x.values), opts));
      expect(summarize(x.values, { ...opts, unit: 's', ddof: 1 })).toStrictEqual(summarize([...x.values], { ...opts, unit: 's', ddof: 1 }));
      expect(medianOf(x.values, { unit: 'ms' })).toBe(medianOf([...x.values], { unit: 'ms' }));
    }
    expect(a.values.length).toBe(recs.length);
    expect(c.values.length).toBeLessThan(recs.length);
  });

  it('one function per definition and option', () => {
    const tpot = (r: RequestRecord, o: 'a' | 'b') => some(o === 'a' ? r.sendT : r.finishT);
    expect(withOption(tpot, 'a')).toBe(withOption(tpot, 'a'));
    expect(withOption(tpot, 'a')).not.toBe(withOption(tpot, 'b'));
    const r = fromSimResult(simulated({ requests: 5 }).s.sim!, {}).records[0];
    expect(withOption(tpot, 'b')(r)).toStrictEqual(tpot(r, 'b'));
  });
});
