/**
 * The reproduction table as data: every published value beside ours,
 * classified by what kind of number ours is, and compared in the way that
 * kind allows:
 *
 * - simulated over seeds: where the published value falls in our per-seed
 *   distribution (below all seeds, in which quarter, above all seeds; in which
 *   of two modes), since the article's value is one draw from its own runs;
 *   outside only when no value the article's printed digits cover (0.42 covers
 *   [0.415, 0.425); src/published.ts) reaches the range of our seeds;
 * - shares of runs: the article's count against ours by Fisher's exact test;
 *   different only when p < SHARE_ALPHA (a share from two or fifteen runs
 *   says little);
 * - simulated without seeds (one run, or a run without random draws): the
 *   relative gap, and whether the published value lies in our interval;
 * - analytic (a formula, an exact count on fixed input, arithmetic on
 *   settings, an identity): equal at the printed precision, or how far off;
 * - setting: an input we echo, shown but never counted as reproduced.
 *
 * Then the article’s qualitative statements that this build contradicts. Pure:
 * the page renders what this returns.
 */
import type { Published } from '../published.ts';
import type { ClaimResult, ClaimsEvaluation } from '../pipeline/outputs.ts';
import { printedRange, publishedCount, withinPrinted } from '../published.ts';
import type { SiteNumber } from './data.ts';
import { heading } from '../outline.ts';
import { fisherExact, wilsonInterval } from '../stats/proportion.ts';

/** A relative difference above this is marked as far off. */
export const FAR_OFF = 0.1;
/** A relative difference at or below this counts as a close match. */
export const NEAR = 0.05;

/** Factors to seconds, for comparing a published value with ours in another time unit. */
const TIME: Record<string, number> = { ms: 1e-3, s: 1, min: 60, h: 3600 };

/** How far off a row is by its relative gap. */
export type Band = 'further' | 'within10' | 'within5' | 'unit-mismatch' | 'missing';
export const BANDS: Band[] = ['further', 'within10', 'within5', 'unit-mismatch', 'missing'];

/** What kind of number ours is. */
export type RowKind = 'simulated' | 'analytic' | 'setting';

/** The page's groups, in the order it shows them. */
export type Group = 'outside' | 'inside' | 'single' | 'analytic' | 'setting' | 'unit-mismatch' | 'missing';
export const GROUPS: Group[] = ['outside', 'inside', 'single', 'analytic', 'setting', 'unit-mismatch', 'missing'];

/** Where a published value falls among our per-seed values. */
export type SeedPosition = 'below' | 'q1' | 'q2' | 'q3' | 'q4' | 'above';

export interface ReproRow {
  entry: Published;
  ours: SiteNumber | null;
  kind: RowKind;
  group: Group;
  /** Our value expressed in the published unit (null when missing or incomparable). */
  oursInPublishedUnit: number | null;
  /** ours − published, in the published unit. */
  diff: number | null;
  /** (ours − published) / |published|; ±Infinity when published is 0 and ours is not. */
  rel: number | null;
  status: 'missing' | 'unit-mismatch' | 'close' | 'far';
  band: Band;
  /** The published value lies inside our interval (within one run, or Wilson for a share). */
  withinInterval: boolean;
  /** Over seeds: where the published value falls; null for a number without seeds. */
  seedPosition: SeedPosition | null;
  /** Over seeds, when ours is bimodal: the mode the published value falls in, or 'between'. */
  mode: 'lower' | 'upper' | 'between' | null;
  /** A share of runs: ours as `k of n`; against the article's count (`of` runs), Fisher's exact p-value, else null (no count published). */
  share: { k: number; n: number; p: number | null } | null;
  /** Analytic: ours inside what the published value's printed digits cover. */
  exact: boolean;
  /** Ours is inside what the published value's printed digits cover (0.42 covers [0.415, 0.425)). */
  withinPrinted: boolean;
  /** Over seeds: the published value lies outside our seeds' range, but its printed precision reaches into it. */
  byPrecision: boolean;
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

/** Experiments that run no simulator: their numbers are formulas or exact counts on fixed input. */
export const ANALYTIC_EXPERIMENTS = new Set(['order-statistics', 'derivations', 'constants', 'tokens']);

/** The kind of our number: the entry's own `kind` when given, else by its experiment. */
export function kindOf(entry: Published, ours: SiteNumber | null): RowKind {
  if (entry.kind) return entry.kind;
  return ours && ANALYTIC_EXPERIMENTS.has(ours.experiment) ? 'analytic' : 'simulated';
}

/** Confidence level of the interval put on a count of runs that carries none. */
export const SHARE_LEVEL = 0.95;
/** Two counts of runs differ when Fisher's exact test gives a two-sided p below this. */
export const SHARE_ALPHA = 0.05;

/**
 * A share of runs: a percentage with a Wilson interval and a run count, or a
 * count of runs out of `n` compared with a published count out of `of`.
 */
export function shareOf(ours: SiteNumber, entry?: Published): { k: number; n: number } | null {
  if (ours.unit === '%' && ours.n !== null && ours.intervalKind?.startsWith('Wilson')) return { k: Math.round((ours.value * ours.n) / 100), n: ours.n };
  if (ours.unit === 'runs' && ours.n !== null && entry?.of !== undefined) return { k: ours.value, n: ours.n };
  return null;
}


/** The published value as a share in %, for a row compared as a share. */
export function publishedShare(entry: Published): number {
  return entry.unit === 'runs' && entry.of ? (100 * entry.published) / entry.of : entry.published;
}

/** Where `v` falls among the per-seed values summarised by `spread`. */
export function seedPosition(v: number, s: NonNullable<SiteNumber['spread']>): SeedPosition {
  if (v < s.min) return 'below';
  if (v > s.max) return 'above';
  return v <= s.q1 ? 'q1' : v <= s.median ? 'q2' : v <= s.q3 ? 'q3' : 'q4';
}

function modeOf(v: number, s: NonNullable<SiteNumber['spread']>): ReproRow['mode'] {
  if (!s.modes) return null;
  const [lo, hi] = s.modes;
  return v <= lo.max ? 'lower' : v >= hi.min ? 'upper' : 'between';
}

export function reproductionRow(entry: Published, numbers: Record<string, SiteNumber>): ReproRow {
  const ours = Object.hasOwn(numbers, entry.id) ? numbers[entry.id]! : null;
  const kind = kindOf(entry, ours);
  const empty = { entry, ours, kind, oursInPublishedUnit: null, diff: null, rel: null, withinInterval: false, seedPosition: null, mode: null, share: null, exact: false, withinPrinted: false, byPrecision: false };
  if (!ours) return { ...empty, group: 'missing', status: 'missing', band: 'missing' };
  const v = toUnit(ours.value, ours.unit, entry.unit);
  if (v === null) return { ...empty, group: 'unit-mismatch', status: 'unit-mismatch', band: 'unit-mismatch' };
  const diff = v - entry.published;
  const rel = entry.published !== 0 ? diff / Math.abs(entry.published) : diff === 0 ? 0 : Math.sign(diff) * Infinity;
  const conv = (x: number) => toUnit(x, ours.unit, entry.unit)!;
  // What the article printed covers a range, not a point: an interval of ours meets it when the two overlap.
  const printed = printedRange(entry);
  const meets = (lo: number, hi: number) => printed.lo <= hi && (printed.hiOpen ? printed.hi > lo : printed.hi >= lo);
  const within = ours.interval ? meets(conv(ours.interval[0]), conv(ours.interval[1])) : false;
  const status = Math.abs(rel) > FAR_OFF ? 'far' : 'close';
  const base = { ...empty, oursInPublishedUnit: v, diff, rel, status, band: bandOf(status, rel), withinInterval: within, withinPrinted: withinPrinted(entry, v) } as const;
  if (kind === 'setting') return { ...base, group: 'setting' };
  if (kind === 'analytic') return { ...base, group: 'analytic', exact: base.withinPrinted };
  const share = shareOf(ours, entry);
  if (share) {
    const p = publishedShare(entry);
    const relShare = p !== 0 ? ((100 * share.k) / share.n - p) / p : share.k === 0 ? 0 : Infinity;
    const theirs = publishedCount(entry);
    // Two counts of runs: the same share unless Fisher's exact test says otherwise. Without the article's count, our Wilson interval.
    const fisher = theirs ? fisherExact(share.k, share.n, theirs.k, theirs.n) : null;
    const w = wilsonInterval(share.k, share.n, SHARE_LEVEL);
    const inside = fisher !== null ? fisher >= SHARE_ALPHA : p >= 100 * w.lo - 1e-9 && p <= 100 * w.hi + 1e-9;
    return { ...base, rel: relShare, band: bandOf(Math.abs(relShare) > FAR_OFF ? 'far' : 'close', relShare), share: { ...share, p: fisher }, withinInterval: inside, group: inside ? 'inside' : 'outside' };
  }
  if (ours.spread) {
    const s = { min: conv(ours.spread.min), q1: conv(ours.spread.q1), median: conv(ours.spread.median), q3: conv(ours.spread.q3), max: conv(ours.spread.max), modes: ours.spread.modes?.map((m) => ({ ...m, min: conv(m.min), median: conv(m.median), max: conv(m.max) })) as NonNullable<SiteNumber['spread']>['modes'] };
    const pos = seedPosition(entry.published, s);
    const reaches = meets(s.min, s.max);
    const point = pos !== 'below' && pos !== 'above';
    return { ...base, seedPosition: pos, mode: modeOf(entry.published, s), byPrecision: reaches && !point, group: reaches ? 'inside' : 'outside' };
  }
  return { ...base, group: 'single' };
}

export function reproductionRows(published: Published[], numbers: Record<string, SiteNumber>): ReproRow[] {
  const rows = published.map((entry) => reproductionRow(entry, numbers));
  const rank = (r: ReproRow) => GROUPS.indexOf(r.group);
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

/** Rows per group, in GROUPS order (empty groups kept, so the summary can name them). */
export function groupRows(rows: ReproRow[]): { group: Group; rows: ReproRow[] }[] {
  return GROUPS.map((group) => ({ group, rows: rows.filter((r) => r.group === group) }));
}

/** How many rows fall in each group. */
export function groupCounts(rows: ReproRow[]): Record<Group, number> {
  const c = Object.fromEntries(GROUPS.map((g) => [g, 0])) as Record<Group, number>;
  for (const r of rows) c[r.group]++;
  return c;
}

/** How many rows fall in each band of relative gap. */
export function bandCounts(rows: ReproRow[]): Record<Band, number> {
  const c = Object.fromEntries(BANDS.map((b) => [b, 0])) as Record<Band, number>;
  for (const r of rows) c[r.band]++;
  return c;
}

/**
 * The article's qualitative statements that this build contradicts: the
 * checked claims marked `contradicts` (src/article/<section>.checks.ts), as the
 * build evaluates them into claims.json. The article's statements that hold are
 * sentences of our own prose, checked the same way and listed in the dossier;
 * there is no second list of the article's claims.
 */
export function contradictedClaims(claims: ClaimsEvaluation): ClaimResult[] {
  return claims.claims.filter((c) => c.status === 'contradicted');
}

/** The heading of our article page where a published number is used (anchor and our title). */
export function sectionOf(p: Pick<Published, 'where'>): { id: string; title: string } {
  const h = heading(p.where.in);
  return { id: h.id, title: h.title };
}
