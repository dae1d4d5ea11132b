/**
 * SHA-256 helpers for verifying pinned inputs (tokenizer files, corpora).
 * Hex, lowercase, as `sha256sum` prints it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

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
