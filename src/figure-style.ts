/**
 * The figures' frame and palette, shared by the figure modules
 * (experiments/figures/), the pipeline's renderer (its default width), the
 * explorer's charts, and — asserted equal by test/figures.test.ts — the
 * site's CSS custom properties (`--oi-*` in src/styles/site.css).
 *
 * The palette is Okabe and Ito's, chosen because every pair stays apart under
 * the common colour-vision deficiencies. Hex strings are written exactly as the
 * committed SVGs carry them, so a figure's bytes do not depend on this module.
 */

/** Width of a figure in CSS pixels; the renderer uses it when a figure sets none. */
export const FIGURE_WIDTH = 720;
/** Width of a figure with facets or a long key that needs more room. */
export const WIDE_FIGURE_WIDTH = 760;

/** Width of a figure drawn again for a phone: shown about 350 px wide on a 390 px phone. */
export const NARROW_WIDTH = 400;
/** Smallest text of a phone's figure, in its own units: 13 × 350 / 400 ≈ 11.4 px on that phone. */
export const NARROW_FONT = 13;
/** Plot's own text size, px: a figure's text unless it sets another. */
export const PLOT_FONT = 10;
/** Screens that get the phone's figure (the site's CSS switches at the same width: `.fig-narrow` in src/styles/site.css). */
export const NARROW_MEDIA = '(max-width: 36rem)';

export const PALETTE = {
  black: '#000000',
  orange: '#E69F00',
  sky: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
} as const;

/** Neutral tones for what is not a data series: de-emphasised points, key text, an eighth series. */
export const NEUTRAL = {
  grey: '#9a9aa5',
  mid: '#7f7f7f',
  text: '#333',
} as const;

/** Two shades of one hue for a two-way split that is not a comparison of series (Figure 11: named in the article or not). */
export const SHADES = {
  strong: '#3b6ea5',
  pale: '#a9c1da',
} as const;

/** The two layouts a page draws a figure in: the article's frame, or the phone's. */
export type Layout = 'wide' | 'narrow';

/**
 * Plot options for a figure's frame in `layout`: the article's width, or the
 * phone's, whose text and margins grow by NARROW_FONT / PLOT_FONT (as the
 * pipeline's narrow figures) so its smallest text is legible at phone width.
 */
export function figureFrame(layout: Layout, margins: { top: number; right: number; bottom: number; left: number }): Record<string, unknown> {
  const k = layout === 'narrow' ? NARROW_FONT / PLOT_FONT : 1;
  return {
    width: layout === 'narrow' ? NARROW_WIDTH : FIGURE_WIDTH,
    marginTop: Math.round(margins.top * k),
    marginRight: Math.round(margins.right * k),
    marginBottom: Math.round(margins.bottom * k),
    marginLeft: Math.round(margins.left * k),
    ...(layout === 'narrow' ? { style: { fontSize: `${NARROW_FONT}px` } } : {}),
  };
}
