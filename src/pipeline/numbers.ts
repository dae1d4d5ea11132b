/**
 * numbers.json: validating what experiments return, merging in registry order,
 * writing one line per number (so a pull request's diff shows exactly which
 * numbers moved). Comparing two numbers files is in outputs.ts.
 */
import { UserError } from '../errors.ts';
import { canonicalJson } from './hash.ts';
import type { NumberValue, Numbers, NumbersFile, SeedSpread } from './types.ts';

type Entry = NumbersFile[string];

const ID_PART = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
const KNOWN = ['value', 'unit', 'n', 'interval', 'level', 'intervalKind', 'seeds', 'spread', 'perSeed'] as const;

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** Checks one experiment's numbers; errors name the experiment, the id and the bad field. */
export function validateNumbers(experiment: string, numbers: Numbers): void {
  if (!numbers || typeof numbers !== 'object') throw new UserError(`${experiment}: combine() must return { data, numbers }`);
  for (const [id, v] of Object.entries(numbers)) {
    const where = `${experiment}: number "${id}"`;
    if (!id.split('.').every((p) => ID_PART.test(p))) throw new UserError(`${where}: invalid id (dotted parts of letters, digits, _ and -)`);
    if (!v || typeof v !== 'object') throw new UserError(`${where} is not a NumberValue`);
    if (!isFiniteNumber(v.value)) throw new UserError(`${where}: value is ${String(v.value)}; a finite number is required`);
    if (typeof v.unit !== 'string') throw new UserError(`${where}: unit is ${String(v.unit)}; a string is required ('' for a count)`);
    if (v.n !== null && !(isFiniteNumber(v.n) && v.n >= 0)) throw new UserError(`${where}: n is ${String(v.n)}; a count ≥ 0 or null is required`);
    if (v.interval !== null && !(Array.isArray(v.interval) && v.interval.length === 2 && v.interval.every(isFiniteNumber))) {
      throw new UserError(`${where}: interval is ${JSON.stringify(v.interval)}; [low, high] or null is required`);
    }
    if (v.interval && v.interval[0] > v.interval[1]) throw new UserError(`${where}: interval [${v.interval}] has low > high`);
    const spreadProblem = checkSeeds(v);
    if (spreadProblem) throw new UserError(`${where}: ${spreadProblem}`);
    // Extra fields must at least be JSON (they are passed through to numbers.json).
    try {
      canonicalJson(v);
    } catch (err) {
      throw new UserError(`${where}: ${(err as Error).message}`);
    }
  }
}

const QUANTILES = ['min', 'q1', 'median', 'q3', 'max'] as const;

/** What is wrong with a number's `seeds`, `spread` and `perSeed` (they come together), or null. */
export function checkSeeds(v: NumberValue): string | null {
  if (v.seeds === undefined && v.spread === undefined && v.perSeed === undefined) return null;
  if (!(Number.isInteger(v.seeds) && v.seeds! >= 2)) return `seeds is ${String(v.seeds)}; an integer ≥ 2 (with a spread) is required`;
  const s = v.spread as SeedSpread | undefined;
  if (!s || typeof s !== 'object') return `seeds is ${v.seeds} but spread is missing; give {min, q1, median, q3, max}`;
  const q = QUANTILES.map((k) => s[k]);
  if (!q.every(isFiniteNumber)) return `spread ${JSON.stringify(s)} needs finite min, q1, median, q3, max`;
  for (let i = 1; i < q.length; i++) if (q[i - 1]! > q[i]!) return `spread ${JSON.stringify(s)} is not ordered (min ≤ q1 ≤ median ≤ q3 ≤ max)`;
  if (s.modes !== undefined) {
    const m = s.modes;
    const ok =
      Array.isArray(m) &&
      m.length === 2 &&
      m.every((x) => x && isFiniteNumber(x.min) && isFiniteNumber(x.median) && isFiniteNumber(x.max) && Number.isInteger(x.seeds) && x.seeds >= 1 && x.min <= x.median && x.median <= x.max) &&
      m[0].max < m[1].min &&
      m[0].seeds + m[1].seeds === v.seeds;
    if (!ok) return `spread.modes ${JSON.stringify(m)} must be two ordered clusters {min, median, max, seeds} whose seeds add up to ${v.seeds}`;
  }
  const p = v.perSeed;
  if (!p || !Array.isArray(p.seeds) || !Array.isArray(p.values)) return `seeds is ${v.seeds} but perSeed is missing; give {seeds, values} (overSeeds in experiments/lib/seeds.ts does)`;
  if (p.seeds.length !== v.seeds || p.values.length !== v.seeds) return `perSeed holds ${p.seeds.length} seeds and ${p.values.length} values; seeds is ${v.seeds}`;
  if (!p.values.every(isFiniteNumber)) return 'perSeed.values must be finite numbers';
  if (!p.seeds.every((x, i) => Number.isInteger(x) && (i === 0 || x > p.seeds[i - 1]!))) return `perSeed.seeds [${p.seeds.join(', ')}] must be ascending integers`;
  const sorted = [...p.values].sort((a, b) => a - b);
  if (sorted[0] !== s.min || sorted[sorted.length - 1] !== s.max) return `perSeed.values span ${sorted[0]}–${sorted[sorted.length - 1]} but spread says ${s.min}–${s.max}`;
  return null;
}

/** The spread in a fixed key order (so numbers.json does not depend on how an experiment built it). */
function spreadOf(s: SeedSpread): SeedSpread {
  const out: SeedSpread = { min: s.min, q1: s.q1, median: s.median, q3: s.q3, max: s.max };
  if (s.modes) out.modes = s.modes.map((m) => ({ min: m.min, median: m.median, max: m.max, seeds: m.seeds })) as SeedSpread['modes'];
  return out;
}

/** A NumberValue as written to numbers.json: the known fields in a fixed order, extra fields sorted, then `experiment`. */
function entryOf(v: NumberValue, experiment: string): Entry {
  const out: Record<string, unknown> = { value: v.value, unit: v.unit, n: v.n, interval: v.interval };
  if (v.level !== undefined) out.level = v.level;
  if (v.intervalKind !== undefined) out.intervalKind = v.intervalKind;
  if (v.seeds !== undefined) out.seeds = v.seeds;
  if (v.spread !== undefined) out.spread = spreadOf(v.spread);
  if (v.perSeed !== undefined) out.perSeed = { seeds: v.perSeed.seeds, values: v.perSeed.values };
  for (const k of Object.keys(v).sort()) {
    if (!(KNOWN as readonly string[]).includes(k) && k !== 'experiment' && (v as unknown as Record<string, unknown>)[k] !== undefined) {
      out[k] = (v as unknown as Record<string, unknown>)[k];
    }
  }
  out.experiment = experiment;
  return out as unknown as Entry;
}

/**
 * Merges experiments' numbers into one flat map, ids prefixed `<experiment>.`.
 * A duplicate id is an error naming both experiments.
 */
export function mergeNumbers(parts: { experiment: string; numbers: Numbers }[], into: NumbersFile = {}): NumbersFile {
  const out: NumbersFile = { ...into };
  for (const { experiment, numbers } of parts) {
    for (const [id, v] of Object.entries(numbers)) {
      const full = `${experiment}.${id}`;
      const prior = out[full];
      if (prior) throw new UserError(`number id ${full} is produced by both ${prior.experiment} and ${experiment}`);
      out[full] = entryOf(v, experiment);
    }
  }
  return sortNumbers(out);
}

/** Sorted by id in code-unit order (never a locale's). */
export function sortNumbers(file: NumbersFile): NumbersFile {
  const out: NumbersFile = {};
  for (const id of Object.keys(file).sort()) out[id] = file[id]!;
  return out;
}

/** One number per line, sorted: the diff of a pull request lists exactly the numbers that moved. */
export function formatNumbersFile(file: NumbersFile): string {
  const ids = Object.keys(file).sort();
  if (ids.length === 0) return '{}\n';
  return `{\n${ids.map((id) => `  ${JSON.stringify(id)}: ${JSON.stringify(file[id])}`).join(',\n')}\n}\n`;
}

/**
 * number-ids.d.ts: every id as a string-literal union, so `<Num id="…">` and
 * other typed uses of an id are checked by the editor and `tsc`.
 */
export function formatNumberIds(file: NumbersFile): string {
  const ids = Object.keys(file).sort();
  const union = ids.length ? ids.map((id) => `\n  | ${JSON.stringify(id)}`).join('') : ' never';
  return `// Generated by \`stopwatches run\` from numbers.json: the id of every number of the paper.\nexport type NumberId =${union};\n`;
}

/** Comparing numbers files belongs to the outputs contract; snapshot.ts still imports them from here. */
export { compareNumbers, describeNumberChanges, type NumberChange } from './outputs.ts';
