/**
 * §10 Order statistics (no simulation). How many i.i.d. samples a percentile
 * needs before an order statistic bounds it, and MLPerf LoadGen's
 * early-stopping rule, which rests on that binomial reasoning too.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { MLPERF_EARLY_STOPPING, earlyStoppingMinUnder, minSamplesForMaxBound, probMaxExceeds, quantileIntervalRanks } from '../src/stats/index.ts';
import { num, configNumbers } from './lib/measure.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  confidence: 0.95,
  /** Sample sizes for the "does the maximum bound p99?" curve. */
  curveN: [10, 20, 50, 100, 200, 299, 500, 1000, 2000, 3000, 5000],
  smallN: 100,
  intervalN: 1000,
  /** MLPerf early stopping: the queries needed for these counts of over-target samples. */
  earlyStoppingOver: [0, 1, 5, 10, 50],
};

const experiment = defineExperiment({
  id: 'order-statistics',
  title: 'Order statistics',
  config,
  runJob: () => ({}),
  combine(c) {
    const n: Record<string, NumberValue> = {};
    n['max_bounds_p99.min_n'] = num(minSamplesForMaxBound(0.99, c.confidence), 'requests');
    n['max_bounds_p999.min_n'] = num(minSamplesForMaxBound(0.999, c.confidence), 'requests');
    n['max_exceeds_p99.n100_pct'] = num(100 * probMaxExceeds(c.smallN, 0.99), '%', c.smallN);
    const r = quantileIntervalRanks(c.intervalN, 0.99, c.confidence);
    n['p99_interval.n1000.lower_rank'] = num(r.lower!, 'rank', c.intervalN);
    n['p99_interval.n1000.upper_rank'] = num(r.upper!, 'rank', c.intervalN);
    n['p99_interval.n1000.coverage_pct'] = num(100 * r.coverage, '%', c.intervalN);
    for (const t of c.earlyStoppingOver) {
      n[`mlperf_early_stopping.over${t}.queries`] = num(earlyStoppingMinUnder(t, 0.99) + t, 'queries');
      n[`mlperf_early_stopping.over${t}.misses`] = num(t, 'queries');
    }
    n['config.confidence_pct'] = num(100 * c.confidence, '%');
    n['mlperf_early_stopping.confidence_pct'] = num(100 * MLPERF_EARLY_STOPPING.confidence, '%');
    Object.assign(n, configNumbers(c, { smallN: 'requests', intervalN: 'requests' }));
    const curve = c.curveN.map((k) => ({ n: k, pct: 100 * probMaxExceeds(k, 0.99) }));
    return { data: { curve, confidence: c.confidence, minN: n['max_bounds_p99.min_n'].value }, numbers: n };
  },
  clauses: {
    arrivals: 'not applicable (no simulation)',
    clock: 'not applicable',
    window: 'not applicable',
    definitions: 'binomial order statistics for i.i.d. samples from a continuous distribution; equal-tailed two-sided ranks; MLPerf LoadGen early stopping at 99% confidence, tolerance 0',
    tokens: 'not applicable',
    prompts: 'not applicable',
  },
});
export default experiment;

/** The combined data: what experiments/figures/order-statistics.ts draws. */
export type OrderStatisticsData = DataOf<typeof experiment>;
