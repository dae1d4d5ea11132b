/**
 * Plot options → one normalized SVG string, through whichever DOM the caller
 * has: linkedom in Node (./render.ts, for the pipeline's figures and the
 * audit's --html page), the page's own `document` in a browser (the site's
 * "Audit a run" page). One renderer, so a figure is drawn alike in both.
 *
 * Normalized means the same data gives the same bytes on any machine: generated
 * ids (Plot's clip paths count up across a process) are renumbered per figure
 * with a figure-specific prefix (unique when several SVGs are inlined in one
 * page), coordinates are rounded to `SVG_DECIMALS`, sizes are fixed, and
 * nothing time-dependent is written.
 */
import * as Plot from '@observablehq/plot';
import type { FigureSpec } from './types.ts';
import { FIGURE_WIDTH } from '../figure-style.ts';

/** Default figure size in CSS pixels, when the figure function does not set one: the shared frame's width. */
export { FIGURE_WIDTH };
export const FIGURE_HEIGHT = 400;
/** Decimals kept in SVG attribute numbers: 1/100 px is far below what a reader or a PNG sees. */
export const SVG_DECIMALS = 2;
/** Attributes whose values are names, not geometry: never rounded. */
const VERBATIM = new Set(['id', 'class', 'font-family', 'aria-label', 'aria-description', 'aria-hidden', 'role', 'text-anchor', 'xmlns']);

/** Renders a figure spec to a normalized, standalone SVG string in `document`. `idPrefix` makes its ids unique in a page. */
export function plotSvg(spec: FigureSpec, idPrefix: string, document: Document): string {
  const { title: _t, subtitle: _s, caption: _c, ...plotOptions } = spec.plot as Record<string, unknown>;
  const node = Plot.plot({
    ...plotOptions,
    width: (plotOptions.width as number | undefined) ?? FIGURE_WIDTH,
    height: (plotOptions.height as number | undefined) ?? FIGURE_HEIGHT,
    document,
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
