/**
 * How numbers read in terminal lines, error messages and the diff report, as
 * opposed to the page (./value.ts): each rule named once, because a message,
 * a log line and a report each have their own precision and a reviewer
 * compares them by eye.
 */

/** Thousands separated with commas, as `en-US` writes them (`1,105`); fractions rounded away. */
export function formatInteger(x: number): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** Numbers for messages: 3 significant digits, thousands separated. */
export function formatMessage(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  if (a >= 100) return (Math.round(x * 10) / 10).toString();
  return Number(x.toPrecision(4)).toString();
}

/** Bytes and bandwidths for messages (GB, TB/s). */
export function formatBytes(b: number): string {
  return b >= 1e12 ? `${formatMessage(b / 1e12)} TB` : b >= 1e9 ? `${formatMessage(b / 1e9)} GB` : b >= 1e6 ? `${formatMessage(b / 1e6)} MB` : `${formatMessage(b)} B`;
}

/** A checked claim's numbers in its margin: integers as they are, others to 3 significant digits. */
export function formatMargin(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(3)));
}

/** A relative gap in per cent, two significant digits below 100%, whole per cents above (never exponent notation). */
export function formatGap(x: number): string {
  const p = Math.abs(x) * 100;
  if (!Number.isFinite(p)) return 'unbounded';
  return p >= 100 ? `${Math.round(p).toLocaleString('en-US')}%` : `${Number(p.toPrecision(2))}%`;
}

/** Six significant digits, no trailing zeros, no exponent for everyday magnitudes: the diff's exact-enough value. */
export function formatSix(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e12) return String(Number(v.toPrecision(6)));
  return v.toPrecision(6).replace(/\.?0+e/, 'e');
}

/** A signed relative change in per cent (`+1.5%`, `−∞ (from 0)`); empty when there is none. */
export function formatChange(rel: number | null): string {
  if (rel === null) return '';
  if (rel === 0) return '0%';
  if (!Number.isFinite(rel)) return rel > 0 ? '+∞ (from 0)' : '−∞ (from 0)';
  const pct = rel * 100;
  const s = Math.abs(pct) >= 100 ? pct.toFixed(0) : Math.abs(pct) >= 1 ? pct.toFixed(1) : Math.abs(pct) >= 0.01 ? pct.toFixed(2) : pct.toPrecision(2);
  return `${pct > 0 ? '+' : ''}${s}%`;
}

/** A share as a percentage without sign: 0.015 → `1.5%`. */
export const formatShare = (share: number) => formatChange(share).replace(/^\+/, '');

/** A wall-clock duration for progress lines: `4.2 s`, `37 s`, `2 min 05 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - 60 * m)).padStart(2, '0')} s`;
}

/** A rate for progress lines: `1.25 M`, `3.4 k`, `12`; `–` when there is none yet. */
export function formatRate(perSecond: number): string {
  if (!(perSecond > 0)) return '–';
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(0);
}

/**
 * Text from a file, made safe to print on a terminal: every control character
 * but the line break and the tab (C0, DEL, C1: an escape sequence in a
 * result file's `loadgen_version` would otherwise set the terminal's title or
 * colours) is dropped. Every line printed from what a file says goes through
 * this one function: the CLI's error line and `metrics`' text report.
 */
export function terminalText(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}
