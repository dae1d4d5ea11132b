/**
 * Figure 11 of experiments/tokens.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { NEUTRAL, SHADES, WIDE_FIGURE_WIDTH } from '../../src/figure-style.ts';
import type { FigureSpec, Figures } from '../../src/pipeline/types.ts';
import { count } from './lib/words.ts';

/** `621 to 1,170`. */
const tokenRange = (xs: readonly number[], w: (v: number) => string) => `${w(Math.min(...xs))} to ${w(Math.max(...xs))}`;
import type { TokensData, TokensRow } from '../tokens.ts';

export function figure11(data: TokensData): FigureSpec {
  const names = data.tokenizers.map((t) => t.name);
  const labels = data.corpora.map((c) => c.label);
  const max = Math.max(...data.rows.map((r) => r.perKchar));
  const fill = (r: TokensRow) => (r.article === 'extra' ? 'not in the article' : 'in the article');
  const colors = { domain: ['in the article', 'not in the article'], range: [SHADES.strong, SHADES.pale] };
  const first = labels[0];
  // The key, drawn as text marks above the top panel (no HTML legend): [text, colour, x offset from the left edge].
  const keyItems: [string, string, number][] = [
    ['■', colors.range[0]!, 0],
    ['named in the article (Gemma 3 stands in for Gemma 4)', NEUTRAL.text, 14],
    ['■', colors.range[1]!, 330],
    ['not named in the article', NEUTRAL.text, 344],
  ];
  const key = keyItems.map(([text, color, dx]) =>
    Plot.text([text], { fy: () => first, frameAnchor: 'top-left', text: (d: string) => d, dx, dy: -26, fill: color, textAnchor: 'start', fontSize: 11 }),
  );
  // On a phone the key stands on three lines: [text, colour, x offset, line].
  const narrowItems: [string, string, number, number][] = [
    ['■', colors.range[0]!, 0, 0],
    ['named in the article', NEUTRAL.text, 16, 0],
    ['(Gemma 3 stands in for Gemma 4)', NEUTRAL.text, 16, 1],
    ['■', colors.range[1]!, 0, 2],
    ['not named in the article', NEUTRAL.text, 16, 2],
  ];
  const narrowKey = narrowItems.map(([text, color, dx, line]) =>
    Plot.text([text], { fy: () => first, frameAnchor: 'top-left', text: (d: string) => d, dx, dy: -62 + 18 * line, fill: color, textAnchor: 'start', fontSize: 13 }),
  );
  const bars = [
    Plot.barX(data.rows, { x: 'perKchar', y: 'name', fy: 'corpusLabel', fill, insetTop: 1, insetBottom: 1 }),
    Plot.text(data.rows, { x: 'perKchar', y: 'name', fy: 'corpusLabel', text: (r: TokensRow) => r.perKchar.toFixed(0), textAnchor: 'start', dx: 4, fontSize: 10 }),
    Plot.ruleX([0]),
  ];
  const scales = {
    x: { domain: [0, max * 1.12], label: 'tokens per 1,000 characters →', grid: true },
    y: { domain: names, label: null },
    fy: { domain: labels, label: null },
    color: colors,
  };
  return {
    title: 'Tokens per 1,000 characters, by tokenizer and text',
    // The essay's size and its bars' token counts, from the data: what makes its bars the noisiest.
    caption:
      `The same text, counted by ${count(data.tokenizers.length)} tokenizers without special tokens. Each bar is a whole corpus, counted file by file; ` +
      `the essays are short (${data.corpora.filter((c) => c.files === 1).map((c) => `${c.label}: ${count(c.characters)} characters`).join('; ')}), so their bars carry only ${tokenRange(data.rows.filter((r) => data.corpora.some((c) => c.files === 1 && c.id === r.corpus)).map((r) => r.tokens), count)} tokens each.`,
    alt:
      `${data.corpora.length} panels of horizontal bars, one per text (${labels.join(', ')}), one bar per tokenizer (${names.join(', ')}). ` +
      data.corpora
        .map((c) => {
          const rows = data.rows.filter((r) => r.corpus === c.id);
          const lo = rows.reduce((a, b) => (b.perKchar < a.perKchar ? b : a));
          const hi = rows.reduce((a, b) => (b.perKchar > a.perKchar ? b : a));
          return `${c.label}: from ${lo.perKchar.toFixed(0)} (${lo.name}) to ${hi.perKchar.toFixed(0)} (${hi.name}) tokens per 1,000 characters.`;
        })
        .join(' '),
    plot: {
      width: WIDE_FIGURE_WIDTH,
      height: 640,
      marginLeft: 100,
      marginRight: 120,
      marginTop: 40,
      marginBottom: 40,
      ...scales,
      marks: [...bars, ...key],
    },
    narrow: {
      height: 780,
      marginLeft: 110,
      marginRight: 120,
      marginTop: 84,
      marginBottom: 48,
      ...scales,
      x: { ...scales.x, label: 'per 1,000 characters →', ticks: 3 },
      marks: [...bars, ...narrowKey],
    },
  };
}

export const figures: Figures<TokensData> = { 'tokens-per-kchar': figure11 };
