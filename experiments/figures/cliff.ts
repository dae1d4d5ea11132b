/**
 * Figures of experiments/cliff.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { CliffData } from '../cliff.ts';
import { durationMs, plain, value } from './lib/words.ts';

type Bar = CliffData['bars'][number];

export const figures: Figures<CliffData> = {
  share: (d, n) => ({
    title: 'Share of runs that fell off the cliff',
    caption: plain(
      `Open-loop runs at loads around the sweep’s peak rate; a run has collapsed when its p99 time to first token exceeds ${durationMs(n('config.collapse_ms').value)}. Bars: share of runs; whiskers: Wilson score ${value(n('config.confidence_pct'), { digits: 0 })} intervals.`,
    ),
    // Every bar in words: its count, share and interval, read from the data drawn.
    alt: plain(
      `Bars of the share of runs that collapsed, by load: ` +
        d.bars.map((b: Bar) => `at ${b.load}% of the peak ${b.collapsed} of ${b.runs} (${b.share.toFixed(0)}%, interval ${b.lo.toFixed(0)}–${b.hi.toFixed(0)}%)`).join('; ') +
        '.',
    ),
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
