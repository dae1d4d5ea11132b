/**
 * Figures of experiments/sensitivity.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE, WIDE_FIGURE_WIDTH } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { SensitivityData } from '../sensitivity.ts';
import { plain } from './lib/words.ts';

export const figures: Figures<SensitivityData> = {
  effects: (d) => {
    const effects = [
      { key: 'wave', label: 'first wave' },
      { key: 'omission', label: 'omission at 90%' },
      { key: 'definitions', label: 'definitions spread' },
      { key: 'metronome', label: 'metronome' },
    ];
    const base = d.rows[0] as Record<string, number | string>;
    const cells = d.rows.flatMap((r: Record<string, number | string>) =>
      effects.map((e) => ({ variant: r.label, effect: e.label, v: r[e.key] as number, rel: (r[e.key] as number) / (base[e.key] as number) })),
    );
    const labelLeft = (c: { rel: number }) => (c.rel < 1 && c.rel >= 0.4) || c.rel > 2;
    // What the caption and the description assert, read from the cells: every effect stays above 1× (none disappears), and where the metronome goes with the token budget.
    const x = (v: number) => `${v.toFixed(1)}×`;
    const kept = cells.every((c) => c.v > 1);
    const budgets = d.rows
      .filter((r: { id: string }) => r.id === 'baseline' || r.id.startsWith('budget_'))
      .map((r: { id: string; metronome: number }) => ({ budget: r.id === 'baseline' ? null : Number(r.id.slice('budget_'.length)), m: r.metronome }));
    const small = budgets.filter((b) => b.budget !== null).sort((a, b) => a.budget! - b.budget!);
    const followsBudget = small.length === 2 && small[0]!.m < budgets.find((b) => b.budget === null)!.m && budgets.find((b) => b.budget === null)!.m < small[1]!.m;
    const perEffect = effects.map((e) => {
      const cs = cells.filter((c) => c.effect === e.label && c.variant !== base.label);
      const lo = cs.reduce((a, b) => (b.v < a.v ? b : a));
      const hi = cs.reduce((a, b) => (b.v > a.v ? b : a));
      return `${e.label[0]!.toUpperCase()}${e.label.slice(1)}: ${x(base[e.key] as number)} on the baseline, from ${x(lo.v)} (${lo.variant}) to ${x(hi.v)} (${hi.variant}) on the others`;
    });
    return {
      title: `${effects.length} effects under ${d.rows.length} servers`,
      caption: plain(
        `Each row changes one constant of the simulated server; each panel is one effect of the paper, measured as in its own section, drawn relative to the baseline server (labels give the effect itself, as a ratio). ` +
          `${kept ? 'None of the effects disappears (every ratio stays above 1×)' : 'Some effect disappears on some server (a ratio at or below 1×)'}${followsBudget ? '; the metronome rises and falls with the token budget' : ''}.`,
      ),
      alt: plain(`${effects.length} panels of dots, one row per server variant (${d.rows.length} servers). ${perEffect.join('; ')}.`),
      plot: {
        width: WIDE_FIGURE_WIDTH,
        height: 420,
        marginLeft: 170,
        marginTop: 30,
        marginBottom: 40,
        fx: { label: null, domain: effects.map((e) => e.label) },
        y: { label: null, domain: d.rows.map((r: { label: string }) => r.label) },
        x: { type: 'log', domain: [0.25, 4], ticks: [0.5, 1, 2], tickFormat: (v: number) => `${v}×`, label: 'relative to the baseline server', grid: true },
        marks: [
          Plot.frame({ strokeOpacity: 0.2 }),
          Plot.ruleX([1], { stroke: 'currentColor', strokeOpacity: 0.5 }),
          Plot.dot(cells, { fx: 'effect', y: 'variant', x: 'rel', fill: PALETTE.blue, r: 4 }),
          // Each label beside its dot on the side away from the 1× rule, so none crosses it; near a panel's edge, on the inner side (still clear of the rule).
          Plot.text(cells.filter(labelLeft), { fx: 'effect', y: 'variant', x: 'rel', text: (c: { v: number }) => `${c.v.toFixed(1)}×`, textAnchor: 'end', dx: -6, fontSize: 9 }),
          Plot.text(cells.filter((c) => !labelLeft(c)), { fx: 'effect', y: 'variant', x: 'rel', text: (c: { v: number }) => `${c.v.toFixed(1)}×`, textAnchor: 'start', dx: 6, fontSize: 9 }),
        ],
      },
      // On a phone the four panels stand one above the other, each named at its top.
      narrow: {
        height: 1240,
        marginLeft: 182,
        marginRight: 12,
        marginTop: 30,
        marginBottom: 44,
        fy: { axis: null, domain: effects.map((e) => e.label), padding: 0.12 },
        y: { label: null, domain: d.rows.map((r: { label: string }) => r.label) },
        x: { type: 'log', domain: [0.25, 4], ticks: [0.5, 1, 2], tickFormat: (v: number) => `${v}×`, label: 'relative to the baseline', grid: true },
        marks: [
          Plot.frame({ strokeOpacity: 0.2 }),
          Plot.text(effects, { fy: 'label', text: 'label', frameAnchor: 'top-left', dx: 4, dy: -2, lineAnchor: 'bottom', fontWeight: 600 }),
          Plot.ruleX([1], { stroke: 'currentColor', strokeOpacity: 0.5 }),
          Plot.dot(cells, { fy: 'effect', y: 'variant', x: 'rel', fill: PALETTE.blue, r: 4 }),
          Plot.text(cells.filter(labelLeft), { fy: 'effect', y: 'variant', x: 'rel', text: (c: { v: number }) => `${c.v.toFixed(1)}×`, textAnchor: 'end', dx: -7 }),
          Plot.text(cells.filter((c) => !labelLeft(c)), { fy: 'effect', y: 'variant', x: 'rel', text: (c: { v: number }) => `${c.v.toFixed(1)}×`, textAnchor: 'start', dx: 7 }),
        ],
      },
    };
  },
};
