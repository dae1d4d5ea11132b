/**
 * SHA-256, hex and lowercase as `sha256sum` prints it: the one hash of the
 * project (cache keys, pinned tokenizer files and corpora, figure files, the
 * prose check's n-grams).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}
