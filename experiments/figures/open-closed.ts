/**
 * Figures of experiments/open-closed.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OpenClosedData } from '../open-closed.ts';
import { durationMs, ofTotal, plain, range } from './lib/words.ts';

type Cell = { v: number; q1: number; q3: number };
type Point = { slots: number; rate: number; closed: Cell; open: Cell | null };
type Peak = { p99: number; collapsed: boolean };

const rate = (v: number) => `${v.toFixed(1)} req/s`;

/** The lines and the crosses in words, read from the data drawn. */
function p99Alt(d: OpenClosedData, rising: readonly Point[], past: readonly Point[], collapseMs: number): string {
  const both = rising.filter((s) => s.open);
  const ratios = both.map((s) => s.open!.v / s.closed.v);
  const deep = (d.peaks as Peak[]).filter((r) => r.collapsed).map((r) => r.p99);
  const fine = (d.peaks as Peak[]).filter((r) => !r.collapsed).map((r) => r.p99);
  const crosses = deep.length
    ? `${ofTotal(deep.length, d.peaks.length, 'open-loop seeds')} collapse (p99 above ${durationMs(collapseMs)}), ${range(deep, durationMs)}${fine.length ? `; the other ${fine.length} stay ${range(fine, durationMs)}` : ''}`
    : `none of ${d.peaks.length} open-loop seeds collapses; they run ${range(fine, durationMs)}`;
  const beyond = past.map((s) => `at ${s.slots} slots the closed loop delivers only ${rate(s.rate)}, with a p99 of ${durationMs(s.closed.v)}`).join('; ');
  return plain(
    `Two lines of median p99 TTFT against request rate on a log axis, from ${rate(rising[0]!.rate)} to ${rate(rising[rising.length - 1]!.rate)}: the closed loop ${range(rising.map((s) => s.closed.v), durationMs)}, ` +
      `Poisson arrivals at the same rates ${range(both.map((s) => s.open!.v), durationMs)}, the open loop's p99 ${range(ratios, (v) => `${v.toFixed(2)}×`)} the closed loop's. ` +
      `${beyond ? `Past the peak, ${beyond}. ` : ''}At the peak rate ${crosses}.`,
  );
}

export const figures: Figures<OpenClosedData> = {
  p99: (d, n) => {
    const sweep = [...(d.sweep as Point[])].sort((a, b) => a.slots - b.slots);
    // The sweep rises in rate up to its peak; more slots past it deliver less. The line stops at the peak, and what lies past it is drawn apart.
    const top = sweep.reduce((best, s, i) => (s.rate > sweep[best]!.rate ? i : best), 0);
    const rising = sweep.slice(0, top + 1);
    const past = sweep.slice(top + 1);
    const collapseMs = n('config.collapse_ms').value;
    const rows = rising.flatMap((s) => [
      { rate: s.rate, ms: s.closed.v, q1: s.closed.q1, q3: s.closed.q3, loop: 'closed loop (steady window)', slots: s.slots },
      ...(s.open === null ? [] : [{ rate: s.rate, ms: s.open.v, q1: s.open.q1, q3: s.open.q3, loop: 'Poisson at the same rate', slots: s.slots }]),
    ]);
    const beyond = [sweep[top]!, ...past].map((s) => ({ rate: s.rate, ms: s.closed.v, q1: s.closed.q1, q3: s.closed.q3, slots: s.slots }));
    const peaks = d.peaks as Peak[];
    const collapsed = peaks.filter((r) => r.collapsed).length;
    return {
      title: 'The same server, closed and open',
      caption: plain(
        `p99 time to first token against delivered request rate: the closed-loop sweep in its steady window, and Poisson arrivals at each rate the sweep delivered; median over ${d.seeds} seeds per point, bars from the lower to the upper quartile of the seeds. ` +
          // The peak is the sweep's highest rate, so every point past it delivers no more; there may be none.
          `${past.length ? `Past ${sweep[top]!.slots} slots the closed loop delivers less, not more (dashed). ` : ''}The crosses are open-loop runs at the sweep’s peak rate, one per seed: purple if the run collapsed (p99 above ${durationMs(collapseMs)}), green if it did not.`,
      ),
      // The description is read from the data it describes, so it cannot say other than the figure shows.
      alt: p99Alt(d, rising, past, collapseMs),
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
          Plot.ruleX(past, { x: 'rate', y1: (s: Point) => s.closed.q1, y2: (s: Point) => s.closed.q3, stroke: PALETTE.blue, strokeWidth: 1.5, strokeOpacity: 0.6 }),
          Plot.line(beyond, { x: 'rate', y: 'ms', stroke: PALETTE.blue, strokeWidth: 1.5, strokeDasharray: '4,3' }),
          Plot.dot(past, { x: 'rate', y: (s: Point) => s.closed.v, fill: PALETTE.blue, r: 3 }),
          Plot.text(past, { x: 'rate', y: (s: Point) => s.closed.v, text: (s: Point) => `${s.slots} slots`, textAnchor: 'end', lineAnchor: 'top', dx: -7, dy: 6, fill: PALETTE.blue }),
          Plot.dot(peaks, { x: () => d.peakRate, y: 'p99', symbol: 'times', stroke: (r: Peak) => (r.collapsed ? PALETTE.purple : PALETTE.green), r: 5 }),
          Plot.text(['closed loop'], { frameAnchor: 'top-left', dx: 8, dy: 8, fill: PALETTE.blue }),
          Plot.text(['Poisson at the same rate'], { frameAnchor: 'top-left', dx: 8, dy: 24, fill: PALETTE.vermillion }),
          Plot.text([`× peak-rate seeds, collapsed: ${collapsed}`], { frameAnchor: 'top-left', dx: 8, dy: 40, fill: PALETTE.purple }),
          Plot.text([`× peak-rate seeds, not collapsed: ${peaks.length - collapsed}`], { frameAnchor: 'top-left', dx: 8, dy: 56, fill: PALETTE.green }),
        ],
      },
    };
  },
};
