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
import { noSuccessMessage } from '../tools/base/reading.ts';
import { FORMATS, formatById } from '../tools/registry.ts';
import { formatFromName, nameOf, recognition, sniffText } from './detect.ts';

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

/** Import from text already read; the format is detected unless given. */
export function importResult(path: string, text: string, opts: ImportOptions = {}): ImportResult {
  if (text.replace(/^\uFEFF/, '').trim() === '') throw new UserError(`${path}: is empty`);
  const seen = sniffText(text);
  let format = opts.format;
  if (format === undefined) {
    const detected = seen ?? formatFromName(path);
    if (detected === null) {
      const head = text.replace(/^\uFEFF/, '').trimStart()[0];
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
  const res = formatById(format)!.read(path, text, opts, recognition(seen));
  const recs = res.run.records;
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
