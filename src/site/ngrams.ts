/**
 * Eight-word runs and their hashes: the one normalization used by the fixture
 * script (scripts/article-ngrams.ts) and the prose tests.
 *
 * A number must not break a run: "at 95% of the sweep's peak" and "at <Num/> of
 * the sweep's peak" are the same sentence. So every text is read twice:
 *   - skipping numbers: digits drop out, words stay (how a reader skims past
 *     a value; also what the article's digits become);
 *   - numbers as wildcards: digits, spelled-out numbers and <Num/> all read as
 *     one token `#`, so "twenty times" in one text matches "<Num/> times" in the other.
 * A run of either reading that the article also has is shared.
 */
import { sha256 } from '../fs/hash.ts';

export const NGRAM_SIZE = 8;
const HASH_HEX = 16;

/** The token a number reads as in the wildcard reading. */
const WILDCARD = '#';

const NUMBER_WORD = new RegExp(
  '^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|' +
    "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|half|halves|thirds?|quarters?|tenths?|percent)$",
);

export type Reading = 'skip' | 'wildcard';

/** Words as the fixture defines them: lower case, then /[a-z']+/g (digits drop out). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z']+/g) ?? [];
}

/** Words with every number (digits or spelled out) read as one WILDCARD; a run of numbers is one wildcard. */
function wildcardWords(text: string): string[] {
  const out: string[] = [];
  for (const t of text.toLowerCase().match(/[a-z']+|\d[\d.,]*/g) ?? []) {
    const w = /^\d/.test(t) || NUMBER_WORD.test(t) ? WILDCARD : t;
    if (w === WILDCARD && out.at(-1) === WILDCARD) continue;
    out.push(w);
  }
  return out;
}

export function hashRun(run: string): string {
  return sha256(run).slice(0, HASH_HEX);
}

/**
 * Every run of NGRAM_SIZE consecutive words under both readings, with its hash
 * (in text order per reading, duplicates kept). Runs without a number are the
 * same in both readings and are returned once.
 */
export function ngramHashes(text: string, n = NGRAM_SIZE): { run: string; hash: string }[] {
  const out: { run: string; hash: string }[] = [];
  const seen = new Set<string>();
  for (const [reading, w] of [['skip', words(text)], ['wildcard', wildcardWords(text)]] as const) {
    for (let i = 0; i + n <= w.length; i++) {
      const run = w.slice(i, i + n).join(' ');
      if (reading === 'wildcard' && !run.includes(WILDCARD) && seen.has(run)) continue;
      if (reading === 'skip') seen.add(run);
      out.push({ run, hash: hashRun(run) });
    }
  }
  return out;
}

/** Source text as the reader meets it for the run check: a <Num/> reads as a number. */
export function numbersAsDigits(src: string): string {
  return src.replace(/<Num\b[^>]*\/>/g, ' 0 ');
}
