/**
 * Result files → the common records: recognise the format once (detect.ts,
 * over the registry), hand the text to that format's reader, and add the
 * agreement of the file's own aggregates with our recomputation.
 *
 *   const { run, format, missing } = importResult('run.json', text);
 *
 * Nothing here reads a file: the caller has the text (the command layer reads
 * it once: src/importers/load.ts). Every problem with the file is a UserError of one
 * line naming the file.
 */
import { UserError } from '../errors.ts';
import type { Agreement, ImportOptions, Imported, ImportResult } from '../tools/base/result.ts';
import { CLOCK_PRECISION, MAX_CLOCK_S, noSuccessMessage } from '../tools/base/reading.ts';
import type { SqliteTables } from '../tools/base/sqlite-tables.ts';
import { FORMATS, formatById, TOOLS } from '../tools/registry.ts';
import { formatFromName, nameOf, recognition, sniffInput } from './detect.ts';
import { textInput, type ResultInput } from '../tools/base/input.ts';
import { isJsonLines, readJsonDocument } from '../tools/base/reading.ts';

export { detectFormat } from './detect.ts';
export { toVllmResult } from '../tools/vllm/reader.ts';
export type { Agreement, Capability, FormatId as Format, ImportOptions, ImportResult, Reported, RunEntry } from '../tools/base/result.ts';

/** `vllm, sglang, …` for messages. */
export const FORMAT_LIST = FORMATS.map((f) => f.id).join(', ');

/** Validates a --format value. */
export function parseFormat(value: string): string {
  if (formatById(value)) return value;
  throw new UserError(`unknown --format ${JSON.stringify(value)}; supported: ${FORMAT_LIST}`);
}

/** The agreement list of one imported file: empty when it has no own aggregates or no per-request data. */
export function computeAgreement(res: Imported): Agreement[] {
  if (res.run.records.length === 0 || Object.keys(res.reported).length === 0) return [];
  return formatById(res.format)?.agreement?.(res) ?? [];
}

/** Import from an input (or text already read); the format is detected unless given. */
export function importResult(path: string, source: string | ResultInput, opts: ImportOptions = {}): ImportResult {
  const input = typeof source === 'string' ? textInput(path, source) : source;
  if (input.whole && input.head.replace(/^\uFEFF/, '').trim() === '') throw new UserError(`${path}: is empty`);
  const seen = sniffInput(input);
  let format = opts.format;
  if (format === undefined) {
    const detected = seen ?? formatFromName(path);
    // a large document that does not parse: its own error (parsed once, in recognition), not "cannot tell"
    if (detected === null && !input.whole && /^[[{]/.test(input.head.replace(/^\uFEFF/, '').trimStart()) && !isJsonLines(input)) readJsonDocument(input);
    if (detected === null) {
      const head = input.head.replace(/^\uFEFF/, '').trimStart()[0];
      const json = head === '{' || head === '[';
      throw new UserError(
        `${path}: cannot tell which tool wrote this file${json ? ' (JSON, but none of the keys a supported tool writes)' : ''}; ` +
          `supported formats: ${FORMAT_LIST}; name one with --format`,
      );
    }
    format = detected;
  } else if (seen !== null && seen !== format) {
    // A readable file of another tool: say which, instead of a parse error of the wrong reader.
    throw new UserError(`${path}: not ${nameOf(format)} (--format ${format}); it looks like ${nameOf(seen)}: use --format ${seen}, or leave --format out`);
  }
  return checked(path, formatById(format)!.read(path, input, opts, recognition(seen)));
}

/** Import a file stored as an SQLite database from its tables (read once by src/importers/sqlite.ts); the format is detected unless given. */
export function importTables(path: string, tables: SqliteTables, opts: ImportOptions = {}): ImportResult {
  let best: string | null = null;
  let rank = Infinity;
  for (const f of FORMATS) {
    const r = f.readTables && f.sniff.tables ? f.sniff.tables(tables) : null;
    if (r !== null && r < rank) [best, rank] = [f.id, r];
  }
  const format = opts.format ?? best;
  const names = Object.keys(tables).join(', ') || 'none';
  if (format === null) throw new UserError(`${path}: an SQLite database whose tables (${names}) no supported tool writes; supported formats: ${FORMAT_LIST}`);
  const reader = formatById(format)!.readTables;
  if (!reader) throw new UserError(`${path}: an SQLite database, not ${nameOf(format)} (--format ${format})${best ? `; it looks like ${nameOf(best)}: use --format ${best}, or leave --format out` : ''}`);
  return checked(path, reader(path, tables, opts));
}

/** The checks every import ends with, and the agreement with the file's own aggregates. */
function checked(path: string, res: Imported): ImportResult {
  const recs = res.run.records;
  // every format's times, on the clock its reader put them on: none so large that its differences lose their digits
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const t = Math.max(Math.abs(r.sendT), Math.abs(r.finishT), Math.abs(r.dueT ?? 0), Math.abs(r.firstT ?? 0));
    if (t > MAX_CLOCK_S) throw new UserError(`${path}: request ${i} has a time of ${t} s on the file's clock: ${CLOCK_PRECISION}`);
  }
  // a run with no successful request is refused alike in every format, from its records or its own count
  if ((recs.length > 0 && recs.every((r) => !r.ok)) || (recs.length === 0 && !res.runs && res.completed?.value === 0)) {
    throw new UserError(`${path}: ${noSuccessMessage(res.failures, recs.length === 0 ? `${res.completed!.key} = 0` : undefined)}`);
  }
  return { ...res, agreement: computeAgreement(res) };
}

/** Help text for --format. */
export function formatHelp(): string {
  return FORMATS.map((f) => `${f.id}: ${f.description}`).join('; ');
}

/**
 * The README's table of formats and versions, made from the descriptors (so
 * it cannot drift from what is read): one row per format, the tool's
 * versions on its first format's row. test/formats-doc.test.ts compares it
 * with the README and with `stopwatches metrics --help`.
 */
export function formatTable(): string {
  const rows = ['| `--format` | tool | files | versions whose files or definitions differ |', '| --- | --- | --- | --- |'];
  for (const t of TOOLS) {
    t.formats.forEach((f, i) => rows.push(`| \`${f.id}\` | ${i === 0 ? t.name : ''} | ${f.description} | ${i === 0 ? t.versions.join('; ') : '(as above)'} |`));
  }
  return rows.join('\n') + '\n';
}
