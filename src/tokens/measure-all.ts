/**
 * Counts every tokenizer over every corpus in one thread and prints the totals,
 * the wall time and the peak RSS. A check of the experiment's cost, not part of the build.
 *
 *   npx tsx src/tokens/measure-all.ts
 */
import { performance } from 'node:perf_hooks';
import { resourceUsage } from 'node:process';
import { countAll } from './count.ts';
import { readCorpusManifest, readTokenizerManifest } from './manifest.ts';

const tm = readTokenizerManifest();
const cm = readCorpusManifest();
const t0 = performance.now();
const totals: Record<string, Record<string, number>> = {};
for (const t of tm.tokenizers) {
  const s = performance.now();
  const r = await countAll(t, cm.corpora);
  totals[t.id] = Object.fromEntries(r.corpora.map((c) => [c.corpus, c.tokens]));
  const line = r.corpora.map((c) => `${c.corpus} ${c.tokens} (${((1000 * c.tokens) / c.characters).toFixed(1)}/kchar)`).join('  ');
  console.log(`${t.id.padEnd(12)} ${((performance.now() - s) / 1000).toFixed(1).padStart(5)} s  ${line}`);
}
const ratio = (a: string, b: string, c: string) => (totals[a]![c]! / totals[b]![c]!).toFixed(3);
console.log(`llama2/llama3 python ${ratio('llama2', 'llama3', 'python_asyncio')}  gpt2/llama3 python ${ratio('gpt2', 'llama3', 'python_asyncio')}  llama2/llama3 english_docs ${ratio('llama2', 'llama3', 'english_docs')}`);
console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s, peak RSS ${(resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
