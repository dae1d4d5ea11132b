/**
 * Figures: Plot options → SVG in Node (linkedom) → normalized SVG → PNG (sharp).
 *
 * Normalized means the same data gives the same bytes on any machine: generated
 * ids (Plot's clip paths count up across a process) are renumbered per figure
 * with a figure-specific prefix (unique when several SVGs are inlined in one
 * page), coordinates are rounded to `SVG_DECIMALS`, sizes are fixed, and
 * nothing time-dependent is written. PNGs are drawn by librsvg with DejaVu from
 * the pinned npm package (fonts/fonts.conf), never with the machine's fonts.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { fileURLToPath } from 'node:url';
import type { FigureSpec } from './types.ts';
import { FIGURE_WIDTH } from '../figure-style.ts';

/** Default figure size in CSS pixels, when the figure function does not set one: the shared frame's width. */
export { FIGURE_WIDTH };
export const FIGURE_HEIGHT = 400;
/** Decimals kept in SVG attribute numbers: 1/100 px is far below what a reader or a PNG sees. */
export const SVG_DECIMALS = 2;
/** PNG pixels per inch: 144 = 2× (a 720 px wide figure becomes 1440 px). */
export const PNG_DENSITY = 144;

/** The project's fontconfig file: must be in the environment before sharp (librsvg) loads fonts. */
export const FONTCONFIG_FILE = fileURLToPath(new URL('../../fonts/fonts.conf', import.meta.url));
process.env.FONTCONFIG_FILE = FONTCONFIG_FILE;

/** Attributes whose values are names, not geometry: never rounded. */
const VERBATIM = new Set(['id', 'class', 'font-family', 'aria-label', 'aria-description', 'aria-hidden', 'role', 'text-anchor', 'xmlns']);

/** Renders a figure spec to a normalized, standalone SVG string. `idPrefix` makes its ids unique in a page. */
export function renderSvg(spec: FigureSpec, idPrefix: string): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>');
  const { title: _t, subtitle: _s, caption: _c, ...plotOptions } = spec.plot as Record<string, unknown>;
  const node = Plot.plot({
    ...plotOptions,
    width: (plotOptions.width as number | undefined) ?? FIGURE_WIDTH,
    height: (plotOptions.height as number | undefined) ?? FIGURE_HEIGHT,
    document: document as unknown as Document,
  }) as unknown as Element;
  if (node.tagName.toLowerCase() !== 'svg') {
    throw new Error(
      `figure ${idPrefix}: Plot returned <${node.tagName.toLowerCase()}>, not <svg> (a legend?); ` +
        'draw keys as marks (Plot.text, Plot.dot) so the SVG and PNG keep them',
    );
  }
  node.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  node.setAttribute('role', 'img');
  node.setAttribute('aria-label', spec.alt);
  return `${normalizeSvg(node.outerHTML, idPrefix)}\n`;
}

/** Width of the narrow render: shown about 350 px wide on a 390 px phone. */
export const NARROW_WIDTH = 400;
/** Smallest text of the narrow render, in its own units: 13 × 350 / 400 ≈ 11.4 px on that phone. */
export const NARROW_FONT = 13;
/** Plot's own font size and margins, which the narrow render scales with its text. */
const PLOT_FONT = 10;
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

function round(text: string, decimals: number): string {
  // Hex colours come first in the alternation so `#009E73` is never read as the number 9e73.
  return text.replace(/#[0-9a-fA-F]{3,8}\b|-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?/g, (m) => {
    if (m.startsWith('#') || !/[.eE]/.test(m)) return m;
    const r = Number(Number(m).toFixed(decimals));
    return String(Object.is(r, -0) ? 0 : r);
  });
}

/** Renumbers ids (`<prefix>-1`, `-2`, … in document order) and rounds numbers in attribute values. */
export function normalizeSvg(svg: string, idPrefix: string, decimals = SVG_DECIMALS): string {
  const prefix = idPrefix.replace(/[^A-Za-z0-9_-]/g, '-');
  const ids = new Map<string, string>();
  for (const m of svg.matchAll(/\sid="([^"]*)"/g)) if (!ids.has(m[1]!)) ids.set(m[1]!, `${prefix}-${ids.size + 1}`);
  const ref = (id: string) => ids.get(id) ?? id;
  return svg.replace(/(\s)([A-Za-z_:][-A-Za-z0-9_:.]*)="([^"]*)"/g, (_all, sp: string, name: string, value: string) => {
    let v = value;
    if (name === 'id') v = ref(v);
    else if ((name === 'href' || name === 'xlink:href') && v.startsWith('#')) v = `#${ref(v.slice(1))}`;
    else if (!VERBATIM.has(name) && !name.startsWith('aria-')) {
      v = v.replace(/url\(#([^)]*)\)/g, (_u, id: string) => `url(#${ref(id)})`);
      v = round(v, decimals);
    }
    return `${sp}${name}="${v}"`;
  });
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
