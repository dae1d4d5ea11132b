/**
 * Figures of experiments/request-count.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { RequestCountData } from '../request-count.ts';

const COLORS = [PALETTE.vermillion, PALETTE.orange, PALETTE.green, PALETTE.blue];

export const figures: Figures<RequestCountData> = {
  mean_ttft: (d) => {
    const lines = d.rows.map((r) => ({ slots: r.slots, ms: r.meanAllMs, series: `${r.multiplier}× requests` }));
    const steady = d.rows.filter((r) => r.multiplier === d.longest).map((r) => ({ slots: r.slots, ms: r.meanAfterMs }));
    const last = d.multipliers.map((m: number, i: number) => {
      const g = d.rows.filter((r) => r.multiplier === m);
      const end = g[g.length - 1];
      return { slots: end.slots, ms: end.meanAllMs, label: `${m}× requests`, color: COLORS[i % COLORS.length] };
    });
    return {
      title: 'Mean time to first token against concurrency',
      caption:
        'Closed loops with every slot opened at once, fixed 1,000-token prompts and answers. Each line collects a different number of requests per slot; the dashed line is the mean without the first wave.',
      alt: `Lines of mean TTFT against concurrency for ${d.multipliers.length} request counts; the fewer requests per slot, the steeper the line. Without the first wave the mean stays nearly flat.`,
      plot: {
        height: 380,
        marginLeft: 56,
        marginRight: 110,
        x: { label: 'concurrency (slots)' },
        y: { label: 'mean TTFT (ms)', grid: true },
        color: { domain: d.multipliers.map((m: number) => `${m}× requests`), range: COLORS },
        marks: [
          Plot.line(lines, { x: 'slots', y: 'ms', stroke: 'series', strokeWidth: 2 }),
          Plot.dot(lines, { x: 'slots', y: 'ms', fill: 'series', r: 2.5 }),
          Plot.line(steady, { x: 'slots', y: 'ms', stroke: 'currentColor', strokeDasharray: '5,4' }),
          Plot.text(last, { x: 'slots', y: 'ms', text: 'label', fill: 'color', textAnchor: 'start', dx: 6 }),
          Plot.text([steady[steady.length - 1]], { x: 'slots', y: 'ms', text: () => 'without the wave', textAnchor: 'start', dx: 6, dy: 10 }),
        ],
      },
    };
  },
};
