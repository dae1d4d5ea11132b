/**
 * Figures: which changed between two sides, and by how many pixels.
 *
 * Which figures changed is the outputs contract's one rule (`figureRule` in
 * src/pipeline/outputs.ts): a figure changed when its SVG did. When only the
 * PNG differs, the figure is marked `renderOnly`, reported apart and never
 * counted as a change, so pixel noise across machines does not reach a review.
 * This module adds what a review looks at: the pixels and the data rows.
 */
import pixelmatch from 'pixelmatch';
import pngjs from 'pngjs';
import { UserError } from '../../errors.ts';
import { decodeFigurePng, type Image } from '../png.ts';
import { compareData, type RowChange } from './data.ts';
import { figureFiles, figureKeyOf, figureRule } from '../outputs.ts';
import { experimentOf, type Side } from './sides.ts';

const { PNG } = pngjs;

export interface FigureDiff {
  key: string;
  experiment: string;
  kind: 'changed' | 'added' | 'removed';
  svgChanged: boolean;
  pngChanged: boolean;
  /** The SVGs are identical and only the PNG bytes differ: a rendering difference, not a change. */
  renderOnly: boolean;
  oldSize: [number, number] | null;
  newSize: [number, number] | null;
  /** Pixels that differ (on the larger canvas when sizes differ); null without both PNGs. */
  pixels: number | null;
  /** Pixels of that canvas; null without both PNGs. */
  canvas: number | null;
  /** pixelmatch's difference image; not serialized. */
  diffPng?: Buffer;
  /** Changed rows of data/<experiment>.json; null when either side has no data for it. */
  data: RowChange[] | null;
  /** Why `data` is null. */
  dataNote?: string;
}

function decodePng(buf: Buffer, where: string, fix: string): Image {
  try {
    return decodeFigurePng(buf);
  } catch (err) {
    throw new UserError(`diff: ${where} is not a readable PNG (${(err as Error).message}); ${fix}`);
  }
}

/** Copies an image onto a white canvas of the given size (top left). */
function onCanvas(img: Image, w: number, h: number): Uint8Array {
  if (img.width === w && img.height === h) return img.data;
  const out = new Uint8Array(w * h * 4).fill(255);
  for (let y = 0; y < img.height; y++) out.set(img.data.subarray(y * img.width * 4, (y + 1) * img.width * 4), y * w * 4);
  return out;
}

export function pixelDiff(a: Image, b: Image): { pixels: number; canvas: number; png: Buffer } {
  const w = Math.max(a.width, b.width);
  const h = Math.max(a.height, b.height);
  const out = new PNG({ width: w, height: h });
  // threshold 0 and includeAA: every pixel that differs at all counts.
  const pixels = pixelmatch(onCanvas(a, w, h), onCanvas(b, w, h), out.data, w, h, { threshold: 0, includeAA: true, alpha: 0.15 });
  return { pixels, canvas: w * h, png: PNG.sync.write(out) };
}

export function compareFigures(base: Side, cur: Side): FigureDiff[] {
  const keys = new Set<string>();
  for (const f of [...base.figures.keys(), ...cur.figures.keys()]) keys.add(figureKeyOf(f));
  const out: FigureDiff[] = [];
  const fixBase = 'fix or re-accept the baseline (`stopwatches snapshot`, or `git checkout -- test/snapshots`)';
  const fixCur = 'rebuild (`npm run build`, or `stopwatches run --force`)';
  for (const key of [...keys].sort()) {
    const [old, now] = [figureFiles(base.figures, key), figureFiles(cur.figures, key)];
    const verdict = figureRule(old, now);
    if (!verdict) continue;
    const { kind } = verdict;
    const [op, np] = [old.png, now.png];
    const oldImg = op ? decodePng(op, base.where(`figures/${key}.png`), fixBase) : null;
    const newImg = np ? decodePng(np, cur.where(`figures/${key}.png`), fixCur) : null;
    const diff = oldImg && newImg ? pixelDiff(oldImg, newImg) : null;
    const experiment = experimentOf(key);
    let data: RowChange[] | null = null;
    let dataNote: string | undefined;
    if (!base.data) dataNote = `${base.label} has no data snapshot (data/${experiment}.json): accept one with \`stopwatches snapshot\``;
    else if (!cur.data?.has(experiment)) dataNote = `${cur.label} has no data/${experiment}.json`;
    else if (!base.data.has(experiment)) dataNote = `${base.label} has no data/${experiment}.json`;
    else data = compareData(base.data.get(experiment), cur.data.get(experiment));
    out.push({
      key,
      experiment,
      kind,
      svgChanged: verdict.svg,
      pngChanged: verdict.png,
      renderOnly: verdict.renderOnly,
      oldSize: oldImg ? [oldImg.width, oldImg.height] : null,
      newSize: newImg ? [newImg.width, newImg.height] : null,
      pixels: diff ? diff.pixels : null,
      canvas: diff ? diff.canvas : null,
      ...(diff ? { diffPng: diff.png } : {}),
      data,
      ...(dataNote ? { dataNote } : {}),
    });
  }
  return out;
}
