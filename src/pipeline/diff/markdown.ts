/**
 * The diff as Markdown for one pull-request comment or job summary, in the
 * order a reviewer decides in: the verdict (does the build pass, which
 * checked claims flipped) and the commit it describes; why (the inputs that
 * changed); the flags (published neighbourhood, exact-by-construction
 * numbers); the figures with their share of changed pixels; the cited
 * numbers. Everything else (internal numbers, margins, values whose interval
 * alone moved) is folded in `<details>`. Only rows that changed are listed.
 *
 * It must fit one comment (GitHub takes 65,536 characters; the limit here is
 * 60,000): when it would not, the tables are shortened, internal numbers
 * first and the verdict's claims last, each saying how many rows were left out.
 * Pure and deterministic: the same diff gives the same bytes.
 */
import { figureChanged, hasChanges, type ClaimChange, type DiffResult } from './result.ts';
import { crossed, inImportanceOrder, type NumberRow } from './numbers.ts';
import { formatChange, formatShare, formatSix } from '../../format/text.ts';
import { exactText, neighbourhoodText, sameValueText, showEntry, whyText } from './format.ts';

export const MARKDOWN_LIMIT = 60_000;

/** The name the pull-request workflow uploads the report folder under (test/diff-workflows.test.ts holds them equal). */
export const REPORT_ARTIFACT = 'paper-diff';

/** Marks the sticky comment, so the workflow updates it instead of adding another. */
export const COMMENT_MARKER = '<!-- stopwatches-diff -->';

/** A CI step's outcome, as GitHub reports it (`steps.<id>.outcome`). */
export type Outcome = 'success' | 'failure' | 'cancelled' | 'skipped';

export interface MarkdownOptions {
  /** How the build of this commit ended; omitted (a local diff): no verdict is given. */
  build?: Outcome;
  /** How the tests ended, when they ran. */
  tests?: Outcome;
  /** Where the full report is (the CI run's artifact page); omitted: the local path is named. */
  reportUrl?: string;
  /** The local report file, named when there is no URL. */
  reportPath?: string;
  limit?: number;
}

type Caps = Record<'flipped' | 'why' | 'cited' | 'figures' | 'internal' | 'other' | 'margins' | 'same', number>;
/** Shortened in this order: what is folded goes first, the verdict's claims last. */
const SHORTEN_ORDER: (keyof Caps)[] = ['internal', 'same', 'other', 'margins', 'figures', 'cited', 'why', 'flipped'];
const STEPS = [200, 100, 50, 25, 10, 5, 0];
/** A claim's sentence and margin are cut here: the comment is read on a phone too. */
const CLAIM_TEXT = 200;

const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const cut = (s: string, n = CLAIM_TEXT) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const FAILING = new Set(['fails', 'stale']);

function leftOut(shown: number, total: number): string[] {
  return shown < total ? [`_… ${plural(total - shown, 'more row')} left out to fit one comment; the full report lists every one._`, ''] : [];
}

/** A block folded under its summary line (a blank line after it, so the Markdown inside renders). */
const folded = (summary: string, body: string[]) => (body.length ? ['<details>', `<summary>${summary}</summary>`, '', ...body, '</details>', ''] : []);

function flagText(r: NumberRow, farOff: number): string {
  const flags: string[] = [];
  if (crossed(r)) flags.push(`**${neighbourhoodText(r, farOff)}**`);
  if (r.exact && r.kind === 'changed' && !r.valueSame) flags.push(`**${exactText(r)} changed**`);
  if (r.valueSame) flags.push(sameValueText(r));
  return flags.join('; ');
}

/**
 * A table of numbers, shortened to `cap` rows by the function it returns. Each
 * row is formatted once, however often the comment is rendered again to fit
 * (about 15 times when it lists 100,000 numbers), and no further than the
 * comment's `limit`: when the rows shown are longer than that by themselves,
 * the try cannot fit whatever else it holds, and the table says so (null).
 */
function numbersTable(rows: NumberRow[], farOff: number, withCited: boolean, limit: number): (cap: number) => string[] | null {
  const head = withCited ? '| number | old | new | Δ% | cited in | note |\n|---|--:|--:|--:|---|---|' : '| number | old | new | Δ% | note |\n|---|--:|--:|--:|---|';
  const line = (r: NumberRow) => {
    const cols = [code(r.id), r.old ? showEntry(r.old) : '—', r.new ? showEntry(r.new) : '—', r.kind === 'changed' && !r.valueSame ? formatChange(r.rel) : r.kind === 'changed' ? '0' : r.kind];
    if (withCited) cols.push(r.citedIn.slice(0, 2).join(', ') + (r.citedIn.length > 2 ? `, +${r.citedIn.length - 2}` : ''));
    cols.push(flagText(r, farOff));
    return `| ${cols.map(cell).join(' | ')} |`;
  };
  const lines: string[] = [];
  /** ends[i]: the length of lines 0 to i together. */
  const ends: number[] = [];
  const formatted = () => ends[ends.length - 1] ?? 0;
  return (cap) => {
    const shown = Math.min(cap, rows.length);
    if (!shown) return leftOut(0, rows.length);
    while (lines.length < shown && formatted() <= limit) {
      const l = line(rows[lines.length]!);
      lines.push(l);
      ends.push(formatted() + l.length);
    }
    if (lines.length < shown || ends[shown - 1]! > limit) return null;
    return [head].concat(lines.slice(0, shown), '', leftOut(shown, rows.length));
  };
}

/** Appends one line at a time: `push(...lines)` passes every line as an argument and overflows the stack at about 100,000. */
function append(out: string[], lines: readonly string[]): void {
  for (const l of lines) out.push(l);
}

export function claimLine(c: ClaimChange): string {
  const was = c.old?.status ?? 'absent';
  const now = c.new?.status ?? 'removed';
  const margin = c.new?.margin ?? c.old?.margin ?? '';
  const basis = c.basis && c.basis !== 'evidence' ? ` [${c.basis}: not evidence]` : '';
  return `- ${code(c.id)}${basis} ${was} → **${now}**: “${cut(c.claim)}”${margin ? ` (${cut(margin)})` : ''}`;
}

/** The heading: the verdict when the build's outcome is known, then what changed, with the counts used below. */
function heading(r: DiffResult, opts: MarkdownOptions, counted: number, figures: number, flipped: ClaimChange[]): string {
  const changed = hasChanges(r) ? `${plural(counted, 'number')} and ${plural(figures, 'figure')} changed` : 'nothing changed';
  const broken = flipped.filter((c) => c.new && FAILING.has(c.new.status)).length;
  if (!opts.build) return `### Paper diff: ${changed}`;
  const verdict = opts.build === 'success' ? 'Build passes' : opts.build === 'failure' ? 'Build fails' : `Build ${opts.build}`;
  const tests = opts.tests === 'failure' ? ', tests fail' : '';
  const claims = flipped.length ? `${plural(flipped.length, 'checked claim')} flipped${broken ? ` (${broken} no longer ${broken === 1 ? 'holds' : 'hold'})` : ''}; ` : '';
  return `### ${verdict}${tests}: ${claims}${changed}`;
}

/** The rows each part of the comment lists, sorted once for every try at fitting it in `limit` characters. */
function lists(r: DiffResult, limit: number) {
  const ordered = inImportanceOrder(r.numbers);
  // Counted: every number whose value moved, appeared or went; a value that stayed while its interval or spread moved is listed apart.
  const counted = r.numbers.filter((n) => !n.valueSame);
  const same = ordered.filter((n) => n.valueSame);
  const cited = ordered.filter((n) => !n.valueSame && n.citedIn.length);
  const internal = ordered.filter((n) => !n.valueSame && !n.citedIn.length && n.kind === 'changed');
  const other = counted.filter((n) => !n.citedIn.length && n.kind !== 'changed');
  return {
    changedFigures: r.figures.filter(figureChanged),
    flipped: r.claims.filter((c) => c.change === 'status'),
    otherClaims: r.claims.filter((c) => c.change !== 'status'),
    counted,
    same,
    cited,
    internal,
    other,
    left: r.numbers.filter((n) => n.neighbourhood === 'left'),
    entered: r.numbers.filter((n) => n.neighbourhood === 'entered'),
    exact: r.numbers.filter((n) => n.exact && n.kind === 'changed' && !n.valueSame),
    tables: {
      cited: numbersTable(cited, r.farOff, true, limit),
      internal: numbersTable(internal, r.farOff, false, limit),
      other: numbersTable(other, r.farOff, false, limit),
      same: numbersTable(same, r.farOff, true, limit),
    },
  };
}

/** The comment with its tables shortened to `caps`; null when a table alone is already too long. */
function render(r: DiffResult, opts: MarkdownOptions, caps: Caps, rows: ReturnType<typeof lists>): string | null {
  const out: string[] = [COMMENT_MARKER];
  const { changedFigures, flipped, otherClaims, counted, same, cited, internal, other, left, entered, exact, tables } = rows;
  const report = opts.reportUrl ? `Full report: the [\`${REPORT_ARTIFACT}\` artifact](${opts.reportUrl}) of the CI run.` : opts.reportPath ? `Full report: ${code(opts.reportPath)}.` : '';

  out.push(heading(r, opts, counted.length, changedFigures.length, flipped), '');
  const head = r.headCommit ? `Commit ${code(r.headCommit.slice(0, 12))}` : code(r.current);
  const stale = opts.build && r.headCommit ? ' A later push replaces this comment; until its run ends, a head other than this commit means the comment is stale.' : '';
  if (!hasChanges(r)) {
    out.push(`${head} against ${code(r.base)}: no number or figure changed (${r.totalNumbers} numbers, ${r.sameFigures} figures).${report ? ` ${report}` : ''}${stale}`, '');
  } else {
    const k = (kind: NumberRow['kind']) => counted.filter((n) => n.kind === kind).length;
    const parts = [`${k('changed')} moved`, `${k('added')} new`, `${k('removed')} removed`].join(', ');
    const sameText = same.length ? `; ${plural(same.length, 'more number kept its value', 'more numbers kept their value')} with another interval or spread` : '';
    out.push(`${head} against ${code(r.base)}. Numbers: ${parts} (${cited.length} cited; of ${r.totalNumbers})${sameText}. Figures: ${changedFigures.length} changed, ${r.sameFigures} the same.${report ? ` ${report}` : ''}${stale}`, '');
  }
  if (opts.build === 'failure' && !flipped.some((c) => c.new && FAILING.has(c.new.status))) {
    out.push('No checked claim flipped: the build failed for another reason; the job log says which step.', '');
  }

  if (flipped.length) {
    append(out, [`#### Claims that flipped (${flipped.length})`, '', ...flipped.slice(0, caps.flipped).map(claimLine), '', ...leftOut(Math.min(caps.flipped, flipped.length), flipped.length)]);
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

  const flags: string[] = [];
  if (left.length) flags.push(`${plural(left.length, 'number')} LEFT the published value's neighbourhood (±${formatSix(r.farOff * 100)}%): ${left.map((n) => code(n.id)).join(', ')}`);
  if (entered.length) flags.push(`${plural(entered.length, 'number')} entered the published value's neighbourhood (±${formatSix(r.farOff * 100)}%): ${entered.map((n) => code(n.id)).join(', ')}`);
  if (exact.length) flags.push(`${plural(exact.length, 'number')} exact by construction (settings, closed-form values) changed: a setting, constant or formula moved, never noise`);
  if (flags.length) append(out, [...flags.map((f) => `> ${f}  `), '']);

  if (changedFigures.length) {
    out.push(`#### Figures that changed (${changedFigures.length})`, '', '| figure | pixels changed | data rows changed |', '|---|--:|--:|');
    for (const f of changedFigures.slice(0, caps.figures)) {
      const px = f.pixels !== null && f.canvas ? `${formatShare(f.pixels / f.canvas)} (${f.pixels} px)` : f.kind;
      out.push(`| ${cell(code(f.key))} | ${cell(px)} | ${f.data ? f.data.length : '—'} |`);
    }
    append(out, ['', ...leftOut(Math.min(caps.figures, changedFigures.length), changedFigures.length)]);
  }
  const citedTable = cited.length ? tables.cited(caps.cited) : [];
  const internalTable = internal.length ? tables.internal(caps.internal) : [];
  const otherTable = other.length ? tables.other(caps.other) : [];
  const sameTable = same.length ? tables.same(caps.same) : [];
  if (!citedTable || !internalTable || !otherTable || !sameTable) return null;
  if (cited.length) append(out, [`#### Cited numbers that moved (${cited.length})`, '', 'Used in the article, the dossier\'s claims or the reproduction page.', '', ...citedTable]);

  append(out, folded(`Internal numbers that moved (${internal.length})`, internalTable));
  append(out, folded(`Internal numbers added or removed (${other.length})`, otherTable));
  append(out, folded(`Numbers whose value stayed while their interval or spread moved (${same.length})`, sameTable));
  append(out, folded(`Claims whose margin moved, added or removed (${otherClaims.length})`, otherClaims.length ? [...otherClaims.slice(0, caps.margins).map(claimLine), '', ...leftOut(Math.min(caps.margins, otherClaims.length), otherClaims.length)] : []));
  const notes: string[] = [];
  if (r.unmoved.length) notes.push(`- Inputs changed but every output stayed the same: ${r.unmoved.map((u) => code(u.experiment)).join(', ')}.`);
  if (r.dataOnly.length) notes.push(`- Data changed without a figure change: ${r.dataOnly.map((d) => `${code(d.experiment)} (${plural(d.rows, 'row')})`).join(', ')}.`);
  const renderOnly = r.figures.filter((f) => f.renderOnly);
  if (renderOnly.length) notes.push(`- ${plural(renderOnly.length, 'figure')} rendered to different pixels from an identical SVG (fonts or librsvg of this machine), not counted as changed: ${renderOnly.map((f) => code(f.key)).join(', ')}.`);
  if (hasChanges(r)) notes.push("- Accept these outputs as the new baseline: `stopwatches snapshot` after a local build, or `stopwatches snapshot --from DIR` with this run's artifact, then give the reason for every changed number in the commit message.");
  append(out, folded('Other notes', notes));
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** The comment when the build stopped before it produced any outputs: nothing to compare, the verdict alone. */
export function renderNoBuild(head: string | null, base: string, opts: Pick<MarkdownOptions, 'reportUrl'> = {}): string {
  const report = opts.reportUrl ? ` The job log: [the CI run](${opts.reportUrl}).` : '';
  return `${COMMENT_MARKER}\n### Build fails: no outputs to compare\n\n${head ? `Commit ${code(head.slice(0, 12))}` : 'This build'} stopped before it wrote its numbers and figures, so nothing is compared with ${code(base)}.${report}\n`;
}

/** The Markdown summary, shortened until it fits `limit` characters. */
export function renderMarkdown(r: DiffResult, opts: MarkdownOptions = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const caps: Caps = { flipped: Infinity, why: Infinity, cited: Infinity, figures: Infinity, internal: Infinity, other: Infinity, margins: Infinity, same: Infinity };
  const rows = lists(r, limit);
  const fits = (text: string | null): text is string => text !== null && text.length <= limit;
  let md = render(r, opts, caps, rows);
  for (const key of SHORTEN_ORDER) {
    for (const step of STEPS) {
      if (fits(md)) return md;
      caps[key] = step;
      md = render(r, opts, caps, rows);
    }
  }
  if (fits(md)) return md;
  // Even with every table gone (thousands of experiments or flags): cut at a line and say so.
  // (Every cap is 0 now, so no table made this try null.)
  const text = md!;
  const note = '\n\n_… cut to fit one comment; the full report has everything._\n';
  return text.slice(0, text.lastIndexOf('\n', limit - note.length)) + note;
}
