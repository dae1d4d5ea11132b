/**
 * numbers.json: validating what experiments return, merging in registry order,
 * writing one line per number (so a pull request's diff shows exactly which
 * numbers moved), and comparing with the committed snapshot.
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

export interface NumberChange {
  id: string;
  old?: Entry;
  new?: Entry;
}

/** Numbers that differ between two files (any field), sorted by id. */
export function diffNumbers(oldFile: NumbersFile, newFile: NumbersFile): NumberChange[] {
  const ids = [...new Set([...Object.keys(oldFile), ...Object.keys(newFile)])].sort();
  const out: NumberChange[] = [];
  for (const id of ids) {
    const a = oldFile[id];
    const b = newFile[id];
    if (a && b && canonicalJson(a) === canonicalJson(b)) continue;
    out.push({ id, ...(a ? { old: a } : {}), ...(b ? { new: b } : {}) });
  }
  return out;
}

function show(e: Entry): string {
  const iv = e.interval ? ` [${e.interval[0]}, ${e.interval[1]}]` : '';
  return `${e.value}${e.unit ? ` ${e.unit}` : ''}${iv}${e.n !== null ? ` (n=${e.n})` : ''}`;
}

/** `id: old → new` lines, readable in a terminal and in a test failure. */
export function describeNumberChanges(changes: NumberChange[]): string[] {
  return changes.map((c) => {
    if (!c.old) return `${c.id}: (new) ${show(c.new!)}`;
    if (!c.new) return `${c.id}: ${show(c.old)} → (gone)`;
    const rel = c.old.value !== 0 ? ` (${c.new.value >= c.old.value ? '+' : ''}${(((c.new.value - c.old.value) / Math.abs(c.old.value)) * 100).toPrecision(3)}%)` : '';
    return `${c.id}: ${show(c.old)} → ${show(c.new)}${c.old.value !== c.new.value ? rel : ''}`;
  });
}
