/**
 * Evaluates checked claims on one build's numbers and writes the result as
 * claims.json, the file the build keeps beside numbers.json (its path, schema
 * and reader are in src/pipeline/outputs.ts):
 *
 *   { "claims": [ClaimResult…], "summary": { checked, hold, contradicted, fail } }
 *
 * in registry order (sections in outline order, claims in page order), every
 * float rounded to six significant digits, so two builds of one commit write
 * identical bytes and a diff of two files shows only what moved.
 *
 * Status:
 *   holds         the sentence is true on these numbers
 *   fails         it is not, and nothing says so: the build stops
 *   contradicted  a statement of the original article that these numbers do not
 *                 bear out, marked as such: the page prints it with the numbers
 *   stale         marked as contradicted but it holds now: the build stops, so
 *                 the marking is removed (or the sentence restored)
 *
 * Seeds: when a number carries a spread over seeds ({min,q1,median,q3,max}),
 * the claim is also evaluated at every corner of the numbers' ranges (min or
 * max of each); "holds across the spread" is then a conservative statement,
 * true only if no combination of extremes flips it. When per-seed values are
 * present (`perSeed`, aligned by seed across ids), the share of seeds for which
 * the claim holds is reported too.
 */
import type { CheckedClaim } from './types.ts';
import { formatValue, ofTotal } from '../format/value.ts';
import { PUBLISHED } from '../published.ts';
import type { Values } from './predicates.ts';
import type { ClaimResult, ClaimsFile, ClaimStatus, SeedVerdict } from '../pipeline/outputs.ts';

/** What a claim reads from numbers.json; extra fields are ignored. */
export interface NumberEntry {
  value: number;
  unit: string;
  interval?: [number, number] | null;
  seeds?: number;
  spread?: { min: number; q1: number; median: number; q3: number; max: number; modes?: { min: number; median: number; max: number; seeds: number }[] };
  perSeed?: number[];
}

export type { ClaimResult, ClaimsFile, ClaimStatus, SeedVerdict } from '../pipeline/outputs.ts';

const round = (x: number): number | null => (Number.isFinite(x) ? Number(x.toPrecision(6)) : null);

/** Up to this many numbers with a spread, every combination of their extremes is tried; beyond it, a greedy search. */
const EXHAUSTIVE_SPREAD_IDS = 10;

function seedVerdict(c: CheckedClaim, entries: NumberEntry[], nominal: Values): SeedVerdict | undefined {
  const spreadIdx = entries.map((e, i) => (e.spread ? i : -1)).filter((i) => i >= 0);
  if (spreadIdx.length === 0) return undefined;
  const ids = c.check.ids;
  const at = (choice: ('min' | 'max')[]) => {
    const v: Record<string, number> = { ...nominal };
    spreadIdx.forEach((i, j) => (v[ids[i]] = entries[i].spread![choice[j]]));
    return c.check.test(v);
  };
  let worst = Infinity;
  let allHold = c.check.test(nominal).holds;
  let exhaustive = true;
  if (spreadIdx.length <= EXHAUSTIVE_SPREAD_IDS) {
    for (let mask = 0; mask < 1 << spreadIdx.length; mask++) {
      const out = at(spreadIdx.map((_, bit) => (mask & (1 << bit) ? 'max' : 'min')));
      worst = Math.min(worst, out.slack);
      allHold &&= out.holds;
    }
  } else {
    // Too many combinations: move one number at a time to whichever extreme hurts the claim more, until nothing changes.
    exhaustive = false;
    const choice = spreadIdx.map((): 'min' | 'max' => 'min');
    for (let pass = 0, moved = true; moved && pass < 5; pass++) {
      moved = false;
      for (let j = 0; j < choice.length; j++) {
        const other = choice[j] === 'min' ? 'max' : 'min';
        const alt = [...choice];
        alt[j] = other;
        if (at(alt).slack < at(choice).slack) [choice[j], moved] = [other, true];
      }
    }
    const out = at(choice);
    worst = out.slack;
    allHold &&= out.holds;
  }
  const verdict: SeedVerdict = {
    seeds: Math.max(...entries.map((e) => e.seeds ?? 1)),
    holdsAcrossSpread: allHold,
    worstSlack: round(worst),
    ...(exhaustive ? {} : { searched: 'greedy' as const }),
  };
  const per = spreadIdx.map((i) => entries[i].perSeed);
  if (per.every((p) => Array.isArray(p) && p.length > 0) && new Set(per.map((p) => p!.length)).size === 1) {
    const n = per[0]!.length;
    let held = 0;
    for (let s = 0; s < n; s++) {
      const v: Record<string, number> = { ...nominal };
      spreadIdx.forEach((i, j) => (v[ids[i]] = per[j]![s]));
      if (c.check.test(v).holds) held++;
    }
    verdict.share = round(held / n)!;
  }
  return verdict;
}

/**
 * What a claim reads for an id: the number itself; for `id@lo` / `id@hi`, the
 * lower or upper end of its interval ("the two intervals overlap"); for a
 * number with a spread over seeds, the parts <Num pick> prints: `id@seeds-min`,
 * `id@seeds-max`, `id@lower-mode` / `id@upper-mode` (the median of a mode) and
 * `id@lower-mode-seeds` / `id@upper-mode-seeds` (how many seeds it holds), so a
 * sentence that says "not in every seed" or "most seeds land near" is checked
 * on the same values it prints. A part has no spread of its own: it describes
 * the distribution, not one draw.
 */
function lookup(numbers: Readonly<Record<string, NumberEntry>>, id: string): NumberEntry | undefined {
  const m = /^(.*)@(lo|hi|seeds-min|seeds-max|lower-mode|upper-mode|lower-mode-seeds|upper-mode-seeds)$/.exec(id);
  if (!m) return numbers[id];
  const base = numbers[m[1]];
  if (!base) return undefined;
  const part = m[2];
  if (part === 'lo' || part === 'hi') {
    if (!Array.isArray(base.interval)) return undefined;
    return { value: base.interval[part === 'lo' ? 0 : 1], unit: base.unit };
  }
  if (!base.spread) return undefined;
  if (part === 'seeds-min' || part === 'seeds-max') return { value: base.spread[part === 'seeds-min' ? 'min' : 'max'], unit: base.unit };
  const modes = base.spread.modes;
  if (!modes || modes.length < 2) return undefined;
  const mode = part.startsWith('lower') ? modes[0] : modes[modes.length - 1];
  return part.endsWith('-seeds') ? { value: mode.seeds, unit: 'seeds' } : { value: mode.median, unit: base.unit };
}

/**
 * A claim's words with their numbers filled in: `{id}` is this build's value
 * (a setting such as the slot count, so no number is typed into the words) and
 * `{published:id}` the value the original article printed for that id
 * (src/published.ts). Returns the ids it could not fill.
 */
export function fillText(text: string, all: Readonly<Record<string, NumberEntry>>): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(/\{(published:)?([A-Za-z0-9_.-]+)\}/g, (whole, pub: string | undefined, id: string) => {
    if (pub) {
      const p = PUBLISHED.find((x) => x.id === id);
      if (!p) return (missing.push(`published:${id}`), whole);
      // A share of runs the article counted reads as the count: "0 of 14 runs", not "0%".
      if (p.of !== undefined && p.unit === '%') return ofTotal(Math.round((p.published / 100) * p.of), p.of, 'runs');
      if (p.of !== undefined && p.unit === 'runs') return ofTotal(p.published, p.of, 'runs');
      return formatValue(p.published, p.unit, p.digits === undefined ? {} : { digits: p.digits });
    }
    const n = all[id];
    if (!n) return (missing.push(id), whole);
    // A setting such as a slot count or a load is a whole number: print it as one, the way <Num as="count"> does.
    return formatValue(n.value, n.unit, Number.isInteger(n.value) ? { digits: 0 } : {});
  });
  return { text: out, missing };
}

/** One claim on one build's numbers. A number missing from the build fails the claim, naming the id. */
export function evaluateClaim(c: CheckedClaim, section: string, all: Readonly<Record<string, NumberEntry>>): ClaimResult {
  const numbers: Record<string, NumberEntry> = {};
  for (const id of c.check.ids) {
    const e = lookup(all, id);
    if (e) numbers[id] = e;
  }
  const says = fillText(c.says, all);
  const article = c.contradicts ? fillText(c.contradicts.article, all) : null;
  const base = { id: c.id, section, says: says.text, kind: c.check.kind, ...(article ? { article: article.text } : {}), ...(c.contradicts?.why ? { why: c.contradicts.why } : {}) };
  const missing = [...c.check.ids.filter((id) => !numbers[id] || typeof numbers[id].value !== 'number'), ...says.missing, ...(article?.missing ?? [])];
  const shown = c.check.ids.map((id) => ({ id, value: numbers[id] ? round(numbers[id].value) : null, unit: numbers[id]?.unit ?? '' }));
  if (missing.length) {
    return { ...base, status: 'fails', slack: null, margin: `not in this build’s numbers: ${missing.join(', ')}`, numbers: shown };
  }
  const entries = c.check.ids.map((id) => numbers[id]);
  const nominal: Values = Object.fromEntries(c.check.ids.map((id) => [id, numbers[id].value]));
  const out = c.check.test(nominal);
  const status: ClaimStatus = c.contradicts ? (out.holds ? 'stale' : 'contradicted') : out.holds ? 'holds' : 'fails';
  const seeds = seedVerdict(c, entries, nominal);
  return { ...base, status, slack: round(out.slack), margin: out.margin, numbers: shown, ...(seeds ? { seeds } : {}) };
}

/** Every claim of every section, in order. */
export function evaluateAll(sections: readonly { section: string; claims: readonly CheckedClaim[] }[], numbers: Readonly<Record<string, NumberEntry>>): ClaimsFile {
  const claims = sections.flatMap((s) => s.claims.map((c) => evaluateClaim(c, s.section, numbers)));
  return {
    claims,
    summary: {
      checked: claims.length,
      hold: claims.filter((c) => c.status === 'holds').length,
      contradicted: claims.filter((c) => c.status === 'contradicted').length,
      fail: claims.filter((c) => c.status === 'fails' || c.status === 'stale').length,
    },
  };
}

/** The numbers of a claim as one reads them: `id = 1.23 ms, …`. */
export function numbersLine(r: ClaimResult): string {
  return r.numbers.map((n) => `${n.id} = ${n.value === null ? 'missing' : `${n.value}${n.unit ? ` ${n.unit}` : ''}`}`).join(', ');
}

/** The one line a failing claim stops the build with: claim, sentence, numbers. */
export function failureLine(r: ClaimResult): string {
  const why = r.status === 'stale' ? 'is marked as contradicted by this build but holds' : 'fails';
  const fix =
    r.status === 'stale'
      ? 'remove `contradicts` from it'
      : 'rewrite the sentence to say what the numbers show, or mark it `contradicts` if it is the original article’s';
  // A claim over a whole sweep reads many numbers; the line keeps those its margin names (the deciding ones) and counts the rest.
  const named = r.numbers.length > 6 ? r.numbers.filter((n) => r.margin.includes(n.id) || n.value === null) : r.numbers;
  const rest = r.numbers.length - named.length;
  const nums = `${numbersLine({ ...r, numbers: named })}${rest ? `, and ${rest} more numbers` : ''}`;
  return `claim ${r.section}/${r.id} ${why}: “${r.says}” (${r.kind}; ${r.margin}; ${nums}); ${fix} in src/article/${r.section}.checks.ts`;
}

/** claims.json as written: stable key order, two-space indent, trailing newline. */
export function serializeClaims(f: ClaimsFile): string {
  return `${JSON.stringify(f, null, 2)}\n`;
}

/** What the spread over seeds says about a claim, in words; empty when no number has a spread. */
export function seedsText(r: ClaimResult): string {
  if (!r.seeds) return '';
  const s = r.seeds;
  const across = s.holdsAcrossSpread ? 'holds at every extreme of the spread' : 'flips somewhere inside the spread';
  const share = s.share === undefined ? '' : `; holds for ${Math.round(s.share * 100)}% of seeds`;
  const searched = s.searched === 'greedy' ? ' (worst case searched, not every combination tried)' : '';
  return `over ${s.seeds} seeds it ${across}${searched}${share}`;
}

/** The status in words, for the tooltip and the dossier. */
export function statusText(r: ClaimResult): string {
  switch (r.status) {
    case 'holds':
      return 'holds';
    case 'contradicted':
      return 'the original article’s, contradicted by this build';
    case 'stale':
      return 'marked contradicted, but holds';
    default:
      return 'fails';
  }
}
