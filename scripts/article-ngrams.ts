/**
 * Writes the hashes of every eight-word run of the source article, so a test
 * can prove the site shares no such run with it, without the project holding
 * the article's text.
 *
 *   npx tsx scripts/article-ngrams.ts ../shared/paper/article.txt [out.json]
 *
 * Normalization (shared with test/prose.test.ts through src/site/ngrams.ts):
 * lower case, words = /[a-z']+/g over the lowercased text, runs joined by one
 * space, sha256, first 16 hex digits. Output: sorted, de-duplicated.
 */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import { ngramHashes, NGRAM_SIZE } from '../src/site/ngrams.ts';

const [src, out = 'test/fixtures/article-ngrams.json'] = process.argv.slice(2);
if (!src) {
  console.error('usage: tsx scripts/article-ngrams.ts ARTICLE.txt [OUT.json]');
  process.exit(2);
}
const text = readFileSync(resolve(src), 'utf8');
const hashes = [...new Set(ngramHashes(text).map((h) => h.hash))].sort();
const body = JSON.stringify({ n: NGRAM_SIZE, normalization: "lowercase; words = /[a-z']+/g; joined by ' '; sha256 hex, first 16", count: hashes.length, hashes }, null, 0);
const tmp = `${out}.tmp`;
writeFileSync(tmp, body + '\n');
renameSync(tmp, out);
console.log(`article-ngrams: ${hashes.length} eight-word runs -> ${out}`);
