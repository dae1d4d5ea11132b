/**
 * Figures in Node: Plot options → normalized SVG through linkedom's DOM
 * (./plot-svg.ts, the renderer the browser uses too) → PNG (sharp). PNGs are
 * drawn by librsvg with DejaVu from the pinned npm package (fonts/fonts.conf),
 * never with the machine's fonts.
 */
import { parseHTML } from 'linkedom';
import { fileURLToPath } from 'node:url';
import type { FigureSpec } from './types.ts';
import { plotSvg } from './plot-svg.ts';

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
