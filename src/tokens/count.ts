/**
 * Counting: one tokenizer over whole corpora, file by file, summed.
 * Each file is encoded on its own (as a reader's tool would see it), so a
 * SentencePiece tokenizer's dummy prefix space is added once per file.
 */
import { UserError } from '../errors.ts';
import { openTokenizer, type OpenOptions, type TokenCounter } from './adapters.ts';
import { loadCorpus, type LoadedCorpus } from './corpora.ts';
import type { CorpusEntry, TokenizerEntry } from './manifest.ts';

export interface FileCount {
  path: string;
  tokens: number;
  characters: number;
  bytes: number;
}

export interface CorpusCount {
  corpus: string;
  tokens: number;
  characters: number;
  bytes: number;
  /** sha256 of the corpus concatenation that was verified before counting. */
  sha256: string;
  files: FileCount[];
}

export interface TokenizerCount {
  tokenizer: string;
  vocabSize: number;
  corpora: CorpusCount[];
}

/**
 * Refuses text that contains one of the tokenizer's special-token strings: the
 * HF tokenizer would encode it as a special token, and the count would no longer
 * be "without special tokens". None of the pinned corpora contains one.
 */
export function assertNoSpecialStrings(counter: TokenCounter, corpus: LoadedCorpus): void {
  const specials = counter.specialStrings();
  if (specials.length === 0) return;
  for (const f of corpus.files) {
    for (const s of specials) {
      if (f.text.includes(s)) {
        throw new UserError(`corpus ${corpus.id}: ${f.path} contains "${s}", a special token of tokenizer ${counter.id}; counts must not include special tokens`);
      }
    }
  }
}

export function countCorpus(counter: TokenCounter, corpus: LoadedCorpus): CorpusCount {
  assertNoSpecialStrings(counter, corpus);
  const files = corpus.files.map((f) => ({ path: f.path, tokens: counter.count(f.text), characters: f.characters, bytes: f.bytes }));
  return {
    corpus: corpus.id,
    tokens: files.reduce((s, f) => s + f.tokens, 0),
    characters: corpus.characters,
    bytes: corpus.bytes,
    sha256: corpus.sha256,
    files,
  };
}

export interface CountOptions extends OpenOptions {
  /** Called after each corpus, for progress lines. */
  onCorpus?(done: number, total: number): void;
}

/**
 * Loads one tokenizer (verified) and counts every corpus (each verified just
 * before it is counted), then frees the tokenizer.
 */
export async function countAll(tokenizer: TokenizerEntry, corpora: readonly CorpusEntry[], opts: CountOptions = {}): Promise<TokenizerCount> {
  const counter = await openTokenizer(tokenizer, { root: opts.root });
  try {
    const out: CorpusCount[] = [];
    for (const entry of corpora) {
      out.push(countCorpus(counter, loadCorpus(entry, { root: opts.root })));
      opts.onCorpus?.(out.length, corpora.length);
    }
    return { tokenizer: tokenizer.id, vocabSize: counter.vocabSize(), corpora: out };
  } finally {
    counter.dispose();
  }
}
