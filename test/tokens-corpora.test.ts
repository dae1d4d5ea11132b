/**
 * Corpora: the manifest matches what is installed, the concatenation hash is
 * what corpora/manifest.json defines, and any change is refused by name.
 * No tokenizer is loaded here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { globToRegExp, loadCorpus, scanCorpus } from '../src/tokens/corpora.ts';
import { sha256 } from '../src/fs/hash.ts';
import { codePoints, codeUnitSort } from '../src/tokens/hash.ts';
import { findCorpus, readCorpusManifest, type CorpusEntry } from '../src/tokens/manifest.ts';

const manifest = readCorpusManifest();

describe('corpus manifest', () => {
  it('has the four corpora', () => {
    expect(manifest.corpora.map((c) => c.id)).toEqual(['english_docs', 'essay_en', 'essay_it', 'python_asyncio']);
  });

  for (const c of manifest.corpora) {
    it(`${c.id}: matches what is installed (files, characters, bytes, sha256)`, () => {
      const got = loadCorpus(c);
      expect(got.sha256).toBe(c.sha256);
      expect(got.files.map((f) => f.path)).toEqual(c.files.map((f) => f.path));
      expect(got.files.length).toBe(c.fileCount);
      expect(got.characters).toBe(c.characters);
      expect(got.bytes).toBe(c.bytes);
      expect(scanCorpus(c).files).toEqual(c.files);
    });
  }

  it('the hash is sha256 of the files\u2019 bytes concatenated in code-unit path order', () => {
    const c = findCorpus(manifest, 'english_docs') as Extract<CorpusEntry, { kind: 'npm-files' }>;
    const paths = codeUnitSort(c.files.map((f) => f.path));
    const cat = Buffer.concat(paths.map((p) => readFileSync(join('node_modules', c.package, p))));
    expect(sha256(cat)).toBe(c.sha256);
    expect(codePoints(cat.toString('utf8'))).toBe(c.characters);
  });

  it('code-unit order is not locale order', () => {
    expect(codeUnitSort(['b', 'B', 'a', '_x', 'Z'])).toEqual(['B', 'Z', '_x', 'a', 'b']);
  });

  it('globs match as documented', () => {
    const re = globToRegExp('docs/runtime/**/*.mdx');
    expect(re.test('docs/runtime/bun.mdx')).toBe(true);
    expect(re.test('docs/runtime/a/b/c.mdx')).toBe(true);
    expect(re.test('docs/runtimex/c.mdx')).toBe(false);
    expect(re.test('docs/runtime/c.md')).toBe(false);
    const py = globToRegExp('asyncio/*.py');
    expect(py.test('asyncio/tasks.py')).toBe(true);
    expect(py.test('asyncio/sub/tasks.py')).toBe(false);
    expect(py.test('asyncio/tasks.pyc')).toBe(false);
  });

  it('the parallel essay is about 540 words in each language', () => {
    for (const p of ['corpora/parallel/en.md', 'corpora/parallel/it.md']) {
      const words = readFileSync(p, 'utf8').split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
      expect(words, p).toBeGreaterThan(500);
      expect(words, p).toBeLessThan(580);
    }
  });
});

describe('a changed corpus is refused with the corpus, expected and actual hash', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'stopwatches-corpus-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const docs = () => findCorpus(manifest, 'english_docs') as Extract<CorpusEntry, { kind: 'npm-files' }>;

  function copyDocs(name: string): string {
    const dir = join(tmp, name);
    mkdirSync(dir, { recursive: true });
    cpSync(join('node_modules/bun-types/package.json'), join(dir, 'package.json'));
    cpSync(join('node_modules/bun-types/docs/runtime'), join(dir, 'docs/runtime'), { recursive: true });
    return dir;
  }

  function expectRefused(fn: () => unknown, id: string, expected: string, more?: RegExp) {
    let err: Error | null = null;
    try {
      fn();
    } catch (e) {
      err = e as Error;
    }
    expect(err?.name).toBe('UserError');
    expect(err?.message).toContain(`corpus ${id}:`);
    expect(err?.message).toContain(`expected ${expected}`);
    expect(err?.message).toMatch(/actual [0-9a-f]{64}/);
    if (more) expect(err?.message).toMatch(more);
  }

  it('one changed byte in an npm file', () => {
    const dir = copyDocs('changed');
    const f = join(dir, docs().files[3]!.path);
    const b = readFileSync(f);
    b[10] ^= 0x20;
    writeFileSync(f, b);
    expectRefused(() => loadCorpus(docs(), { dir }), 'english_docs', docs().sha256, new RegExp(`changed ${docs().files[3]!.path}`));
  });

  it('a missing file and an extra file', () => {
    const dir = copyDocs('missing');
    unlinkSync(join(dir, docs().files[0]!.path));
    expectRefused(() => loadCorpus(docs(), { dir }), 'english_docs', docs().sha256, /missing docs\/runtime\//);
    const dir2 = copyDocs('extra');
    writeFileSync(join(dir2, 'docs/runtime/zz-extra.mdx'), 'extra');
    expectRefused(() => loadCorpus(docs(), { dir: dir2 }), 'english_docs', docs().sha256, /unexpected docs\/runtime\/zz-extra\.mdx/);
  });

  it('a changed file inside the zip', () => {
    const c = findCorpus(manifest, 'python_asyncio') as Extract<CorpusEntry, { kind: 'npm-zip' }>;
    const dir = join(tmp, 'pyodide');
    mkdirSync(dir, { recursive: true });
    cpSync('node_modules/pyodide/package.json', join(dir, 'package.json'));
    const entries = unzipSync(readFileSync('node_modules/pyodide/python_stdlib.zip'), { filter: (f) => f.name.startsWith('asyncio/') });
    const name = 'asyncio/tasks.py';
    entries[name] = new TextEncoder().encode(new TextDecoder().decode(entries[name]).replace('def ', 'def  '));
    writeFileSync(join(dir, c.archive.path), zipSync(entries));
    expectRefused(() => loadCorpus(c, { dir }), 'python_asyncio', c.sha256, /changed asyncio\/tasks\.py/);
  });

  it('a changed project file (the essay)', () => {
    const c = findCorpus(manifest, 'essay_it');
    const root = join(tmp, 'root');
    const p = c.files[0]!.path;
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), readFileSync(p, 'utf8').replace('farina', 'farine'));
    expectRefused(() => loadCorpus(c, { root }), 'essay_it', c.sha256, /changed corpora\/parallel\/it\.md/);
  });

  it('a wrong package version', () => {
    const dir = join(tmp, 'oldbun');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bun-types', version: '1.0.0' }));
    expect(() => loadCorpus(docs(), { dir })).toThrow(/corpus english_docs: bun-types is 1\.0\.0, the manifest pins 1\.4\.5/);
  });
});
