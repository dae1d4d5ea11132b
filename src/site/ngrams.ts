/** Eight-word runs and their hashes: the one normalization used by the fixture script and the prose test. */
import { createHash } from 'node:crypto';

export const NGRAM_SIZE = 8;
export const HASH_HEX = 16;

/** Words as the fixture defines them: lower case, then /[a-z']+/g. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z']+/g) ?? [];
}

export function hashRun(run: string): string {
  return createHash('sha256').update(run).digest('hex').slice(0, HASH_HEX);
}

/** Every run of NGRAM_SIZE consecutive words, with its hash (in text order, duplicates kept). */
export function ngramHashes(text: string, n = NGRAM_SIZE): { run: string; hash: string }[] {
  const w = words(text);
  const out: { run: string; hash: string }[] = [];
  for (let i = 0; i + n <= w.length; i++) {
    const run = w.slice(i, i + n).join(' ');
    out.push({ run, hash: hashRun(run) });
  }
  return out;
}
