import { describe, expect, it } from 'vitest';
import {
  linearPercentile, mlperfPercentile, weightedPercentile, nearestPercentile, std,
  probMaxExceeds, minSamplesForMaxBound, quantileIntervalRanks, upperBoundRank,
  earlyStoppingMinUnder, mlperfEarlyStopping, wilsonInterval, fisherExact, autocorrelation,
  percentileWithInterval, windowVsIid, sglangSteadyWindow, guidellmWindow, overlapping, afterFirstWave,
  binomialCdf,
  binomialPmf,
} from '../src/stats/index.ts';
import { Rng, createRng } from '../src/rng/index.ts';
import { twoModes } from '../src/stats/modes.ts';
import { expectStrictEqual } from './helpers/same.ts';

const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];

describe('percentile methods', () => {
  it('numpy linear: index p(n−1), interpolated', () => {
    expect(linearPercentile(ten, 0.99)).toBeCloseTo(9.91, 12);
    expect(linearPercentile(ten, 0.5)).toBe(5.5);
    expect(linearPercentile([7], 0.99)).toBe(7);
  });
  it('MLPerf: sorted[floor(n·p)]', () => {
    expect(mlperfPercentile(ten, 0.99)).toBe(10);
    expect(mlperfPercentile(ten, 0.5)).toBe(6);
    expect(mlperfPercentile(ten, 0.9)).toBe(10);
  });
  it('GuideLLM: smallest value with cumulative weight ≥ q', () => {
    expect(weightedPercentile(ten, 0.5)).toBe(5);
    expect(weightedPercentile([1, 2, 3], 0.5, [1, 1, 2])).toBe(2);
    expect(weightedPercentile([1, 2, 3], 0.51, [1, 1, 2])).toBe(3);
    expect(weightedPercentile([2, 2, 1], 0.5, [1, 1, 2])).toBe(1); // duplicates merged
  });
  it('numpy nearest rounds half to even', () => {
    expect(nearestPercentile(ten, 0.5)).toBe(5); // h = 4.5 → 4
    expect(nearestPercentile([1, 2, 3, 4], 0.5)).toBe(3); // h = 1.5 → 2
  });
  it('std ddof 0 (numpy) vs 1 (pandas)', () => {
    expect(std([1, 2, 3, 4], 0)).toBeCloseTo(Math.sqrt(1.25), 12);
    expect(std([1, 2, 3, 4], 1)).toBeCloseTo(Math.sqrt(5 / 3), 12);
  });
  it('does not mutate its input', () => {
    const x = [3, 1, 2];
    linearPercentile(x, 0.5);
    expect(x).toEqual([3, 1, 2]);
  });
});

describe('exact order statistics', () => {
  it('the maximum bounds p99 one-sided at 95% only from n = 299', () => {
    expect(minSamplesForMaxBound(0.99, 0.95)).toBe(299);
    expect(probMaxExceeds(298, 0.99)).toBeLessThan(0.95);
    expect(probMaxExceeds(299, 0.99)).toBeGreaterThanOrEqual(0.95);
  });
  it('n = 100: P(max > true p99) = 0.634', () => {
    expect(probMaxExceeds(100, 0.99)).toBeCloseTo(0.634, 3);
    expect(upperBoundRank(100, 0.99, 0.95)).toBeNull();
  });
  it('p99.9 needs 2,995', () => {
    expect(minSamplesForMaxBound(0.999, 0.95)).toBe(2995);
  });
  it('n = 1,000: equal-tailed 95% interval of p99 = ranks 983..997', () => {
    const r = quantileIntervalRanks(1000, 0.99, 0.95);
    expect([r.lower, r.upper]).toEqual([983, 997]);
    expect(r.coverage).toBeGreaterThanOrEqual(0.95);
    // each tail ≤ 2.5%, and one rank further in would break it
    const pmf = binomialPmf(1000, 0.99);
    let below = 0;
    for (let k = 0; k <= 982; k++) below += pmf[k];
    expect(below).toBeLessThanOrEqual(0.025);
    expect(below + pmf[983]).toBeGreaterThan(0.025);
  });
  it('is fast and finite at 160,000', () => {
    const r = quantileIntervalRanks(160_000, 0.99, 0.95);
    expect(r.lower).toBeGreaterThan(158_000);
    expect(r.upper).toBeLessThan(160_000);
    expect(Number.isFinite(r.coverage)).toBe(true);
  });
  it('the cdf and survival function are the sums of the whole pmf, to the last bit, though only its non-zero part is kept', () => {
    /** The whole table by the same recurrence, every entry of n + 1 kept (how the pmf was built before it was windowed). */
    const wholePmf = (n: number, p: number): Float64Array => {
      const pmf = new Float64Array(n + 1);
      if (p === 0 || p === 1) {
        pmf[p === 0 ? 0 : n] = 1;
        return pmf;
      }
      const mode = Math.min(n, Math.floor((n + 1) * p));
      const odds = p / (1 - p);
      pmf[mode] = 1;
      let total = 1;
      for (let k = mode; k < n && (pmf[k + 1] = ((pmf[k] * (n - k)) / (k + 1)) * odds) !== 0; k++) total += pmf[k + 1];
      for (let k = mode; k > 0 && (pmf[k - 1] = (pmf[k] * k) / (n - k + 1) / odds) !== 0; k--) total += pmf[k - 1];
      return pmf.map((x) => x / total);
    };
    for (const [n, p] of [[0, 0.3], [1, 0.5], [7, 0], [7, 1], [1000, 0.99], [4321, 0.5], [20_000, 0.001], [60_000, 0.9]] as const) {
      const pmf = wholePmf(n, p);
      expectStrictEqual(binomialPmf(n, p), pmf);
      const t = binomialCdf(n, p);
      let c = 0;
      const cdf = Array.from(pmf, (x) => (c += x));
      let s = 0;
      const sf: number[] = new Array(n + 1);
      for (let k = n; k >= 0; k--) sf[k] = s += pmf[k];
      const bad = cdf.findIndex((x, k) => !Object.is(x, t.cdf(k)) || !Object.is(sf[k], t.sf(k)));
      expect(bad, `n = ${n}, p = ${p}`).toBe(-1);
      expect(pmf.slice(0, t.lo).every((x) => x === 0) && pmf.slice(t.hi + 1).every((x) => x === 0)).toBe(true);
    }
  });
  it('binomial pmf sums to 1 without overflow', () => {
    const p = binomialPmf(160_000, 0.99);
    let s = 0;
    for (const v of p) s += v;
    expect(s).toBeCloseTo(1, 12);
  });
});

describe('percentileWithInterval', () => {
  it('n = 1,000 of 1..1000: p99 with ranks 983..997', () => {
    const x = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    const r = percentileWithInterval(x, 0.99, 0.95);
    expect(r.n).toBe(1000);
    expect(r.value).toBeCloseTo(990.01, 9);
    expect(r.interval).toEqual([983, 997]);
    expect(r.supported).toBe(true);
  });
  it('says when the sample cannot support a bound', () => {
    const r = percentileWithInterval(Array.from({ length: 100 }, (_, i) => i), 0.99);
    expect(r.supported).toBe(false);
    expect(r.interval[1]).toBe(Infinity);
    expect(r.reason).toMatch(/cannot bound p99 from above/);
  });
});

describe('MLPerf early stopping (99% confidence)', () => {
  it('with no over-target sample, 459 queries are needed at p99', () => {
    expect(earlyStoppingMinUnder(0, 0.99)).toBe(459);
    expect(mlperfEarlyStopping(new Array(458).fill(1), 2).passes).toBe(false);
    expect(mlperfEarlyStopping(new Array(459).fill(1), 2).passes).toBe(true);
  });
  it('each over-target sample raises the bar', () => {
    const h1 = earlyStoppingMinUnder(1, 0.99);
    expect(h1).toBeGreaterThan(459);
    // h* is minimal: odds(h*−1) ≥ 1%, odds(h*) < 1%
    const odds = (h: number) => h ** 0 * (0.99 ** (h + 1) + (h + 1) * 0.99 ** h * 0.01);
    expect(odds(h1)).toBeLessThan(0.01);
    expect(odds(h1 - 1)).toBeGreaterThanOrEqual(0.01);
  });
});

describe('Wilson score interval', () => {
  it('0 of 10 at 95% → [0, 0.2775]', () => {
    const w = wilsonInterval(0, 10);
    expect(w.lo).toBe(0);
    expect(w.hi).toBeCloseTo(0.2775, 4);
  });
  it('81 of 263 at 95% → [0.2553, 0.3662] (Newcombe 1998)', () => {
    const w = wilsonInterval(81, 263);
    expect(w.lo).toBeCloseTo(0.2553, 4);
    expect(w.hi).toBeCloseTo(0.3662, 4);
  });
});

describe('Fisher’s exact test of two proportions', () => {
  // Two-sided p-values as R's fisher.test and scipy.stats.fisher_exact print them for the same tables.
  it('0 of 14 against 4 of 40 → p = 0.5626; 1 of 9 against 11 of 14 → p = 0.00276; 0 of 14 against 13 of 40 → p = 0.0128', () => {
    expect(fisherExact(0, 14, 4, 40)).toBeCloseTo(0.5626259, 6);
    expect(fisherExact(1, 9, 11, 14)).toBeCloseTo(0.0027594562, 9);
    expect(fisherExact(0, 14, 13, 40)).toBeCloseTo(0.0128159785, 9);
  });
  it('is 1 for equal shares and symmetric in its two samples; refuses a count outside its total', () => {
    expect(fisherExact(3, 10, 3, 10)).toBe(1);
    expect(fisherExact(4, 40, 0, 14)).toBeCloseTo(fisherExact(0, 14, 4, 40), 12);
    expect(() => fisherExact(5, 4, 1, 10)).toThrow('invalid count: 5 of 4');
  });
});

describe('autocorrelation', () => {
  it('lag 1 of 1,2,3,4 is 0.25; lag 0 is 1', () => {
    expect(autocorrelation([1, 2, 3, 4], 1)).toBeCloseTo(0.25, 12);
    expect(autocorrelation([1, 2, 3, 4], 0)).toBeCloseTo(1, 12);
    expect(autocorrelation([1, -1, 1, -1, 1, -1], 1)).toBeLessThan(-0.8);
  });
});

describe('windows', () => {
  it('back-to-back windows vs i.i.d. resamples: ≈1 for shuffled data, ≫1 for a trend', () => {
    const rng = new Rng(7);
    const iid = Array.from({ length: 20_000 }, () => rng.random());
    const a = windowVsIid(iid, { windowSize: 200, p: 0.99, rng: new Rng(1) });
    expect(a.varianceRatio).toBeGreaterThan(0.6);
    expect(a.varianceRatio).toBeLessThan(1.6);
    const trend = iid.map((v, i) => v + i / 2000);
    const b = windowVsIid(trend, { windowSize: 200, p: 0.99, rng: new Rng(1) });
    expect(b.varianceRatio).toBeGreaterThan(10);
    expect(b.effectiveSampleSize).toBeLessThan(20);
    // same rng seed → same resamples
    const c = windowVsIid(iid, { windowSize: 200, p: 0.99, rng: new Rng(1) });
    expect(c.iid).toEqual(a.iid);
  });
  it('SGLang: longest span with concurrency ≥ ⌈peak·f⌉', () => {
    // concurrency 2 on [0,1), 3 on [1,2), 2 on [2,3), 1 on [3,4)
    const w = sglangSteadyWindow([0, 0, 1], [2, 3, 4], 0.6)!;
    expect(w.peak).toBe(3);
    expect(w.threshold).toBe(2);
    expect([w.start, w.end]).toEqual([0, 3]);
    expect(w.averageConcurrency).toBeCloseTo(7 / 3, 12);
  });
  it('GuideLLM warmup/cooldown by fraction, seconds and count; overlap rule', () => {
    const send = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const fin = send.map((s) => s + 1);
    expect(guidellmWindow(send, fin, { warmup: 0.1, cooldown: 0.1 })).toEqual({ measureStart: 1, measureEnd: 9 });
    expect(guidellmWindow(send, fin, { warmup: 2, cooldown: 3 })).toEqual({ measureStart: 2, measureEnd: 7 });
    expect(guidellmWindow(send, fin, { warmup: 2, cooldown: 3, mode: 'requests' })).toEqual({ measureStart: 2, measureEnd: 7 });
    expect(Array.from(overlapping(send, fin, 2.5, 6.5))).toEqual([2, 3, 4, 5, 6]);
  });
  it('after the first wave: drops the first N sends', () => {
    expect(Array.from(afterFirstWave([0, 0, 5, 0, 7], 3))).toEqual([2, 4]);
  });
});

describe('sortAsc (radix path for large inputs)', () => {
  it('orders exactly like Float64Array.prototype.sort, signed zeros and infinities included', async () => {
    const { sortAsc } = await import('../src/stats/percentile.ts');
    const { createRng } = await import('../src/rng/index.ts');
    const rng = createRng(5);
    for (const n of [2047, 2048, 5000, 100_000]) {
      const x = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const u = rng.random();
        x[i] = u < 0.01 ? 0 : u < 0.02 ? -0 : u < 0.03 ? Infinity : u < 0.04 ? -Infinity : u < 0.2 ? Math.round(rng.random() * 10) : (rng.random() - 0.3) * 10 ** rng.int(-300, 300);
      }
      const want = Float64Array.from(x).sort();
      const got = sortAsc(x);
      expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)), `n = ${n}`).toBe(true);
    }
  });
  it('orders exactly like Float64Array.prototype.sort in a narrow range with repeats (a real run’s gaps: every key shares its top bytes)', async () => {
    const { sortAsc } = await import('../src/stats/percentile.ts');
    const { createRng } = await import('../src/rng/index.ts');
    const rng = createRng(7);
    const x = Float64Array.from({ length: 200_000 }, (_, i) => (i % 3 ? 0.017 + rng.random() * 1e-3 : 0.017 + rng.int(0, 999) * 1e-6));
    const want = Float64Array.from(x).sort();
    expect(Buffer.from(sortAsc(x).buffer).equals(Buffer.from(want.buffer))).toBe(true);
  });
  it('orders non-negative values exactly like Float64Array.prototype.sort, across buckets large and small (+0, denormals, whole numbers, +∞)', async () => {
    const { sortAsc } = await import('../src/stats/percentile.ts');
    const { createRng } = await import('../src/rng/index.ts');
    const rng = createRng(8);
    for (const n of [16_384, 300_000]) {
      const x = Float64Array.from({ length: n }, (_, i) => {
        const u = rng.random();
        // a wide spread (many small buckets), one crowded narrow range (a bucket sorted by its low bits), values whose low bits are all 0
        if (i % 4 === 0) return u < 0.01 ? 0 : u < 0.02 ? Infinity : u < 0.03 ? 5e-324 * rng.int(1, 1000) : rng.random() * 10 ** rng.int(-300, 300);
        if (i % 4 === 1) return rng.int(0, 5000);
        return 0.017 + rng.random() * 1e-3;
      });
      const want = Float64Array.from(x).sort();
      expect(Buffer.from(sortAsc(x).buffer).equals(Buffer.from(want.buffer)), `n = ${n}`).toBe(true);
    }
  });
  it('orders exactly like Float64Array.prototype.sort when few values are distinct (a simulated run’s gaps)', async () => {
    const { sortAsc } = await import('../src/stats/percentile.ts');
    const { createRng } = await import('../src/rng/index.ts');
    const rng = createRng(6);
    for (const [n, k] of [[2048, 3], [50_000, 200], [300_000, 20_000], [100_000, 60_000]] as const) {
      const pool = Float64Array.from({ length: k }, (_, i) => (i === 0 ? -0 : i === 1 ? 0 : i === 2 ? -Infinity : i === 3 ? Infinity : (rng.random() - 0.2) * 10 ** rng.int(-5, 5)));
      const x = Float64Array.from({ length: n }, () => pool[rng.int(0, k - 1)]);
      const want = Float64Array.from(x).sort();
      expect(Buffer.from(sortAsc(x).buffer).equals(Buffer.from(want.buffer)), `n = ${n}, ${k} distinct`).toBe(true);
    }
  });
  it('falls back to the engine sort when the input holds NaN', async () => {
    const { sortAsc } = await import('../src/stats/percentile.ts');
    const x = Float64Array.from({ length: 4096 }, (_, i) => (i === 7 ? NaN : 4096 - i));
    const got = sortAsc(x);
    expect(got[0]).toBe(1);
    expect(Number.isNaN(got[4095])).toBe(true);
  });
});

describe('two modes over seeds', () => {
  type Rng = ReturnType<typeof createRng>;
  const normal = (rng: Rng, mu: number, sd: number) => mu + sd * Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
  const times = (n: number, f: () => number) => Array.from({ length: n }, f);
  /** Share of 2,000 seeded samples the test calls two modes: the rates src/stats/modes.ts states. */
  const flagged = (draw: (rng: Rng) => number[]) => {
    const rng = createRng(2026);
    let k = 0;
    for (let i = 0; i < 2000; i++) if (twoModes(draw(rng))) k++;
    return k / 2000;
  };
  /** Two groups on the log scale, each with a within-group deviation of 0.05 × sd, means `apart` of those deviations apart. */
  const groups = (a: number, b: number, apart: number, sdA = 1, sdB = 1) => (rng: Rng) => [
    ...times(a, () => Math.exp(0.05 * normal(rng, 0, sdA))),
    ...times(b, () => Math.exp(0.05 * normal(rng, apart, sdB))),
  ];

  it('false alarms: about 1% of one-group samples of 20, lognormal or normal', () => {
    for (const [label, draw] of [
      ['lognormal σ = 1', (rng: Rng) => times(20, () => Math.exp(normal(rng, 0, 1)))],
      ['lognormal σ = 1.5', (rng: Rng) => times(20, () => Math.exp(normal(rng, 0, 1.5)))],
      ['normal, cv 0.15', (rng: Rng) => times(20, () => normal(rng, 100, 15))],
      ['normal, cv 0.3', (rng: Rng) => times(20, () => normal(rng, 100, 30))],
    ] as const) {
      const rate = flagged(draw);
      expect(rate, label).toBeGreaterThanOrEqual(0.002);
      expect(rate, label).toBeLessThanOrEqual(0.015);
    }
  });

  it('power: separated groups, small minor groups included, and a tight group beside a spread-out one', () => {
    expect(flagged(groups(13, 7, 7))).toBeGreaterThanOrEqual(0.95);
    expect(flagged(groups(18, 2, 7))).toBeGreaterThanOrEqual(0.88);
    expect(flagged(groups(17, 3, 7))).toBeGreaterThanOrEqual(0.88);
    // The tight group eight times tighter than the other, the means two of the spread group's deviations apart.
    expect(flagged(groups(14, 6, 4, 0.25, 2))).toBeGreaterThanOrEqual(0.94);
  });

  it('finds two separated groups and reports each with its share', () => {
    const rng = createRng(7);
    const values = [...times(13, () => normal(rng, 40, 1)), ...times(7, () => normal(rng, 55, 1.5))];
    const m = twoModes(values)!;
    expect(m.map((x) => x.seeds)).toEqual([13, 7]);
    expect(m[0].max).toBeLessThan(m[1].min);
  });

  it('does not depend on the unit or on a ratio against its inverse', () => {
    const seeds = (v: number[] | null) => twoModes(v ?? [])?.map((m) => m.seeds) ?? null;
    for (let seed = 1; seed <= 200; seed++) {
      const rng = createRng(seed);
      const x = seed % 2 ? groups(17, 3, 6)(rng) : times(20, () => Math.exp(normal(rng, 0, 1)));
      const want = seeds(x);
      expect(seeds(x.map((v) => v * 1000)), `seed ${seed}: ×1000`).toEqual(want);
      expect(seeds(x.map((v) => 1 / v)), `seed ${seed}: 1/x`).toEqual(want && [...want].reverse());
    }
  });

  it('a floor or a cap is not a mode; two lattice values are; one far seed is a tail', () => {
    // 14 seeds at exactly the lowest share, the rest spread above it.
    expect(twoModes([...Array(14).fill(1.6), 1.63, 1.68, 1.68, 1.82, 1.88, 1.95])).toBeNull();
    expect(twoModes([...Array(7).fill(0), 6, 108, 335, 581, 759, 983, 1750, 2990, 3070, 3270, 3420, 3760, 4000])).toBeNull();
    // Half the seeds at one rate of a sweep, half at the next: no seed has the median between them.
    expect(twoModes([...Array(10).fill(5.02), ...Array(10).fill(5.65)])?.map((m) => [m.seeds, m.median])).toEqual([[10, 5.02], [10, 5.65]]);
    expect(twoModes([...Array(19).fill(10), 10.5])).toBeNull();
    const rng = createRng(3);
    expect(twoModes([...times(19, () => normal(rng, 80, 2)), 300])).toBeNull();
    expect(twoModes([1, 1, 1, 9, 9, 9])).toBeNull();
  });
});

describe('counted values: runs and one rank (stats/runs.ts)', () => {
  /** A tally with repeats, one value counted in several places, values over many binades and in one high word. */
  function tally(seed: number, m: number) {
    const rng = createRng(seed);
    const values = new Float64Array(m);
    const counts = new Uint32Array(m);
    for (let i = 0; i < m; i++) {
      const u = rng.random();
      values[i] = u < 0.2 && i > 0 ? values[rng.int(0, i - 1)] : u < 0.25 ? 0 : u < 0.6 ? 0.02 + rng.random() * 1e-9 : 10 ** (-4 + 6 * rng.random());
      counts[i] = u < 0.5 ? 1 : rng.int(1, 300);
    }
    return { values, counts };
  }
  /** Every number the tally stands for, in ascending order. */
  const expanded = (t: { values: Float64Array; counts: Uint32Array }) => {
    const out = new Float64Array(t.counts.reduce((n, c) => n + c, 0));
    for (let k = 0, at = 0; k < t.values.length; at += t.counts[k]!, k++) out.fill(t.values[k]!, at, at + t.counts[k]!);
    return out.sort();
  };

  it('makes ascending runs of distinct values that stand for the same numbers, bit for bit', async () => {
    const { runsOf, countOf } = await import('../src/stats/runs.ts');
    for (const m of [0, 1, 2, 40, 5000]) {
      const t = tally(m + 3, m);
      const want = expanded(t);
      const runs = runsOf({ values: t.values.slice(), counts: t.counts.slice() });
      expect(countOf(runs)).toBe(want.length);
      for (let k = 1; k < runs.values.length; k++) expect(runs.values[k], `m = ${m}`).toBeGreaterThan(runs.values[k - 1]);
      expect(Buffer.from(expanded(runs).buffer).equals(Buffer.from(want.buffer)), `m = ${m}`).toBe(true);
    }
    expect(() => runsOf({ values: Float64Array.of(1, -0), counts: Uint32Array.of(1, 1) })).toThrow(/holds -0, not a finite value ≥ \+0/);
    expect(() => runsOf({ values: Float64Array.of(-2, 1), counts: Uint32Array.of(1, 1) })).toThrow(/holds -2/);
    expect(() => runsOf({ values: Float64Array.of(1, Infinity), counts: Uint32Array.of(1, 1) })).toThrow(/holds Infinity/);
  });

  it('selects the number at any rank, with the ranks its copies hold, from a tally in any order (and when the rounds run out)', async () => {
    const { selectRank } = await import('../src/stats/runs.ts');
    // a small tally is partitioned; a large one is first narrowed to one bucket of bits
    for (const m of [3000, 40_000]) {
      const t = tally(m + 11, m);
      const want = expanded(t);
      const ranks = [0, 1, want.length >> 1, (want.length >> 1) - 1, want.length - 1, Math.floor(want.length * 0.99)];
      // and both sides of every place where the values' top 16 bits change (one bucket of the large tally's first pass ends)
      const high = new Uint32Array(want.buffer);
      const edges: number[] = [];
      for (let k = 1; k < want.length; k++) if (high[2 * k + 1]! >>> 16 !== high[2 * k - 1]! >>> 16) edges.push(k);
      for (let e = 0; e < edges.length; e += Math.ceil(edges.length / 24)) ranks.push(edges[e]! - 1, edges[e]!);
      for (const maxRounds of [64, 1]) {
        for (const r of ranks) {
          const got = selectRank(t, r, maxRounds)!;
          expect(Object.is(got.value, want[r]), `rank ${r}`).toBe(true);
          expect(got.first <= r && r < got.end).toBe(true);
          expect(want[got.first]).toBe(got.value);
          expect(want[got.end - 1]).toBe(got.value);
          if (got.first > 0) expect(want[got.first - 1]).toBeLessThan(got.value);
          if (got.end < want.length) expect(want[got.end]).toBeGreaterThan(got.value);
        }
      }
      expect(selectRank(t, want.length)).toBeNull();
      expect(selectRank(t, -1)).toBeNull();
    }
    // a large tally with negative values (whose bits order the other way) is partitioned whole
    const mixed = tally(7, 20_000);
    for (let i = 0; i < mixed.values.length; i += 3) mixed.values[i] = mixed.values[i]! === 0 ? -1 : -mixed.values[i]!;
    const want = expanded(mixed);
    for (const r of [0, 1, want.length >> 1, want.length - 1, Math.floor(want.length * 0.3)]) expect(selectRank(mixed, r)!.value, `rank ${r}`).toBe(want[r]);
  });
});
