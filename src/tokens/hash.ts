/**
 * Orders and counts for pinned inputs (tokenizer files, corpora): paths sorted
 * the same on every machine, characters counted one way. Their hash is
 * src/fs/hash.ts.
 */

/** Sorts strings by UTF-16 code units (the default `<` order), never by locale. */
export function codeUnitSort(paths: readonly string[]): string[] {
  return [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Characters are counted as Unicode code points everywhere in this project. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
