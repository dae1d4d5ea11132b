/**
 * Figures of experiments/metronome.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import { median } from '../lib/measure.ts';
import type { MetronomeData } from '../metronome.ts';

export const figures: Figures<MetronomeData> = {
  ttft: (d) => ({
    title: 'Fixed lengths make a metronome',
    caption:
      'Steady-state time to first token per request (after the first wave), closed loop of 64 slots. Identical lengths (orange) lock requests into cohorts that share a prefill; lengths drawn from a range (blue) do not.',
    alt: `Two series of steady-state TTFT against request index. Fixed lengths sit in bands around ${Math.round(median(d.fixed))} ms; ranged lengths sit around ${Math.round(median(d.ranged))} ms.`,
    plot: {
      height: 340,
      marginLeft: 56,
      y: { type: 'log', label: 'TTFT (ms)', grid: true },
      x: { label: 'request index (after the first wave)' },
      marks: [
        Plot.dot(d.fixed.map((v: number, i: number) => ({ i, v })), { x: 'i', y: 'v', r: 1.5, fill: PALETTE.vermillion }),
        Plot.dot(d.ranged.map((v: number, i: number) => ({ i, v })), { x: 'i', y: 'v', r: 1.5, fill: PALETTE.blue }),
        Plot.text(['fixed 1,024 / 1,024'], { frameAnchor: 'top-right', dy: 4, fill: PALETTE.vermillion }),
        Plot.text(['InferenceX range [819, 1,024]'], { x: d.ranged.length, y: 50, textAnchor: 'end', fill: PALETTE.blue }),
      ],
    },
  }),
  range_ratio: (d) => ({
    title: 'One flag value, two distributions',
    caption: `Lengths drawn with a range ratio of 0.8 around a nominal ${d.length} tokens: upstream vLLM samples [L(1−r), L(1+r)], InferenceX samples [rL, L].`,
    alt: 'Two histograms: the upstream vLLM one is flat and wide, the InferenceX one is narrow and sits just below the nominal length.',
    plot: {
      height: 260,
      marginLeft: 56,
      x: { label: 'length (tokens)' },
      y: { label: 'share of draws (% per bin)', grid: true, percent: true },
      color: { domain: [...new Set(d.histograms.map((h: { tool: string }) => h.tool))], range: [PALETTE.orange, PALETTE.blue] },
      marks: [
        Plot.rectY(d.histograms, { x1: 'x', x2: 'x2', y: 'share', fill: 'tool', fillOpacity: 0.7 }),
        Plot.ruleX([d.length], { strokeDasharray: '4,3' }),
        Plot.text(['upstream vLLM'], { frameAnchor: 'top-left', dx: 8, dy: 8, fill: PALETTE.orange }),
        Plot.text(['InferenceX'], { frameAnchor: 'top-left', dx: 8, dy: 24, fill: PALETTE.blue }),
      ],
    },
  }),
};
