/**
 * Result files of real benchmark tools → the common per-request records.
 *
 *   const { run, format, missing } = await importResultFile('run.json');
 *
 * `importResult(path, text)` is the same without file I/O (tests, browser).
 * Every problem with the file is a UserError of one line naming the file.
 */
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.ts';
import { importAiperf } from './aiperf.ts';
import { computeAgreement } from './agreement.ts';
import { detectFormat, sniffText } from './detect.ts';
import { importGuidellm } from './guidellm.ts';
import { importLlmperf } from './llmperf.ts';
import { importMlperfDetail, importMlperfSummary, importMlperfTrace } from './mlperf.ts';
import { importSglang } from './sglang.ts';
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES, FORMATS, type Format, type ImportOptions, type Imported, type ImportResult } from './types.ts';
import { importVllm } from './vllm.ts';

export { detectFormat } from './detect.ts';
export { toVllmResult } from './vllm.ts';
export { FORMATS, FORMAT_DESCRIPTIONS, FORMAT_NAMES } from './types.ts';
export type { Agreement, Capability, Format, ImportOptions, ImportResult, Reported, RunEntry } from './types.ts';

type Importer = (file: string, text: string, opts: ImportOptions) => Imported;

const IMPORTERS: Record<Format, Importer> = {
  vllm: importVllm,
  aiperf: importAiperf,
  guidellm: importGuidellm,
  llmperf: importLlmperf,
  sglang: importSglang,
  'mlperf-detail': importMlperfDetail,
  'mlperf-summary': importMlperfSummary,
  'mlperf-trace': importMlperfTrace,
};

/** `vllm, aiperf, …` for messages. */
export const FORMAT_LIST = FORMATS.join(', ');

/** Validates a --format value. */
export function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UserError(`unknown --format ${JSON.stringify(value)}; supported: ${FORMAT_LIST}`);
}

/** Import from text already read. */
export function importResult(path: string, text: string, opts: ImportOptions = {}): ImportResult {
  if (text.replace(/^\uFEFF/, '').trim() === '') throw new UserError(`${path}: is empty`);
  let format = opts.format;
  if (format === undefined) {
    const detected = detectFormat(path, text);
    if (detected === null) {
      const head = text.replace(/^\uFEFF/, '').trimStart()[0];
      const json = head === '{' || head === '[';
      throw new UserError(
        `${path}: cannot tell which tool wrote this file${json ? ' (JSON, but none of the keys a supported tool writes)' : ''}; ` +
          `supported formats: ${FORMAT_LIST}; name one with --format`,
      );
    }
    format = detected;
  } else {
    // A readable file of another tool: say which, instead of a parse error of the wrong reader.
    const seen = sniffText(text);
    if (seen !== null && seen !== format) {
      throw new UserError(`${path}: not ${FORMAT_NAMES[format]} (--format ${format}); it looks like ${FORMAT_NAMES[seen]}: use --format ${seen}, or leave --format out`);
    }
  }
  const res = IMPORTERS[format](path, text, opts);
  return { ...res, agreement: computeAgreement(res) };
}

/** Read and import a result file; the format is detected unless given. */
export async function importResultFile(path: string, opts: ImportOptions = {}): Promise<ImportResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${path}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? (err as Error).message})`);
  }
  return importResult(path, text, opts);
}

/** Help text for --format. */
export function formatHelp(): string {
  return FORMATS.map((f) => `${f}: ${FORMAT_DESCRIPTIONS[f]}`).join('; ');
}
