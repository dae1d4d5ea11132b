/**
 * One interface over three tokenizer libraries. Every adapter counts WITHOUT
 * special tokens: tiktoken's `encode_ordinary`, @huggingface/tokenizers'
 * `add_special_tokens: false`, llama-tokenizer-js' `encode(text, false)`.
 * Their defaults differ (Gemma and Llama 2 add a BOS, Llama 3.1 too), so a
 * default call would add one token per file to some tokenizers and not others.
 *
 * Every file is hashed before it is loaded, and the bytes that were hashed are
 * the bytes that are parsed: a mismatch stops with the tokenizer, file,
 * expected and actual hash.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { sha256 } from '../fs/hash.ts';
import { packageDir, type PinnedFile, type TokenizerEntry } from './manifest.ts';

export interface TokenCounter {
  readonly id: string;
  /** Number of tokens in `text`, no special tokens. */
  count(text: string): number;
  /** Token ids of `text`, no special tokens. */
  encode(text: string): number[];
  /** Ids in the vocabulary, including added tokens. */
  vocabSize(): number;
  /**
   * Strings this adapter would turn into a special token if they occurred in the
   * text. Only @huggingface/tokenizers matches them inside text (even with
   * add_special_tokens: false); tiktoken's encode_ordinary and llama-tokenizer-js
   * treat them as plain text, so theirs is empty.
   */
  specialStrings(): string[];
  /** Frees native memory (tiktoken's WASM); the counter is unusable afterwards. */
  dispose(): void;
}

export interface OpenOptions {
  /** Project root (default: the working directory). */
  root?: string;
  /** Directory of the installed package; default `<root>/node_modules/<package>`. Tests point it at a temp copy. */
  dir?: string;
}

/** Reads a pinned file, checks its sha256 and returns the verified bytes. */
export function readVerified(what: string, dir: string, file: PinnedFile): Buffer {
  const abs = join(dir, file.path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    throw new UserError(`${what}: cannot read ${abs} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); run npm ci`);
  }
  const actual = sha256(bytes);
  if (actual !== file.sha256) {
    throw new UserError(
      `${what}: ${abs} does not match the manifest: sha256 expected ${file.sha256}, actual ${actual}; ` +
        `reinstall with npm ci, or update the manifest if the pin changed on purpose`,
    );
  }
  return bytes;
}

function checkVersion(entry: TokenizerEntry, dir: string): void {
  let version: string | undefined;
  try {
    version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    throw new UserError(`tokenizer ${entry.id}: package ${entry.package} is not installed at ${dir}; run npm ci`);
  }
  if (version !== entry.version) {
    throw new UserError(`tokenizer ${entry.id}: ${entry.package} is ${version} at ${dir}, the manifest pins ${entry.version}; run npm ci`);
  }
}

export async function openTokenizer(entry: TokenizerEntry, opts: OpenOptions = {}): Promise<TokenCounter> {
  const root = opts.root ?? process.cwd();
  const dir = opts.dir ?? join(root, packageDir(entry.package));
  checkVersion(entry, dir);
  const what = `tokenizer ${entry.id} (${entry.package}@${entry.version}/${entry.file.path})`;
  const bytes = readVerified(what, dir, entry.file);
  switch (entry.library) {
    case 'tiktoken':
      return tiktokenCounter(entry, bytes);
    case 'huggingface': {
      if (!entry.config) throw new UserError(`tokenizers/manifest.json: ${entry.id} needs a config file`);
      const config = readVerified(`tokenizer ${entry.id} (${entry.package}@${entry.version}/${entry.config.path})`, dir, entry.config);
      return huggingfaceCounter(entry, bytes, config);
    }
    case 'llama-tokenizer-js':
      return llamaCounter(entry, bytes);
    default:
      throw new UserError(`tokenizers/manifest.json: ${(entry as TokenizerEntry).id}: unknown library ${(entry as TokenizerEntry).library}`);
  }
}

/** tiktoken's "lite" build: the WASM has no encodings inside, so the ranks come from the verified JSON. */
async function tiktokenCounter(entry: TokenizerEntry, bytes: Buffer): Promise<TokenCounter> {
  const { Tiktoken } = await import('tiktoken/lite');
  const spec = JSON.parse(bytes.toString('utf8')) as {
    bpe_ranks: string;
    special_tokens: Record<string, number>;
    pat_str: string;
    explicit_n_vocab?: number;
  };
  let enc: InstanceType<typeof Tiktoken> | null = new Tiktoken(spec.bpe_ranks, spec.special_tokens, spec.pat_str);
  const live = () => {
    if (!enc) throw new Error(`tokenizer ${entry.id} was disposed`);
    return enc;
  };
  // Ranks are "<base64> <rank>" pairs after the pattern header; the vocabulary is the largest id + 1.
  const ranks = spec.bpe_ranks.split('\n').filter((l) => l.length > 0).slice(1);
  let maxId = -1;
  for (const line of ranks) for (const r of line.split(' ').slice(1)) maxId = Math.max(maxId, Number(r));
  for (const id of Object.values(spec.special_tokens)) maxId = Math.max(maxId, id);
  const vocab = spec.explicit_n_vocab ?? maxId + 1;
  return {
    id: entry.id,
    count: (text) => live().encode_ordinary(text).length,
    encode: (text) => Array.from(live().encode_ordinary(text)),
    vocabSize: () => vocab,
    specialStrings: () => [],
    dispose: () => {
      enc?.free();
      enc = null;
    },
  };
}

async function huggingfaceCounter(entry: TokenizerEntry, bytes: Buffer, config: Buffer): Promise<TokenCounter> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tok: InstanceType<typeof Tokenizer> | null = new Tokenizer(JSON.parse(bytes.toString('utf8')), JSON.parse(config.toString('utf8')));
  const live = () => {
    if (!tok) throw new Error(`tokenizer ${entry.id} was disposed`);
    return tok;
  };
  return {
    id: entry.id,
    count: (text) => live().encode(text, { add_special_tokens: false }).ids.length,
    encode: (text) => [...live().encode(text, { add_special_tokens: false }).ids],
    vocabSize: () => live().get_vocab(true).size,
    specialStrings: () => [...live().get_added_tokens_decoder().values()].filter((t) => t.special).map((t) => t.content),
    dispose: () => {
      tok = null;
    },
  };
}

interface LlamaModule {
  default: { encode(text: string, addBos?: boolean): number[]; vocabById: string[] };
}

/**
 * llama-tokenizer-js embeds Meta's Llama 2 vocabulary in its one module, which
 * builds the tokenizer when imported. The verified bytes are imported as a data
 * URL, so the module that runs is the module that was hashed (it imports nothing).
 */
async function llamaCounter(entry: TokenizerEntry, bytes: Buffer): Promise<TokenCounter> {
  const url = `data:text/javascript;base64,${bytes.toString('base64')}`;
  const mod = (await import(/* @vite-ignore */ url)) as LlamaModule;
  let tok: LlamaModule['default'] | null = mod.default;
  const live = () => {
    if (!tok) throw new Error(`tokenizer ${entry.id} was disposed`);
    return tok;
  };
  return {
    id: entry.id,
    // encode(text, false): no BOS; the SentencePiece dummy prefix space stays, as Meta's tokenizer adds it.
    count: (text) => live().encode(text, false).length,
    encode: (text) => live().encode(text, false),
    vocabSize: () => live().vocabById.length,
    specialStrings: () => [],
    dispose: () => {
      tok = null;
    },
  };
}
