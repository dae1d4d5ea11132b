/**
 * The reading contract (src/tools/base/input.ts, json-stream.ts,
 * src/importers/load.ts): lines and documents read from pieces give exactly
 * what the whole text gives, on every real JSON file and fixture; a file that
 * is cut off is told apart and located; a file larger than the head streams
 * through the same readers with the same result.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputLines, textInput, type ResultInput } from '../src/tools/base/input.ts';
import { parseJsonChunks } from '../src/tools/base/json-stream.ts';
import { parsePythonJson, type Json } from '../src/tools/base/json-text.ts';
import { isNumberLists, NumberListsBuilder, type NumberLists } from '../src/tools/base/number-lists.ts';
import { importResult } from '../src/importers/index.ts';
import { openResultInput } from '../src/importers/load.ts';
import { UserError } from '../src/errors.ts';
import { READ_CHUNK } from '../src/fs/read.ts';
import { expectStrictEqual } from './helpers/same.ts';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');
const FIXTURES = join(import.meta.dirname, 'fixtures', 'results');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)])).sort();
}

/** Every JSON document among the real files and fixtures (whole-text parse succeeds), with its parse. */
const DOCS = [...filesUnder(REAL), ...filesUnder(FIXTURES)]
  .filter((f) => /\.json$/.test(f))
  .flatMap((f) => {
    const text = readFileSync(f, 'utf8');
    try {
      return [{ f, text, value: parsePythonJson(text.replace(/^\uFEFF/, '')) }];
    } catch {
      return [];
    }
  });

/** The text cut into pieces of `n` characters. */
const pieces = (text: string, n: number) => Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, (i + 1) * n));

describe('a JSON document read from pieces', () => {
  it('finds documents to check', () => expect(DOCS.length).toBeGreaterThan(8));
  for (const piece of [7, 4096]) {
    it(`equals JSON.parse on every real file and fixture (pieces of ${piece} characters, every value walked)`, () => {
      for (const d of DOCS) {
        const r = parseJsonChunks(pieces(d.text, piece), { smallValue: 16 });
        expectStrictEqual('value' in r ? r.value : r.problem, d.value, d.f);
      }
    });
  }
  it('keeps a large top-level list of lists of numbers packed, every element as parsed (lists across blocks, empty ones, others)', () => {
    // a store of 64-number blocks: 64 lists of 64 fill the first block exactly; then an empty list, one longer than a block, odd elements
    const B = 64;
    const lists: Json[] = Array.from({ length: B }, (_, i) => Array.from({ length: B }, (_, k) => i + k / B));
    lists.push([], Array.from({ length: B + 1 }, (_, k) => k), [], [1, 'x'], null, 'x', [-0, NaN, Infinity], [5, 6, 7], []);
    const b = new NumberListsBuilder(B);
    for (const l of lists) b.add(l);
    const packed = b.done();
    expect(packed.length).toBe(lists.length);
    // element by element (Object.is: −0 and NaN kept)
    const same = (got: Json[], want: Json[]) => got.length === want.length && got.every((g, i) => (Array.isArray(g) && Array.isArray(want[i]) ? g.length === (want[i] as Json[]).length && g.every((x, k) => Object.is(x, (want[i] as Json[])[k])) : Object.is(g, want[i])));
    expect(same(packed.toJSON(), lists)).toBe(true);
    expect(same(packed.toJSON().slice(B - 4, B + 16), lists.slice(B - 5, B + 15))).toBe(false);
    expect(packed.numbers(B)).toHaveLength(0);
    expect(packed.numbers(B + 1)).toBeNull(); // longer than a block: kept as parsed
    expect(packed.other(B + 4)).toBeNull();
    expect(packed.other(B + 5)).toBe('x');
    expect(packed.other(B + 7)).toBeUndefined();
    expect(Object.is(packed.numbers(B + 6)![0], -0)).toBe(true);
    expect(packed.at(lists.length)).toBeUndefined();
    // the parser's sink, on a list far longer than a piece parsed whole, with the store's own blocks
    const text = JSON.stringify({ a: 1, itls: [...lists, ...lists.slice(0, B)].concat(Array.from({ length: 2000 }, (_, i) => [i / 7, i / 3])) });
    const r = parseJsonChunks(pieces(text, 4096), { listSinks: { itls: () => new NumberListsBuilder() } });
    const itls = 'value' in r ? (r.value as { itls: unknown }).itls : null;
    expect(isNumberLists(itls)).toBe(true);
    expect(same((itls as NumberLists).toJSON(), JSON.parse(text).itls)).toBe(true);
  });
  it('keeps "__proto__" as an own key, as JSON.parse does', () => {
    const text = '{"__proto__": {"x": 1}, "a": [1, 2, 3]}';
    const r = parseJsonChunks(pieces(text, 3), { smallValue: 2 });
    expect('value' in r && Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect('value' in r && r.value).toStrictEqual(JSON.parse(text));
  });
  it('reads Python NaN / Infinity where JSON.parse stops, and nothing else', () => {
    const r = parseJsonChunks(pieces('{"a": [1, NaN, -Infinity], "b": Infinity}', 5), { smallValue: 4 });
    expect('value' in r && r.value).toStrictEqual({ a: [1, NaN, -Infinity], b: Infinity });
    const bad = parseJsonChunks(['{"a": [1, nan]}'], { smallValue: 4 });
    expect('problem' in bad && bad.problem).toMatchObject({ truncated: false, where: 'a[1]' });
  });
  it('reads a long array in runs of elements and still names the element that breaks it', () => {
    // numbers, nested lists, objects and strings holding the characters a run is cut at
    const a = Array.from({ length: 3000 }, (_, i) => (i % 5 === 0 ? [i, [i / 7], { k: `,]}[{"${i}` }] : i % 3 ? i / 3 : `s,${i}]`));
    const text = JSON.stringify({ a, b: 1 });
    for (const [small, piece] of [[64, 97], [1000, 4096], [7, 5]]) {
      const r = parseJsonChunks(pieces(text, piece), { smallValue: small });
      expectStrictEqual('value' in r && r.value, { a, b: 1 }, `runs of ${small}`);
    }
    const marked = JSON.stringify({ a: a.map((x, i) => (i === 2001 || i === 2501 ? `mark${i}` : x)) });
    const r = parseJsonChunks(pieces(marked.replace('"mark2001"', 'nan'), 97), { smallValue: 64 });
    expect('problem' in r && r.problem).toMatchObject({ truncated: false, where: 'a[2001]' });
    const cut = parseJsonChunks(pieces(marked.slice(0, marked.indexOf('"mark2501"') + 3), 97), { smallValue: 64 });
    expect('problem' in cut && cut.problem).toMatchObject({ truncated: true, where: 'a[2501]' });
  });
  it('cuts runs of a list of lists, of numbers or of strings where a guess says, and still names the element that breaks it', () => {
    // vLLM's per-request arrays: itls a list of lists, strings holding the characters a guess cuts at
    const itls = Array.from({ length: 4000 }, (_, i) => Array.from({ length: i % 7 }, (_, k) => (i === 3001 && k === 1 ? 777777.5 : i === 3501 && k === 0 ? 888888.5 : (i + k) / 1000)));
    const nums = Array.from({ length: 4000 }, (_, i) => i / 3);
    const texts = Array.from({ length: 4000 }, (_, i) => (i % 3 ? '' : `a, b], [c ${i}`));
    const text = JSON.stringify({ itls, nums, texts }).replace(/\],\[/g, '], [');
    for (const [small, piece] of [[64, 97], [1000, 4096], [300, 61]]) {
      const r = parseJsonChunks(pieces(text, piece), { smallValue: small });
      expectStrictEqual('value' in r && r.value, { itls, nums, texts }, `runs of ${small}`);
      const bad = parseJsonChunks(pieces(text.replace('777777.5', 'nan'), piece), { smallValue: small });
      expect('problem' in bad && bad.problem).toMatchObject({ truncated: false, where: 'itls[3001]', position: text.indexOf('777777.5') - 7 });
      const cut = parseJsonChunks(pieces(text.slice(0, text.indexOf('888888.5') + 3), piece), { smallValue: small });
      expect('problem' in cut && cut.problem).toMatchObject({ truncated: true, where: 'itls[3501]' });
      const python = parseJsonChunks(pieces(text.replace('777777.5', 'NaN'), piece), { smallValue: small });
      expect('value' in python && (python.value as { itls: number[][] }).itls[3001][1]).toBeNaN();
      const closed = parseJsonChunks(pieces(text.replace('777777.5', '1]'), piece), { smallValue: small });
      expect('problem' in closed && closed.problem).toMatchObject({ truncated: false, where: '' });
    }
  });
  it('drops the text it has read as it goes, and still says where a value far into the text breaks or ends', () => {
    // far past the point where consumed text is dropped (64 KiB), with the default runs: vLLM's itls, then numbers
    const itls = Array.from({ length: 30000 }, (_, i) => Array.from({ length: 1 + (i % 9) }, (_, k) => (i === 24001 && k === 2 ? 777777.5 : i === 27001 && k === 0 ? 888888.5 : (i * 9 + k) / 7)));
    const nums = Array.from({ length: 30000 }, (_, i) => (i === 20001 ? 999999.5 : i / 3));
    const text = JSON.stringify({ itls, nums, after: 'end' });
    expect(text.indexOf('777777.5')).toBeGreaterThan(8 * 65536);
    const element = (mark: string) => text.lastIndexOf('[', text.indexOf(mark));
    for (const piece of [1 << 20, 65536, 4093, 61]) {
      const r = parseJsonChunks(pieces(text, piece));
      expectStrictEqual('value' in r && r.value, { itls, nums, after: 'end' }, `pieces of ${piece}`);
      const bad = parseJsonChunks(pieces(text.replace('777777.5', 'nan'), piece));
      expect('problem' in bad && bad.problem, `pieces of ${piece}`).toMatchObject({ truncated: false, where: 'itls[24001]', position: element('777777.5') });
      const badNumber = parseJsonChunks(pieces(text.replace('999999.5', 'nan'), piece));
      expect('problem' in badNumber && badNumber.problem, `pieces of ${piece}`).toMatchObject({ truncated: false, where: 'nums[20001]', position: text.indexOf('999999.5') });
      const cut = parseJsonChunks(pieces(text.slice(0, text.indexOf('888888.5') + 3), piece));
      expect('problem' in cut && cut.problem, `pieces of ${piece}`).toMatchObject({ truncated: true, where: 'itls[27001]' });
      const python = parseJsonChunks(pieces(text.replace('777777.5', 'NaN'), piece));
      expect('value' in python && (python.value as { itls: number[][] }).itls[24001][2]).toBeNaN();
    }
  });
  it('tells a document cut off from a broken one, with the path where it ends', () => {
    const d = DOCS.find((x) => x.f.endsWith('vllm-bench-serve.json'))!;
    const cut = d.text.slice(0, d.text.indexOf('"itls"') + 200);
    const r = parseJsonChunks(pieces(cut, 64), { smallValue: 16 });
    expect('problem' in r && r.problem.truncated).toBe(true);
    expect('problem' in r && r.problem.where).toMatch(/^[a-z_]+\[\d+\]/);
    const broken = parseJsonChunks(['{"a": [1, 2', ' }']);
    expect('problem' in broken && broken.problem.truncated).toBe(false);
    const trailing = parseJsonChunks(['{"a": 1} {"b": 2}']);
    expect('problem' in trailing && trailing.problem.message).toMatch(/more text after/);
  });
});

describe('lines read from pieces', () => {
  const input = (text: string, n: number): ResultInput => ({ ...textInput('f', text), chunks: () => pieces(text, n) });
  it('are the lines of split(/\\r?\\n/), numbered alike, the last one marked', () => {
    for (const text of ['a\nb\r\n\nc', 'a\nb\n', '\uFEFFx\r\ny\n\n', '', 'one', '\n\n']) {
      for (const n of [1, 2, 5, 100]) {
        const got = [...inputLines(input(text, n))];
        const want = text.replace(/^\uFEFF/, '').split(/\r?\n/);
        if (want[want.length - 1] === '') want.pop();
        expect(got.map((l) => l.text), JSON.stringify([text, n])).toEqual(want);
        expect(got.map((l) => l.number)).toEqual(want.map((_, i) => i + 1));
        expect(got.filter((l) => l.last).map((l) => l.number)).toEqual(want.length ? [want.length] : []);
        expect(got.some((l) => l.unterminated)).toBe(text !== '' && !text.endsWith('\n'));
      }
    }
  });
});

describe('a file larger than the head streams through the same readers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stopwatches-input-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** The import of `text` as one whole string (the path every small file takes). */
  const asWhole = (file: string, text: string) => importResult(file, { ...textInput(file, text), head: text, whole: true });

  it('an AIPerf export of 2 MB: same records and aggregates as the whole text', () => {
    const lines = readFileSync(join(REAL, 'aiperf', 'aiperf-examples-run1_profile_export.jsonl'), 'utf8').trimEnd().split('\n');
    const text = Array.from({ length: 6 }, () => lines.join('\n')).join('\n') + '\n';
    const path = join(dir, 'profile_export.jsonl');
    writeFileSync(path, text);
    const input = openResultInput(path);
    expect(input.whole).toBe(false);
    expectStrictEqual(importResult(path, input), asWhole(path, text));
  });
  it('a vLLM --save-detailed document of 2 MB: same records and aggregates as the whole text', () => {
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'vllm-bench-serve.json'), 'utf8'));
    doc.filler = Array.from({ length: 40000 }, (_, i) => `pad ${i} ${'x'.repeat(40)}`);
    const text = JSON.stringify(doc);
    const path = join(dir, 'run.json');
    writeFileSync(path, text);
    const input = openResultInput(path);
    expect(input.whole).toBe(false);
    expectStrictEqual(importResult(path, input), asWhole(path, text));
    writeFileSync(path, text.slice(0, text.length - 1000));
    const e = (() => {
      try {
        importResult(path, openResultInput(path));
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: invalid JSON \\(the text ends early: truncated\\?\\): the file ends in filler\\[\\d+\\] at byte ${text.length - 1000}`));
  });
  it('a vLLM --save-detailed document whose itls are read packed: same records, aggregates and errors as the whole text', () => {
    // the fixture's five requests repeated 4,000 times on one clock: itls far above the size parsed whole, so kept packed
    const one = JSON.parse(readFileSync(join(FIXTURES, 'vllm-bench-serve.json'), 'utf8'));
    const n = 12000;
    const doc = { ...one, num_prompts: n, completed: (n / 5) * 4, failed: n / 5, duration: (n / 5) * 1.1 + 1 };
    for (const key of ['latencies', 'queue_times', 'input_lens', 'output_lens', 'ttfts', 'itls', 'errors']) doc[key] = Array.from({ length: n }, (_, i) => one[key][i % 5]);
    doc.start_times = Array.from({ length: n }, (_, i) => one.start_times[i % 5] + Math.floor(i / 5) * 1.1);
    doc.filler = Array.from({ length: 20000 }, (_, i) => `pad ${i} ${'x'.repeat(40)}`);
    expect(JSON.stringify(doc.itls).length).toBeGreaterThan(2 * 65536);
    const path = join(dir, 'packed.json');
    const same = (text: string) => {
      writeFileSync(path, text);
      const input = openResultInput(path);
      expect(input.whole).toBe(false);
      const result = (f: () => unknown) => {
        try {
          return f();
        } catch (err) {
          return (err as Error).message;
        }
      };
      const streamed = result(() => importResult(path, input));
      expectStrictEqual(streamed, result(() => asWhole(path, text)));
      return streamed;
    };
    expect(same(JSON.stringify(doc))).toHaveProperty('format', 'vllm');
    const { start_times: _, latencies: __, ...ownClock } = doc;
    expect(same(JSON.stringify(ownClock))).toHaveProperty('format', 'vllm');
    // a gap that is not a duration, an element that is not a list, one that holds a string, a list of the wrong length: each named as before
    const broken = (i: number, v: unknown, d: object = doc) => JSON.stringify({ ...d, itls: (d as { itls: unknown[] }).itls.map((x, j) => (j === i ? v : x)) });
    expect(same(broken(9001, [0.1, -0.5, 0.1]))).toMatch(/itls\[9001\]\[1\] = -0.5 is negative/);
    expect(same(broken(9001, [0.1, 4000]))).toMatch(/itls\[9001\]\[1\] = 4000 s is implausible/);
    expect(same(broken(10002, 'x'))).toMatch(/itls\[10002\] should be a list, found a string/);
    expect(same(broken(10002, [0.1, '0.2']))).toMatch(/itls\[10002\]\[1\] should be a number, found a string "0.2"/);
    expect(same(broken(10002, [0.1, 'x'], ownClock))).toMatch(/itls\[10002\]\[1\] should be a number/);
    expect(same(JSON.stringify({ ...doc, itls: doc.itls.slice(1) }))).toMatch(/itls has 11999 entries but the file describes 12000 requests/);
    expect(same(JSON.stringify(doc).replace('"itls":[[0.1,0.1,0.1]', '"itls":[[0.1,NaN,0.1]'))).toMatch(/itls\[0\]\[1\] = NaN: a finite number is needed here/);
    // SGLang's itls, in a result of one run written as one large document
    const run = JSON.parse(readFileSync(join(FIXTURES, 'sglang-bench-serving.jsonl'), 'utf8').split('\n')[0]);
    const sglang = { ...run, completed: 4500, filler: doc.filler };
    for (const key of ['input_lens', 'output_lens', 'ttfts', 'itls', 'errors']) sglang[key] = Array.from({ length: 6000 }, (_, i) => run[key][i % 4]);
    expect(same(JSON.stringify(sglang))).toHaveProperty('format', 'sglang');
    expect(same(JSON.stringify({ ...sglang, itls: sglang.itls.map((x: unknown, i: number) => (i === 5001 ? [0.1, -1] : x)) }))).toMatch(/itls\[5001\]\[1\] = -1 is negative/);
  });
  it('reads the text whatever its bytes: ASCII pieces, then a character cut between two reads, a byte-order mark', () => {
    const path = join(dir, 'text.txt');
    // the first piece (1 MiB) ASCII, a 4-byte character across the boundary of the first and second
    const texts = ['a'.repeat(READ_CHUNK - 2) + '🙂 ünï\n' + 'b'.repeat(READ_CHUNK) + 'é', '\uFEFF' + 'c'.repeat(READ_CHUNK + 5) + '✓', 'd'.repeat(2 * READ_CHUNK + 3)];
    for (const text of texts) {
      writeFileSync(path, text);
      expect([...openResultInput(path).chunks()].join('')).toBe(readFileSync(path, 'utf8'));
    }
  });
});
