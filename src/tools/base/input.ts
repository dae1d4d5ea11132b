/**
 * A result file as every reader receives it: its name for messages, its
 * start for recognition, and its text in pieces, never a path to open.
 * The command layer opens files (src/importers/load.ts: a regular file is
 * streamed, anything else read up to a stated limit); tests and the browser
 * wrap a string they already hold ({@link textInput}).
 *
 * A reader takes the text the way its format needs it, from the cheapest up:
 *
 * - {@link inputLines}: JSON lines and line-oriented logs, one line at a time
 *   (memory: one chunk and one line, whatever the file's size);
 * - `readJsonDocument` (json-stream.ts): one JSON document, parsed value by
 *   value from the chunks, so the file's text is never held whole;
 * - `input.text()`: the whole text as one string, for formats that need it,
 *   refused above {@link MAX_TEXT_BYTES} with a line naming the limit.
 *
 * `head` is the first {@link HEAD_CHARS} characters (the whole text when
 * `whole`), which recognition reads without touching the rest.
 */
import { UserError } from '../../errors.ts';

/** How much of a file recognition sees: the text sniffs, the first line of JSON lines. */
export const HEAD_CHARS = 1 << 20;

/**
 * The largest file read as one string. V8 caps a string at 2^29 − 24
 * characters (about 512 MiB); a quarter of that keeps a whole-text read and its
 * parse within a laptop's memory.
 */
export const MAX_TEXT_BYTES = 128 * 2 ** 20;

export interface ResultInput {
  /** The file as the user named it: every message starts with it. */
  readonly file: string;
  /** Its size in bytes when known before reading (a regular file); null for a pipe or a string. */
  readonly bytes: number | null;
  /** The text's first HEAD_CHARS characters (byte-order mark kept); the whole text when `whole`. */
  readonly head: string;
  /** True when `head` is the whole text. */
  readonly whole: boolean;
  /**
   * The decoded text in pieces, from the start. A pipe can be read through
   * only once: a reader takes one pass (recognition reads `head` only).
   */
  chunks(): Iterable<string>;
  /** The whole text; a UserError naming the limit above MAX_TEXT_BYTES. */
  text(): string;
}

/** A string already in memory as an input (tests, the browser, small files). */
export function textInput(file: string, text: string): ResultInput {
  return {
    file,
    bytes: null,
    head: text.length <= HEAD_CHARS ? text : text.slice(0, HEAD_CHARS),
    whole: text.length <= HEAD_CHARS,
    chunks: () => [text],
    text: () => text,
  };
}

/** The refusal of a whole-text read above the limit, in one line. */
export function tooLargeForText(file: string, what: string): UserError {
  return new UserError(
    `${file}: ${what} is larger than ${MAX_TEXT_BYTES / 2 ** 20} MiB, the most this format is read as one text; ` +
      'split it (one run per file) or use the tool’s per-request export',
  );
}

/** One line of a file: its text without the line ending, its 1-based number, and whether it is the last. */
export interface Line {
  text: string;
  number: number;
  last: boolean;
  /** True for a last line the file does not end with a newline after (a file cut off mid-line shows here). */
  unterminated: boolean;
}

/**
 * The lines of an input, one at a time (a byte-order mark at the start is
 * dropped; `\r\n` and `\n` both end a line). One line of lookahead tells the
 * last line, so a reader can say a file ends inside it.
 */
export function* inputLines(input: ResultInput): Generator<Line> {
  let rest = '';
  let number = 0;
  let pending: string | null = null;
  let first = true;
  for (let chunk of input.chunks()) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = chunk === '';
    }
    let start = 0;
    let buf = rest === '' ? chunk : rest + chunk;
    rest = '';
    for (;;) {
      const nl = buf.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (pending !== null) yield { text: pending, number, last: false, unterminated: false };
      pending = buf.slice(start, end);
      number++;
      start = nl + 1;
    }
    rest = start === 0 ? buf : buf.slice(start);
    buf = '';
  }
  if (rest !== '') {
    if (pending !== null) yield { text: pending, number, last: false, unterminated: false };
    yield { text: rest, number: number + 1, last: true, unterminated: true };
  } else if (pending !== null) yield { text: pending, number, last: true, unterminated: false };
}
