/**
 * Figures of experiments/derivations.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { DerivationsData } from '../derivations.ts';
import { count, plain, value } from './lib/words.ts';

type Point = { perUser: number; total: number };

export const figures: Figures<DerivationsData> = {
  envelope: (d, n) => {
    // Below and left of the line: each run's speed under the envelope's speed at the run's throughput (the envelope falls as throughput grows).
    const under = (r: Point) => {
      const e = d.envelope as Point[];
      const k = e.findIndex((p) => p.total >= r.total);
      if (k <= 0) return k === 0 ? r.perUser <= e[0]!.perUser : false;
      const a = e[k - 1]!;
      const b = e[k]!;
      const t = (Math.log(r.total) - Math.log(a.total)) / (Math.log(b.total) - Math.log(a.total));
      return r.perUser <= a.perUser + t * (b.perUser - a.perUser);
    };
    const inside = (d.runs as Point[]).filter(under).length;
    return {
    title: 'The roofline envelope',
    caption: `Per-user decode speed against total output throughput for a model shaped like Llama 3.1 8B, with BF16 weights, on an H100-class GPU, decoding at ${count(d.context)} tokens of context on the ideal roofline (line), and the simulated closed-loop runs (dots, labelled with their slots).`,
    // Read from the envelope and the runs drawn.
    alt: plain(
      `A curve falling from the batch-one bound of ${value(n('roofline.batch1_bound_tok_per_s'), { digits: 0 })} per user at the left to ${count(d.envelope[d.envelope.length - 1].perUser)} tok/s per user at ${count(d.envelope[d.envelope.length - 1].total)} tok/s in total; ` +
        `${inside === d.runs.length ? `all ${d.runs.length} simulated runs sit` : `${inside} of the ${d.runs.length} simulated runs sit`} below it, from ${d.runs[0].slots} to ${d.runs[d.runs.length - 1].slots} slots.`,
    ),
    plot: {
      height: 380,
      marginLeft: 60,
      // Padded on the left so the one-slot run's dot and label clear the y axis.
      x: { type: 'log', label: 'total output throughput (tok/s)', grid: true, domain: [Math.min(...[...d.envelope, ...d.runs].map((p: Point) => p.total)) / 1.4, Math.max(...d.envelope.map((p: Point) => p.total))] },
      y: { label: 'per-user speed (tok/s)', grid: true },
      marks: [
        Plot.line(d.envelope, { x: 'total', y: 'perUser', stroke: PALETTE.vermillion, strokeWidth: 2 }),
        Plot.dot(d.runs, { x: 'total', y: 'perUser', fill: PALETTE.blue, r: 4 }),
        Plot.text(d.runs, { x: 'total', y: 'perUser', text: (r: { slots: number }) => `${r.slots}`, dy: -9, fill: PALETTE.blue }),
        Plot.text(['ideal roofline'], { x: d.envelope[4].total, y: d.envelope[4].perUser, dy: -12, textAnchor: 'start', fill: PALETTE.vermillion }),
      ],
    },
    };
  },
};
