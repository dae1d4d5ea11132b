/**
 * Writes the hashes of every eight-word run of the source article, so a test
 * can prove the site shares no such run with it, without the project holding
 * the article's text.
 *
 *   npx tsx scripts/article-ngrams.ts ARTICLE.txt [out.json]
 *
 * ARTICLE.txt is the original article as plain text (it is not part of this
 * repository). Normalization (shared with the prose tests through
 * src/site/ngrams.ts): lower case; each run read twice, numbers skipped and
 * numbers as one wildcard token; runs joined by one space, sha256, first 16
 * hex digits. Output: sorted, de-duplicated.
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
const body = JSON.stringify({ n: NGRAM_SIZE, normalization: "lowercase; words = /[a-z']+/g (numbers skipped) and words with numbers as '#' (src/site/ngrams.ts); joined by ' '; sha256 hex, first 16", count: hashes.length, hashes }, null, 0);
const tmp = `${out}.tmp`;
writeFileSync(tmp, body + '\n');
renameSync(tmp, out);
console.log(`article-ngrams: ${hashes.length} eight-word runs -> ${out}`);
