/**
 * Figures of experiments/cliff.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { CliffData } from '../cliff.ts';

export const figures: Figures<CliffData> = {
  share: (d) => ({
    title: 'Share of runs that fell off the cliff',
    caption:
      'Open-loop runs at loads around the sweep’s peak rate; a run has collapsed when its p99 time to first token exceeds one second. Bars: share of runs; whiskers: Wilson score 95% intervals.',
    alt: `Bars of collapsed share by load, from ${d.bars[0].load}% to ${d.bars[d.bars.length - 1].load}% of the peak, rising near and above the peak, with wide intervals.`,
    plot: {
      height: 320,
      marginLeft: 56,
      x: { label: 'load (% of the sweep’s peak rate)', type: 'band', domain: d.bars.map((b: { load: number }) => b.load) },
      y: { label: 'runs collapsed (%)', domain: [0, 100], grid: true },
      marks: [
        Plot.barY(d.bars, { x: 'load', y: 'share', fill: PALETTE.blue, fillOpacity: 0.8 }),
        Plot.ruleX(d.bars, { x: 'load', y1: 'lo', y2: 'hi', stroke: 'currentColor', strokeWidth: 2 }),
        Plot.text(d.bars, { x: 'load', y: 'hi', text: (b: { collapsed: number; runs: number }) => `${b.collapsed}/${b.runs}`, dy: -8 }),
      ],
    },
  }),
};
