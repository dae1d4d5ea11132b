/**
 * `npm run diff [BASE]`: what a change did to the paper. Compares the current
 * build (src/generated/, after `stopwatches run`) with a baseline: the committed
 * snapshots (test/snapshots/, the default), a git revision's snapshots (read
 * with `git show REV:test/snapshots/…`, nothing checked out), or a folder laid
 * out like test/snapshots/.
 *
 * Writes a static, self-contained report to dist/diff/index.html (relative
 * links only, works from file://): every number that changed (old → new,
 * absolute and relative change, whether it left or entered the published
 * value's neighbourhood), numbers added and removed, and for every changed
 * figure the old and new PNG side by side with a pixelmatch difference image
 * and the changed rows of its experiment's data. Prints a short summary.
 *
 * Exit status 0 whether or not anything changed (it is a report); 2 with one
 * line naming the file and the fix when the baseline or the build is missing
 * or corrupt.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import pngjs from 'pngjs';
import { UserError } from '../errors.ts';
import { PUBLISHED, type Published } from '../site/published.ts';
import { FAR_OFF, toUnit } from '../site/reproduction.ts';
import { canonicalJson } from './hash.ts';
import type { NumbersFile } from './types.ts';

const { PNG } = pngjs;

type Entry = NumbersFile[string];

/** What a side of the comparison holds: numbers, figure files by name (`<exp>.<fig>.svg|png`), data by experiment. */
export interface Side {
  /** Shown in the report and the summary: `test/snapshots`, `git 946dc93 (HEAD~1)`, `src/generated`. */
  label: string;
  numbers: NumbersFile;
  figures: Map<string, Buffer>;
  /** Combined data by experiment id; null when this side has no data snapshot (older baselines). */
  data: Map<string, unknown> | null;
  /** Where a file of this side is, for error messages: `test/snapshots/figures/x.png`, `HEAD~1:test/snapshots/…`. */
  where(path: string): string;
}

// ---------------------------------------------------------------- loading

const FIGURE_FILE = /^(.+)\.(svg|png)$/;
const isFigureFile = (f: string) => FIGURE_FILE.test(f) && !/-changed\.(svg|png)$/.test(f);

function parseNumbers(text: string, where: string, fix: string): NumbersFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`diff: ${where} is not valid JSON (${(err as Error).message}); ${fix}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserError(`diff: ${where} is not a numbers file (an object of id → number); ${fix}`);
  for (const [id, v] of Object.entries(parsed as Record<string, unknown>)) {
    const e = v as Partial<Entry> | null;
    if (!e || typeof e !== 'object' || typeof e.value !== 'number' || typeof e.unit !== 'string') {
      throw new UserError(`diff: ${where}: "${id}" is not a number entry ({value, unit, n, interval}); ${fix}`);
    }
  }
  return parsed as NumbersFile;
}

function parseData(text: string, where: string, fix: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`diff: ${where} is not valid JSON (${(err as Error).message}); ${fix}`);
  }
}

/** A folder laid out like test/snapshots/ or src/generated/: numbers.json, figures/, data/ (optional). */
export function loadDir(dir: string, label: string, fix: string): Side {
  const where = (p: string) => join(label, p);
  const numbersPath = join(dir, 'numbers.json');
  if (!existsSync(numbersPath)) throw new UserError(`diff: ${where('numbers.json')} does not exist; ${fix}`);
  const numbers = parseNumbers(readFileSync(numbersPath, 'utf8'), where('numbers.json'), fix);
  const figures = new Map<string, Buffer>();
  const figDir = join(dir, 'figures');
  if (existsSync(figDir)) for (const f of readdirSync(figDir).filter(isFigureFile).sort()) figures.set(f, readFileSync(join(figDir, f)));
  let data: Map<string, unknown> | null = null;
  const dataDir = join(dir, 'data');
  if (existsSync(dataDir)) {
    data = new Map();
    for (const f of readdirSync(dataDir).filter((x) => x.endsWith('.json')).sort()) {
      data.set(f.slice(0, -5), parseData(readFileSync(join(dataDir, f), 'utf8'), where(`data/${f}`), fix));
    }
  }
  return { label, numbers, figures, data, where };
}

function git(root: string, args: string[]): Buffer {
  return execFileSync('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** test/snapshots/ as committed at `rev`: read with `git show`, no checkout. */
export function loadGitRevision(root: string, rev: string, snapshotPath = 'test/snapshots'): Side {
  let commit: string;
  try {
    commit = git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).toString().trim();
  } catch {
    throw new UserError(`diff: ${rev} is neither a folder nor a git revision of this repository; give a commit, branch or tag (e.g. HEAD~1, main), or no argument for the committed snapshots`);
  }
  const short = commit.slice(0, 7);
  const label = short === rev || commit === rev ? `git ${short}` : `git ${short} (${rev})`;
  const where = (p: string) => `${rev}:${snapshotPath}/${p}`;
  const fix = `pick a revision whose ${snapshotPath}/ was accepted with \`npm run snapshot\``;
  let files: string[];
  try {
    files = git(root, ['ls-tree', '-r', '--name-only', commit, '--', `${snapshotPath}/`])
      .toString()
      .split('\n')
      .filter(Boolean);
  } catch (err) {
    throw new UserError(`diff: could not list ${where('')} (${(err as Error).message.split('\n')[0]}); ${fix}`);
  }
  // ls-tree prints paths relative to the current folder, which is the project root.
  const rel = (f: string) => f.slice(snapshotPath.length + 1);
  const show = (p: string) => git(root, ['show', `${commit}:./${snapshotPath}/${p}`]);
  if (!files.some((f) => rel(f) === 'numbers.json')) throw new UserError(`diff: ${where('numbers.json')} does not exist; ${fix}`);
  const numbers = parseNumbers(show('numbers.json').toString('utf8'), where('numbers.json'), fix);
  const figures = new Map<string, Buffer>();
  let data: Map<string, unknown> | null = null;
  for (const f of files.map(rel).sort()) {
    const m = /^figures\/([^/]+)$/.exec(f);
    if (m && isFigureFile(m[1]!)) figures.set(m[1]!, show(f));
    const d = /^data\/([^/]+)\.json$/.exec(f);
    if (d) (data ??= new Map()).set(d[1]!, parseData(show(f).toString('utf8'), where(f), fix));
  }
  return { label, numbers, figures, data, where };
}

// ---------------------------------------------------------------- numbers

/** Where a value stands against the published one: inside = within FAR_OFF (10%) of it, in the published unit. */
export type Neighbourhood = 'left' | 'entered' | 'inside' | 'outside';

export interface NumberRow {
  id: string;
  kind: 'changed' | 'added' | 'removed';
  old?: Entry;
  new?: Entry;
  /** new − old (changed only). */
  abs: number | null;
  /** (new − old) / |old|; ±Infinity from 0; null when not a change of value. */
  rel: number | null;
  /** Only the interval, n or another field changed, not the value. */
  valueSame: boolean;
  published: Published | null;
  /** Against the published value, when there is one (changed: the move; added/removed: where it stands). */
  neighbourhood: Neighbourhood | null;
}

const publishedById = new Map<string, Published>();
for (const p of PUBLISHED) if (!publishedById.has(p.id)) publishedById.set(p.id, p);

/** Within FAR_OFF of the published value (in its unit); null when incomparable. */
export function nearPublished(e: Entry, p: Published): boolean | null {
  const v = toUnit(e.value, e.unit, p.unit);
  if (v === null) return null;
  if (p.published === 0) return v === 0;
  return Math.abs(v - p.published) / Math.abs(p.published) <= FAR_OFF;
}

export function relativeChange(a: number, b: number): number {
  if (a === b) return 0;
  return a !== 0 ? (b - a) / Math.abs(a) : Math.sign(b - a) * Infinity;
}

export function compareNumbers(base: NumbersFile, cur: NumbersFile, published: Map<string, Published> = publishedById): NumberRow[] {
  const ids = [...new Set([...Object.keys(base), ...Object.keys(cur)])].sort();
  const rows: NumberRow[] = [];
  for (const id of ids) {
    const a = Object.hasOwn(base, id) ? base[id] : undefined;
    const b = Object.hasOwn(cur, id) ? cur[id] : undefined;
    if (a && b && canonicalJson(a) === canonicalJson(b)) continue;
    const p = published.get(id) ?? null;
    const near = (e: Entry | undefined) => (e && p ? nearPublished(e, p) : null);
    const na = near(a);
    const nb = near(b);
    let neighbourhood: Neighbourhood | null = null;
    if (a && b && na !== null && nb !== null) neighbourhood = na && !nb ? 'left' : !na && nb ? 'entered' : na ? 'inside' : 'outside';
    else if (!a && nb !== null) neighbourhood = nb ? 'inside' : 'outside';
    else if (!b && na !== null) neighbourhood = na ? 'inside' : 'outside';
    const kind = a && b ? 'changed' : a ? 'removed' : 'added';
    rows.push({
      id,
      kind,
      ...(a ? { old: a } : {}),
      ...(b ? { new: b } : {}),
      abs: a && b ? b.value - a.value : null,
      rel: a && b ? relativeChange(a.value, b.value) : null,
      valueSame: !!(a && b && a.value === b.value),
      published: p,
      neighbourhood,
    });
  }
  return rows;
}

/** Largest relative change first; ties (and value-same rows) by id. */
export function byRelativeSize(a: NumberRow, b: NumberRow): number {
  const x = a.rel === null ? -1 : Math.abs(a.rel);
  const y = b.rel === null ? -1 : Math.abs(b.rel);
  if (x !== y) return y > x ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// ---------------------------------------------------------------- data rows

/**
 * Flattens combined data into rows: an object whose fields are all scalars (or
 * short scalar arrays such as an interval) is one row at its path
 * (`rows[3]`); a scalar in an array is a row of its own (`fixed[12]`); deeper
 * structure is walked. Paths are stable for the same shape, so rows pair by path.
 */
export function dataRows(data: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const isScalar = (v: unknown) => v === null || typeof v !== 'object';
  const isLeafish = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.length <= 4 && v.every(isScalar));
  const walk = (v: unknown, p: string) => {
    if (isScalar(v)) {
      out.set(p || '(value)', v);
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${p}[${i}]`));
      if (v.length === 0) out.set(p || '(value)', v);
      return;
    }
    const obj = v as Record<string, unknown>;
    const leaf: Record<string, unknown> = {};
    const nested: string[] = [];
    for (const k of Object.keys(obj)) (isLeafish(obj[k]) ? (leaf[k] = obj[k]) : nested.push(k));
    if (Object.keys(leaf).length || nested.length === 0) out.set(p || '(top)', leaf);
    for (const k of nested) walk(obj[k], p ? `${p}.${k}` : k);
  };
  walk(data, path);
  return out;
}

export interface RowChange {
  path: string;
  kind: 'changed' | 'added' | 'removed';
  old?: unknown;
  new?: unknown;
  /** Fields that differ, for object rows. */
  fields?: string[];
}

export function compareData(base: unknown, cur: unknown): RowChange[] {
  const a = dataRows(base);
  const b = dataRows(cur);
  const out: RowChange[] = [];
  const paths = [...a.keys()];
  for (const p of b.keys()) if (!a.has(p)) paths.push(p);
  for (const p of paths) {
    const inA = a.has(p);
    const inB = b.has(p);
    const x = a.get(p);
    const y = b.get(p);
    if (inA && inB) {
      if (JSON.stringify(x) === JSON.stringify(y)) continue;
      const isObj = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
      const fields = isObj(x) && isObj(y)
        ? [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])].filter(
            (k) => JSON.stringify((x as Record<string, unknown>)[k]) !== JSON.stringify((y as Record<string, unknown>)[k]),
          )
        : undefined;
      out.push({ path: p, kind: 'changed', old: x, new: y, ...(fields ? { fields } : {}) });
    } else if (inA) out.push({ path: p, kind: 'removed', old: x });
    else out.push({ path: p, kind: 'added', new: y });
  }
  return out;
}

// ---------------------------------------------------------------- figures

export interface FigureDiff {
  key: string;
  experiment: string;
  kind: 'changed' | 'added' | 'removed';
  svgChanged: boolean;
  pngChanged: boolean;
  oldSize: [number, number] | null;
  newSize: [number, number] | null;
  /** Pixels that differ (on the larger canvas when sizes differ); null without both PNGs. */
  pixels: number | null;
  /** pixelmatch's difference image; not serialized. */
  diffPng?: Buffer;
  /** Changed rows of data/<experiment>.json; null when either side has no data for it. */
  data: RowChange[] | null;
  /** Why `data` is null. */
  dataNote?: string;
}

function decodePng(buf: Buffer, where: string, fix: string): InstanceType<typeof PNG> {
  try {
    return PNG.sync.read(buf);
  } catch (err) {
    throw new UserError(`diff: ${where} is not a readable PNG (${(err as Error).message}); ${fix}`);
  }
}

/** Copies an image onto a white canvas of the given size. */
function onCanvas(img: InstanceType<typeof PNG>, w: number, h: number): Uint8Array {
  if (img.width === w && img.height === h) return img.data;
  const out = new Uint8Array(w * h * 4).fill(255);
  for (let y = 0; y < img.height; y++) out.set(img.data.subarray(y * img.width * 4, (y + 1) * img.width * 4), y * w * 4);
  return out;
}

export function pixelDiff(a: InstanceType<typeof PNG>, b: InstanceType<typeof PNG>): { pixels: number; png: Buffer } {
  const w = Math.max(a.width, b.width);
  const h = Math.max(a.height, b.height);
  const out = new PNG({ width: w, height: h });
  // threshold 0 and includeAA: every pixel that differs at all counts.
  const pixels = pixelmatch(onCanvas(a, w, h), onCanvas(b, w, h), out.data, w, h, { threshold: 0, includeAA: true, alpha: 0.15 });
  return { pixels, png: PNG.sync.write(out) };
}

const experimentOf = (key: string) => key.split('.')[0]!;

export function compareFigures(base: Side, cur: Side): FigureDiff[] {
  const keys = new Set<string>();
  for (const f of [...base.figures.keys(), ...cur.figures.keys()]) keys.add(FIGURE_FILE.exec(f)![1]!);
  const out: FigureDiff[] = [];
  const fixBase = 'fix or re-accept the baseline (`npm run snapshot`, or `git checkout -- test/snapshots`)';
  const fixCur = 'rebuild (`npm run build`, or `node bin/stopwatches.mjs run --force`)';
  for (const key of [...keys].sort()) {
    const get = (s: Side, ext: string) => s.figures.get(`${key}.${ext}`);
    const [os, ns, op, np] = [get(base, 'svg'), get(cur, 'svg'), get(base, 'png'), get(cur, 'png')];
    const svgChanged = !(os && ns ? os.equals(ns) : !os && !ns);
    const pngChanged = !(op && np ? op.equals(np) : !op && !np);
    if (!svgChanged && !pngChanged) continue;
    const inBase = !!(os || op);
    const inCur = !!(ns || np);
    const kind = inBase && inCur ? 'changed' : inBase ? 'removed' : 'added';
    const oldImg = op ? decodePng(op, base.where(`figures/${key}.png`), fixBase) : null;
    const newImg = np ? decodePng(np, cur.where(`figures/${key}.png`), fixCur) : null;
    const diff = oldImg && newImg ? pixelDiff(oldImg, newImg) : null;
    const experiment = experimentOf(key);
    let data: RowChange[] | null = null;
    let dataNote: string | undefined;
    if (!base.data) dataNote = `${base.label} has no data snapshot (data/${experiment}.json): accept one with \`npm run snapshot\``;
    else if (!cur.data?.has(experiment)) dataNote = `${cur.label} has no data/${experiment}.json`;
    else if (!base.data.has(experiment)) dataNote = `${base.label} has no data/${experiment}.json`;
    else data = compareData(base.data.get(experiment), cur.data.get(experiment));
    out.push({
      key,
      experiment,
      kind,
      svgChanged,
      pngChanged,
      oldSize: oldImg ? [oldImg.width, oldImg.height] : null,
      newSize: newImg ? [newImg.width, newImg.height] : null,
      pixels: diff ? diff.pixels : null,
      ...(diff ? { diffPng: diff.png } : {}),
      data,
      ...(dataNote ? { dataNote } : {}),
    });
  }
  return out;
}

// ---------------------------------------------------------------- the whole diff

export interface DiffResult {
  base: string;
  current: string;
  numbers: NumberRow[];
  figures: FigureDiff[];
  /** Figures present on both sides and identical. */
  sameFigures: number;
  /** Experiments whose data changed though none of their figures did (data-only changes). */
  dataOnly: { experiment: string; rows: number }[];
  totalNumbers: number;
}

export function computeDiff(base: Side, cur: Side, published?: Map<string, Published>): DiffResult {
  const numbers = compareNumbers(base.numbers, cur.numbers, published);
  const figures = compareFigures(base, cur);
  const allKeys = new Set([...cur.figures.keys()].map((f) => FIGURE_FILE.exec(f)![1]!));
  const dataOnly: DiffResult['dataOnly'] = [];
  if (base.data && cur.data) {
    const withFigure = new Set(figures.map((f) => f.experiment));
    for (const [exp, d] of cur.data) {
      if (withFigure.has(exp) || !base.data.has(exp)) continue;
      const rows = compareData(base.data.get(exp), d).length;
      if (rows) dataOnly.push({ experiment: exp, rows });
    }
  }
  return {
    base: base.label,
    current: cur.label,
    numbers,
    figures,
    sameFigures: [...allKeys].filter((k) => !figures.some((f) => f.key === k)).length,
    dataOnly,
    totalNumbers: Object.keys(cur.numbers).length,
  };
}

export const hasChanges = (r: DiffResult) => r.numbers.length > 0 || r.figures.length > 0;

// ---------------------------------------------------------------- formatting

/** Six significant digits, no trailing zeros, no exponent for everyday magnitudes. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e12) return String(Number(v.toPrecision(6)));
  return v.toPrecision(6).replace(/\.?0+e/, 'e');
}

export function fmtRel(rel: number | null): string {
  if (rel === null) return '';
  if (rel === 0) return '0%';
  if (!Number.isFinite(rel)) return rel > 0 ? '+∞ (from 0)' : '−∞ (from 0)';
  const pct = rel * 100;
  const s = Math.abs(pct) >= 100 ? pct.toFixed(0) : Math.abs(pct) >= 1 ? pct.toFixed(1) : Math.abs(pct) >= 0.01 ? pct.toFixed(2) : pct.toPrecision(2);
  return `${pct > 0 ? '+' : ''}${s}%`;
}

const showEntry = (e: Entry) => `${fmt(e.value)}${e.unit ? ` ${e.unit}` : ''}`;
const showInterval = (e: Entry) => (e.interval ? `[${fmt(e.interval[0])}, ${fmt(e.interval[1])}]` : '');
/** The spread over seeds: `20 seeds 38.1–58.9 (q 39.0–52.4), modes 13|7`. */
const showSpread = (e: Entry) =>
  e.spread ? `${e.seeds} seeds ${fmt(e.spread.min)}–${fmt(e.spread.max)} (q ${fmt(e.spread.q1)}–${fmt(e.spread.q3)})${e.spread.modes ? `, modes ${e.spread.modes.map((m) => m.seeds).join('|')}` : ''}` : '';
/** What moved besides the value, in words. */
function otherChanges(a: Entry, b: Entry): string {
  const parts: string[] = [];
  if (a.interval?.join() !== b.interval?.join()) parts.push(`interval ${showInterval(a) || 'none'} → ${showInterval(b) || 'none'}`);
  if (JSON.stringify(a.spread ?? null) !== JSON.stringify(b.spread ?? null) || a.seeds !== b.seeds) parts.push(`spread over seeds ${showSpread(a) || 'none'} → ${showSpread(b) || 'none'}`);
  if (a.n !== b.n) parts.push(`n ${a.n} → ${b.n}`);
  return parts.join('; ') || 'another field';
}

function neighbourhoodText(r: NumberRow): string {
  if (!r.published || !r.neighbourhood) return '';
  const p = `published ${fmt(r.published.published)}${r.published.unit ? ` ${r.published.unit}` : ''}`;
  switch (r.neighbourhood) {
    case 'left':
      return `LEFT ±${FAR_OFF * 100}% of ${p}`;
    case 'entered':
      return `entered ±${FAR_OFF * 100}% of ${p}`;
    case 'inside':
      return `within ±${FAR_OFF * 100}% of ${p}`;
    case 'outside':
      return `outside ±${FAR_OFF * 100}% of ${p}`;
  }
}

/** One terminal line per number row. */
export function numberLine(r: NumberRow): string {
  const hood = neighbourhoodText(r);
  const tail = hood && (r.neighbourhood === 'left' || r.neighbourhood === 'entered') ? `  [${hood}]` : '';
  if (r.kind === 'added') return `${r.id}: (new) ${showEntry(r.new!)}${tail}`;
  if (r.kind === 'removed') return `${r.id}: ${showEntry(r.old!)} → (gone)`;
  if (r.valueSame) {
    return `${r.id}: ${showEntry(r.new!)} unchanged; ${otherChanges(r.old!, r.new!)}`;
  }
  const unit = r.old!.unit !== r.new!.unit ? ` (unit ${r.old!.unit} → ${r.new!.unit})` : '';
  return `${r.id}: ${showEntry(r.old!)} → ${showEntry(r.new!)} (${fmtRel(r.rel)})${unit}${tail}`;
}

export function summaryLines(r: DiffResult, reportPath: string | null, opts: { all?: boolean; top?: number } = {}): string[] {
  const changed = r.numbers.filter((n) => n.kind === 'changed');
  const added = r.numbers.filter((n) => n.kind === 'added');
  const removed = r.numbers.filter((n) => n.kind === 'removed');
  const figs = (k: FigureDiff['kind']) => r.figures.filter((f) => f.kind === k).length;
  const lines: string[] = [];
  if (!hasChanges(r)) {
    lines.push(`diff: no number or figure changed against ${r.base} (${r.totalNumbers} numbers, ${r.sameFigures} figures)`);
  } else {
    lines.push(
      `diff against ${r.base}: numbers ${changed.length} changed, ${added.length} new, ${removed.length} removed (of ${r.totalNumbers}); ` +
        `figures ${figs('changed')} changed, ${figs('added')} new, ${figs('removed')} removed`,
    );
    const hood = r.numbers.filter((n) => n.neighbourhood === 'left' || n.neighbourhood === 'entered');
    if (hood.length) {
      lines.push(`  published neighbourhood (±${FAR_OFF * 100}%): ${hood.filter((n) => n.neighbourhood === 'left').length} left, ${hood.filter((n) => n.neighbourhood === 'entered').length} entered`);
    }
    const sorted = [...r.numbers].sort(byRelativeSize);
    const top = opts.all ? sorted : sorted.slice(0, opts.top ?? 8);
    if (top.length) lines.push(opts.all ? '  every number that changed, largest first:' : '  largest changes:');
    for (const n of top) lines.push(`    ${numberLine(n)}`);
    if (!opts.all && sorted.length > top.length) lines.push(`    … ${sorted.length - top.length} more in the report`);
    for (const f of r.figures) {
      const px = f.pixels !== null && f.newSize ? `, ${f.pixels} px differ (${fmtRel(f.pixels / (Math.max(f.newSize[0], f.oldSize![0]) * Math.max(f.newSize[1], f.oldSize![1])))} of the image)` : '';
      const size = f.oldSize && f.newSize && (f.oldSize[0] !== f.newSize[0] || f.oldSize[1] !== f.newSize[1]) ? `, size ${f.oldSize.join('×')} → ${f.newSize.join('×')}` : '';
      const rows = f.data ? `, ${f.data.length} data row${f.data.length === 1 ? '' : 's'} changed` : '';
      lines.push(`  figure ${f.key}: ${f.kind}${px.replace(/\+/, '')}${size}${rows}`);
    }
  }
  if (r.dataOnly.length) lines.push(`  data changed without a figure change: ${r.dataOnly.map((d) => `${d.experiment} (${d.rows} rows)`).join(', ')}`);
  if (reportPath) lines.push(`  report: ${reportPath}`);
  return lines;
}

// ---------------------------------------------------------------- the HTML report

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const safeName = (key: string) => key.replace(/[^A-Za-z0-9._-]/g, '_');
const short = (v: unknown) => {
  const s = typeof v === 'number' ? fmt(v) : JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
};
const MAX_ROWS = 200;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem auto;max-width:1400px;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1rem;margin-top:1.5rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}th,td{border:1px solid #ddd;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}code{font-size:12px}
.up{color:#a40000}.down{color:#0047a4}.left{background:#ffe3e3;font-weight:600}.entered{background:#e0f5e0;font-weight:600}.muted{color:#777}
.imgs{display:grid;grid-template-columns:repeat(3,1fr);gap:.75rem}.imgs figure{margin:0}.imgs img{width:100%;border:1px solid #ccc;background:#fff}
figcaption{font-size:12px;color:#555}.note{background:#fff6d6;padding:.3rem .6rem;border-left:3px solid #e0b000}
nav a{margin-right:.8rem}
`;

function numbersTable(rows: NumberRow[]): string {
  const body = rows
    .map((r) => {
      const cls = r.rel === null || r.rel === 0 ? '' : r.rel > 0 ? 'up' : 'down';
      const hood = neighbourhoodText(r);
      const hoodCls = r.neighbourhood === 'left' ? 'left' : r.neighbourhood === 'entered' ? 'entered' : 'muted';
      const note = r.valueSame ? `<span class="muted">value unchanged; ${esc(otherChanges(r.old!, r.new!))}</span>` : '';
      const detail = (e: Entry) => [showInterval(e), showSpread(e)].filter(Boolean).map(esc).join('<br>');
      return `<tr><td><code>${esc(r.id)}</code></td><td class="n">${esc(showEntry(r.old!))}<br><span class="muted">${detail(r.old!)}</span></td><td class="n">${esc(showEntry(r.new!))}<br><span class="muted">${detail(r.new!)}</span></td><td class="n ${cls}">${r.abs === null ? '' : esc(`${r.abs > 0 ? '+' : ''}${fmt(r.abs)}`)}</td><td class="n ${cls}">${esc(fmtRel(r.rel))}</td><td class="${hood ? hoodCls : ''}">${esc(hood)}${hood && note ? '<br>' : ''}${note}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>number</th><th>old</th><th>new</th><th>absolute</th><th>relative</th><th>published value (±${FAR_OFF * 100}%)</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function singleTable(rows: NumberRow[], side: 'old' | 'new'): string {
  const body = rows
    .map((r) => `<tr><td><code>${esc(r.id)}</code></td><td class="n">${esc(showEntry(r[side]!))} <span class="muted">${esc(showInterval(r[side]!))}</span></td><td class="muted">${esc(neighbourhoodText(r))}</td></tr>`)
    .join('\n');
  return `<table><thead><tr><th>number</th><th>value</th><th>published value</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function dataTable(rows: RowChange[]): string {
  const shown = rows.slice(0, MAX_ROWS);
  const cell = (c: RowChange) => {
    if (c.kind !== 'changed') return `<td class="muted">${esc(short(c.kind === 'added' ? c.new : c.old))}</td>`;
    if (c.fields) {
      const o = c.old as Record<string, unknown>;
      const n = c.new as Record<string, unknown>;
      const parts = c.fields.map((k) => {
        const rel = typeof o[k] === 'number' && typeof n[k] === 'number' ? ` (${fmtRel(relativeChange(o[k] as number, n[k] as number))})` : '';
        return `<b>${esc(k)}</b>: ${esc(k in o ? short(o[k]) : '—')} → ${esc(k in n ? short(n[k]) : '—')}${esc(rel)}`;
      });
      const same = Object.keys(n).filter((k) => !c.fields!.includes(k) && typeof n[k] !== 'object').slice(0, 6).map((k) => `${k}: ${short(n[k])}`);
      return `<td>${parts.join('<br>')}${same.length ? `<br><span class="muted">${esc(same.join(', '))}</span>` : ''}</td>`;
    }
    const rel = typeof c.old === 'number' && typeof c.new === 'number' ? ` (${fmtRel(relativeChange(c.old, c.new))})` : '';
    return `<td>${esc(short(c.old))} → ${esc(short(c.new))}${esc(rel)}</td>`;
  };
  const body = shown.map((c) => `<tr><td><code>${esc(c.path)}</code></td><td>${c.kind}</td>${cell(c)}</tr>`).join('\n');
  const more = rows.length > shown.length ? `<p class="muted">… ${rows.length - shown.length} more changed rows not shown.</p>` : '';
  return `<table><thead><tr><th>row</th><th></th><th>change</th></tr></thead><tbody>\n${body}\n</tbody></table>${more}`;
}

export function renderHtml(r: DiffResult, files: Map<string, Record<string, string>>): string {
  const changed = r.numbers.filter((n) => n.kind === 'changed').sort(byRelativeSize);
  const added = r.numbers.filter((n) => n.kind === 'added');
  const removed = r.numbers.filter((n) => n.kind === 'removed');
  const parts: string[] = [];
  parts.push(`<h1>What this change does to the paper</h1>`);
  parts.push(`<p>Baseline: <b>${esc(r.base)}</b>. Current: <b>${esc(r.current)}</b>. ` +
    `Numbers: ${changed.length} changed, ${added.length} new, ${removed.length} removed (of ${r.totalNumbers}). ` +
    `Figures: ${r.figures.filter((f) => f.kind === 'changed').length} changed, ${r.figures.filter((f) => f.kind === 'added').length} new, ${r.figures.filter((f) => f.kind === 'removed').length} removed, ${r.sameFigures} unchanged.</p>`);
  parts.push(`<p class="muted">A number is in the published value's neighbourhood when it is within ±${FAR_OFF * 100}% of the value the article published (src/site/published.ts), compared in the published unit — the reproduction page's "far off" line. A change that crosses it is marked <span class="left">left</span> or <span class="entered">entered</span>. Accept this build as the new baseline with <code>npm run snapshot</code>, and give the reason for every changed number in the commit message.</p>`);
  parts.push(`<nav><a href="#numbers">numbers</a><a href="#added">new</a><a href="#removed">removed</a><a href="#figures">figures</a></nav>`);
  if (!hasChanges(r)) parts.push(`<p class="note">No number or figure changed.</p>`);
  parts.push(`<h2 id="numbers">Numbers that changed (${changed.length}), largest relative change first</h2>`);
  parts.push(changed.length ? numbersTable(changed) : '<p class="muted">none</p>');
  parts.push(`<h2 id="added">New numbers (${added.length})</h2>`);
  parts.push(added.length ? singleTable(added, 'new') : '<p class="muted">none</p>');
  parts.push(`<h2 id="removed">Removed numbers (${removed.length})</h2>`);
  parts.push(removed.length ? singleTable(removed, 'old') : '<p class="muted">none</p>');
  parts.push(`<h2 id="figures">Figures (${r.figures.length} changed, new or removed)</h2>`);
  if (!r.figures.length) parts.push('<p class="muted">none</p>');
  for (const f of r.figures) {
    const fl = files.get(f.key) ?? {};
    const what = [f.svgChanged ? 'SVG' : '', f.pngChanged ? 'PNG' : ''].filter(Boolean).join(' and ');
    parts.push(`<h3 id="fig-${esc(safeName(f.key))}">${esc(f.key)} — ${f.kind}${f.kind === 'changed' ? ` (${what} differ)` : ''}</h3>`);
    if (f.oldSize && f.newSize && (f.oldSize[0] !== f.newSize[0] || f.oldSize[1] !== f.newSize[1])) {
      parts.push(`<p class="note">The PNG sizes differ: ${f.oldSize.join('×')} → ${f.newSize.join('×')} px; the difference is drawn on a ${Math.max(f.oldSize[0], f.newSize[0])}×${Math.max(f.oldSize[1], f.newSize[1])} white canvas, both images at the top left.</p>`);
    }
    if (f.pixels !== null) {
      const total = Math.max(f.oldSize![0], f.newSize![0]) * Math.max(f.oldSize![1], f.newSize![1]);
      parts.push(`<p>${f.pixels} of ${total} pixels differ (${esc(fmtRel(f.pixels / total).replace('+', ''))}).${f.pixels === 0 ? ' The PNGs are pixel-identical; only the file bytes or the SVG differ.' : ''}</p>`);
    }
    const fig = (label: string, png?: string, svg?: string) =>
      `<figure>${png ? `<a href="${esc(png)}"><img src="${esc(png)}" alt="${esc(label)}"></a>` : '<p class="muted">(no PNG)</p>'}<figcaption>${esc(label)}${svg ? ` · <a href="${esc(svg)}">SVG</a>` : ''}</figcaption></figure>`;
    parts.push(`<div class="imgs">${fig(`old (${r.base})`, fl.oldPng, fl.oldSvg)}${fig(`new (${r.current})`, fl.newPng, fl.newSvg)}${fl.diffPng ? fig('difference (red: pixels that differ)', fl.diffPng) : '<figure></figure>'}</div>`);
    if (f.data) {
      parts.push(`<p>Changed rows of <code>data/${esc(f.experiment)}.json</code> (the data this experiment's figures draw from): ${f.data.length}.</p>`);
      if (f.data.length) parts.push(dataTable(f.data));
    } else if (f.dataNote) parts.push(`<p class="note">${esc(f.dataNote)}</p>`);
  }
  if (r.dataOnly.length) {
    parts.push(`<h2>Data changed without a figure change</h2><ul>${r.dataOnly.map((d) => `<li><code>data/${esc(d.experiment)}.json</code>: ${d.rows} rows</li>`).join('')}</ul>`);
  }
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Diff: ${esc(r.current)} against ${esc(r.base)}</title><style>${CSS}</style></head><body>\n${parts.join('\n')}\n</body></html>\n`;
}

/** Writes dist/diff/ afresh: index.html, diff.json, numbers.txt and figures/ (old, new, difference). */
export function writeReport(r: DiffResult, base: Side, cur: Side, outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'figures'), { recursive: true });
  const files = new Map<string, Record<string, string>>();
  for (const f of r.figures) {
    const n = safeName(f.key);
    const fl: Record<string, string> = {};
    const put = (name: string, buf: Buffer | undefined, slot: string) => {
      if (!buf) return;
      writeFileSync(join(outDir, 'figures', name), buf);
      fl[slot] = `figures/${name}`;
    };
    put(`${n}.old.png`, base.figures.get(`${f.key}.png`), 'oldPng');
    put(`${n}.new.png`, cur.figures.get(`${f.key}.png`), 'newPng');
    put(`${n}.old.svg`, base.figures.get(`${f.key}.svg`), 'oldSvg');
    put(`${n}.new.svg`, cur.figures.get(`${f.key}.svg`), 'newSvg');
    put(`${n}.diff.png`, f.diffPng, 'diffPng');
    files.set(f.key, fl);
  }
  const index = join(outDir, 'index.html');
  writeFileSync(index, renderHtml(r, files));
  const json = { ...r, figures: r.figures.map(({ diffPng: _d, ...f }) => f) };
  writeFileSync(join(outDir, 'diff.json'), `${JSON.stringify(json, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2)}\n`);
  writeFileSync(join(outDir, 'numbers.txt'), `${[...r.numbers].sort(byRelativeSize).map(numberLine).join('\n')}${r.numbers.length ? '\n' : ''}`);
  return index;
}

// ---------------------------------------------------------------- entry point

export interface RunDiffOptions {
  root: string;
  /** Folder or git revision; default the committed snapshots (<root>/test/snapshots). */
  base?: string;
  generatedDir?: string;
  snapshotDir?: string;
  outDir?: string;
  all?: boolean;
  published?: Map<string, Published>;
  log?(line: string): void;
}

export function runDiff(opts: RunDiffOptions): { result: DiffResult; report: string } {
  const root = resolve(opts.root);
  const log = opts.log ?? ((l: string) => console.log(l));
  const gen = opts.generatedDir ?? join(root, 'src', 'generated');
  const snap = opts.snapshotDir ?? join(root, 'test', 'snapshots');
  const outDir = opts.outDir ?? join(root, 'dist', 'diff');
  const rel = (p: string) => {
    const r = relative(root, p).split('\\').join('/');
    return r.startsWith('../') || r === '..' ? p : r || '.';
  };

  let base: Side;
  if (opts.base === undefined) {
    base = loadDir(snap, rel(snap), 'accept a baseline with `npm run snapshot`, or restore the committed one with `git checkout -- test/snapshots`');
  } else if (existsSync(resolve(root, opts.base)) && statSync(resolve(root, opts.base)).isDirectory()) {
    const dir = resolve(root, opts.base);
    base = loadDir(dir, rel(dir), 'give a folder laid out like test/snapshots/ (numbers.json, figures/, data/)');
  } else {
    base = loadGitRevision(root, opts.base, rel(snap));
  }
  const cur = loadDir(gen, rel(gen), 'build first: `npm run build` (or `node bin/stopwatches.mjs run`)');
  const result = computeDiff(base, cur, opts.published);
  const report = writeReport(result, base, cur, outDir);
  for (const l of summaryLines(result, rel(report), { all: opts.all })) log(l);
  return { result, report };
}

export function parseArgs(argv: string[]): { base?: string; all: boolean; out?: string } {
  let base: string | undefined;
  let all = false;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--all') all = true;
    else if (a === '--out') out = argv[++i];
    else if (a === '-h' || a === '--help') throw new UserError('usage: npm run diff [-- [BASE] [--all] [--out DIR]]; BASE: a git revision or a folder like test/snapshots/ (default: the committed snapshots)', 0);
    else if (a.startsWith('-')) throw new UserError(`diff: unknown option ${a}; usage: npm run diff [BASE] [--all] [--out DIR]`);
    else if (base === undefined) base = a;
    else throw new UserError(`diff: one baseline only (got ${base} and ${a})`);
  }
  return { ...(base !== undefined ? { base } : {}), all, ...(out ? { out } : {}) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const args = parseArgs(process.argv.slice(2));
    runDiff({ root: process.cwd(), ...(args.base !== undefined ? { base: args.base } : {}), all: args.all, ...(args.out ? { outDir: resolve(args.out) } : {}) });
  } catch (err) {
    if (err instanceof UserError) {
      (err.exitCode === 0 ? process.stdout : process.stderr).write(`${err.message}\n`);
      process.exitCode = err.exitCode;
    } else throw err;
  }
}
