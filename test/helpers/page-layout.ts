/**
 * What a reader on one screen width would hit on an open page, measured the
 * same way by every browser test of the site (test/site-browser.test.ts, and
 * test/audit-browser.test.ts with a file loaded): overlapping blocks, the page
 * growing sideways, figure text too small to read, and axe-core's violations
 * (which test/explorer.test.ts also reads, on a state of its own).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core's browser build (the version is pinned in package.json), set up to keep no HTML snippet
 * of the nodes it checked, which the lines never show (about a tenth of a run on the article page,
 * most of whose nodes pass).
 */
const AXE_SET_UP = `${readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')};\naxe.configure({ noHtml: true });\n`;
/** Smallest figure text a phone may show, in CSS pixels. */
export const MIN_FIGURE_TEXT = 11;

/** What a reader on one screen width would hit: overlaps, sideways growth, small figure text, axe's violations. */
export interface Layout {
  width: number;
  overlaps: string[];
  widening: string[];
  /** Smallest figure text shown, CSS px, per figure. */
  figureText: { key: string | null; px: number }[];
  axe: string[];
}

/**
 * Runs in the page. Boxes that must not overlap: the contents column, and the
 * blocks of the main column (figures, tables, code, notes, paragraphs, lists,
 * headings), each pair unless one holds the other. Sideways growth: the
 * document wider than the window, and the elements that reach past it outside
 * any scroller. Figure text: each visible figure's smallest text as drawn
 * (its font size times the SVG's scale).
 */
function measureLayout(figures: string): Omit<Layout, 'width' | 'axe'> {
  const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}`;
  // A closed disclosure's content keeps a box in Chromium but is not shown.
  const visible = (e: Element) => {
    const r = e.getBoundingClientRect();
    const closed = e.closest('details:not([open])');
    return r.width > 0 && r.height > 0 && (!closed || (closed !== e && !!e.closest('summary')));
  };
  const boxes = [...document.querySelectorAll(`.toc, main ${figures}, main .table-wrap, main pre, main .fn-note, main .note, main blockquote, main p, main ul, main ol, main dl, main h2, main h3, main details`)].filter(visible);
  const overlaps: string[] = [];
  const rects = boxes.map((e) => e.getBoundingClientRect());
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.contains(b) || b.contains(a)) continue;
      const r = rects[i]!;
      const q = rects[j]!;
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 1 && h > 1) overlaps.push(`${name(a)} and ${name(b)} overlap by ${Math.round(w)}×${Math.round(h)} px`);
    }
  }
  const widening: string[] = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) widening.push(`the page is ${doc.scrollWidth} px wide in a ${window.innerWidth} px window`);
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.right <= window.innerWidth + 0.5 || !visible(e)) continue;
    let scroller = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(a).overflowX)) scroller = true;
    const where = e.closest('figure')?.getAttribute('data-figure');
    if (!scroller && widening.length < 20) widening.push(`${name(e)}${where ? ` in figure ${where}` : ''} reaches ${Math.round(r.right)} px`);
  }
  const figureText: { key: string | null; px: number }[] = [];
  for (const svg of document.querySelectorAll(`${figures} svg`)) {
    if (!visible(svg)) continue;
    const vb = (svg as SVGSVGElement).viewBox.baseVal;
    const scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
    let px = Infinity;
    for (const t of svg.querySelectorAll('text')) if (t.textContent?.trim()) px = Math.min(px, parseFloat(getComputedStyle(t).fontSize) * scale);
    if (px < Infinity) figureText.push({ key: svg.closest('figure')?.getAttribute('data-figure') ?? null, px });
  }
  return { overlaps, widening, figureText };
}

/**
 * Puts axe-core into every page `p` loads from now on, before the page's own scripts run: for a
 * page that is navigated from one site page to the next and checked on each, one transfer of its
 * half a megabyte of code to the browser instead of one per load. axe-core only defines `axe`.
 */
export async function preloadAxe(p: Page): Promise<void> {
  await p.addInitScript({ content: AXE_SET_UP });
}

/** The layout checks and axe-core on an open page at `width`; `figures` selects the page's figures (each an SVG inside). */
export async function pageLayout(p: Page, width: number, figures: string): Promise<Layout> {
  const m = await p.evaluate(measureLayout, figures);
  return { width, ...m, axe: await axeViolations(p, figures) };
}

/**
 * axe-core's violations on the page as it is now, one line each (rule, help, count, first targets).
 * `figures`, when given, selects figures whose drawing for the other width is hidden by CSS.
 */
export async function axeViolations(p: Page, figures?: string): Promise<string[]> {
  if (!(await p.evaluate(() => 'axe' in window))) await p.addScriptTag({ content: AXE_SET_UP });
  return p.evaluate(async (figures) => {
    // A figure holds a drawing for wide screens and one for phones (src/components/Figure.astro, and
    // the audit report's src/audit/html.ts), and CSS shows one of them: the one this width hides is
    // checked at the width that shows it. It is set aside during the run, its place held by an empty
    // copy of its box (same classes, so the page's CSS and layout are unchanged): axe would skip its
    // hidden marks anyway, but its rules that weigh every element of the page (colour contrast,
    // target size, links in text) cost about a third more on the article page with them there.
    const drawings = figures ? [...document.querySelectorAll(`${figures} :is(.fig-wide, .fig-narrow, .audit-fig-wide, .audit-fig-narrow)`)] : [];
    const unshown = drawings.filter((d) => d.getClientRects().length === 0);
    // What setting a drawing aside could hide from axe's view of the rest of the page is an id the
    // drawing shares with another element: ids are checked on the whole page first.
    const ids = new Map<string, number>();
    for (const e of document.querySelectorAll('[id]')) ids.set(e.id, (ids.get(e.id) ?? 0) + 1);
    const twice = [...ids].filter(([, n]) => n > 1).map(([id]) => `#${id}`);
    const lines = unshown.length && twice.length ? [`duplicate-id (ids must be unique, the hidden drawings' included) ×${twice.length}: ${twice.slice(0, 3).join(' | ')}`] : [];
    const holders = unshown.map((d) => {
      const h = d.cloneNode(false) as Element;
      d.replaceWith(h);
      return [h, d] as const;
    });
    try {
      const r = await (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
      return [...lines, ...r.violations.map((v) => `${v.id} (${v.help}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)];
    } finally {
      for (const [h, d] of holders) h.replaceWith(d);
    }
  }, figures);
}
