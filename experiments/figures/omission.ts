/**
 * Figures of experiments/omission.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OmissionData } from '../omission.ts';

export const figures: Figures<OmissionData> = {
  p99: (d) => ({
    title: 'The queue the client hides',
    caption:
      'Poisson arrivals behind a client cap of 64 in flight. p99 time to first token timed from the send (after the semaphore, what the tools print) and from when each request was due.',
    alt: 'Two lines against offered load: the from-send p99 stays flat at tens of milliseconds, the from-due p99 climbs by three orders of magnitude past full load.',
    plot: {
      height: 360,
      marginLeft: 60,
      x: { label: 'offered load (% of 64-slot capacity)' },
      y: { type: 'log', label: 'p99 TTFT', grid: true, tickFormat: (v: number) => (v >= 1 ? `${v} s` : `${Math.round(v * 1000)} ms`) },
      color: { domain: ['from send (printed)', 'from due (experienced)'], range: [PALETTE.blue, PALETTE.vermillion] },
      marks: [
        Plot.line(d.lines, { x: 'load', y: 'v', stroke: 'clock', strokeWidth: 2 }),
        Plot.dot(d.lines, { x: 'load', y: 'v', fill: 'clock', r: 3 }),
        Plot.text(['from due (experienced)'], { frameAnchor: 'top-left', dx: 8, dy: 8, fill: PALETTE.vermillion }),
        Plot.text(['from send (printed)'], { frameAnchor: 'top-left', dx: 8, dy: 24, fill: PALETTE.blue }),
      ],
    },
  }),
};
