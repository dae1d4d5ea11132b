/**
 * Figures of experiments/derivations.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { DerivationsData } from '../derivations.ts';

export const figures: Figures<DerivationsData> = {
  envelope: (d) => ({
    title: 'The roofline envelope',
    caption: `Per-user decode speed against total output throughput for a model shaped like Llama 3.1 8B, with BF16 weights, on an H100-class GPU, decoding at ${d.context} tokens of context on the ideal roofline (line), and the simulated closed-loop runs (dots).`,
    alt: 'A curve falling from the batch-one speed at the left to a compute-bound wall at the right; the simulated runs all sit below and to the left of it.',
    plot: {
      height: 380,
      marginLeft: 60,
      x: { type: 'log', label: 'total output throughput (tok/s)', grid: true },
      y: { label: 'per-user speed (tok/s)', grid: true },
      marks: [
        Plot.line(d.envelope, { x: 'total', y: 'perUser', stroke: PALETTE.vermillion, strokeWidth: 2 }),
        Plot.dot(d.runs, { x: 'total', y: 'perUser', fill: PALETTE.blue, r: 4 }),
        Plot.text(d.runs, { x: 'total', y: 'perUser', text: (r: { slots: number }) => `${r.slots}`, dy: -9, fill: PALETTE.blue }),
        Plot.text(['ideal roofline'], { x: d.envelope[4].total, y: d.envelope[4].perUser, dy: -12, textAnchor: 'start', fill: PALETTE.vermillion }),
      ],
    },
  }),
};
