/**
 * How a number reads on the page. One rule per unit, named and documented,
 * so a value looks the same in prose, tables and tooltips.
 */
import type { NumberValue } from '../pipeline/types.ts';

/** How to present a value: as stored, or converted. */
export type NumAs = 'value' | 'percent' | 'ratio' | 'count' | 'seconds' | 'ms' | 'minutes';

export interface FormatOptions {
  /** Digits after the decimal point (overrides the significant-digit rule). */
  digits?: number;
  /** `percent`: a fraction shown as %; `ratio`: shown with ×; `count`: integer; `seconds`/`ms`/`minutes`: convert a time unit. */
  as?: NumAs;
  /** Leave the unit off (e.g. inside a sentence that already names it). */
  bare?: boolean;
}

/** Significant digits used when `digits` is not given. */
export const DEFAULT_SIGNIFICANT = 3;

/**
 * Units that count whole things: an integer value in one of them prints
 * without decimals (`47 preemptions`, `7 runs`), whatever the digit rule says.
 */
export const COUNT_UNITS = new Set(['', 'runs', 'requests', 'preemptions', 'seeds', 'slots', 'tokens', 'prompts', 'queries', 'rank', 'gaps', 'variants', 'loads', 'resamples', 'sequences', 'windows']);

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
  // toFixed takes at most 100 places: a value that small (1e-300) is written with an exponent.
  if (d > 100) return `${v < 0 ? '−' : ''}${Math.abs(v).toPrecision(DEFAULT_SIGNIFICANT)}`;
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
    case 'minutes':
      if (unit === 'h') return { v: v * 60, unit: 'min' };
      if (unit === 's') return { v: v / 60, unit: 'min' };
      return { v, unit };
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

/** A count unit for exactly one: `1 run`, not `1 runs`. */
const SINGULAR: Readonly<Record<string, string>> = { queries: 'query', preemptions: 'preemption', resamples: 'resample', sequences: 'sequence' };
function countUnit(n: number, unit: string): string {
  if (n !== 1 || !COUNT_UNITS.has(unit) || !unit.endsWith('s')) return unit;
  return SINGULAR[unit] ?? unit.slice(0, -1);
}

/**
 * Decimals for a percentage that is exact at fewer than the significant-digit rule gives: a share of runs such as
 * 8 of 20 is 40%, not 40.0%, which would claim a precision the count does not have. Undefined: the rule applies.
 */
function exactPercentDigits(v: number): number | undefined {
  if (!Number.isFinite(v)) return undefined;
  const d = autoDigits(v);
  let k = 0;
  while (k < d && Math.abs(roundDecimal(v, k) - v) > 1e-9 * Math.max(1, Math.abs(v))) k++;
  return k < d ? k : undefined;
}

export function formatValue(v: number, unit: string, opts: FormatOptions = {}): string {
  // A boolean number (1 or 0) is a yes or no, never `1.00 boolean`.
  if (unit === 'boolean' && !opts.bare) return v === 1 ? 'yes' : v === 0 ? 'no' : formatPlain(v);
  const c = convert(v, unit, opts.as);
  const digits =
    opts.digits ??
    (opts.as === 'count' || (COUNT_UNITS.has(c.unit) && Number.isInteger(c.v)) ? 0 : c.unit === '%' ? exactPercentDigits(c.v) : undefined);
  const num = formatPlain(c.v, digits);
  return opts.bare ? num : withUnit(num, countUnit(Number(num.replace(/,/g, '')), c.unit));
}

/** `7 of 20 seeds`, `2 of 40 runs`: a count out of a total. */
export function ofTotal(k: number, total: number, noun: string): string {
  return `${formatPlain(k, 0)} of ${formatPlain(total, 0)}${noun ? ` ${countUnit(total, noun)}` : ''}`;
}

/**
 * The run-to-run part of a number's uncertainty, in words: `median over 20
 * seeds; seeds range 38.1–58.9 ms (quartiles 39.0–52.4); two modes: 13 seeds
 * near 40.0 ms, 7 near 55.1 ms`. Empty when the number has no seeds.
 */
export function describeSeeds(nv: NumberValue, opts: FormatOptions = {}): string {
  if (!nv.spread || !nv.seeds) return '';
  const s = nv.spread;
  const f = (v: number, bare = false) => formatValue(v, nv.unit, { ...opts, bare });
  let out = `median over ${formatPlain(nv.seeds, 0)} seeds; seed to seed ${f(s.min, true)}–${f(s.max)} (quartiles ${f(s.q1, true)}–${f(s.q3)})`;
  if (s.modes) {
    const [lo, hi] = s.modes;
    out += `; two modes: ${ofTotal(lo.seeds, nv.seeds, 'seeds')} near ${f(lo.median)}, ${formatPlain(hi.seeds, 0)} near ${f(hi.median)}`;
  }
  return out;
}

/**
 * A number in one cell: its value, or, when its seeds fall into two modes, the
 * two modes (`split: 10 of 20 seeds at 5.02 req/s, 10 at 5.65 req/s`), since
 * the median of a split set may be a value no seed has. A mode whose seeds all
 * hold one value is "at" it, otherwise "near" its median.
 */
export function valueOrModes(nv: NumberValue, opts: FormatOptions = {}): string {
  const modes = nv.spread?.modes;
  if (!modes || !nv.seeds) return formatValue(nv.value, nv.unit, opts);
  const where = (m: (typeof modes)[number]) => `${m.min === m.max ? 'at' : 'near'} ${formatValue(m.median, nv.unit, opts)}`;
  return `split: ${ofTotal(modes[0].seeds, nv.seeds, 'seeds')} ${where(modes[0])}, ${formatPlain(modes[1].seeds, 0)} ${where(modes[1])}`;
}

/**
 * The long form used in tooltips and notes, both uncertainties named:
 * `p99 = 53.3 ms [48.0, 61.2 ms], n = 5,760, order-statistic 95%` for one run;
 * for a number over seeds, the seed-to-seed spread first, then the within-run
 * interval (`within one run: [..]`).
 */
export function describe(id: string, nv: NumberValue, opts: FormatOptions = {}): string {
  const parts = [`${id} = ${formatValue(nv.value, nv.unit, opts)}`];
  const seeds = describeSeeds(nv, opts);
  if (seeds) parts.push(seeds);
  if (nv.interval) {
    const [lo, hi] = nv.interval;
    const o = { ...opts, bare: false };
    const iv = `[${formatValue(lo, nv.unit, { ...o, bare: true })}, ${formatValue(hi, nv.unit, o)}]`;
    if (seeds) parts.push(`within one run: ${iv}`);
    else parts[0] += ` ${iv}`;
  }
  if (nv.n !== null && nv.n !== undefined) parts.push(`n = ${formatPlain(nv.n, 0)}${seeds ? ' per run' : ''}`);
  const kind = nv.intervalKind ?? (nv.interval && nv.level ? `${formatPlain(nv.level * 100, 0)}% interval` : undefined);
  if (nv.interval && kind) parts.push(kind);
  return parts.join(', ');
}

/** What `<Num pick>` prints instead of the value: a quantile over seeds, or one of two modes. */
export type NumPick = 'value' | 'seeds-min' | 'seeds-max' | 'lower-mode' | 'upper-mode' | 'lower-mode-seeds' | 'upper-mode-seeds' | 'seeds';

/**
 * The value (or text) `pick` selects from a number; throws naming the id when
 * the number has no seeds or no two modes, so prose that relies on them fails
 * the build once the numbers stop supporting it.
 */
export function pickFrom(id: string, nv: NumberValue, pick: NumPick): { value: number } | { text: string } {
  if (pick === 'value') return { value: nv.value };
  if (!nv.spread || !nv.seeds) throw new Error(`${id} has no spread over seeds; <Num pick="${pick}"> needs one`);
  if (pick === 'seeds') return { text: `${formatPlain(nv.seeds, 0)} seeds` };
  if (pick === 'seeds-min') return { value: nv.spread.min };
  if (pick === 'seeds-max') return { value: nv.spread.max };
  const modes = nv.spread.modes;
  if (!modes) throw new Error(`${id} is not bimodal over its ${nv.seeds} seeds; <Num pick="${pick}"> needs two modes`);
  const m = pick.startsWith('lower') ? modes[0] : modes[1];
  return pick.endsWith('-seeds') ? { text: ofTotal(m.seeds, nv.seeds, 'seeds') } : { value: m.median };
}

