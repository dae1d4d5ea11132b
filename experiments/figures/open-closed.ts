/**
 * Figures of experiments/open-closed.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import { formatValue } from '../../src/format/value.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OpenClosedData } from '../open-closed.ts';

/** The crosses in words: how many collapsed and how deep, in the unit they were computed in (ms). */
function peakAlt(peaks: readonly { p99: number; collapsed: boolean }[]): string {
  const deep = peaks.filter((r) => r.collapsed).map((r) => r.p99);
  const where = deep.length
    ? `${deep.length} of ${peaks.length} open-loop seeds sit far above both, from ${formatValue(Math.min(...deep), 'ms', { as: 'seconds', digits: 1 })} to ${formatValue(Math.max(...deep), 'ms', { as: 'seconds', digits: 1 })}`
    : `none of ${peaks.length} open-loop seeds collapses`;
  return `Two rising lines that stay close in the middle of the range; at the peak rate ${where}.`.replace(/\u00a0/g, ' '); // plain spaces: the description is an attribute of the SVG
}

export const figures: Figures<OpenClosedData> = {
  p99: (d) => {
    type Cell = { v: number; q1: number; q3: number };
    const rows = d.sweep.flatMap((s: { slots: number; rate: number; closed: Cell; open: Cell | null }) => [
      { rate: s.rate, ms: s.closed.v, q1: s.closed.q1, q3: s.closed.q3, loop: 'closed loop (steady window)', slots: s.slots },
      ...(s.open === null ? [] : [{ rate: s.rate, ms: s.open.v, q1: s.open.q1, q3: s.open.q3, loop: 'Poisson at the same rate', slots: s.slots }]),
    ]);
    return {
      title: 'The same server, closed and open',
      caption:
        `p99 time to first token against delivered request rate: the closed-loop sweep in its steady window, and Poisson arrivals at each rate the sweep delivered; median over ${d.seeds} seeds per point, bars from the lower to the upper quartile of the seeds. The crosses are open-loop runs at the sweep’s peak rate with different seeds.`,
      // The description is read from the data it describes, so it cannot say other than the figure shows.
      alt: peakAlt(d.peaks as { p99: number; collapsed: boolean }[]),
      plot: {
        height: 380,
        marginLeft: 60,
        x: { label: 'request rate (req/s)', grid: true },
        y: { type: 'log', label: 'p99 TTFT (ms)', grid: true },
        color: { domain: ['closed loop (steady window)', 'Poisson at the same rate'], range: [PALETTE.blue, PALETTE.vermillion] },
        marks: [
          Plot.ruleX(rows, { x: 'rate', y1: 'q1', y2: 'q3', stroke: 'loop', strokeWidth: 1.5, strokeOpacity: 0.6 }),
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
