/**
 * Figures of experiments/metronome.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import { median } from '../lib/measure.ts';
import type { MetronomeData } from '../metronome.ts';
import { count, durationMs, plain, value } from './lib/words.ts';

export const figures: Figures<MetronomeData> = {
  ttft: (d, n) => {
    const len = count(n('config.length').value);
    const lo = count(n('range.inferencex_lo_tokens').value);
    const hi = count(n('range.inferencex_hi_tokens').value);
    return {
    title: 'Fixed lengths make a metronome',
    caption: plain(
      `Steady-state time to first token per request (after the first wave) in the first seed’s run, closed loop of ${n('config.slots').value} slots. Identical lengths (vermillion) lock requests into cohorts that share a prefill; lengths drawn from a range (blue) do not.`,
    ),
    // Read from the series drawn, and the cohort sizes the experiment measured on them.
    alt: plain(
      `Two series of steady-state TTFT against request index, ${count(d.fixed.length)} requests each, on a log axis. Fixed lengths of ${len} tokens sit in bands around a median of ${durationMs(median(d.fixed))}, in cohorts of ${value(n('fixed.cohort_mean'), { digits: 1 })} on average; ` +
        `lengths drawn from ${lo} to ${hi} tokens sit around ${durationMs(median(d.ranged))}, in cohorts of ${value(n('ranged.cohort_mean'), { digits: 1 })}.`,
    ),
    plot: {
      height: 340,
      marginLeft: 56,
      y: { type: 'log', label: 'TTFT (ms)', grid: true },
      x: { label: 'request index (after the first wave)' },
      marks: [
        Plot.dot(d.fixed.map((v: number, i: number) => ({ i, v })), { x: 'i', y: 'v', r: 1.5, fill: PALETTE.vermillion }),
        Plot.dot(d.ranged.map((v: number, i: number) => ({ i, v })), { x: 'i', y: 'v', r: 1.5, fill: PALETTE.blue }),
        Plot.text([`fixed ${len} / ${len}`], { frameAnchor: 'top-right', dy: 4, fill: PALETTE.vermillion }),
        // Both names as a key at the top right, where neither series reaches: beside the ranged series its outliers would run through the label.
        Plot.text([`InferenceX range [${lo}, ${hi}]`], { frameAnchor: 'top-right', dy: 20, fill: PALETTE.blue }),
      ],
    },
    };
  },
  range_ratio: (d, n) => ({
    title: 'One flag value, two distributions',
    caption: plain(`Lengths drawn with a range ratio of ${value(n('config.range_ratio'), { digits: 1 })} around a nominal ${count(d.length)} tokens: upstream vLLM samples [L(1−r), L(1+r)], InferenceX samples [rL, L].`),
    // Read from the two ranges the experiment derived from the tools' formulas.
    alt: plain(
      `Two histograms of lengths around a nominal ${count(d.length)} tokens: upstream vLLM's runs from ${count(n('range.vllm_lo_tokens').value)} to ${count(n('range.vllm_hi_tokens').value)} tokens ` +
        `(${value(n('range.vllm_lo_pct'), { digits: 0 })} to ${value(n('range.vllm_hi_pct'), { digits: 0 })} of it), InferenceX's from ${count(n('range.inferencex_lo_tokens').value)} to ${count(n('range.inferencex_hi_tokens').value)} (${value(n('range.inferencex_lo_pct'), { digits: 0 })} to ${value({ ...n('range.inferencex_lo_pct'), value: (100 * n('range.inferencex_hi_tokens').value) / d.length }, { digits: 0 })}).`,
    ),
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
