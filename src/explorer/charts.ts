/**
 * Small SVG charts for the explorer, built as strings in the page. A scatter
 * series is ONE <path> of zero-length segments with round caps (a dot each),
 * so fifty thousand requests draw as fast as fifty. Colours are the site's
 * Okabe–Ito palette; every chart has a title and a text description.
 */
import { formatPlain } from '../format/value.ts';

export interface Frame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (v: number) => Math.round(v * 10) / 10;

/** Nice linear ticks covering [lo, hi]. */
export function linearTicks(lo: number, hi: number, count = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  return out;
}

/** Ticks for a log axis: powers of ten, with 2 and 5 between them when the range spans few decades. */
export function logTicks(lo: number, hi: number): number[] {
  const a = Math.floor(Math.log10(lo));
  const b = Math.ceil(Math.log10(hi));
  const mults = b - a <= 2 ? [1, 2, 5] : [1];
  const out: number[] = [];
  for (let e = a; e <= b; e++) for (const m of mults) {
    const v = m * 10 ** e;
    if (v >= lo * 0.999 && v <= hi * 1.001) out.push(+v.toPrecision(12));
  }
  return out.length >= 2 ? out : [lo, hi];
}

interface Scale {
  (v: number): number;
  ticks: number[];
  /** Tick label: as many decimals as the tick step needs, no more. */
  fmt: (v: number) => string;
}

/** Decimals that tell ticks apart: 0 for integers, else the places of the smallest step. */
function tickFormat(ticks: number[]): (v: number) => string {
  let d = 0;
  for (const t of ticks) {
    const s = String(+t.toPrecision(12));
    const i = s.indexOf('.');
    if (i >= 0 && !s.includes('e')) d = Math.max(d, s.length - i - 1);
  }
  return (v) => formatPlain(v, Math.min(d, 6));
}

function scale(lo: number, hi: number, from: number, to: number, log: boolean): Scale {
  if (log) {
    const l0 = Math.log10(lo);
    const l1 = Math.log10(hi);
    const f = ((v: number) => from + ((Math.log10(Math.max(v, lo)) - l0) / (l1 - l0 || 1)) * (to - from)) as Scale;
    f.ticks = logTicks(lo, hi);
    f.fmt = tickFormat(f.ticks);
    return f;
  }
  const f = ((v: number) => from + ((v - lo) / (hi - lo || 1)) * (to - from)) as Scale;
  f.ticks = linearTicks(lo, hi);
  f.fmt = tickFormat(f.ticks);
  return f;
}

function axes(fr: Frame, x: Scale, y: Scale, xLabel: string, yLabel: string): string {
  const { width: W, height: H, margin: m } = fr;
  const parts: string[] = [];
  parts.push(`<g class="grid" stroke="currentColor" stroke-opacity="0.12">`);
  for (const t of y.ticks) parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${r1(y(t))}" y2="${r1(y(t))}"/>`);
  parts.push('</g><g class="ticks" fill="currentColor" font-size="11">');
  for (const t of y.ticks) parts.push(`<text x="${m.left - 6}" y="${r1(y(t))}" text-anchor="end" dy="0.32em">${y.fmt(t)}</text>`);
  for (const t of x.ticks) parts.push(`<text x="${r1(x(t))}" y="${H - m.bottom + 16}" text-anchor="middle">${x.fmt(t)}</text>`);
  parts.push('</g>');
  parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${H - m.bottom}" y2="${H - m.bottom}" stroke="currentColor"/>`);
  parts.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${H - m.bottom}" stroke="currentColor"/>`);
  parts.push(`<text x="${(m.left + W - m.right) / 2}" y="${H - 6}" text-anchor="middle" fill="currentColor" font-size="12">${esc(xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${(m.top + H - m.bottom) / 2}) rotate(-90)" text-anchor="middle" fill="currentColor" font-size="12">${esc(yLabel)}</text>`);
  return parts.join('');
}

function svgOpen(fr: Frame, id: string, title: string, desc: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${fr.width} ${fr.height}" width="100%" role="img" ` +
    `aria-labelledby="${id}-t" aria-describedby="${id}-d" font-family="var(--font-ui, sans-serif)">` +
    `<title id="${id}-t">${esc(title)}</title><desc id="${id}-d">${esc(desc)}</desc>`
  );
}

export interface DotSeries {
  /** y values; x is the index (offset by `from`). */
  y: ArrayLike<number>;
  from: number;
  to: number;
  color: string;
  label: string;
}

export interface Rule {
  y: number;
  color: string;
  dash: string;
  label: string;
}

/** Request index → value, log y: the first wave shows as a staircase. */
export function scatter(id: string, fr: Frame, n: number, series: DotSeries[], rules: Rule[], xLabel: string, yLabel: string, title: string, desc: string): string {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) for (let i = s.from; i < s.to; i++) {
    const v = s.y[i];
    if (v > 0 && v < lo) lo = v;
    if (v > hi) hi = v;
  }
  for (const r of rules) if (Number.isFinite(r.y) && r.y > 0) { lo = Math.min(lo, r.y); hi = Math.max(hi, r.y); }
  if (!Number.isFinite(lo)) { lo = 1; hi = 10; }
  if (hi / lo < 10) { lo /= 1.5; hi *= 1.5; }
  const { width: W, height: H, margin: m } = fr;
  const x = scale(0, Math.max(1, n - 1), m.left + 4, W - m.right - 4, false);
  const y = scale(lo, hi, H - m.bottom - 4, m.top + 4, true);
  const parts = [svgOpen(fr, id, title, desc), axes(fr, x, y, xLabel, yLabel)];
  const rad = n > 5000 ? 1.6 : n > 1000 ? 2.4 : 3.4;
  for (const s of series) {
    let d = '';
    for (let i = s.from; i < s.to; i++) d += `M${r1(x(i))} ${r1(y(s.y[i]))}h0`;
    parts.push(`<path d="${d}" stroke="${s.color}" stroke-width="${rad}" stroke-linecap="round" fill="none" data-series="${esc(s.label)}" data-count="${s.to - s.from}"/>`);
  }
  rules.forEach((r, k) => {
    if (!Number.isFinite(r.y)) return;
    const yy = r1(y(r.y));
    parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${yy}" y2="${yy}" stroke="${r.color}" stroke-width="1.5" stroke-dasharray="${r.dash}"/>`);
    parts.push(`<text x="${W - m.right - 4}" y="${yy}" dy="${k % 2 ? 14 : -5}" text-anchor="end" fill="${r.color}" font-size="12">${esc(r.label)}</text>`);
  });
  parts.push(legend(fr, series.map((s) => ({ color: s.color, label: s.label }))));
  parts.push('</svg>');
  return parts.join('');
}

function legend(fr: Frame, items: { color: string; label: string }[]): string {
  let x = fr.margin.left + 4;
  const out: string[] = [];
  for (const it of items) {
    out.push(`<circle cx="${x + 4}" cy="${fr.margin.top - 10}" r="4" fill="${it.color}"/>`);
    out.push(`<text x="${x + 12}" y="${fr.margin.top - 10}" dy="0.32em" font-size="12" fill="currentColor">${esc(it.label)}</text>`);
    x += 24 + it.label.length * 6.4;
  }
  return out.join('');
}

/** A step line of y over time bins starting at start[i], each `width` wide. */
export function stepLine(id: string, fr: Frame, start: ArrayLike<number>, width: number, y: ArrayLike<number>, color: string, xLabel: string, yLabel: string, title: string, desc: string): string {
  const n = y.length;
  let hi = 0;
  for (let i = 0; i < n; i++) hi = Math.max(hi, y[i]);
  const end = n ? start[n - 1] + width : 1;
  const { width: W, height: H, margin: m } = fr;
  const x = scale(0, end, m.left, W - m.right, false);
  const ys = scale(0, hi > 0 ? hi * 1.05 : 1, H - m.bottom, m.top, false);
  let d = `M${r1(x(0))} ${r1(ys(0))}`;
  for (let i = 0; i < n; i++) d += `L${r1(x(start[i]))} ${r1(ys(y[i]))}L${r1(x(start[i] + width))} ${r1(ys(y[i]))}`;
  d += `L${r1(x(end))} ${r1(ys(0))}`;
  return (
    svgOpen(fr, id, title, desc) + axes(fr, x, ys, xLabel, yLabel) +
    `<path d="${d}Z" fill="${color}" fill-opacity="0.18" stroke="${color}" stroke-width="1.5" data-bins="${n}"/></svg>`
  );
}

export interface Bar {
  label: string;
  value: number | null;
  color: string;
  note?: string;
}

/** Horizontal bars with their values written at the end. */
export function bars(id: string, fr: Frame, rows: Bar[], xLabel: string, title: string, desc: string, unit: string): string {
  const { width: W, margin: m } = fr;
  const rowH = 26;
  const H = m.top + m.bottom + rows.length * rowH;
  const f: Frame = { ...fr, height: H };
  const hi = Math.max(1e-9, ...rows.map((r) => r.value ?? 0));
  const x = scale(0, hi * 1.12, m.left, W - m.right, false);
  const parts = [svgOpen(f, id, title, desc)];
  parts.push('<g stroke="currentColor" stroke-opacity="0.12">');
  for (const t of x.ticks) parts.push(`<line x1="${r1(x(t))}" x2="${r1(x(t))}" y1="${m.top}" y2="${H - m.bottom}"/>`);
  parts.push('</g><g fill="currentColor" font-size="11">');
  for (const t of x.ticks) parts.push(`<text x="${r1(x(t))}" y="${H - m.bottom + 14}" text-anchor="middle">${x.fmt(t)}</text>`);
  parts.push('</g>');
  rows.forEach((r, i) => {
    const yy = m.top + i * rowH;
    parts.push(`<text x="${m.left - 8}" y="${yy + rowH / 2}" dy="0.32em" text-anchor="end" font-size="12" fill="currentColor">${esc(r.label)}</text>`);
    if (r.value === null) {
      parts.push(`<text x="${m.left + 4}" y="${yy + rowH / 2}" dy="0.32em" font-size="12" fill="currentColor" font-style="italic">${esc(r.note ?? 'not computed')}</text>`);
      return;
    }
    const w = Math.max(1, x(r.value) - m.left);
    parts.push(`<rect x="${m.left}" y="${yy + 4}" width="${r1(w)}" height="${rowH - 8}" fill="${r.color}"/>`);
    parts.push(`<text x="${r1(m.left + w + 4)}" y="${yy + rowH / 2}" dy="0.32em" font-size="12" fill="currentColor">${formatPlain(r.value)} ${esc(unit)}</text>`);
  });
  parts.push(`<text x="${(m.left + W - m.right) / 2}" y="${H - 4}" text-anchor="middle" fill="currentColor" font-size="12">${esc(xLabel)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}
