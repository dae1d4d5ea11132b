/**
 * Evaluates checked claims on one build's numbers and writes the result as
 * claims.json, the file the build keeps beside numbers.json (its path, schema
 * and reader are in src/pipeline/outputs.ts):
 *
 *   { "numbersSha256": "<sha256 of the numbers.json evaluated>",
 *     "claims": [ClaimResult…], "summary": { checked, hold, contradicted, fail } }
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
 * Seeds: when a claim reads numbers with per-seed values (`perSeed`), it is
 * also evaluated seed by seed, the numbers of one seed together, and its seed
 * verdict is "holds in k of n seeds" with the smallest slack over the seeds. A
 * claim whose value is a median over seeds is the median's: a sentence true
 * only by the median reads `id@median` and says so ("by the median"). A claim
 * that sets a number against parts of its own spread (its median against its
 * largest value) is about the distribution: its verdict says so, with no count
 * of seeds it holds in.
 */
import type { CheckedClaim } from './types.ts';
import { formatValue, ofTotal } from '../format/value.ts';
import { PUBLISHED } from '../published.ts';
import type { Values } from './predicates.ts';
import type { ClaimResult, ClaimsEvaluation, ClaimsFile, ClaimStatus, SeedVerdict } from '../pipeline/outputs.ts';
import type { PerSeed } from '../pipeline/types.ts';

/** What a claim reads from numbers.json; extra fields are ignored. */
export interface NumberEntry {
  value: number;
  unit: string;
  interval?: [number, number] | null;
  seeds?: number;
  spread?: { min: number; q1: number; median: number; q3: number; max: number; modes?: { min: number; median: number; max: number; seeds: number }[] };
  perSeed?: PerSeed;
}

export type { ClaimResult, ClaimsEvaluation, ClaimsFile, ClaimStatus, SeedVerdict } from '../pipeline/outputs.ts';

const round = (x: number): number | null => (Number.isFinite(x) ? Number(x.toPrecision(6)) : null);

/**
 * The claim in every seed: each number that has per-seed values is read at
 * that seed, the others (settings, single runs, parts of a distribution) at
 * their value, so two numbers of one run pair up, never the min of one with
 * the max of another. Seeds are those every per-seed number has; none, and
 * the verdict is absent.
 */
function seedVerdict(c: CheckedClaim, entries: NumberEntry[], nominal: Values): SeedVerdict | undefined {
  const ids = c.check.ids;
  const seeded = entries.map((e, i) => ({ i, p: e.perSeed })).filter((x): x is { i: number; p: PerSeed } => x.p !== undefined);
  if (seeded.length === 0) return undefined;
  const common = seeded.map((x) => new Set(x.p.seeds)).reduce((a, b) => new Set([...a].filter((s) => b.has(s))));
  const seeds = [...common].sort((a, b) => a - b);
  if (seeds.length === 0) return undefined;
  // One seed's value set against the extremes of all of them is not that seed's verdict on a sentence about the shape.
  if (seeded.some(({ i }) => spreadParts(ids).has(baseId(ids[i])))) return { seeds: seeds.length, ofSpread: true };
  const byMedian = ids.some((id) => id.endsWith('@median'));
  let held = 0;
  let worst = Infinity;
  for (const seed of seeds) {
    const v: Record<string, number> = { ...nominal };
    for (const { i, p } of seeded) v[ids[i]] = p.values[p.seeds.indexOf(seed)]!;
    const out = c.check.test(v);
    if (out.holds) held++;
    worst = Math.min(worst, out.slack);
  }
  return { seeds: seeds.length, holds: held, worstSlack: round(worst), ...(byMedian ? { byMedian: true } : {}) };
}

/** Parts of a number's spread over seeds that describe the distribution, not one draw (see `lookup`). */
const SPREAD_PART = /@(seeds-min|seeds-max|lower-mode|upper-mode|lower-mode-seeds|upper-mode-seeds|lower-mode-min|lower-mode-max|upper-mode-min|upper-mode-max)$/;

const baseId = (id: string): string => id.replace(/@[a-z-]+$/, '');

/** The numbers a claim reads by a part of their spread (`x@seeds-max`, `x@upper-mode`): if it also reads x itself, it compares x's distribution with itself. */
function spreadParts(ids: readonly string[]): Set<string> {
  return new Set(ids.filter((id) => SPREAD_PART.test(id)).map(baseId));
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
  const m = /^(.*)@(lo|hi|median|seeds-min|seeds-max|lower-mode|upper-mode|lower-mode-seeds|upper-mode-seeds|lower-mode-min|lower-mode-max|upper-mode-min|upper-mode-max)$/.exec(id);
  if (!m) return numbers[id];
  const base = numbers[m[1]];
  if (!base) return undefined;
  const part = m[2];
  if (part === 'lo' || part === 'hi') {
    if (!Array.isArray(base.interval)) return undefined;
    return { value: base.interval[part === 'lo' ? 0 : 1], unit: base.unit };
  }
  if (!base.spread) return undefined;
  // The median keeps the per-seed values: "by the median" is checked on the median, and its seed verdict still says in how many seeds it holds.
  if (part === 'median') return { value: base.spread.median, unit: base.unit, spread: base.spread, seeds: base.seeds, ...(base.perSeed ? { perSeed: base.perSeed } : {}) };
  if (part === 'seeds-min' || part === 'seeds-max') return { value: base.spread[part === 'seeds-min' ? 'min' : 'max'], unit: base.unit };
  const modes = base.spread.modes;
  if (!modes || modes.length < 2) return undefined;
  const mode = part.startsWith('lower') ? modes[0] : modes[modes.length - 1];
  if (part.endsWith('-seeds')) return { value: mode.seeds, unit: 'seeds' };
  if (part.endsWith('-min') || part.endsWith('-max')) return { value: mode[part.endsWith('-min') ? 'min' : 'max'], unit: base.unit };
  return { value: mode.median, unit: base.unit };
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
  const base = { id: c.id, section, says: says.text, kind: c.check.kind, basis: c.basis ?? ('evidence' as const), ...(article ? { article: article.text } : {}), ...(c.contradicts?.why ? { why: c.contradicts.why } : {}) };
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
export function evaluateAll(sections: readonly { section: string; claims: readonly CheckedClaim[] }[], numbers: Readonly<Record<string, NumberEntry>>): ClaimsEvaluation {
  const claims = sections.flatMap((s) => s.claims.map((c) => evaluateClaim(c, s.section, numbers)));
  return {
    claims,
    summary: {
      checked: claims.length,
      hold: claims.filter((c) => c.status === 'holds').length,
      evidence: claims.filter((c) => c.status === 'holds' && c.basis === 'evidence').length,
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
export function serializeClaims(f: ClaimsEvaluation): string {
  return `${JSON.stringify(f, null, 2)}\n`;
}

/** What the spread over seeds says about a claim, in words; empty when no number has a spread. */
export function seedsText(r: ClaimResult): string {
  if (!r.seeds) return '';
  const s = r.seeds;
  if ('ofSpread' in s) return `about the spread over ${s.seeds} seeds; no per-seed verdict`;
  return `${s.byMedian ? 'by the median; ' : ''}holds in ${s.holds} of ${s.seeds} seeds`;
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
