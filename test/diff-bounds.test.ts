/**
 * `diff` and `snapshot --from` on inputs without bound: a PNG whose header
 * declares 20,000 × 20,000 pixels is refused from its header, before any
 * decoding (one line naming the file); and a diff of 130,000 changed numbers
 * completes (the Markdown summary fits one comment), where appending its rows
 * as arguments of one call overflowed the stack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pngjs from 'pngjs';
import { runDiff, MARKDOWN_LIMIT } from '../src/pipeline/diff/index.ts';
import { acceptSnapshot } from '../src/pipeline/snapshot.ts';
import { MAX_FIGURE_PIXELS, pngSize } from '../src/pipeline/png.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'stopwatches-diff-bounds-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** A 1×1 PNG whose header is rewritten to declare w × h (its data still holds one pixel). */
function declaring(w: number, h: number): Buffer {
  const img = new pngjs.PNG({ width: 1, height: 1 });
  const buf = pngjs.PNG.sync.write(img);
  buf.writeUInt32BE(w, 16);
  buf.writeUInt32BE(h, 20);
  return buf;
}

const num = (value: number) => ({ value, unit: 'ms', n: 10, interval: null, experiment: 'a' });

function side(dir: string, numbers: Record<string, unknown>, figures: Record<string, Buffer | string> = {}): void {
  mkdirSync(join(dir, 'figures'), { recursive: true });
  writeFileSync(join(dir, 'numbers.json'), JSON.stringify(numbers));
  for (const [f, b] of Object.entries(figures)) writeFileSync(join(dir, 'figures', f), b);
}

describe('a PNG larger than any figure is refused from its header', () => {
  it('reads the size from the header', () => {
    expect(pngSize(declaring(20_000, 20_000))).toEqual({ width: 20_000, height: 20_000 });
    expect(20_000 * 20_000).toBeGreaterThan(MAX_FIGURE_PIXELS);
  });

  it('diff names the file and the size, and decodes nothing', () => {
    const root = tmp();
    side(join(root, 'test', 'snapshots'), { 'a.x': num(1) }, { 'a.f.svg': '<svg/>', 'a.f.png': declaring(1, 1) });
    side(join(root, 'src', 'generated'), { 'a.x': num(1) }, { 'a.f.svg': '<svg x="1"/>', 'a.f.png': declaring(20_000, 20_000) });
    expect(() => runDiff({ root, log: () => {} })).toThrow(/^diff: src\/generated\/figures\/a\.f\.png is not a readable PNG \(20000 × 20000 pixels, above the 25,000,000 a figure may have\); rebuild/);
  });

  it('snapshot --from names the file and copies nothing', () => {
    const root = tmp();
    side(join(root, 'artifact'), { 'a.x': num(1) }, { 'a.f.svg': '<svg/>', 'a.f.png': declaring(20_000, 20_000) });
    expect(() => acceptSnapshot({ root, from: 'artifact', log: () => {}, env: {} })).toThrow(/a\.f\.png is not a readable PNG \(20000 × 20000 pixels/);
  });
});

describe('a diff of 130,000 changed numbers', () => {
  it('completes, and its Markdown fits one comment', () => {
    const root = tmp();
    const n = 130_000;
    const base: Record<string, unknown> = {};
    const cur: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      base[`a.n${i}`] = num(1 + i);
      cur[`a.n${i}`] = num(2 + i);
    }
    side(join(root, 'test', 'snapshots'), base);
    side(join(root, 'src', 'generated'), cur);
    const md = join(root, 'summary.md');
    const { result } = runDiff({ root, markdown: md, log: () => {} });
    expect(result.numbers).toHaveLength(n);
    const text = readFileSync(md, 'utf8');
    expect(text.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(text).toContain(`Internal numbers that moved (${n})`);
  }, 120_000);
});
