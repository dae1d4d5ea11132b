/**
 * Words for figure captions and text descriptions, written from the values the
 * figure draws (its data, its experiment's numbers), so the text cannot say
 * other than the figure shows. Shared by the figure modules beside this folder.
 */
import { formatPlain, formatValue, ofTotal, type FormatOptions } from '../../../src/format/value.ts';
import type { NumberValue } from '../../../src/pipeline/types.ts';

/** Plain spaces: a description is also the SVG's aria-label, an attribute, where a no-break space reads as an odd byte. */
export function plain(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

/** A duration in seconds, in the unit a reader expects at its size: `62 ms`, `3.5 s`, `1,102 s`. */
export function duration(seconds: number): string {
  if (seconds < 1) return formatValue(seconds, 's', { as: 'ms', digits: 0 });
  return formatValue(seconds, 's', { digits: seconds >= 100 || Number.isInteger(seconds) ? 0 : 1 });
}

/** Milliseconds to one decimal, for values that differ only there (the whole-run p99 of 20 seeds). */
export function preciseMs(ms: number): string {
  return formatValue(ms, 'ms', { digits: 1 });
}

/** A duration in milliseconds, as `duration` writes it. */
export function durationMs(ms: number): string {
  return duration(ms / 1000);
}

/** A published number as the page prints it (same rule as `<Num>`). */
export function value(nv: NumberValue, opts: FormatOptions = {}): string {
  return formatValue(nv.value, nv.unit, opts);
}

/** `from a to b` over values, each written by `write`. */
export function range(values: readonly number[], write: (v: number) => string): string {
  return `from ${write(Math.min(...values))} to ${write(Math.max(...values))}`;
}

/** A whole number with thousands separators: `1,000`. */
export function count(v: number): string {
  return formatPlain(v, 0);
}

/** `7 of 20 runs`. */
export { ofTotal };
