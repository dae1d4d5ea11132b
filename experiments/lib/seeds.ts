/**
 * Numbers summarised over seeds. A value that depends on random draws is
 * computed once per seed (independent runs, each with its own draws), and
 * published as the median of the per-seed values with their distribution:
 * quantiles and, when they fall into two separate groups, both groups.
 *
 * Two uncertainties, two fields: `spread` is how much the value moves from
 * run to run (what a rerun with other draws would show); `interval` stays the
 * within-run order-statistic bound, which says how well one run pins down its
 * own percentile and nothing about the next run.
 */
import type { NumberValue, SeedMode, SeedSpread } from '../../src/pipeline/types.ts';
import { linearPercentile } from '../../src/stats/index.ts';

/** Seeds below which no bimodality test is tried: with fewer, a gap between groups of three says nothing. */
export const MODES_MIN_SEEDS = 10;
/** Smallest cluster the test accepts, in seeds. */
export const MODES_MIN_CLUSTER = 3;
/**
 * The gap between the two groups must exceed this many pooled within-group
 * standard deviations. Calibrated by simulation on unimodal samples of 20:
 * exceeded by fewer than 1% of normal and lognormal samples and about 1.5% of
 * exponential ones (the largest gap of a skewed tail), while two groups 15
 * within-group deviations apart, split 13 to 7, pass nine times in ten.
 */
export const MODES_GAP_SDS = 3;

function sortAsc(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * Two clusters, or null. The test: sort the per-seed values; for every split
 * leaving at least MODES_MIN_CLUSTER seeds on each side, divide the gap
 * between the two sides by the pooled standard deviation within them; take
 * the split with the largest ratio, and call the values bimodal when that
 * ratio is at least MODES_GAP_SDS.
 */
export function seedModes(values: readonly number[]): [SeedMode, SeedMode] | null {
  const x = sortAsc(values);
  const n = x.length;
  if (n < MODES_MIN_SEEDS) return null;
  const sum = [0];
  const sq = [0];
  for (const v of x) {
    sum.push(sum[sum.length - 1]! + v);
    sq.push(sq[sq.length - 1]! + v * v);
  }
  let best = 0;
  let at = -1;
  for (let k = MODES_MIN_CLUSTER; k <= n - MODES_MIN_CLUSTER; k++) {
    const ssLow = sq[k]! - sum[k]! ** 2 / k;
    const ssHigh = sq[n]! - sq[k]! - (sum[n]! - sum[k]!) ** 2 / (n - k);
    const sd = Math.sqrt(Math.max(0, (ssLow + ssHigh) / (n - 2)));
    const gap = x[k]! - x[k - 1]!;
    const ratio = sd > 0 ? gap / sd : gap > 0 ? Infinity : 0;
    if (ratio > best) {
      best = ratio;
      at = k;
    }
  }
  if (at < 0 || best < MODES_GAP_SDS) return null;
  const mode = (xs: number[]): SeedMode => ({ min: xs[0]!, median: linearPercentile(xs, 0.5, { sorted: true }), max: xs[xs.length - 1]!, seeds: xs.length });
  return [mode(x.slice(0, at)), mode(x.slice(at))];
}

/** Quantiles of the per-seed values (numpy linear), with the two clusters when there are two. */
export function seedSpread(values: readonly number[]): SeedSpread {
  const x = sortAsc(values);
  const q = (p: number) => linearPercentile(x, p, { sorted: true });
  const out: SeedSpread = { min: x[0]!, q1: q(0.25), median: q(0.5), q3: q(0.75), max: x[x.length - 1]! };
  const modes = seedModes(x);
  if (modes) out.modes = modes;
  return out;
}

/**
 * A value over seeds: the median of the per-seed values, their spread and
 * count. `n` is the sample size of each run (requests, windows), not the seeds.
 * Values must be finite: a seed without a value is the caller's to report.
 */
export function overSeeds(values: readonly number[], unit: string, n: number | null = null): NumberValue {
  if (values.length === 0 || !values.every(Number.isFinite)) throw new Error(`overSeeds: need finite per-seed values, got [${values.join(', ')}]`);
  if (values.length === 1) return { value: values[0]!, unit, n, interval: null };
  const spread = seedSpread(values);
  return { value: spread.median, unit, n, interval: null, seeds: values.length, spread };
}

/**
 * A percentile over seeds: the median of the per-seed percentiles, with their
 * spread, and as `interval` the median over seeds of each run's own
 * order-statistic bounds: how wide one run's interval typically is, to set
 * beside how far the runs fall apart.
 */
export function percentileOverSeeds(perSeed: readonly NumberValue[]): NumberValue {
  const v = overSeeds(perSeed.map((p) => p.value), perSeed[0]!.unit, perSeed[0]!.n);
  const withBounds = perSeed.filter((p) => p.interval);
  if (withBounds.length === perSeed.length && perSeed.length > 1) {
    const med = (xs: number[]) => linearPercentile(sortAsc(xs), 0.5, { sorted: true });
    v.interval = [med(withBounds.map((p) => p.interval![0])), med(withBounds.map((p) => p.interval![1]))];
    v.level = perSeed[0]!.level;
    v.intervalKind = `${perSeed[0]!.intervalKind ?? 'interval'} within one run (median bounds over ${perSeed.length} seeds)`;
  }
  return v;
}

/** Seeds 1..count: the seeds of an experiment whose seed count is one named setting. */
export function seedList(count: number, first = 1): number[] {
  return Array.from({ length: count }, (_, i) => first + i);
}
