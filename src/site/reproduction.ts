/**
 * The reproduction table as data: every published value beside ours, the
 * difference, sorted by how far off, grouped in bands, each row tied to the
 * article section that uses the number. Pure: the page renders what this returns.
 */
import type { Published } from './published.ts';
import type { SiteNumber } from './data.ts';
import { heading } from '../outline.ts';

/** A relative difference above this is marked as far off. */
export const FAR_OFF = 0.1;
/** A relative difference at or below this counts as a close match. */
export const NEAR = 0.05;

/** Factors to seconds, for comparing a published value with ours in another time unit. */
const TIME: Record<string, number> = { ms: 1e-3, s: 1, min: 60, h: 3600 };

/** How far off a row is: the page's groups, in the order it shows them. */
export type Band = 'further' | 'within10' | 'within5' | 'unit-mismatch' | 'missing';
export const BANDS: Band[] = ['further', 'within10', 'within5', 'unit-mismatch', 'missing'];

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
  band: Band;
  /** The published value lies inside our interval. */
  withinInterval: boolean;
}

export function toUnit(v: number, from: string, to: string): number | null {
  if (from === to) return v;
  if (from in TIME && to in TIME) return (v * TIME[from]!) / TIME[to]!;
  if ((from === '×' || from === 'x') && (to === '×' || to === 'x')) return v;
  return null;
}

export function bandOf(status: ReproRow['status'], rel: number | null): Band {
  if (status === 'missing' || status === 'unit-mismatch') return status;
  const a = Math.abs(rel ?? Infinity);
  return a <= NEAR ? 'within5' : a <= FAR_OFF ? 'within10' : 'further';
}

export function reproductionRows(published: Published[], numbers: Record<string, SiteNumber>): ReproRow[] {
  const rows = published.map((entry): ReproRow => {
    const ours = Object.hasOwn(numbers, entry.id) ? numbers[entry.id]! : null;
    const empty = { entry, ours, oursInPublishedUnit: null, diff: null, rel: null, withinInterval: false };
    if (!ours) return { ...empty, status: 'missing', band: 'missing' };
    const v = toUnit(ours.value, ours.unit, entry.unit);
    if (v === null) return { ...empty, status: 'unit-mismatch', band: 'unit-mismatch' };
    const diff = v - entry.published;
    const rel = entry.published !== 0 ? diff / Math.abs(entry.published) : diff === 0 ? 0 : Math.sign(diff) * Infinity;
    let within = false;
    if (ours.interval) {
      const lo = toUnit(ours.interval[0], ours.unit, entry.unit);
      const hi = toUnit(ours.interval[1], ours.unit, entry.unit);
      within = lo !== null && hi !== null && entry.published >= lo && entry.published <= hi;
    }
    const status = Math.abs(rel) > FAR_OFF ? 'far' : 'close';
    return { entry, ours, oursInPublishedUnit: v, diff, rel, status, band: bandOf(status, rel), withinInterval: within };
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

/** Rows per band, in BANDS order (empty bands kept, so the summary can name them). */
export function groupByBand(rows: ReproRow[]): { band: Band; rows: ReproRow[] }[] {
  return BANDS.map((band) => ({ band, rows: rows.filter((r) => r.band === band) }));
}

/** How many rows fall in each band. */
export function bandCounts(rows: ReproRow[]): Record<Band, number> {
  const c = Object.fromEntries(BANDS.map((b) => [b, 0])) as Record<Band, number>;
  for (const r of rows) c[r.band]++;
  return c;
}

/** The heading of our article page where a published number is used (anchor and our title). */
export function sectionOf(p: Published): { id: string; title: string } {
  const h = heading(p.where.in);
  return { id: h.id, title: h.title };
}
