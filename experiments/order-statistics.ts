/**
 * §10 Order statistics (no simulation). How many i.i.d. samples a percentile
 * needs before an order statistic bounds it, and MLPerf LoadGen's
 * early-stopping rule built on the same binomial argument.
 */
import * as Plot from '@observablehq/plot';
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { earlyStoppingMinUnder, minSamplesForMaxBound, probMaxExceeds, quantileIntervalRanks } from '../src/stats/index.ts';
import { num } from './lib/measure.ts';
import type { NumberValue } from '../src/pipeline/types.ts';

const config = {
  confidence: 0.95,
  /** Sample sizes for the "does the maximum bound p99?" curve. */
  curveN: [10, 20, 50, 100, 200, 299, 500, 1000, 2000, 3000, 5000],
  smallN: 100,
  intervalN: 1000,
  /** MLPerf early stopping: the queries needed for these counts of over-target samples. */
  earlyStoppingOver: [0, 1, 5, 10, 50],
};

export default defineExperiment({
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
    }
    const curve = c.curveN.map((k) => ({ n: k, pct: 100 * probMaxExceeds(k, 0.99) }));
    return { data: { curve, confidence: c.confidence, minN: n['max_bounds_p99.min_n'].value }, numbers: n };
  },
  figures: {
    max_bound: (d) => ({
      title: 'When does the largest sample bound the p99?',
      caption:
        'Probability that the largest of n independent samples lies above the true 99th percentile. It passes the 95% line only at the sample size marked.',
      alt: `A rising curve of probability against sample size on a log axis, crossing 95% at n = ${d.minN}.`,
      plot: {
        width: 720,
        height: 300,
        marginLeft: 56,
        x: { type: 'log', label: 'sample size n' },
        y: { label: 'P(max > true p99) (%)', domain: [0, 100], grid: true },
        marks: [
          Plot.line(d.curve, { x: 'n', y: 'pct', stroke: '#0072B2', strokeWidth: 2 }),
          Plot.dot(d.curve, { x: 'n', y: 'pct', fill: '#0072B2' }),
          Plot.ruleY([100 * d.confidence], { stroke: '#D55E00', strokeDasharray: '5,3' }),
          Plot.ruleX([d.minN], { stroke: '#D55E00', strokeDasharray: '2,3' }),
        ],
      },
    }),
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
