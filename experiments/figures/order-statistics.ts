/**
 * Figures of experiments/order-statistics.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OrderStatisticsData } from '../order-statistics.ts';
import { count, plain } from './lib/words.ts';

type Point = OrderStatisticsData['curve'][number];

export const figures: Figures<OrderStatisticsData> = {
  max_bound: (d) => ({
    title: 'When does the largest sample bound the p99?',
    caption: plain(
      `Probability that the largest of n independent samples lies above the true 99th percentile. It passes the ${(100 * d.confidence).toFixed(0)}% line only at the sample size marked, n = ${count(d.minN)}.`,
    ),
    // Read from the curve drawn: its ends, whether it only rises, and where it crosses the line.
    alt: plain(
      `A ${d.curve.every((p: Point, i: number) => i === 0 || p.pct >= d.curve[i - 1]!.pct) ? 'rising' : ''} curve of probability against sample size on a log axis, from ${d.curve[0]!.pct.toFixed(0)}% at n = ${count(d.curve[0]!.n)} to ${d.curve[d.curve.length - 1]!.pct.toFixed(0)}% at n = ${count(d.curve[d.curve.length - 1]!.n)}, crossing ${(100 * d.confidence).toFixed(0)}% at n = ${count(d.minN)}.`,
    ).replace('A  curve', 'A curve'),
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
