/**
 * One JSON document parsed from pieces of text, so a file of any size is
 * never held as one string (V8 refuses strings above 512 MiB, and a string
 * that size costs as much memory again as what it parses to).
 *
 * Every value whose text is small (up to SMALL_VALUE characters) is handed to
 * JSON.parse whole, so numbers and strings are read by the engine exactly as a
 * whole-file JSON.parse reads them; only larger arrays and objects are walked
 * here, member by member. A large array's elements go to JSON.parse in runs of
 * up to SMALL_VALUE characters (a per-request array holds hundreds of
 * thousands of numbers: one call each would cost more than the parse), and a
 * run it refuses is read again element by element, so the error names the
 * element. Python's NaN / Infinity / -Infinity are accepted
 * like json-text.ts accepts them: JSON.parse first, the tolerant reader only on
 * the piece that needs it. A document that ends early is told apart from one
 * that is broken, with the path of the value it ends in (`itls[4101][17]`).
 */
import { parsePythonJson, type Json } from './json-text.ts';

/** Values whose text is at most this long are parsed by one JSON.parse call. */
const SMALL_VALUE = 1 << 16;
/**
 * The consumed text is dropped once this much has piled up: the next piece is
 * joined to what is left, and the first search of the joined text copies it,
 * so what is left is kept short (1 MiB here made every 1 MiB piece copy up to 2 MiB).
 */
const COMPACT_AT = 1 << 16;

/**
 * Takes the elements of a large list one at a time, as they are parsed, in
 * place of an array holding them all; the list's value in the document is
 * what `done` returns.
 */
export interface ElementSink {
  add(element: Json): void;
  done(): unknown;
}

/** For each of these keys of a top-level object, a sink for its value when that is a large list (a small one is parsed whole, as any value). */
export type ListSinks = Record<string, () => ElementSink>;

export interface JsonStreamProblem {
  /** Characters from the start of the text where the problem is. */
  position: number;
  /** The end of the text came inside a value. */
  truncated: boolean;
  /** JSON path of the value (`itls[12]`, `benchmarks[0].requests`); '' for the top level. */
  where: string;
  message: string;
}

class StreamProblem extends Error {
  constructor(readonly problem: JsonStreamProblem) {
    super(problem.message);
  }
}

const WS = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** What {@link Scanner.runEnd} says when no run can be cut: the first element is too long, or the text ends. */
const BIG = -1;
const END = -2;
/** What the run's scan stops at: brackets and the quotes that open strings. */
const SPECIAL = /[[\]{}"]/g;

class Scanner {
  buf = '';
  pos = 0;
  /** Characters dropped before buf[0]. */
  base = 0;
  private done = false;
  private readonly it: Iterator<string>;
  private first = true;

  constructor(
    chunks: Iterable<string>,
    /** Values up to this many characters are parsed whole (a test sets it low to walk everything). */
    private readonly small: number,
  ) {
    this.it = chunks[Symbol.iterator]();
  }

  /** Append the next piece (dropping what is consumed when all is); false at the end of the text. */
  more(): boolean {
    while (!this.done) {
      const n = this.it.next();
      if (n.done) {
        this.done = true;
        break;
      }
      let s = n.value;
      if (this.first && s.length) {
        this.first = false;
        if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      }
      if (s.length === 0) continue;
      if (this.pos >= this.buf.length) {
        this.base += this.buf.length;
        this.buf = s;
        this.pos = 0;
      } else this.buf += s;
      return true;
    }
    return false;
  }

  /** Whether nothing but blanks follows the buffer's end (reads on: only for a message, after which the scan stops). */
  atEnd(): boolean {
    this.pos = this.buf.length;
    return this.peek() === -1;
  }

  compact(): void {
    if (this.pos >= COMPACT_AT) {
      this.base += this.pos;
      this.buf = this.buf.slice(this.pos);
      this.pos = 0;
    }
  }

  /** The next non-blank character's code (pos left on it), or -1 at the end of the text. */
  peek(): number {
    for (;;) {
      const b = this.buf;
      let i = this.pos;
      while (i < b.length && WS(b.charCodeAt(i))) i++;
      this.pos = i;
      if (i < b.length) return b.charCodeAt(i);
      if (!this.more()) return -1;
    }
  }

  problem(at: number, where: string, message: string, truncated = false): never {
    throw new StreamProblem({ position: this.base + at, truncated, where, message });
  }

  /**
   * End (exclusive) of the string opening at `start` (a quote), reading more as
   * needed. Strings are never split: a string is always parsed whole.
   */
  stringEnd(start: number, where: string): number {
    const end = this.closingQuote(start);
    if (end < 0) this.problem(this.buf.length, where, 'the text ends inside a string', true);
    return end;
  }

  /** End (exclusive) of the string opening at `start`, or -1 when the text ends inside it. */
  private closingQuote(start: number): number {
    let i = start + 1;
    for (;;) {
      const j = this.buf.indexOf('"', i);
      if (j < 0) {
        i = this.buf.length;
        if (!this.more()) return -1;
        continue;
      }
      let k = j - 1;
      while (this.buf.charCodeAt(k) === 92) k--; // backslashes before the quote
      if ((j - 1 - k) % 2 === 0) return j + 1;
      i = j + 1;
    }
  }

  /**
   * Where a run of whole array elements starting at `start` ends, within
   * SMALL_VALUE characters: at the array's closing bracket, else at the last
   * comma between elements. BIG when the first element alone is longer (it is
   * walked), END when the text ends first (the elements are then read one by
   * one, which says where).
   */
  runEnd(start: number): number {
    let depth = 0;
    let lastComma = -1;
    let i = start;
    const stop = start + this.small;
    for (;;) {
      const b = this.buf;
      const n = Math.min(b.length, stop);
      // jump from bracket to bracket (the regex finds them natively); commas are looked for only between elements
      const w = b.slice(i, n);
      let from = 0;
      for (;;) {
        SPECIAL.lastIndex = from;
        const m = SPECIAL.exec(w);
        const j = m === null ? w.length : m.index;
        if (depth === 0 && j > from) {
          const comma = w.lastIndexOf(',', j - 1);
          if (comma >= from) lastComma = i + comma;
        }
        if (m === null) break;
        const c = w.charCodeAt(j);
        if (c === 34) {
          from = -1;
          i = this.closingQuote(i + j);
          break;
        }
        if (c === 91 || c === 123) depth++;
        else if (depth === 0) return i + j;
        else depth--;
        from = j + 1;
      }
      if (from === -1) {
        if (i < 0) return END;
        continue; // past a string: the buffer may have grown
      }
      i = n;
      if (i >= stop) return lastComma >= 0 ? lastComma : BIG;
      if (!this.more()) return END;
    }
  }


  /**
   * A cut for a run of list elements starting at `start`, found without
   * scanning them: within SMALL_VALUE characters, the last comma after
   * `closer` (the bracket that ends an element that is a list or an object),
   * or the last comma at all (`closer` -1: elements that are numbers or
   * strings); -1 when there is none or the text ends first (then
   * {@link runEnd} decides). Only a guess: the comma may sit inside an
   * element or a string, or after the list itself; JSON.parse of the run
   * settles it, since a cut anywhere but between two elements leaves a
   * bracket or a string open, or closes one bracket too many.
   */
  guessRunEnd(start: number, closer: number): number {
    const stop = start + this.small;
    while (this.buf.length < stop) if (!this.more()) return -1;
    const b = this.buf;
    if (closer < 0) {
      const k = b.lastIndexOf(',', stop - 1);
      return k > start ? k : -1;
    }
    const close = String.fromCharCode(closer);
    for (let j = b.lastIndexOf(close, stop - 1); j > start; j = b.lastIndexOf(close, j - 1)) {
      let k = j + 1;
      while (k < stop && WS(b.charCodeAt(k))) k++;
      if (k < stop && b.charCodeAt(k) === 44) return k;
    }
    return -1;
  }

  /**
   * End (exclusive) of the value starting at `start`, or -1 when it is an
   * array or object longer than SMALL_VALUE characters (walked member by member).
   */
  valueEnd(start: number, where: string): number {
    const c0 = this.buf.charCodeAt(start);
    if (c0 === 34) return this.stringEnd(start, where);
    if (c0 === 91 || c0 === 123) {
      // the closers expected, innermost last: a mismatched one ends the piece, and JSON.parse names the error
      const open: number[] = [];
      let i = start;
      for (;;) {
        const b = this.buf;
        const n = Math.min(b.length, start + this.small + 1);
        while (i < n) {
          const c = b.charCodeAt(i);
          if (c === 34) {
            i = this.stringEnd(i, where);
            break;
          }
          if (c === 91 || c === 123) open.push(c + 2);
          else if (c === 93 || c === 125) {
            if (open.pop() !== c || open.length === 0) return i + 1;
          }
          i++;
        }
        if (i - start > this.small) return -1;
        if (i >= this.buf.length && !this.more()) this.problem(this.buf.length, where, 'the text ends inside this value', true);
      }
    }
    // a number, true/false/null, or Python's NaN/Infinity: up to a delimiter
    let i = start;
    for (;;) {
      const b = this.buf;
      while (i < b.length) {
        const c = b.charCodeAt(i);
        if (c === 44 || c === 93 || c === 125 || WS(c)) return i;
        i++;
      }
      if (!this.more()) return i;
    }
  }
}

function parsePiece(s: Scanner, start: number, end: number, where: string): Json {
  const text = s.buf.slice(start, end);
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    try {
      if (/NaN|Infinity/.test(text)) return parsePythonJson(text);
    } catch {
      /* report JSON.parse's own error below */
    }
    const msg = (err as Error).message.split('\n')[0];
    const pos = /position (\d+)/.exec(msg);
    const position = s.base + start + (pos ? Number(pos[1]) : 0);
    // only a piece cut off by the end of the text means the file ends early (the check may drop the buffer: last)
    const truncated = /end of (JSON )?input|Unterminated/i.test(msg) && end >= s.buf.length && s.atEnd();
    throw new StreamProblem({ position, truncated, where, message: msg });
  }
}

/** The elements from pos up to `end` (a comma or the closing bracket), or null when JSON.parse refuses them. */
function parseRun(s: Scanner, end: number): Json[] | null {
  try {
    return JSON.parse(`[${s.buf.slice(s.pos, end)}]`) as Json[];
  } catch {
    return null;
  }
}

const at = (where: string, key: string | number) => (typeof key === 'number' ? `${where}[${key}]` : where ? `${where}.${key}` : key);

function parseValue(s: Scanner, where: string, keySinks: ListSinks | null = null, listSink: (() => ElementSink) | null = null): Json {
  const c = s.peek();
  if (c === -1) return s.problem(s.buf.length, where, 'the text ends where a value should start', true);
  const start = s.pos;
  const end = s.valueEnd(start, where);
  if (end >= 0) {
    const v = parsePiece(s, start, end, where);
    s.pos = end;
    return v;
  }
  s.pos = start + 1;
  if (c === 91) {
    const arr: Json[] = [];
    const sink = listSink ? listSink() : null;
    let count = 0;
    if (s.peek() === 93) {
      s.pos++;
      return sink ? (sink.done() as Json) : arr;
    }
    let runs = true;
    /** Elements before this position (from the text's start) are read one by one: JSON.parse refused their run. */
    let singlyUntil = -1;
    // runs are cut where a guess says until a guess fails (scanning for the cut costs as much as parsing the run)
    const first = s.buf.charCodeAt(s.pos);
    const closer = first === 91 || first === 123 ? first + 2 : -1;
    let guess = true;
    for (;;) {
      let end = BIG;
      let values: Json[] | null = null;
      if (runs && s.base + s.pos >= singlyUntil && s.peek() !== -1) {
        if (guess) {
          const cut = s.guessRunEnd(s.pos, closer);
          values = cut > s.pos ? parseRun(s, cut) : null;
          if (values === null) guess = false;
          else end = cut;
        }
        if (values === null) {
          end = s.runEnd(s.pos);
          if (end === END) runs = false;
          else if (end > s.pos) {
            values = parseRun(s, end);
            if (values === null) singlyUntil = s.base + end;
          }
        }
      }
      if (values !== null) {
        if (sink) for (let k = 0; k < values.length; k++) sink.add(values[k]);
        else for (let k = 0; k < values.length; k++) arr.push(values[k]);
        count += values.length;
        s.pos = end;
      } else {
        const v = parseValue(s, at(where, count));
        if (sink) sink.add(v);
        else arr.push(v);
        count++;
      }
      s.compact();
      const d = s.peek();
      if (d === 44) s.pos++;
      else if (d === 93) {
        s.pos++;
        return sink ? (sink.done() as Json) : arr;
      } else if (d === -1) return s.problem(s.buf.length, at(where, count), 'the text ends inside this list', true);
      else return s.problem(s.pos, where, `expected , or ] after element ${count - 1}, found ${JSON.stringify(s.buf[s.pos])}`);
    }
  }
  const obj: { [k: string]: Json } = {};
  if (s.peek() === 125) {
    s.pos++;
    return obj;
  }
  for (;;) {
    const k = s.peek();
    if (k === -1) return s.problem(s.buf.length, where, 'the text ends inside this object', true);
    if (k !== 34) return s.problem(s.pos, where, `expected a key in quotes, found ${JSON.stringify(s.buf[s.pos])}`);
    const kEnd = s.stringEnd(s.pos, where);
    const key = parsePiece(s, s.pos, kEnd, where) as string;
    s.pos = kEnd;
    const colon = s.peek();
    if (colon !== 58) return s.problem(s.pos, at(where, key), colon === -1 ? 'the text ends after a key' : 'expected : after the key', colon === -1);
    s.pos++;
    const v = parseValue(s, at(where, key), null, keySinks !== null && Object.hasOwn(keySinks, key) ? keySinks[key] : null);
    // as JSON.parse: "__proto__" is an own key, never the prototype
    if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
    else obj[key] = v;
    s.compact();
    const d = s.peek();
    if (d === 44) s.pos++;
    else if (d === 125) {
      s.pos++;
      return obj;
    } else if (d === -1) return s.problem(s.buf.length, where, 'the text ends inside this object', true);
    else return s.problem(s.pos, where, `expected , or } after "${key}", found ${JSON.stringify(s.buf[s.pos])}`);
  }
}

/**
 * The one JSON document in `chunks` (a leading byte-order mark dropped), or
 * the problem that stops it: where, and whether the text simply ends early.
 * `listSinks` name top-level keys whose large lists go to a sink as they are
 * read (their value in the document is then the sink's).
 */
export function parseJsonChunks(chunks: Iterable<string>, opts: { smallValue?: number; listSinks?: ListSinks } = {}): { value: Json } | { problem: JsonStreamProblem } {
  const s = new Scanner(chunks, opts.smallValue ?? SMALL_VALUE);
  try {
    const value = parseValue(s, '', opts.listSinks ?? null);
    if (s.peek() !== -1) s.problem(s.pos, '', 'more text after the JSON document');
    return { value };
  } catch (err) {
    if (err instanceof StreamProblem) return { problem: err.problem };
    throw err;
  }
}
