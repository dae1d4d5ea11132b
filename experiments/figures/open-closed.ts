/**
 * Figures of experiments/open-closed.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OpenClosedData } from '../open-closed.ts';

export const figures: Figures<OpenClosedData> = {
  p99: (d) => {
    const rows = d.sweep.flatMap((s: { slots: number; rate: number; closed: number; open: number | null }) => [
      { rate: s.rate, ms: s.closed, loop: 'closed loop (steady window)', slots: s.slots },
      ...(s.open === null ? [] : [{ rate: s.rate, ms: s.open, loop: 'Poisson at the same rate', slots: s.slots }]),
    ]);
    return {
      title: 'The same server, closed and open',
      caption:
        'p99 time to first token against delivered request rate: the closed-loop sweep in its steady window, and Poisson arrivals at each rate the sweep delivered. The crosses are open-loop runs at the sweep’s peak rate with different seeds.',
      alt: 'Two rising lines that stay close in the middle of the range; at the peak rate several open-loop seeds sit far above both, at tens of seconds.',
      plot: {
        height: 380,
        marginLeft: 60,
        x: { label: 'request rate (req/s)', grid: true },
        y: { type: 'log', label: 'p99 TTFT (ms)', grid: true },
        color: { domain: ['closed loop (steady window)', 'Poisson at the same rate'], range: [PALETTE.blue, PALETTE.vermillion] },
        marks: [
          Plot.line(rows, { x: 'rate', y: 'ms', stroke: 'loop', strokeWidth: 2 }),
          Plot.dot(rows, { x: 'rate', y: 'ms', fill: 'loop', r: 3 }),
          Plot.dot(d.peaks, { x: () => d.peakRate, y: 'p99', symbol: 'times', stroke: (r: { collapsed: boolean }) => (r.collapsed ? PALETTE.purple : PALETTE.green), r: 5 }),
          Plot.text(['closed loop'], { frameAnchor: 'top-left', dx: 8, dy: 8, fill: PALETTE.blue }),
          Plot.text(['Poisson at the same rate'], { frameAnchor: 'top-left', dx: 8, dy: 24, fill: PALETTE.vermillion }),
        ],
      },
    };
  },
};
