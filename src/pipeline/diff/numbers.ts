/**
 * Comparing numbers: every id changed, added or removed between two
 * numbers.json files, each tagged with what makes its change matter to a
 * reviewer: where the site cites it, whether it crossed the published value's
 * neighbourhood, and whether it is exact by construction.
 *
 * What the site knows (published values, cited ids) arrives as a
 * `NumberContext` from the command layer: src/pipeline reads nothing of src/site.
 */
import { compareNumbers, relativeChange } from '../outputs.ts';
import type { NumbersFile } from '../types.ts';
import { exactness, type Exactness } from './exact.ts';
import type { Entry } from './sides.ts';

/** A value the article published, in its own unit. */
export interface PublishedValue {
  value: number;
  unit: string;
}

export interface NumberContext {
  /** The article's published value per id of ours (the reproduction page's rows). */
  published: Map<string, PublishedValue>;
  /** Relative distance from the published value that counts as its neighbourhood (the page's "far off" line). */
  farOff: number;
  /** Where the site cites each id, e.g. `article: the-first-wave`, `claim: sim-check-decode`, `reproduction page`. */
  cited: Map<string, string[]>;
  /** A value in another unit (ms → s); null when the units are incomparable. */
  toUnit(value: number, from: string, to: string): number | null;
}

export const EMPTY_CONTEXT: NumberContext = {
  published: new Map(),
  farOff: 0.1,
  cited: new Map(),
  toUnit: (v, from, to) => (from === to ? v : null),
};

/** Where a value stands against the published one. */
export type Neighbourhood = 'left' | 'entered' | 'inside' | 'outside';

export interface NumberRow {
  id: string;
  experiment: string;
  kind: 'changed' | 'added' | 'removed';
  old?: Entry;
  new?: Entry;
  /** new − old (changed only). */
  abs: number | null;
  /** (new − old) / |old|; ±Infinity from 0; null when not a change of value. */
  rel: number | null;
  /** Only the interval, n or another field changed, not the value. */
  valueSame: boolean;
  /** Where the site cites it; empty for an internal number. */
  citedIn: string[];
  published: PublishedValue | null;
  /** Against the published value, when there is one (changed: the move; added/removed: where it stands). */
  neighbourhood: Neighbourhood | null;
  /** Set when the number is exact by construction: its change is never noise. */
  exact: Exactness | null;
}

export { relativeChange };

/** Within `farOff` of the published value (in its unit); null when incomparable. */
export function nearPublished(e: Entry, p: PublishedValue, ctx: NumberContext): boolean | null {
  const v = ctx.toUnit(e.value, e.unit, p.unit);
  if (v === null) return null;
  if (p.value === 0) return v === 0;
  return Math.abs(v - p.value) / Math.abs(p.value) <= ctx.farOff;
}

/** The diff report's rows: the changes `compareNumbers` finds, each with its published value, neighbourhood and exactness. */
export function numberRows(base: NumbersFile, cur: NumbersFile, ctx: NumberContext = EMPTY_CONTEXT): NumberRow[] {
  const rows: NumberRow[] = [];
  for (const { id, old: a, new: b } of compareNumbers(base, cur)) {
    const p = ctx.published.get(id) ?? null;
    const near = (e: Entry | undefined) => (e && p ? nearPublished(e, p, ctx) : null);
    const na = near(a);
    const nb = near(b);
    let neighbourhood: Neighbourhood | null = null;
    if (a && b && na !== null && nb !== null) neighbourhood = na && !nb ? 'left' : !na && nb ? 'entered' : na ? 'inside' : 'outside';
    else if (!a && nb !== null) neighbourhood = nb ? 'inside' : 'outside';
    else if (!b && na !== null) neighbourhood = na ? 'inside' : 'outside';
    rows.push({
      id,
      experiment: (b ?? a)!.experiment ?? id.split('.')[0]!,
      kind: a && b ? 'changed' : a ? 'removed' : 'added',
      ...(a ? { old: a } : {}),
      ...(b ? { new: b } : {}),
      abs: a && b ? b.value - a.value : null,
      rel: a && b ? relativeChange(a.value, b.value) : null,
      valueSame: !!(a && b && a.value === b.value),
      citedIn: ctx.cited.get(id) ?? [],
      published: p,
      neighbourhood,
      exact: exactness(id),
    });
  }
  return rows;
}

export const isCited = (r: NumberRow) => r.citedIn.length > 0;
export const crossed = (r: NumberRow) => r.neighbourhood === 'left' || r.neighbourhood === 'entered';

/** What orders rows for review: computed once per row, never inside a comparison (a comparator that derives them does so 17 times per row over 100,000 rows). */
interface OrderKey {
  row: NumberRow;
  /** 0: crossed the published neighbourhood; 1: exact by construction and moved; 2: the rest. */
  rank: number;
  /** |rel|, or -1 when the value did not change. */
  size: number;
}

const keyOf = (row: NumberRow, rank: number): OrderKey => ({ row, rank, size: row.rel === null ? -1 : Math.abs(row.rel) });

function sortByKey(keys: OrderKey[]): NumberRow[] {
  keys.sort((a, b) => {
    if (a.rank !== b.rank) return a.rank - b.rank;
    if (a.size !== b.size) return b.size > a.size ? 1 : -1;
    return a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0;
  });
  return keys.map((k) => k.row);
}

/**
 * Review order: crossings of the published neighbourhood first, then exact
 * numbers that moved, then by relative size (largest first); ties by id. The
 * order is total (ids are unique), so a filtered list of the result is in
 * review order too.
 */
export function inImportanceOrder(rows: readonly NumberRow[]): NumberRow[] {
  return sortByKey(rows.map((r) => keyOf(r, crossed(r) ? 0 : r.exact && !r.valueSame ? 1 : 2)));
}

/** Largest relative change first; ties (and value-same rows) by id. */
export function inSizeOrder(rows: readonly NumberRow[]): NumberRow[] {
  return sortByKey(rows.map((r) => keyOf(r, 0)));
}
