/**
 * numbers.json: validating what experiments return, merging in registry order,
 * writing one line per number (so a pull request's diff shows exactly which
 * numbers moved). Comparing two numbers files is in outputs.ts.
 */
import { UserError } from '../errors.ts';
import { canonicalJson } from './hash.ts';
import type { NumberValue, Numbers, NumbersFile } from './types.ts';

type Entry = NumbersFile[string];

const ID_PART = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
const KNOWN = ['value', 'unit', 'n', 'interval', 'level', 'intervalKind'] as const;

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
    // Extra fields must at least be JSON (they are passed through to numbers.json).
    try {
      canonicalJson(v);
    } catch (err) {
      throw new UserError(`${where}: ${(err as Error).message}`);
    }
  }
}

/** A NumberValue as written to numbers.json: the known fields in a fixed order, extra fields sorted, then `experiment`. */
function entryOf(v: NumberValue, experiment: string): Entry {
  const out: Record<string, unknown> = { value: v.value, unit: v.unit, n: v.n, interval: v.interval };
  if (v.level !== undefined) out.level = v.level;
  if (v.intervalKind !== undefined) out.intervalKind = v.intervalKind;
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

/** Comparing numbers files belongs to the outputs contract; snapshot.ts still imports them from here. */
export { compareNumbers as diffNumbers, describeNumberChanges, type NumberChange } from './outputs.ts';
