/**
 * Figures of experiments/omission.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import { formatValue } from '../../src/format/value.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { OmissionData } from '../omission.ts';

/** The two lines in words; values are in seconds, as the data holds them. */
function omissionAlt(lines: readonly { load: number; v: number; clock: string }[]): string {
  const s = (v: number) => formatValue(v, 's', v < 1 ? { as: 'ms', digits: 0 } : { digits: 1 });
  const send = lines.filter((l) => l.clock === 'from send (printed)').map((l) => l.v);
  const due = lines.filter((l) => l.clock === 'from due (experienced)').sort((a, b) => a.load - b.load);
  const full = due.find((l) => l.load >= 100) ?? due[due.length - 1];
  const last = due[due.length - 1];
  return `Two lines against offered load: the from-send p99 stays between ${s(Math.min(...send))} and ${s(Math.max(...send))}; the from-due p99 climbs from ${s(due[0].v)} at ${due[0].load}% to ${s(full.v)} at ${full.load}% and ${s(last.v)} at ${last.load}%, ${formatValue(last.v / full.v, '×', { digits: 1 })} its value at full load.`.replace(/\u00a0/g, ' '); // plain spaces: the description is an attribute of the SVG
}

export const figures: Figures<OmissionData> = {
  p99: (d, n) => ({
    title: 'The queue the client hides',
    caption:
      `Poisson arrivals behind a client cap of ${n('config.cap').value} in flight. p99 time to first token timed from the send (after the semaphore, what the tools print) and from when each request was due: median over ${d.seeds} seeds per load, bars from the lower to the upper quartile of the seeds.`,
    // Read from the data: the send line's range, and how far the due line climbs from full load to the last load.
    alt: omissionAlt(d.lines as { load: number; v: number; clock: string }[]),
    plot: {
      height: 360,
      marginLeft: 60,
      x: { label: `offered load (% of ${n('config.cap').value}-slot capacity)` },
      y: { type: 'log', label: 'p99 TTFT', grid: true, tickFormat: (v: number) => (v >= 1 ? `${v} s` : `${Math.round(v * 1000)} ms`) },
      color: { domain: ['from send (printed)', 'from due (experienced)'], range: [PALETTE.blue, PALETTE.vermillion] },
      marks: [
        Plot.ruleX(d.lines, { x: 'load', y1: 'q1', y2: 'q3', stroke: 'clock', strokeWidth: 1.5, strokeOpacity: 0.6 }),
        Plot.line(d.lines, { x: 'load', y: 'v', stroke: 'clock', strokeWidth: 2 }),
        Plot.dot(d.lines, { x: 'load', y: 'v', fill: 'clock', r: 3 }),
        Plot.text(['from due (experienced)'], { frameAnchor: 'top-left', dx: 8, dy: 8, fill: PALETTE.vermillion }),
        Plot.text(['from send (printed)'], { frameAnchor: 'top-left', dx: 8, dy: 24, fill: PALETTE.blue }),
      ],
    },
  }),
};
