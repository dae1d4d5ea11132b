/**
 * Figures of experiments/request-count.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { RequestCountData } from '../request-count.ts';
import { count, durationMs, plain } from './lib/words.ts';

const COLORS = [PALETTE.vermillion, PALETTE.orange, PALETTE.green, PALETTE.blue];

export const figures: Figures<RequestCountData> = {
  mean_ttft: (d, n) => {
    const lines = d.rows.map((r) => ({ slots: r.slots, ms: r.meanAllMs, series: `${r.multiplier}× requests` }));
    const steady = d.rows.filter((r) => r.multiplier === d.longest).map((r) => ({ slots: r.slots, ms: r.meanAfterMs }));
    const last = d.multipliers.map((m: number, i: number) => {
      const g = d.rows.filter((r) => r.multiplier === m);
      const end = g[g.length - 1];
      return { slots: end.slots, ms: end.meanAllMs, label: `${m}× requests`, color: COLORS[i % COLORS.length] };
    });
    // Per line, its rise over the sweep: the description orders the lines by it, from the data.
    const rise = d.multipliers.map((m: number) => {
      const g = d.rows.filter((r) => r.multiplier === m);
      return { m, from: g[0].meanAllMs, to: g[g.length - 1].meanAllMs };
    });
    const steeperWhenFewer = rise.every((r, i) => i === 0 || r.to - r.from < rise[i - 1]!.to - rise[i - 1]!.from);
    const slots = d.rows.map((r) => r.slots);
    return {
      title: 'Mean time to first token against concurrency',
      caption: plain(
        `Closed loops with every slot opened at once, fixed ${count(n('config.isl').value)}-token prompts and ${count(n('config.osl').value)}-token answers. Each line collects a different number of requests per slot; the dashed line is the mean without the first wave, from the longest runs (${d.longest}× requests).`,
      ),
      // Read from the lines: their rise over the sweep, in order, and the range of the dashed line.
      alt: plain(
        `Lines of mean TTFT against concurrency from ${Math.min(...slots)} to ${Math.max(...slots)} slots for ${d.multipliers.length} request counts: ` +
          rise.map((r) => `${r.m}× requests from ${durationMs(r.from)} to ${durationMs(r.to)}`).join(', ') +
          `${steeperWhenFewer ? '; the fewer requests per slot, the steeper the line' : ''}. Without the first wave the mean runs from ${durationMs(steady[0].ms)} to ${durationMs(steady[steady.length - 1].ms)}.`,
      ),
      plot: {
        height: 380,
        marginLeft: 56,
        marginRight: 110,
        x: { label: 'concurrency (slots)' },
        // From zero, so the flat dashed line and its label sit clear of the x axis's ticks and title.
        y: { label: 'mean TTFT (ms)', grid: true, zero: true },
        color: { domain: d.multipliers.map((m: number) => `${m}× requests`), range: COLORS },
        marks: [
          Plot.line(lines, { x: 'slots', y: 'ms', stroke: 'series', strokeWidth: 2 }),
          Plot.dot(lines, { x: 'slots', y: 'ms', fill: 'series', r: 2.5 }),
          Plot.line(steady, { x: 'slots', y: 'ms', stroke: 'currentColor', strokeDasharray: '5,4' }),
          Plot.text(last, { x: 'slots', y: 'ms', text: 'label', fill: 'color', textAnchor: 'start', dx: 6 }),
          Plot.text([steady[steady.length - 1]], { x: 'slots', y: 'ms', text: () => 'without the wave', textAnchor: 'start', dx: 6 }),
        ],
      },
    };
  },
};
