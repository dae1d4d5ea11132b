/**
 * Small readers shared by the tools' file readers. Every problem becomes one UserError
 * line naming the file, the field (with its record index) and the problem:
 * `run.json: ttfts[3] = 40000 s is implausible …`.
 */
import { UserError } from '../../errors.ts';
import { parsePythonJson, stripBom } from './json-text.ts';
import { parseJsonChunks, type ListSinks } from './json-stream.ts';
import { isNumberLists, NumberListsBuilder, type NumberLists } from './number-lists.ts';
import { inputLines, textInput, type ResultInput } from './input.ts';
import type { Reported, RunEntry } from './result.ts';

/**
 * No single request of an LLM benchmark takes an hour: a per-request time
 * above this, in a field documented in seconds, is almost surely another unit
 * (milliseconds written where seconds are expected, or nanoseconds).
 */
export const MAX_PLAUSIBLE_REQUEST_S = 3600;

/**
 * The largest time on a run's clock that is read: a double keeps about 16
 * digits, so beyond 10^10 s (317 years) two neighbouring times are more than
 * a microsecond apart, and near 10^15 s a step of an eighth of a second
 * rounds away (every TTFT reads 0). Epoch seconds (about 1.8·10^9) pass.
 */
export const MAX_CLOCK_S = 1e10;
export const CLOCK_PRECISION = 'beyond 1e10 s a time keeps less than microsecond resolution (a double holds about 16 digits), so latencies computed from it would be wrong; shift the clock so the run starts near 0';

/** Relative slack when comparing a tool's derived numbers (float noise, rounding in the file). */
export const CONSISTENCY_TOLERANCE = 1e-6;

export type { Json, JsonObject } from './json-text.ts';
import type { Json, JsonObject } from './json-text.ts';

export function fail(file: string, problem: string): never {
  throw new UserError(`${file}: ${problem}`);
}

/**
 * JSON.parse (Python's NaN/Infinity literals and a byte-order mark accepted)
 * with a one-line error that says where the text stopped making sense; only
 * an error at the very end of the text is called a cut-short file.
 */
export function parseJson(file: string, text: string, what = 'JSON'): Json {
  const body = stripBom(text);
  try {
    return parsePythonJson(body);
  } catch (err) {
    const msg = (err as Error).message.split('\n')[0];
    const pos = /position (\d+)/.exec(msg);
    // only an error at the very end of the text means the file was cut short
    const truncated = pos === null ? /end of (JSON )?input|Unterminated string/i.test(msg) : Number(pos[1]) >= body.trimEnd().length - 1;
    fail(file, `invalid ${what}${truncated ? ' (the text ends early: truncated?)' : ''}: ${msg}`);
  }
}

/** Non-empty lines of a JSON-lines file, each parsed; errors name the line. */
export function parseJsonLines(file: string, text: string): { line: number; value: Json }[] {
  return readJsonLines(textInput(file, text));
}

/** A whole JSON document, or JSON lines when the whole does not parse but the first line does. */
export function parseJsonOrLines(file: string, text: string): Json[] {
  return readJsonOrLines(textInput(file, text));
}

const documents = new WeakMap<ResultInput, { value: Json } | { error: unknown }>();

/**
 * The input as one JSON document (Python's literals and a byte-order mark
 * accepted), parsed once per input: recognition and the reader share the
 * value, or the error. A file within the head is parsed whole
 * ({@link parseJson}); a larger one from its pieces (json-stream.ts), never
 * held as one string. A file that ends early is called cut off, with where.
 */
export function readJsonDocument(input: ResultInput, what = 'JSON'): Json {
  let known = documents.get(input);
  if (known === undefined) {
    try {
      known = { value: parseDocument(input, what) };
    } catch (error) {
      known = { error };
    }
    documents.set(input, known);
  }
  if ('error' in known) throw known.error;
  return known.value;
}

/**
 * Top-level lists a large document keeps packed as it is parsed (a
 * NumberLists, number-lists.ts): vLLM's and SGLang's `itls`, a list of chunk
 * gaps per request, the bulk of a --save-detailed file. Their readers take
 * either form (a small document's are plain arrays).
 */
const PACKED_LISTS: ListSinks = { itls: () => new NumberListsBuilder() };

function parseDocument(input: ResultInput, what: string): Json {
  if (input.whole) return parseJson(input.file, input.head, what);
  const r = parseJsonChunks(input.chunks(), { listSinks: PACKED_LISTS });
  if ('value' in r) return r.value;
  const p = r.problem;
  const where = p.where ? ` in ${p.where}` : '';
  if (p.truncated) {
    fail(input.file, `invalid ${what} (the text ends early: truncated?): the file ends${where}${input.bytes !== null ? ` at byte ${input.bytes}` : ''}, character ${p.position}`);
  }
  return fail(input.file, `invalid ${what}${where} at character ${p.position}: ${p.message}`);
}

/** Non-empty lines of a JSON-lines input, each parsed as it is read; errors name the line. */
export function readJsonLines(input: ResultInput): { line: number; value: Json }[] {
  const out: { line: number; value: Json }[] = [];
  for (const l of inputLines(input)) {
    const s = l.text.trim();
    if (s === '') continue;
    out.push({ line: l.number, value: parseJson(input.file, s, `JSON on line ${l.number}`) });
  }
  if (out.length === 0) fail(input.file, 'is empty');
  return out;
}

/** The first non-empty line of the head, when the head holds all of it. */
function firstLineOf(input: ResultInput): string | undefined {
  const head = stripBom(input.head);
  let start = 0;
  for (;;) {
    const nl = head.indexOf('\n', start);
    if (nl < 0) return input.whole && head.slice(start).trim() !== '' ? head.slice(start) : undefined;
    if (head.slice(start, nl).trim() !== '') return head.slice(start, nl);
    start = nl + 1;
  }
}

/** Whether the input is JSON lines: its first line is a JSON value and more text follows it. */
export function isJsonLines(input: ResultInput): boolean {
  const first = firstLineOf(input);
  if (first === undefined || first.trim() === stripBom(input.head).trim()) return false;
  try {
    parsePythonJson(first);
    return true;
  } catch {
    return false;
  }
}

/** A whole JSON document, or JSON lines when the whole does not parse but the first line does. */
export function readJsonOrLines(input: ResultInput): Json[] {
  if (!input.whole) return isJsonLines(input) ? readJsonLines(input).map((l) => l.value) : [readJsonDocument(input)];
  const body = stripBom(input.head);
  try {
    return [parsePythonJson(body)];
  } catch {
    if (isJsonLines(input)) return readJsonLines(input).map((l) => l.value);
    return [parseJson(input.file, body)];
  }
}

export function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function typeName(v: Json | undefined): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * The one line for a run in which no request succeeded, in every format
 * alike (the import refuses such a run: it measured nothing).
 */
export function noSuccessMessage(failures: Record<string, number>, how?: string): string {
  const failed = Object.entries(failures).map(([k, v]) => `${v} × ${k}`).join(', ');
  return `no request succeeded${failed ? ` (${failed})` : how ? ` (${how})` : ''}: the run measured nothing, so there is nothing to compute`;
}

/**
 * The checks of {@link Reader.number}, {@link Reader.count} and
 * {@link Reader.duration} as tests that build no message: a reader of a big
 * file tests each value with these and calls the Reader method, which makes
 * the message with the field's path, only for a value that fails (a path
 * string per number would cost more than the whole parse).
 */
export const isFiniteNumber = (v: Json | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
export const isCount = (v: Json | undefined): v is number => typeof v === 'number' && v >= 0 && Number.isInteger(v);
export const isDuration = (v: Json | undefined): v is number => typeof v === 'number' && v >= 0 && v <= MAX_PLAUSIBLE_REQUEST_S;

/** Field accessors that fail with the field's path. */
export class Reader {
  constructor(readonly file: string) {}

  fail(problem: string): never {
    fail(this.file, problem);
  }

  object(v: Json | undefined, where: string): JsonObject {
    if (!isObject(v)) this.fail(`${where} should be an object, found ${typeName(v)}`);
    return v;
  }

  array(v: Json | undefined, where: string): Json[] {
    if (!Array.isArray(v)) this.fail(`${where} should be a list, found ${typeName(v)}`);
    return v;
  }

  number(v: Json | undefined, where: string): number {
    if (typeof v === 'number' && !Number.isFinite(v)) this.fail(`${where} = ${v}: a finite number is needed here`);
    if (typeof v !== 'number') this.fail(`${where} should be a number, found ${typeName(v)}${typeof v === 'string' ? ` "${v}"` : ''}`);
    return v;
  }

  optNumber(v: Json | undefined, where: string): number | null {
    return v === undefined || v === null ? null : this.number(v, where);
  }

  /** A count (tokens, requests): an integer ≥ 0. */
  count(v: Json | undefined, where: string): number {
    const n = this.number(v, where);
    if (n < 0 || !Number.isInteger(n)) this.fail(`${where} = ${n}; a count must be a whole number ≥ 0`);
    return n;
  }

  /**
   * A per-request duration in seconds: finite, ≥ 0 and below an hour.
   * `unitHint` names the unit the field is documented in, for the message.
   */
  duration(v: Json | undefined, where: string, unitHint = 'seconds'): number {
    const s = this.number(v, where);
    if (s < 0) this.fail(`${where} = ${s} is negative; times must be ≥ 0`);
    if (s > MAX_PLAUSIBLE_REQUEST_S) {
      this.fail(
        `${where} = ${v} ${unitHint === 'seconds' ? 's' : unitHint} is implausible for one request (over an hour): ` +
          `the field is documented in ${unitHint}; was it written in another unit (e.g. milliseconds)?`,
      );
    }
    return s;
  }

  /** A list of numbers of a given length (index-aligned per-request arrays). */
  alignedArray(obj: JsonObject, key: string, n: number): Json[] | null {
    const v = obj[key];
    if (v === undefined || v === null) return null;
    const a = this.array(v, key);
    if (a.length !== n) this.fail(`${key} has ${a.length} entries but the file describes ${n} requests`);
    return a;
  }

  /** {@link alignedArray} of a list a large document keeps packed (PACKED_LISTS): either form. */
  alignedLists(obj: JsonObject, key: string, n: number): Json[] | NumberLists | null {
    const v: unknown = obj[key];
    if (!isNumberLists(v)) return this.alignedArray(obj, key, n);
    if (v.length !== n) this.fail(`${key} has ${v.length} entries but the file describes ${n} requests`);
    return v;
  }
}

/**
 * Prefix sums: the time of each chunk from the first chunk's time and the
 * gaps after it, in `out` when given (gaps.length + 1 long: a view of one
 * buffer a reader holds for all its requests).
 */
export function chunkTimesFromGaps(firstT: number, gaps: ArrayLike<number>, out: Float64Array = new Float64Array(gaps.length + 1)): Float64Array {
  out[0] = firstT;
  let t = firstT;
  for (let k = 0; k < gaps.length; k++) {
    t += gaps[k];
    out[k + 1] = t;
  }
  return out;
}

/**
 * How a writer's number becomes a Reported: the factor to SI, the SI unit,
 * and the unit the writer computed it in when that is another (`ms`, `ns`,
 * `tokens/ns`, `1/min`), kept so the report prints the number as written.
 */
export interface KeyUnit {
  scale: number;
  unit: string;
  written?: string;
}

/** A Reported from the number as written: SI value, and the written form when the units differ. */
export function reportedOf(v: number, how: KeyUnit): Reported {
  return how.written !== undefined && how.written !== how.unit ? { value: v * how.scale, unit: how.unit, written: { value: v, unit: how.written } } : { value: v * how.scale, unit: how.unit };
}

/** Copy the numeric top-level fields of a tool's summary whose name matches, converting units. */
export function collectReported(obj: JsonObject, pick: (key: string) => KeyUnit | null): Record<string, Reported> {
  const out: Record<string, Reported> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const how = pick(k);
    if (how) out[k] = reportedOf(v, how);
  }
  return out;
}

/**
 * Unit of a vLLM/SGLang summary key, as vllm/benchmarks/serve.py and
 * sglang bench_serving.py compute it (`mean_ttft_ms` milliseconds, `request_throughput`
 * completed requests per second of `duration` …).
 */
export function summaryKeyUnit(key: string): KeyUnit | null {
  if (/_ms$/.test(key)) return { scale: 1e-3, unit: 's', written: 'ms' };
  if (key === 'duration') return { scale: 1, unit: 's' };
  if (/^(request_throughput|request_goodput)$/.test(key)) return { scale: 1, unit: '1/s' };
  if (/throughput|tokens_per_s|_per_s$/.test(key)) return { scale: 1, unit: 'tokens/s' };
  if (/^(completed|failed|max_concurrent_requests)$/.test(key)) return { scale: 1, unit: 'requests' };
  if (/^total_.*tokens/.test(key)) return { scale: 1, unit: 'tokens' };
  if (key === 'concurrency') return { scale: 1, unit: 'requests' };
  // audio seconds per wall-clock second (serve.py: total audio duration / duration)
  if (key === 'rtfx') return { scale: 1, unit: '1' };
  return null;
}

/** Parse the request-rate field the Python tools write: a number, or "inf". */
export function parseRate(r: Reader, v: Json | undefined, where: string): number | null {
  if (v === undefined || v === null) return null;
  if (v === Infinity || v === 'inf' || v === 'Infinity' || v === 'infinity') return Infinity;
  if (typeof v === 'string' && Number.isFinite(Number(v))) return Number(v);
  const n = r.number(v, where);
  if (n <= 0) r.fail(`${where} = ${n}; a request rate must be > 0 (or "inf")`);
  return n;
}

/**
 * A file that holds several runs (appended JSON lines, a GuideLLM sweep):
 * with --entry, that run; with one run, that run; otherwise every run's
 * settings and own aggregates side by side and no records (nothing is
 * guessed). Only runs that import are offered as an --entry.
 */
export function selectRun<T, R extends { run: { records: unknown[] }; missing: string[]; lacks: string[]; reported: Record<string, Reported>; runs?: RunEntry[] }>(
  file: string,
  entries: T[],
  entry: number | undefined,
  what: string,
  read: (e: T, index: number) => R,
  label: (e: T, index: number) => string,
): R {
  if (entries.length === 0) fail(file, `holds no ${what}`);
  const tryRead = (e: T, i: number): R | string => {
    try {
      return read(e, i);
    } catch (err) {
      if (err instanceof UserError) return err.message.startsWith(`${file}: `) ? err.message.slice(file.length + 2) : err.message;
      throw err;
    }
  };
  if (entry !== undefined) {
    if (!Number.isInteger(entry) || entry < 0 || entry >= entries.length) {
      fail(file, entries.length === 1 ? `--entry ${entry}: the file holds one run; leave --entry out` : `--entry ${entry} is out of range: the file holds ${entries.length} ${what}, numbered 0 to ${entries.length - 1}`);
    }
    return read(entries[entry], entry);
  }
  if (entries.length === 1) return read(entries[0], 0);
  const results = entries.map(tryRead);
  const first = results.find((x): x is R => typeof x !== 'string');
  if (!first) fail(file, `none of its ${entries.length} ${what} can be read; the first: ${results[0] as string}`);
  const runs: RunEntry[] = results.map((x, i) =>
    typeof x === 'string' ? { index: i, label: label(entries[i], i), reported: {}, unreadable: x } : { index: i, label: label(entries[i], i), reported: x.reported },
  );
  const ok = runs.filter((x) => !x.unreadable).map((x) => x.index);
  return {
    ...first,
    run: { ...first.run, records: [] },
    reported: {},
    completed: undefined,
    runs,
    missing: [`the file holds ${entries.length} ${what}: their own aggregates are shown side by side; recompute one with --entry ${ok.length === 1 ? ok[0] : `N (N = ${ok.join(', ')})`}`],
    lacks: ['records'],
  };
}
