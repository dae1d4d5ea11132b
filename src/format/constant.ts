/** How Table 4 prints a constant: SI prefixes for bytes and FLOP/s, full integers for counts. */
import { formatPlain, withUnit } from './value.ts';

const SI: [number, string][] = [
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];
const SI_UNITS = new Set(['B', 'B/s', 'FLOP/s']);

export function formatConstant(v: number, unit: string): string {
  if (SI_UNITS.has(unit) && Math.abs(v) >= 1e3) {
    const [f, p] = SI.find(([f]) => Math.abs(v) >= f)!;
    const x = v / f;
    let s = formatPlain(x, Number.isInteger(x) ? 0 : Math.min(3, Math.max(1, 3 - Math.floor(Math.log10(Math.abs(x))))));
    if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    return withUnit(s, `${p}${unit}`) + (unit === 'B' && Number.isInteger(v) ? ` (${formatPlain(v, 0)}\u00a0B)` : '');
  }
  if (unit === 's' && v < 1) return withUnit(formatPlain(v * 1000, Number.isInteger(v * 1000) ? 0 : 1), 'ms');
  if (unit === 'fraction') return formatPlain(v, 2);
  if (Number.isInteger(v)) return withUnit(formatPlain(v, 0), unit);
  return withUnit(formatPlain(v), unit);
}
