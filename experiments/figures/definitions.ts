/**
 * Figures of experiments/definitions.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { DefinitionsData } from '../definitions.ts';
import { count, plain, value } from './lib/words.ts';

export const figures: Figures<DefinitionsData> = {
  speeds: (d, n) => {
    const label = (b: { tool: string; metric: string }) => `${b.tool} · ${b.metric}`;
    const domain = d.bars.map(label);
    type Bar = (typeof d.bars)[number];
    const lo = d.bars.reduce((a: Bar, b: Bar) => (b.tokPerS < a.tokPerS ? b : a));
    const hi = d.bars.reduce((a: Bar, b: Bar) => (b.tokPerS > a.tokPerS ? b : a));
    const values = Plot.text(d.bars, { y: label, x: 'tokPerS', text: (b: { tokPerS: number }) => b.tokPerS.toFixed(1), textAnchor: 'start', dx: 4 });
    return {
      title: `One run, ${d.bars.length} per-user speeds`,
      caption: plain(
        `The same simulated timestamps (${count(n('config.users').value)} users, ${count(n('config.isl').value)} in / ${count(n('config.osl').value)} out) measured with each tool’s headline per-token definition, converted to tokens per second per user.`,
      ),
      // Read from the bars: their range, which tool's definition gives each end, and the ratio between them.
      alt: plain(
        `Horizontal bars, one per tool's headline definition (${d.bars.length}), from ${Math.round(lo.tokPerS)} (${label(lo)}) to ${Math.round(hi.tokPerS)} (${label(hi)}) tokens per second per user, ${value(n('speed.spread_x'), { digits: 2 })} apart.`,
      ),
      plot: {
        height: 320,
        marginLeft: 330,
        marginRight: 50,
        x: { label: 'tokens/s per user', grid: true },
        y: { label: null, domain: d.bars.map((b: { tool: string; metric: string }) => `${b.tool} · ${b.metric}`) },
        marks: [
          Plot.barX(d.bars, { y: (b: { tool: string; metric: string }) => `${b.tool} · ${b.metric}`, x: 'tokPerS', fill: PALETTE.blue }),
          Plot.text(d.bars, {
            y: (b: { tool: string; metric: string }) => `${b.tool} · ${b.metric}`,
            x: 'tokPerS',
            text: (b: { tokPerS: number }) => b.tokPerS.toFixed(1),
            textAnchor: 'start',
            dx: 4,
          }),
          Plot.ruleX([0]),
        ],
      },
      // On a phone the labels go above their bars: beside them they would leave the bars no room.
      narrow: {
        height: 480,
        marginLeft: 4,
        marginRight: 56,
        marginTop: 24,
        marginBottom: 40,
        x: { label: 'tokens/s per user', grid: true },
        y: { axis: null, domain, padding: 0.55 },
        marks: [
          Plot.barX(d.bars, { y: label, x: 'tokPerS', fill: PALETTE.blue }),
          Plot.text(d.bars, { y: label, x: 0, text: label, textAnchor: 'start', lineAnchor: 'bottom', dy: -16 }),
          values,
          Plot.ruleX([0]),
        ],
      },
    };
  },
};
