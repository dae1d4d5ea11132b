/**
 * Figures of experiments/order-statistics.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OrderStatisticsData } from '../order-statistics.ts';

export const figures: Figures<OrderStatisticsData> = {
  max_bound: (d) => ({
    title: 'When does the largest sample bound the p99?',
    caption:
      'Probability that the largest of n independent samples lies above the true 99th percentile. It passes the 95% line only at the sample size marked.',
    alt: `A rising curve of probability against sample size on a log axis, crossing 95% at n = ${d.minN}.`,
    plot: {
      height: 300,
      marginLeft: 56,
      x: { type: 'log', label: 'sample size n' },
      y: { label: 'P(max > true p99) (%)', domain: [0, 100], grid: true },
      marks: [
        Plot.line(d.curve, { x: 'n', y: 'pct', stroke: PALETTE.blue, strokeWidth: 2 }),
        Plot.dot(d.curve, { x: 'n', y: 'pct', fill: PALETTE.blue }),
        Plot.ruleY([100 * d.confidence], { stroke: PALETTE.vermillion, strokeDasharray: '5,3' }),
        Plot.ruleX([d.minN], { stroke: PALETTE.vermillion, strokeDasharray: '2,3' }),
      ],
    },
  }),
};
