/**
 * Figures of experiments/first-wave.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { FirstWaveData } from '../first-wave.ts';

export const figures: Figures<FirstWaveData> = {
  ttft: (d) => ({
    title: 'Time to first token, request by request',
    caption: `Closed loop, ${d.figure.slots} slots, every slot opened at once. The first ${d.figure.slots} requests queue behind each other's prefill; the whole-run p99 (dashed) falls inside that staircase, the p99 without it (dotted) does not.`,
    alt: `Scatter of time to first token against request index for ${d.figure.ttfts.length} requests. The first ${d.figure.slots} requests climb a staircase up to about ${Math.round(Math.max(...d.figure.ttfts.slice(0, d.figure.slots)))} ms; the rest stay near ${Math.round(d.figure.p99After)} ms or below.`,
    plot: {
      height: 360,
      marginLeft: 56,
      y: { type: 'log', label: 'TTFT (ms)', grid: true },
      x: { label: 'request index' },
      marks: [
        Plot.dot(d.figure.ttfts.map((v, i) => ({ i, v, wave: i < d.figure.slots })), {
          x: 'i',
          y: 'v',
          r: 1.6,
          fill: (p: { wave: boolean }) => (p.wave ? PALETTE.vermillion : PALETTE.blue),
        }),
        Plot.ruleY([d.figure.p99All], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }),
        Plot.ruleY([d.figure.p99After], { stroke: PALETTE.blue, strokeDasharray: '2,3' }),
        Plot.text([`whole-run p99`], { x: d.figure.ttfts.length, y: d.figure.p99All, textAnchor: 'end', dy: -6, fill: PALETTE.vermillion }),
        Plot.text([`p99 after the first wave`], { x: d.figure.ttfts.length, y: d.figure.p99After, textAnchor: 'end', dy: -6, fill: PALETTE.blue }),
      ],
    },
  }),
};
