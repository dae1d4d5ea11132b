/**
 * What changed in the checked claims between two builds, for the pull-request
 * report: claims whose status changed come first, then claims whose margin
 * moved or whose count of seeds it holds in changed (largest move first), then claims added or removed. Two claims files
 * (claims.json of each build) are compared by claim id; when only the numbers
 * of a baseline exist, `claimChangesFromNumbers` evaluates today's claims on
 * both, which answers "which sentences did this change of numbers move".
 *
 * The report's one-line hook is `claimChangesLine(changes)`; the full list is
 * `changes` itself, JSON-ready:
 *
 *   { id, section, says, change: 'status' | 'margin' | 'added' | 'removed',
 *     before: { status, slack, margin, seeds } | null, after: { status, slack, margin, seeds } | null }
 */
import { evaluateAll, seedsText, type ClaimResult, type ClaimsEvaluation, type NumberEntry } from './evaluate.ts';
import { sectionClaims, type ClaimsBySection } from './registry.ts';

export interface ClaimState {
  status: ClaimResult['status'];
  slack: number | null;
  margin: string;
  /** "holds in k of n seeds" (seedsText), empty when the claim reads no per-seed number. */
  seeds: string;
}

export interface ClaimChange {
  id: string;
  section: string;
  says: string;
  change: 'status' | 'margin' | 'added' | 'removed';
  before: ClaimState | null;
  after: ClaimState | null;
}

const state = (c: ClaimResult): ClaimState => ({ status: c.status, slack: c.slack, margin: c.margin, seeds: seedsText(c) });
const ORDER = { status: 0, margin: 1, added: 2, removed: 3 } as const;

/** Changes from `before` to `after`, status changes first. */
export function compareClaims(before: ClaimsEvaluation, after: ClaimsEvaluation): ClaimChange[] {
  const old = new Map(before.claims.map((c) => [c.id, c]));
  const now = new Map(after.claims.map((c) => [c.id, c]));
  const out: ClaimChange[] = [];
  for (const c of after.claims) {
    const o = old.get(c.id);
    const base = { id: c.id, section: c.section, says: c.says };
    if (!o) out.push({ ...base, change: 'added', before: null, after: state(c) });
    else if (o.status !== c.status) out.push({ ...base, change: 'status', before: state(o), after: state(c) });
    else if (o.slack !== c.slack || seedsText(o) !== seedsText(c)) out.push({ ...base, change: 'margin', before: state(o), after: state(c) });
  }
  for (const o of before.claims) if (!now.has(o.id)) out.push({ id: o.id, section: o.section, says: o.says, change: 'removed', before: state(o), after: null });
  const move = (c: ClaimChange) => Math.abs((c.after?.slack ?? 0) - (c.before?.slack ?? 0));
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => ORDER[a.c.change] - ORDER[b.c.change] || (a.c.change === 'margin' ? move(b.c) - move(a.c) : 0) || a.i - b.i)
    .map(({ c }) => c);
}

/** Today's claims evaluated on two sets of numbers (a baseline's numbers.json and this build's). */
export function claimChangesFromNumbers(claims: ClaimsBySection, before: Readonly<Record<string, NumberEntry>>, after: Readonly<Record<string, NumberEntry>>): ClaimChange[] {
  const sections = sectionClaims(claims);
  return compareClaims(evaluateAll(sections, before), evaluateAll(sections, after));
}

/** One line for the top of the report: how many claims changed status (named), how many margins moved. */
export function claimChangesLine(changes: readonly ClaimChange[]): string {
  const flipped = changes.filter((c) => c.change === 'status');
  const moved = changes.filter((c) => c.change === 'margin').length;
  const other = changes.length - flipped.length - moved;
  if (changes.length === 0) return 'claims: no checked sentence changed status or margin';
  const names = flipped.map((c) => `${c.id} ${c.before!.status} → ${c.after!.status}`).join(', ');
  return `claims: ${flipped.length} changed status${flipped.length ? ` (${names})` : ''}, ${moved} margins moved${other ? `, ${other} added or removed` : ''}`;
}

/**
 * The hook for the pull-request report: given the baseline's and this build's
 * numbers (the diff's two sides), the line to print first, above the numbers,
 * and the changes for its JSON and HTML (shape in this file's header).
 */
export function claimsReport(claims: ClaimsBySection, before: Readonly<Record<string, NumberEntry>>, after: Readonly<Record<string, NumberEntry>>): { line: string; changes: ClaimChange[] } {
  const changes = claimChangesFromNumbers(claims, before, after);
  return { line: claimChangesLine(changes), changes };
}
