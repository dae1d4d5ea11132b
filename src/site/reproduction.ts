/**
 * The reproduction table as data: every published value beside ours, the
 * difference, sorted by how far off. Pure: the page renders what this returns.
 */
import type { Published } from './published.ts';
import type { SiteNumber } from './data.ts';

/** A relative difference above this is marked as far off. */
export const FAR_OFF = 0.1;

/** Factors to seconds, for comparing a published value with ours in another time unit. */
const TIME: Record<string, number> = { ms: 1e-3, s: 1, min: 60, h: 3600 };

export interface ReproRow {
  entry: Published;
  ours: SiteNumber | null;
  /** Our value expressed in the published unit (null when missing or incomparable). */
  oursInPublishedUnit: number | null;
  /** ours − published, in the published unit. */
  diff: number | null;
  /** (ours − published) / |published|; ±Infinity when published is 0 and ours is not. */
  rel: number | null;
  status: 'missing' | 'unit-mismatch' | 'close' | 'far';
  /** The published value lies inside our interval. */
  withinInterval: boolean;
}

export function toUnit(v: number, from: string, to: string): number | null {
  if (from === to) return v;
  if (from in TIME && to in TIME) return (v * TIME[from]!) / TIME[to]!;
  if ((from === '×' || from === 'x') && (to === '×' || to === 'x')) return v;
  return null;
}

export function reproductionRows(published: Published[], numbers: Record<string, SiteNumber>): ReproRow[] {
  const rows = published.map((entry): ReproRow => {
    const ours = Object.hasOwn(numbers, entry.id) ? numbers[entry.id]! : null;
    if (!ours) return { entry, ours, oursInPublishedUnit: null, diff: null, rel: null, status: 'missing', withinInterval: false };
    const v = toUnit(ours.value, ours.unit, entry.unit);
    if (v === null) return { entry, ours, oursInPublishedUnit: null, diff: null, rel: null, status: 'unit-mismatch', withinInterval: false };
    const diff = v - entry.published;
    const rel = entry.published !== 0 ? diff / Math.abs(entry.published) : diff === 0 ? 0 : Math.sign(diff) * Infinity;
    let within = false;
    if (ours.interval) {
      const lo = toUnit(ours.interval[0], ours.unit, entry.unit);
      const hi = toUnit(ours.interval[1], ours.unit, entry.unit);
      within = lo !== null && hi !== null && entry.published >= lo && entry.published <= hi;
    }
    return { entry, ours, oursInPublishedUnit: v, diff, rel, status: Math.abs(rel) > FAR_OFF ? 'far' : 'close', withinInterval: within };
  });
  const rank = (r: ReproRow) => (r.status === 'missing' ? 2 : r.status === 'unit-mismatch' ? 1 : 0);
  return rows.sort((a, b) => {
    const d = rank(a) - rank(b);
    if (d !== 0) return d;
    if (a.rel !== null && b.rel !== null) {
      const x = Math.abs(b.rel) - Math.abs(a.rel);
      if (x !== 0 && !Number.isNaN(x)) return x;
      if (!Number.isFinite(a.rel) && Number.isFinite(b.rel)) return -1;
      if (Number.isFinite(a.rel) && !Number.isFinite(b.rel)) return 1;
    }
    return a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
  });
}
