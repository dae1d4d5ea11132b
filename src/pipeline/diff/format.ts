/**
 * How the diff writes numbers and changes, shared by the terminal summary,
 * the Markdown and the HTML report, so the three never disagree.
 */
import { formatChange, formatShare, formatSix } from '../../format/text.ts';
import type { FigureDiff } from './figures.ts';
import { inImportanceOrder, type NumberRow } from './numbers.ts';
import { figureChanged, hasChanges, type ClaimState, type DiffResult } from './result.ts';
import type { Entry } from './sides.ts';
import { describeInput, type InputChange } from './why.ts';


/** A claim's state on one side: `fails: 12.1 ms is not below 11 ms`. */
export const claimStateText = (s: ClaimState | null) => (s ? `${s.status}: ${s.margin}` : '—');

export const showEntry = (e: Entry) => `${formatSix(e.value)}${e.unit ? ` ${e.unit}` : ''}`;
export const showInterval = (e: Entry) => (e.interval ? `[${formatSix(e.interval[0])}, ${formatSix(e.interval[1])}]` : '');

export function neighbourhoodText(r: NumberRow, farOff: number): string {
  if (!r.published || !r.neighbourhood) return '';
  const band = `±${formatSix(farOff * 100)}%`;
  const p = `published ${formatSix(r.published.value)}${r.published.unit ? ` ${r.published.unit}` : ''}`;
  switch (r.neighbourhood) {
    case 'left':
      return `LEFT ${band} of ${p}`;
    case 'entered':
      return `entered ${band} of ${p}`;
    case 'inside':
      return `within ${band} of ${p}`;
    case 'outside':
      return `outside ${band} of ${p}`;
  }
}

export const exactText = (r: NumberRow) => (r.exact === 'setting' ? 'a setting' : r.exact === 'analytic' ? 'exact (closed form)' : '');

/** The spread over seeds: `20 seeds 38.1–58.9 (q 39–52.4), modes 13|7`. */
export const showSpread = (e: Entry) =>
  e.spread ? `${e.seeds} seeds ${formatSix(e.spread.min)}–${formatSix(e.spread.max)} (q ${formatSix(e.spread.q1)}–${formatSix(e.spread.q3)})${e.spread.modes ? `, modes ${e.spread.modes.map((m) => m.seeds).join('|')}` : ''}` : '';

/** What changed when the value did not: the interval, the spread over seeds, n, or another field. */
export function sameValueText(r: NumberRow): string {
  const a = r.old!;
  const b = r.new!;
  const parts: string[] = [];
  if (a.interval?.join() !== b.interval?.join()) parts.push(`interval ${showInterval(a) || 'none'} → ${showInterval(b) || 'none'}`);
  if (JSON.stringify(a.spread ?? null) !== JSON.stringify(b.spread ?? null) || a.seeds !== b.seeds) parts.push(`spread over seeds ${showSpread(a) || 'none'} → ${showSpread(b) || 'none'}`);
  if (a.n !== b.n) parts.push(`n ${a.n} → ${b.n}`);
  return `value unchanged; ${parts.join('; ') || 'another field'}`;
}

/** One terminal line per number row. */
export function numberLine(r: NumberRow, farOff: number): string {
  const hood = neighbourhoodText(r, farOff);
  const flags = [hood && (r.neighbourhood === 'left' || r.neighbourhood === 'entered') ? hood : '', r.exact && !r.valueSame && r.kind === 'changed' ? `${exactText(r)} changed` : ''].filter(Boolean);
  const tail = flags.length ? `  [${flags.join('; ')}]` : '';
  if (r.kind === 'added') return `${r.id}: (new) ${showEntry(r.new!)}${tail}`;
  if (r.kind === 'removed') return `${r.id}: ${showEntry(r.old!)} → (gone)`;
  if (r.valueSame) return `${r.id}: ${showEntry(r.new!)} ${sameValueText(r).replace('value unchanged; ', 'unchanged; ')}`;
  const unit = r.old!.unit !== r.new!.unit ? ` (unit ${r.old!.unit} → ${r.new!.unit})` : '';
  return `${r.id}: ${showEntry(r.old!)} → ${showEntry(r.new!)} (${formatChange(r.rel)})${unit}${tail}`;
}

export function figureLine(f: FigureDiff): string {
  const px = f.pixels !== null && f.canvas ? `, ${f.pixels} px differ (${formatShare(f.pixels / f.canvas)} of the image)` : '';
  const size = f.oldSize && f.newSize && (f.oldSize[0] !== f.newSize[0] || f.oldSize[1] !== f.newSize[1]) ? `, size ${f.oldSize.join('×')} → ${f.newSize.join('×')}` : '';
  const rows = f.data ? `, ${f.data.length} data row${f.data.length === 1 ? '' : 's'} changed` : '';
  return `${f.key}: ${f.renderOnly ? 'renders differently (SVG identical)' : f.kind}${px}${size}${rows}`;
}

/** `first-wave: src/sim/constants.ts changed (stepOverheadS 0.001 → 0.0012)`, or why there is no reason. */
export function whyText(inputs: InputChange[] | null, r: Pick<DiffResult, 'baseCommit' | 'whyNote'>): string {
  if (inputs === null) return `inputs not compared: ${r.whyNote ?? 'the baseline has no commit'}`;
  const baseCommit = r.baseCommit;
  if (!inputs.length) return `no input changed since ${baseCommit?.slice(0, 7) ?? 'the baseline'}: the outputs differ on this machine (Node, fonts or platform)`;
  return inputs.map(describeInput).join('; ');
}

const counts = (r: DiffResult) => {
  const n = (k: NumberRow['kind']) => r.numbers.filter((x) => x.kind === k).length;
  const f = (k: FigureDiff['kind']) => r.figures.filter((x) => x.kind === k && figureChanged(x)).length;
  return { changed: n('changed'), added: n('added'), removed: n('removed'), figChanged: f('changed'), figAdded: f('added'), figRemoved: f('removed') };
};

/** The counts line shared by the terminal and the Markdown. */
export function countsText(r: DiffResult): string {
  const c = counts(r);
  const cited = r.numbers.filter((n) => n.citedIn.length).length;
  return `numbers ${c.changed} changed, ${c.added} new, ${c.removed} removed (of ${r.totalNumbers}; ${cited} of them cited); figures ${c.figChanged} changed, ${c.figAdded} new, ${c.figRemoved} removed`;
}

/** The terminal summary: counts, why, the largest changes (cited first), figures; `all` lists every number. */
export function summaryLines(r: DiffResult, reportPath: string | null, opts: { all?: boolean; top?: number } = {}): string[] {
  const lines: string[] = [];
  const render = r.figures.filter((f) => f.renderOnly);
  if (!hasChanges(r)) {
    lines.push(`diff: no number or figure changed against ${r.base} (${r.totalNumbers} numbers, ${r.sameFigures} figures)`);
  } else {
    lines.push(`diff against ${r.base}: ${countsText(r)}`);
    for (const c of r.claims) lines.push(`  claim ${c.id}: ${c.old ? claimStateText(c.old) : '(none)'} → ${c.new ? claimStateText(c.new) : '(gone)'}`);
    const hood = r.numbers.filter((n) => n.neighbourhood === 'left' || n.neighbourhood === 'entered');
    if (hood.length) {
      lines.push(`  published neighbourhood (±${formatSix(r.farOff * 100)}%): ${hood.filter((n) => n.neighbourhood === 'left').length} left, ${hood.filter((n) => n.neighbourhood === 'entered').length} entered`);
    }
    const exact = r.numbers.filter((n) => n.exact && n.kind === 'changed' && !n.valueSame);
    if (exact.length) lines.push(`  exact by construction and changed: ${exact.length} (${exact.slice(0, 5).map((n) => n.id).join(', ')}${exact.length > 5 ? ', …' : ''})`);
    for (const e of r.experiments) lines.push(`  ${e.id}: ${whyText(e.inputs, r)}`);
    const ordered = inImportanceOrder(r.numbers);
    const cited = ordered.filter((n) => n.citedIn.length);
    const internal = ordered.filter((n) => !n.citedIn.length);
    const section = (title: string, rows: NumberRow[]) => {
      if (!rows.length) return;
      const top = opts.all ? rows : rows.slice(0, opts.top ?? 8);
      lines.push(`  ${title} (${rows.length}):`);
      for (const n of top) lines.push(`    ${numberLine(n, r.farOff)}`);
      if (top.length < rows.length) lines.push(`    … ${rows.length - top.length} more in the report`);
    };
    section(opts.all ? 'cited numbers, every one that moved' : 'cited numbers that moved, largest first', cited);
    section(opts.all ? 'internal numbers, every one that moved' : 'internal numbers that moved, largest first', internal);
    for (const f of r.figures.filter(figureChanged)) lines.push(`  figure ${figureLine(f)}`);
  }
  if (render.length) lines.push(`  rendered differently with identical SVG (not a change): ${render.map((f) => f.key).join(', ')}`);
  if (r.dataOnly.length) lines.push(`  data changed without a figure change: ${r.dataOnly.map((d) => `${d.experiment} (${d.rows} rows)`).join(', ')}`);
  if (reportPath) lines.push(`  report: ${reportPath}`);
  return lines;
}
