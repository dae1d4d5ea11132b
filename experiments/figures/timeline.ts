/**
 * Figures of experiments/timeline.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { TimelineData } from '../timeline.ts';

export const figures: Figures<TimelineData> = {
  throughput: (d) => ({
    title: 'The first-wave run over time',
    caption:
      'Output tokens per second in half-second bins (top) and requests running and waiting (bottom). The prefill-heavy start and the drain pull the whole-run average (dashed) below the steady level (dotted); the wave leaves a slowly damping echo.',
    alt: 'Throughput rises after a slow prefill start, oscillates with a period of several seconds that damps over the run, and falls off during the drain. The running count stays at the slot count until the drain.',
    plot: {
      height: 300,
      marginLeft: 60,
      x: { label: 'time (s)' },
      y: { label: 'output tokens/s', grid: true },
      marks: [
        Plot.areaY(d.timeline, { x: 't', y: 'tokensPerS', fill: PALETTE.blue, fillOpacity: 0.25, curve: 'step-after' }),
        Plot.lineY(d.timeline, { x: 't', y: 'tokensPerS', stroke: PALETTE.blue, curve: 'step-after' }),
        Plot.ruleY([d.whole], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }),
        Plot.ruleY([d.steady], { stroke: PALETTE.green, strokeWidth: 2, strokeDasharray: '4,2' }),
        Plot.text(['whole-run average'], { x: d.timeline[0].t, y: d.whole, dy: 12, dx: 30, textAnchor: 'start', fill: PALETTE.vermillion }),
        Plot.text(['steady-window average'], { x: d.timeline[0].t, y: d.steady, dy: -10, dx: 30, textAnchor: 'start', fill: PALETTE.green }),
      ],
    },
  }),
  queue: (d) => ({
    title: 'Requests running and waiting',
    caption: 'Server-side counts at the end of each half-second bin for the same run.',
    alt: 'The running count climbs to the slot count within the first second and stays there until the drain; the waiting count spikes at the start.',
    plot: {
      height: 220,
      marginLeft: 60,
      x: { label: 'time (s)' },
      y: { label: 'requests', grid: true },
      marks: [
        Plot.lineY(d.timeline, { x: 't', y: 'running', stroke: PALETTE.blue, curve: 'step-after' }),
        Plot.lineY(d.timeline, { x: 't', y: 'waiting', stroke: PALETTE.vermillion, curve: 'step-after' }),
        Plot.text(['running'], { x: d.timeline[Math.floor(d.timeline.length / 2)].t, y: d.timeline[Math.floor(d.timeline.length / 2)].running, dy: -8, fill: PALETTE.blue }),
        // The waiting series is named where it lies flat, mid-run, so the label touches neither line's climb.
        Plot.text(['waiting'], { x: d.timeline[Math.floor(d.timeline.length / 2)].t, y: d.timeline[Math.floor(d.timeline.length / 2)].waiting, dy: -8, fill: PALETTE.vermillion }),
      ],
    },
  }),
};
