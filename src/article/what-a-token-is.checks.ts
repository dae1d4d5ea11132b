/** Checked claims of src/article/what-a-token-is.astro, in page order. */
import { above, every, greater, less, narrower, ratioAtLeast, within } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

const TOKENIZERS = ['llama2', 'llama3', 'gpt2', 'o200k', 'gemma3', 'qwen3', 'deepseek_v3'];
const kchar = (tok: string, corpus: string) => `tokens.per_kchar.${tok}.${corpus}`;

export const CHECKS: SectionChecks = [
  {
    id: 'tok-docs-denser',
    says: 'The documentation corpus costs more tokens per character than the plain English essay, under every tokenizer.',
    check: every(TOKENIZERS.map((t) => greater(kchar(t, 'english_docs'), kchar(t, 'essay_en'))), 'every tokenizer'),
  },
  {
    id: 'tok-llama3-fewer',
    says: 'On the documentation Llama 3 spends fewer tokens per thousand characters than Llama 2.',
    check: less(kchar('llama3', 'english_docs'), kchar('llama2', 'english_docs')),
  },
  {
    id: 'tok-saving-above-announced',
    says: 'The saving on this corpus is larger than the fifteen percent Meta announced.',
    check: above('tokens.llama3_fewer_than_llama2.english_docs_pct', 15),
  },
  {
    id: 'tok-python-wider',
    says: 'On Python the Llama 2 to Llama 3 gap is wider than on the documentation, and GPT-2’s is wider still.',
    check: every([
      greater('tokens.ratio.llama2_over_llama3.python_asyncio_x', 'tokens.ratio.llama2_over_llama3.english_docs_x'),
      greater('tokens.ratio.gpt2_over_llama3.python_asyncio_x', 'tokens.ratio.llama2_over_llama3.python_asyncio_x'),
    ]),
  },
  {
    id: 'tok-english-agree',
    says: 'The seven tokenizers agree more closely on the English essay than on the Italian one.',
    check: narrower(TOKENIZERS.map((t) => kchar(t, 'essay_en')), TOKENIZERS.map((t) => kchar(t, 'essay_it'))),
  },
  {
    id: 'tok-italian-range',
    says: 'Italian costs more tokens than English under every tokenizer, least under Gemma 3 and most under GPT-2.',
    check: every([
      above('tokens.italian_extra.min_pct', 0),
      within('tokens.italian_extra.min_pct', 'tokens.italian_extra.gemma3_pct', 0),
      within('tokens.italian_extra.max_pct', 'tokens.italian_extra.gpt2_pct', 0),
    ]),
  },
  {
    id: 'tok-italian-longer',
    says: 'The Italian essay is longer in characters than the English one.',
    check: greater('tokens.corpus.essay_it.characters', 'tokens.corpus.essay_en.characters'),
  },
  {
    id: 'tok-llama3-over-gemma3',
    says: 'On the Italian text Llama 3 produces more tokens than Gemma 3, whose vocabulary is much larger (over half as large again).',
    check: every([above('tokens.italian.llama3_over_gemma3_pct', 0), ratioAtLeast('tokens.vocab.gemma3', 'tokens.vocab.llama3', 1.5)]),
  },
  {
    id: 'tok-llmperf-overcounts',
    says: 'LLMPerf’s Llama 2 count overstates a Llama 3 model’s output on both the documentation and Python.',
    check: every([above('tokens.llmperf_inflation.english_docs_pct', 0), above('tokens.llmperf_inflation.python_asyncio_pct', 0)]),
  },
];
