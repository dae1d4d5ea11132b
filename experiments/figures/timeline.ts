/**
 * Figures of experiments/timeline.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { TimelineData } from '../timeline.ts';
import { count, plain, value } from './lib/words.ts';

type Bin = TimelineData['timeline'][number];

/** When the batch first fills, when it last is full (the drain begins), and the echo's swing early and late between them. */
function phases(d: TimelineData, slots: number) {
  const bins = d.timeline;
  const full = bins.findIndex((b: Bin) => b.running >= slots);
  let last = bins.length - 1;
  while (last > full && bins[last]!.running < slots) last--;
  const sd = (xs: readonly Bin[]) => {
    const m = xs.reduce((a, b) => a + b.tokensPerS, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b.tokensPerS - m) ** 2, 0) / xs.length);
  };
  const steady = bins.slice(full + 1, last);
  const half = Math.floor(steady.length / 2);
  const peakWait = bins.reduce((a: Bin, b: Bin) => (b.waiting > a.waiting ? b : a));
  return { fullAt: bins[full]!.t, drainAt: bins[last]!.t, end: bins[bins.length - 1]!.t, damps: sd(steady.slice(0, half)) > sd(steady.slice(half)), early: sd(steady.slice(0, half)), late: sd(steady.slice(half)), peakWait };
}
const tok = (v: number) => `${count(v)} tokens/s`;

export const figures: Figures<TimelineData> = {
  throughput: (d, n) => {
    const p = phases(d, n('config.slots').value);
    // Read from the two averages drawn, so neither text says the whole run is below the steady level when it is not.
    const below = d.whole < d.steady;
    return {
    title: 'The first-wave run over time',
    caption: plain(
      `Output tokens per second in ${value(n('bin_s'), { digits: 1 })} bins (top) and requests running and waiting (bottom). ${below ? 'The prefill-heavy start and the drain pull the whole-run average (dashed) below the steady level (dotted)' : 'The whole-run average (dashed) is not below the steady level (dotted)'}${p.damps ? '; the wave leaves an echo that damps over the run' : '; the wave leaves an echo'}.`,
    ),
    // Read from the bins drawn: when the batch fills and drains, the two averages, and whether the echo's swing shrinks.
    alt: plain(
      `Throughput in ${value(n('bin_s'), { digits: 1 })} bins over ${count(p.end)} s: the batch fills by ${p.fullAt} s and stays full until ${p.drainAt} s, when the drain begins. ` +
        `The whole-run average, ${tok(d.whole)}, sits ${below ? 'below' : 'at or above'} the steady-window average, ${tok(d.steady)}. Between them throughput swings with a period of ${value(n('x10.echo_period_s'), { digits: 0 })} (median over ${n('config.seeds').value} seeds); ` +
        `its standard deviation is ${tok(p.early)} in the first half of the full stretch and ${tok(p.late)} in the second.`,
    ),
    plot: {
      height: 320,
      marginLeft: 60,
      marginTop: 44,
      x: { label: 'time (s)' },
      y: { label: 'output tokens/s', grid: true },
      marks: [
        Plot.areaY(d.timeline, { x: 't', y: 'tokensPerS', fill: PALETTE.blue, fillOpacity: 0.25, curve: 'step-after' }),
        Plot.lineY(d.timeline, { x: 't', y: 'tokensPerS', stroke: PALETTE.blue, curve: 'step-after' }),
        Plot.ruleY([d.whole], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }),
        Plot.ruleY([d.steady], { stroke: PALETTE.green, strokeWidth: 2, strokeDasharray: '4,2' }),
        Plot.text(['dashed: whole-run average'], { frameAnchor: 'top-right', dy: -34, textAnchor: 'end', fill: PALETTE.vermillion }),
        Plot.text(['dotted: steady-window average'], { frameAnchor: 'top-right', dy: -18, textAnchor: 'end', fill: PALETTE.green }),
      ],
    },
    };
  },
  queue: (d, n) => {
    const p = phases(d, n('config.slots').value);
    // Read from the two averages drawn, so neither text says the whole run is below the steady level when it is not.
    const below = d.whole < d.steady;
    return {
    title: 'Requests running and waiting',
    caption: plain(`Server-side counts at the end of each ${value(n('bin_s'), { digits: 1 })} bin for the same run.`),
    // Read from the counts drawn.
    alt: plain(
      `The running count climbs to the slot count, ${n('config.slots').value}, by ${p.fullAt} s and stays there until ${p.drainAt} s, then drains to zero by ${count(p.end)} s; ` +
        `the waiting count peaks at ${p.peakWait.waiting} at ${p.peakWait.t} s${p.peakWait.t < p.fullAt ? ', before the batch is full' : ''}.`,
    ),
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
    };
  },
};
