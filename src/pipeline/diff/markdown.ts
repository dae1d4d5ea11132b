/**
 * The diff as Markdown for one pull-request comment or job summary: what
 * changed, why, the cited numbers that moved, the figures with their pixel
 * share, the internal numbers, and where the full report is.
 *
 * It must fit one comment (GitHub takes 65,536 characters; the limit here is
 * 60,000): when it would not, the tables are shortened, internal numbers
 * first and the reasons last, each saying how many rows were left out.
 * Pure and deterministic: the same diff gives the same bytes.
 */
import { figureChanged, hasChanges, type DiffResult } from './result.ts';
import { byImportance, crossed, type NumberRow } from './numbers.ts';
import { formatChange, formatShare, formatSix } from '../../format/text.ts';
import { countsText, exactText, neighbourhoodText, sameValueText, showEntry, whyText } from './format.ts';

/** Characters a comment may have (GitHub's limit is 65,536; the rest is headroom for the workflow's own lines). */
export const MARKDOWN_LIMIT = 60_000;

/** The name the pull-request workflow uploads the report folder under (test/diff-workflows.test.ts holds them equal). */
export const REPORT_ARTIFACT = 'paper-diff';

/** Marks the sticky comment, so the workflow updates it instead of adding another. */
export const COMMENT_MARKER = '<!-- stopwatches-diff -->';

export interface MarkdownOptions {
  /** Where the full report is (the CI run's artifact page); omitted: the local path is named. */
  reportUrl?: string;
  /** The local report file, named when there is no URL. */
  reportPath?: string;
  limit?: number;
}

type Caps = Record<'why' | 'cited' | 'figures' | 'internal' | 'other', number>;
/** Shortened in this order: internal numbers go first, the reasons last. */
const SHORTEN_ORDER: (keyof Caps)[] = ['internal', 'other', 'figures', 'cited', 'why'];
const STEPS = [200, 100, 50, 25, 10, 5, 0];

const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function leftOut(shown: number, total: number): string[] {
  return shown < total ? [`_… ${plural(total - shown, 'more row')} left out to fit one comment; the full report lists every one._`, ''] : [];
}

function flagText(r: NumberRow, farOff: number): string {
  const flags: string[] = [];
  if (crossed(r)) flags.push(`**${neighbourhoodText(r, farOff)}**`);
  if (r.exact && r.kind === 'changed' && !r.valueSame) flags.push(`**${exactText(r)} changed**`);
  if (r.valueSame) flags.push(sameValueText(r));
  return flags.join('; ');
}

function numbersTable(rows: NumberRow[], cap: number, farOff: number, withCited: boolean): string[] {
  const shown = rows.slice(0, cap);
  if (!shown.length) return leftOut(0, rows.length);
  const head = withCited ? '| number | old | new | Δ% | cited in | note |\n|---|--:|--:|--:|---|---|' : '| number | old | new | Δ% | note |\n|---|--:|--:|--:|---|';
  const line = (r: NumberRow) => {
    const cols = [code(r.id), r.old ? showEntry(r.old) : '—', r.new ? showEntry(r.new) : '—', r.kind === 'changed' ? formatChange(r.rel) : r.kind];
    if (withCited) cols.push(r.citedIn.slice(0, 2).join(', ') + (r.citedIn.length > 2 ? `, +${r.citedIn.length - 2}` : ''));
    cols.push(flagText(r, farOff));
    return `| ${cols.map(cell).join(' | ')} |`;
  };
  return [head, ...shown.map(line), '', ...leftOut(shown.length, rows.length)];
}

/** Appends one line at a time: `push(...lines)` passes every line as an argument and overflows the stack at about 100,000. */
function append(out: string[], lines: readonly string[]): void {
  for (const l of lines) out.push(l);
}

function render(r: DiffResult, opts: MarkdownOptions, caps: Caps): string {
  const out: string[] = [COMMENT_MARKER];
  const changedFigures = r.figures.filter(figureChanged);
  const report = opts.reportUrl ? `Full report: the [\`${REPORT_ARTIFACT}\` artifact](${opts.reportUrl}) of the CI run.` : opts.reportPath ? `Full report: ${code(opts.reportPath)}.` : '';
  if (!hasChanges(r)) {
    out.push('### Paper diff: nothing changed', '');
    out.push(`No number or figure changed against ${code(r.base)} (${r.totalNumbers} numbers, ${r.sameFigures} figures).${report ? ` ${report}` : ''}`, '');
  } else {
    const moved = r.numbers.filter((n) => n.kind === 'changed' && !n.valueSame).length;
    out.push(`### Paper diff: ${plural(moved, 'number')} and ${plural(changedFigures.length, 'figure')} changed`, '');
    out.push(`Against ${code(r.base)}: ${countsText(r)}.${report ? ` ${report}` : ''}`, '');
  }

  const flags: string[] = [];
  const left = r.numbers.filter((n) => n.neighbourhood === 'left');
  const entered = r.numbers.filter((n) => n.neighbourhood === 'entered');
  if (left.length) flags.push(`${plural(left.length, 'number')} LEFT the published value's neighbourhood (±${formatSix(r.farOff * 100)}%): ${left.map((n) => code(n.id)).join(', ')}`);
  if (entered.length) flags.push(`${plural(entered.length, 'number')} entered the published value's neighbourhood (±${formatSix(r.farOff * 100)}%): ${entered.map((n) => code(n.id)).join(', ')}`);
  const exact = r.numbers.filter((n) => n.exact && n.kind === 'changed' && !n.valueSame);
  if (exact.length) flags.push(`${plural(exact.length, 'number')} exact by construction (settings, closed-form values) changed: a setting, constant or formula moved, never noise`);
  const renderOnly = r.figures.filter((f) => f.renderOnly);
  if (renderOnly.length) flags.push(`${plural(renderOnly.length, 'figure')} rendered to different pixels from an identical SVG (fonts or librsvg of this machine): not counted as changed`);
  if (flags.length) append(out, [...flags.map((f) => `> ${f}  `), '']);

  if (r.claims.length) {
    out.push('#### Claims whose check changed', '', '| claim | was | now |', '|---|---|---|');
    for (const c of r.claims) out.push(`| ${cell(`${code(c.id)} ${c.claim}`)} | ${cell(c.old ?? '—')} | ${cell(c.new ?? '—')} |`);
    out.push('');
  }

  if (r.experiments.length) {
    out.push('#### Why', '');
    // Experiments with the same reasons share a line (a constant of the simulator moves most of them at once).
    const groups = new Map<string, string[]>();
    for (const e of r.experiments) {
      const why = whyText(e.inputs, r);
      groups.set(why, [...(groups.get(why) ?? []), e.id]);
    }
    const entries = [...groups];
    for (const [why, ids] of entries.slice(0, caps.why)) out.push(`- **${ids.join(', ')}**: ${why}`);
    append(out, ['', ...leftOut(Math.min(caps.why, entries.length), entries.length)]);
  }
  if (r.unmoved.length) {
    out.push(`Inputs changed but every output stayed the same: ${r.unmoved.map((u) => code(u.experiment)).join(', ')}.`, '');
  }

  const cited = r.numbers.filter((n) => n.citedIn.length).sort(byImportance);
  const internal = r.numbers.filter((n) => !n.citedIn.length && n.kind === 'changed').sort(byImportance);
  const other = r.numbers.filter((n) => !n.citedIn.length && n.kind !== 'changed');
  if (cited.length) append(out, [`#### Cited numbers that moved (${cited.length})`, '', 'Used in the article, the dossier\'s claims or the reproduction page.', '', ...numbersTable(cited, caps.cited, r.farOff, true)]);
  if (changedFigures.length) {
    out.push(`#### Figures that changed (${changedFigures.length})`, '', '| figure | pixels changed | data rows changed |', '|---|--:|--:|');
    for (const f of changedFigures.slice(0, caps.figures)) {
      const px = f.pixels !== null && f.canvas ? `${formatShare(f.pixels / f.canvas)} (${f.pixels} px)` : f.kind;
      out.push(`| ${cell(code(f.key))} | ${cell(px)} | ${f.data ? f.data.length : '—'} |`);
    }
    append(out, ['', ...leftOut(Math.min(caps.figures, changedFigures.length), changedFigures.length)]);
  }
  if (internal.length) append(out, [`#### Internal numbers that moved (${internal.length})`, '', ...numbersTable(internal, caps.internal, r.farOff, false)]);
  if (other.length) append(out, [`#### Internal numbers added or removed (${other.length})`, '', ...numbersTable(other, caps.other, r.farOff, false)]);
  if (r.dataOnly.length) out.push(`Data changed without a figure change: ${r.dataOnly.map((d) => `${code(d.experiment)} (${plural(d.rows, 'row')})`).join(', ')}.`, '');
  if (hasChanges(r)) {
    out.push('<sub>Accept these outputs as the new baseline: `stopwatches snapshot` after a local build, or `stopwatches snapshot --from DIR` with this run\'s artifact, then give the reason for every changed number in the commit message.</sub>', '');
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** The Markdown summary, shortened until it fits `limit` characters. */
export function renderMarkdown(r: DiffResult, opts: MarkdownOptions = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const caps: Caps = { why: Infinity, cited: Infinity, figures: Infinity, internal: Infinity, other: Infinity };
  let md = render(r, opts, caps);
  for (const key of SHORTEN_ORDER) {
    for (const step of STEPS) {
      if (md.length <= limit) return md;
      caps[key] = step;
      md = render(r, opts, caps);
    }
  }
  if (md.length <= limit) return md;
  // Even with every table gone (thousands of experiments or flags): cut at a line and say so.
  const note = '\n\n_… cut to fit one comment; the full report has everything._\n';
  return md.slice(0, md.lastIndexOf('\n', limit - note.length)) + note;
}
