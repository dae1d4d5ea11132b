/**
 * Figures in Node: Plot options → normalized SVG through linkedom's DOM
 * (./plot-svg.ts, the renderer the browser uses too) → PNG (sharp). PNGs are
 * drawn by librsvg with DejaVu from the pinned npm package (fonts/fonts.conf),
 * never with the machine's fonts.
 */
import { parseHTML } from 'linkedom';
import { fileURLToPath } from 'node:url';
import type { FigureSpec } from './types.ts';
import { FIGURE_HEIGHT, plotSvg } from './plot-svg.ts';
import { NARROW_FONT, NARROW_WIDTH, PLOT_FONT } from '../figure-style.ts';

export { FIGURE_HEIGHT, FIGURE_WIDTH, SVG_DECIMALS, normalizeSvg } from './plot-svg.ts';

/** PNG pixels per inch: 144 = 2× (a 720 px wide figure becomes 1440 px). */
export const PNG_DENSITY = 144;

/** The project's fontconfig file: must be in the environment before sharp (librsvg) loads fonts. */
export const FONTCONFIG_FILE = fileURLToPath(new URL('../../fonts/fonts.conf', import.meta.url));
process.env.FONTCONFIG_FILE = FONTCONFIG_FILE;

/** Renders a figure spec to a normalized, standalone SVG string (in linkedom's DOM). `idPrefix` makes its ids unique in a page. */
export function renderSvg(spec: FigureSpec, idPrefix: string): string {
  return plotSvg(spec, idPrefix, parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document);
}

/** Width and smallest text of the narrow render, shared with the explorer's figures (src/figure-style.ts). */
export { NARROW_FONT, NARROW_WIDTH };
/** Plot's own margins, which the narrow render scales with its text (Plot's font size: PLOT_FONT). */
const PLOT_MARGINS = { marginTop: 20, marginRight: 20, marginBottom: 30, marginLeft: 40 } as const;

/**
 * The same figure drawn again for a phone: NARROW_WIDTH wide, its text at
 * least NARROW_FONT, margins grown with the text so tick labels still fit, the
 * height kept (a narrow chart needs its height more, not less). Plot lays out
 * axes and ticks for the width; marks at data coordinates stay where they belong.
 * A figure whose layout cannot shrink (long band labels, panels side by side)
 * gives its own narrow options (FigureSpec.narrow).
 */
export function renderNarrowSvg(spec: FigureSpec, idPrefix: string): string {
  const p = (spec.narrow ?? spec.plot) as Record<string, unknown>;
  // A figure's own narrow layout sets its margins for the narrow text; `plot` laid out again grows them with it.
  const k = spec.narrow ? 1 : NARROW_FONT / PLOT_FONT;
  const margins = Object.fromEntries(Object.entries(PLOT_MARGINS).map(([m, d]) => [m, Math.round(((p[m] as number | undefined) ?? d) * k)]));
  const style = typeof p.style === 'object' && p.style ? p.style : {};
  const plot = { ...p, ...margins, width: NARROW_WIDTH, height: (p.height as number | undefined) ?? FIGURE_HEIGHT, style: { ...style, fontSize: `${NARROW_FONT}px` } };
  const svg = renderSvg({ ...spec, plot: plot as FigureSpec['plot'] }, `${idPrefix}-narrow`);
  // Marks that set their own smaller size (keys, notes) are raised to the floor too.
  return svg.replace(/\sfont-size="([\d.]+)(px)?"/g, (m, v: string) => (Number(v) < NARROW_FONT ? ` font-size="${NARROW_FONT}"` : m));
}

let sharpModule: Promise<{ default: typeof import('sharp') }> | undefined;

/** SVG → PNG at `PNG_DENSITY`, on white, with settings that give the same bytes for the same SVG. */
export async function renderPng(svg: string): Promise<Buffer> {
  process.env.FONTCONFIG_FILE = FONTCONFIG_FILE;
  sharpModule ??= import('sharp');
  const sharp = (await sharpModule).default;
  return sharp(Buffer.from(svg), { density: PNG_DENSITY })
    .flatten({ background: '#ffffff' })
    .png({ compressionLevel: 9, adaptiveFiltering: false })
    .toBuffer();
}
