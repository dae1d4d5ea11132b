/**
 * The reading step of `stopwatches metrics`: a simulator result (the output
 * of `stopwatches simulate --tokens`) or any real tool's result file, and
 * which of the report's rows the file cannot support (a row is refused when
 * its function reads something the file lacks, see ReportRow.needs).
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.ts';
import { readRunFile } from '../metrics/read.ts';
import type { ReportRow } from '../metrics/report.ts';
import type { BenchmarkRun } from '../metrics/records.ts';
import { sniffText } from './detect.ts';
import { importResultFile, parseFormat } from './index.ts';
import { stripBom } from './json-text.ts';
import { FORMAT_NAMES, type Agreement, type Capability, type ImportResult, type Reported, type RunEntry } from './types.ts';

export interface MetricsInput {
  run: BenchmarkRun;
  format: string;
  version: string;
  definitions?: ImportResult['definitions'];
  missing: string[];
  lacks: Capability[];
  notes: string[];
  reported: Record<string, Reported> | null;
  failures: Record<string, number>;
  agreement: Agreement[];
  runs?: RunEntry[];
}

/** Format name of the simulator's own result files. */
export const SIMULATOR_FORMAT = 'stopwatches';

function readText(path: string): string | null {
  try {
    return stripBom(readFileSync(path, 'utf8'));
  } catch {
    return null; // the importer reports unreadable files with its own message
  }
}

function looksLikeSimulatorResult(text: string | null): boolean {
  return text !== null && /^\s*\{/.test(text) && /"send_t"\s*:/.test(text) && /"requests"\s*:/.test(text);
}

export async function loadMetricsInput(path: string, opts: { format?: string; entry?: number }): Promise<MetricsInput> {
  const text = readText(path);
  const simulator = looksLikeSimulatorResult(text);
  if (opts.format === SIMULATOR_FORMAT || (opts.format === undefined && simulator)) {
    if (!simulator && text !== null) {
      const seen = sniffText(text);
      if (seen) throw new UserError(`${path}: not a simulator result (--format ${SIMULATOR_FORMAT}); it looks like ${FORMAT_NAMES[seen]}: use --format ${seen}, or leave --format out`);
    }
    if (opts.entry !== undefined && opts.entry !== 0) throw new UserError(`${path}: --entry ${opts.entry}: a simulator result holds one run; leave --entry out`);
    return { run: readRunFile(path), format: SIMULATOR_FORMAT, version: 'stopwatches simulator', missing: [], lacks: [], notes: [], reported: null, failures: {}, agreement: [] };
  }
  const format = opts.format === undefined ? undefined : parseFormat(opts.format);
  if (format !== undefined && simulator) {
    throw new UserError(`${path}: not ${FORMAT_NAMES[format]} (--format ${format}); it looks like a simulator result: use --format ${SIMULATOR_FORMAT}, or leave --format out`);
  }
  let res;
  try {
    res = await importResultFile(path, { format, entry: opts.entry });
  } catch (err) {
    if (err instanceof UserError && /cannot tell which tool/.test(err.message)) throw new UserError(undetectedMessage(path, err.message));
    throw err;
  }
  const lacks = [...res.lacks];
  // Without chunk times, the last token's time is known only where the importer kept it.
  if (lacks.includes('chunkTimes') && !lacks.includes('lastToken') && !res.run.records.some((r) => r.ok && r.lastTokenT != null)) lacks.push('lastToken');
  return {
    run: res.run,
    format: res.format,
    version: res.version,
    ...(res.definitions ? { definitions: res.definitions } : {}),
    missing: res.missing,
    lacks,
    notes: res.notes,
    reported: res.reported,
    failures: res.failures,
    agreement: res.agreement,
    ...(res.runs ? { runs: res.runs } : {}),
  };
}

/** A clearer line for a file no importer recognised: broken JSON is named as such; the simulator's format is listed too. */
function undetectedMessage(path: string, message: string): string {
  const text = (readText(path) ?? '').trim();
  if (/^[[{]/.test(text)) {
    try {
      JSON.parse(text);
    } catch (err) {
      const lines = text.split('\n').filter((l) => l.trim());
      const everyLine = lines.every((l) => {
        try {
          JSON.parse(l);
          return true;
        } catch {
          return false;
        }
      });
      if (!everyLine) {
        const msg = (err as Error).message.split('\n')[0];
        const atEnd = /end of (JSON )?input|Unterminated string/i.test(msg);
        return `${path}: not valid JSON (${msg})${atEnd ? '; the text ends early: is the file truncated?' : ''}`;
      }
    }
  }
  return message.replace('supported formats: ', `supported formats: ${SIMULATOR_FORMAT} (\`stopwatches simulate --tokens\` output), `);
}

/** The words for each capability in a refusal: "not in this file: per-chunk times". */
export const CAPABILITY_WORDS: Record<Capability, string> = {
  records: 'per-request records',
  timeline: 'send times on one shared clock',
  runWindow: 'the run’s duration',
  schedule: 'scheduled (due) times',
  chunkTimes: 'per-chunk times',
  lastToken: 'the last token’s time',
  chunkTokens: 'tokens per chunk',
  firstToken: 'first-token times',
  inputTokens: 'prompt token counts',
  outputTokens: 'output token counts',
  serverTokenCounts: 'server token counts',
};

/**
 * Rows the file cannot support get value null and the reason: the first of
 * the row's needs that the file lacks. (A definition computed from a
 * stand-in — e.g. finish time for the last chunk — would print a number the
 * file never measured.)
 */
export function markUnsupported(rows: ReportRow[], input: Pick<MetricsInput, 'lacks'>): ReportRow[] {
  if (input.lacks.length === 0) return rows;
  return rows.map((row) => {
    const lack = row.needs.find((c) => input.lacks.includes(c));
    if (!lack) return row;
    return { ...row, value: null, note: `not in this file: ${CAPABILITY_WORDS[lack]}` };
  });
}
