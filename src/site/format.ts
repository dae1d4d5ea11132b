/**
 * How a number reads on the page. One rule per unit, named and documented,
 * so a value looks the same in prose, tables and tooltips.
 */
import type { NumberValue } from '../pipeline/types.ts';

/** How to present a value: as stored, or converted. */
export type NumAs = 'value' | 'percent' | 'ratio' | 'count' | 'seconds' | 'ms';

export interface FormatOptions {
  /** Digits after the decimal point (overrides the significant-digit rule). */
  digits?: number;
  /** `percent`: a fraction shown as %; `ratio`: shown with ×; `count`: integer; `seconds`/`ms`: convert a time unit. */
  as?: NumAs;
  /** Leave the unit off (e.g. inside a sentence that already names it). */
  bare?: boolean;
}

/** Significant digits used when `digits` is not given. */
export const DEFAULT_SIGNIFICANT = 3;

/** Units written straight after the number, without a space. */
const TIGHT_UNITS = new Set(['%', '×', 'x']);

/** A typographic minus and thin-space-free thousands separators (`1,105`). */
function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Decimal places for `v` so that it shows DEFAULT_SIGNIFICANT significant digits, never fewer than zero places. */
export function autoDigits(v: number, significant = DEFAULT_SIGNIFICANT): number {
  const a = Math.abs(v);
  if (a === 0 || !Number.isFinite(a)) return 0;
  const mag = Math.floor(Math.log10(a));
  return Math.max(0, significant - 1 - mag);
}

/** Rounds half away from zero in decimal (1.105 → 1.11), where toFixed would round the binary value (1.10). */
export function roundDecimal(v: number, d: number): number {
  const a = String(Math.abs(v));
  if (a.includes('e')) return Number(v.toFixed(d));
  const r = Math.round(Number(`${a}e${d}`));
  return Math.sign(v) * Number(`${r}e-${d}`);
}

/** Formats a bare number: fixed digits (or auto), thousands separators, typographic minus. */
export function formatPlain(v: number, digits?: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  const d = digits ?? autoDigits(v);
  let s = Math.abs(roundDecimal(v, d)).toFixed(d);
  // Rounding can turn 99.96 into 100.0 at one decimal: re-derive the digits.
  if (digits === undefined) {
    const d2 = autoDigits(Number(s));
    if (d2 < d) s = Math.abs(roundDecimal(v, d2)).toFixed(d2);
  }
  const [i, f] = s.split('.');
  const body = f !== undefined ? `${group(i)}.${f}` : group(i);
  return v < 0 && Number(s) !== 0 ? `−${body}` : body;
}

/** Converts a stored value for display according to `as`; returns value and unit to print. */
export function convert(v: number, unit: string, as: NumAs = 'value'): { v: number; unit: string } {
  switch (as) {
    case 'percent':
      return unit === '%' ? { v, unit: '%' } : { v: v * 100, unit: '%' };
    case 'ratio':
      return { v, unit: '×' };
    case 'count':
      return { v: Math.round(v), unit: unit === '' ? '' : unit };
    case 'seconds':
      if (unit === 'ms') return { v: v / 1000, unit: 's' };
      if (unit === 'min') return { v: v * 60, unit: 's' };
      if (unit === 'h') return { v: v * 3600, unit: 's' };
      return { v, unit };
    case 'ms':
      return unit === 's' ? { v: v * 1000, unit: 'ms' } : { v, unit };
    default:
      return { v, unit };
  }
}

/** Joins a formatted number and its unit: `53.3 ms`, `2.17×`, `18.4%`, `1,024 tokens`. */
export function withUnit(num: string, unit: string): string {
  if (!unit) return num;
  if (TIGHT_UNITS.has(unit)) return `${num}${unit === 'x' ? '×' : unit}`;
  return `${num}\u00a0${unit}`;
}

export function formatValue(v: number, unit: string, opts: FormatOptions = {}): string {
  const c = convert(v, unit, opts.as);
  const digits = opts.digits ?? (opts.as === 'count' || c.unit === '' && Number.isInteger(c.v) ? 0 : undefined);
  const num = formatPlain(c.v, digits);
  return opts.bare ? num : withUnit(num, c.unit);
}

/** The long form used in tooltips and notes: `p99 = 53.3 ms [48.0, 61.2], n = 5,760, order-statistic 95%`. */
export function describe(id: string, nv: NumberValue, opts: FormatOptions = {}): string {
  const parts = [`${id} = ${formatValue(nv.value, nv.unit, opts)}`];
  if (nv.interval) {
    const [lo, hi] = nv.interval;
    const o = { ...opts, bare: false };
    parts[0] += ` [${formatValue(lo, nv.unit, { ...o, bare: true })}, ${formatValue(hi, nv.unit, o)}]`;
  }
  if (nv.n !== null && nv.n !== undefined) parts.push(`n = ${formatPlain(nv.n, 0)}`);
  const kind = nv.intervalKind ?? (nv.interval && nv.level ? `${formatPlain(nv.level * 100, 0)}% interval` : undefined);
  if (nv.interval && kind) parts.push(kind);
  return parts.join(', ');
}
