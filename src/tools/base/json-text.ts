/**
 * Reading the JSON the tools really write, which is not always JSON:
 *
 * - Python's `json.dumps` writes `NaN`, `Infinity` and `-Infinity` as bare
 *   literals (SGLang's default `"request_rate": Infinity`). We accept exactly
 *   these three tokens outside strings and nothing else.
 * - MLPerf LoadGen (4.0–6.0, loadgen/logging.h `LogDetail` → trace args)
 *   writes a string argument with its own quotes inside JSON quotes:
 *   `{"key":""loadgen_version""}`. {@link repairLoadgenQuotes} rewrites exactly
 *   that doubled-quote pattern; any other damage is still reported.
 * - A UTF-8 byte-order mark (Windows editors) is dropped before parsing.
 * - Integers beyond 2^53 (LoadGen's 64-bit seeds) lose digits in a double;
 *   {@link parseJsonExact} keeps them as decimal strings marked by {@link BigIntText}.
 */
/** A parsed JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** Text without a leading byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const SENTINEL = '\u0000py:';

/**
 * Replace the tokens outside strings that `match` picks with a JSON string
 * (so JSON.parse accepts them), returning null when nothing was replaced.
 */
function rewriteOutsideStrings(text: string, match: RegExp, quote: (token: string) => string | null): string | null {
  let out = '';
  let changed = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      // copy the string verbatim
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    match.lastIndex = i;
    const m = match.exec(text);
    if (m && m.index === i) {
      const q = quote(m[0]);
      out += q ?? m[0];
      i += m[0].length;
      changed ||= q !== null;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      // a whole number token, so no rule ever matches inside one
      NUMBER.lastIndex = i;
      const num = NUMBER.exec(text);
      const len = num && num.index === i ? Math.max(1, num[0].length) : 1;
      out += text.slice(i, i + len);
      i += len;
      continue;
    }
    out += c;
    i++;
  }
  return changed ? out : null;
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const PY_LITERAL = /-?Infinity|NaN/y;
const PY_VALUES: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

function revivePython(_k: string, v: unknown): unknown {
  return typeof v === 'string' && v.startsWith(SENTINEL) ? PY_VALUES[v.slice(SENTINEL.length)] : v;
}

/**
 * JSON.parse that also reads Python's NaN / Infinity / -Infinity literals
 * (as the numbers NaN, Infinity, −Infinity). Throws JSON.parse's error for
 * anything else.
 */
export function parsePythonJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
    const fixed = rewriteOutsideStrings(text, PY_LITERAL, (t) => JSON.stringify(SENTINEL + t));
    if (fixed === null) throw err;
    return JSON.parse(fixed, revivePython) as Json;
  }
}

/**
 * LoadGen's trace writes string args as `""text""` (its quoting helper adds
 * quotes to a value that is then quoted again). Only that exact shape, a
 * value opened by `:""` and closed by `""` before `}` or `,`, is rewritten to
 * a proper string; the count is returned so the importer can say so.
 */
export function repairLoadgenQuotes(text: string): { text: string; repaired: number } {
  let repaired = 0;
  const fixed = text.replace(/:\s*""((?:[^"\\\n]|\\.)*)""(?=\s*[,}])/g, (_m, inner: string) => {
    repaired++;
    return `:${JSON.stringify(inner)}`;
  });
  return { text: fixed, repaired };
}

/** A 64-bit integer kept exactly, as its decimal digits. */
export interface BigIntText {
  bigint: string;
}

export function isBigIntText(v: unknown): v is BigIntText {
  return typeof v === 'object' && v !== null && typeof (v as BigIntText).bigint === 'string';
}

const BIG_INT = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const BIG_SENTINEL = '\u0000big:';

/**
 * JSON.parse keeping integers of 16 digits or more exactly: those beyond
 * Number.MAX_SAFE_INTEGER become `{bigint: "digits"}`, the others numbers.
 */
export function parseJsonExact(text: string): Json | BigIntText {
  const fixed = rewriteOutsideStrings(text, BIG_INT, (t) => (/^-?\d{16,}$/.test(t) ? JSON.stringify(BIG_SENTINEL + t) : null));
  if (fixed === null) return JSON.parse(text) as Json;
  return JSON.parse(fixed, (_k, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(BIG_SENTINEL)) return v;
    const digits = v.slice(BIG_SENTINEL.length);
    const b = BigInt(digits);
    return b > BigInt(Number.MAX_SAFE_INTEGER) || b < -BigInt(Number.MAX_SAFE_INTEGER) ? { bigint: digits } : Number(digits);
  }) as Json;
}
