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
import type { NumberValue, SeedSpread } from '../../src/pipeline/types.ts';
import { linearPercentile, twoModes } from '../../src/stats/index.ts';

function sortAsc(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Quantiles of the per-seed values (numpy linear), with the two clusters when there are two. */
export function seedSpread(values: readonly number[]): SeedSpread {
  const x = sortAsc(values);
  const q = (p: number) => linearPercentile(x, p, { sorted: true });
  const out: SeedSpread = { min: x[0]!, q1: q(0.25), median: q(0.5), q3: q(0.75), max: x[x.length - 1]! };
  const modes = twoModes(x);
  if (modes) out.modes = modes;
  return out;
}

/**
 * A value over seeds: the median of the per-seed values, their spread and
 * count, and the per-seed values themselves with the seeds they are of, so a
 * claim over two numbers can read both in the same seed (src/claims/evaluate.ts).
 * `values` are in seed order; `seeds` names them, seeds 1..n unless given (a
 * value only some runs have, such as the time a collapsed run collapsed, names
 * its runs). `n` is the sample size of each run (requests, windows), not the
 * seeds. Values must be finite: a seed without a value is the caller's to report.
 */
export function overSeeds(values: readonly number[], unit: string, n: number | null = null, seeds: readonly number[] = seedList(values.length)): NumberValue {
  if (values.length === 0 || !values.every(Number.isFinite)) throw new Error(`overSeeds: need finite per-seed values, got [${values.join(', ')}]`);
  if (seeds.length !== values.length || !seeds.every((s, i) => Number.isInteger(s) && (i === 0 || s > seeds[i - 1]!))) {
    throw new Error(`overSeeds: seeds [${seeds.join(', ')}] must be ascending integers, one per value (${values.length})`);
  }
  if (values.length === 1) return { value: values[0]!, unit, n, interval: null };
  const spread = seedSpread(values);
  return { value: spread.median, unit, n, interval: null, seeds: values.length, spread, perSeed: { seeds: [...seeds], values: [...values] } };
}

/**
 * A percentile over seeds: the median of the per-seed percentiles, with their
 * spread, and as `interval` the median over seeds of each run's own
 * order-statistic bounds: how wide one run's interval typically is, to set
 * beside how far the runs fall apart.
 */
export function percentileOverSeeds(perSeed: readonly NumberValue[], seeds?: readonly number[]): NumberValue {
  const v = overSeeds(perSeed.map((p) => p.value), perSeed[0]!.unit, perSeed[0]!.n, seeds);
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
