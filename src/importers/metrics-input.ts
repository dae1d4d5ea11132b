/**
 * The reading step of `stopwatches metrics`, from an opened input: a
 * simulator result or any real tool's result file (one path through the
 * registry), and which of the report's rows the file cannot support (a row is
 * refused when its function reads something the file lacks, see
 * ReportRow.needs).
 */
import { UserError } from '../errors.ts';
import type { ReportRow } from '../tools/base/report-rows.ts';
import type { BenchmarkRun } from '../tools/base/records.ts';
import type { Agreement, Capability, ImportResult, Reported, RunEntry } from '../tools/base/result.ts';
import { formatById } from '../tools/registry.ts';
import { SIMULATOR_FORMAT } from '../tools/sim/reader.ts';
import { importResult, importTables, parseFormat } from './index.ts';
import { textInput, type ResultInput } from '../tools/base/input.ts';
import { parsePythonJson } from '../tools/base/json-text.ts';
import type { SqliteTables } from '../tools/base/sqlite-tables.ts';

export interface MetricsInput {
  run: BenchmarkRun;
  format: string;
  version: string;
  definitions?: ImportResult['definitions'];
  outputTokenizer?: ImportResult['outputTokenizer'];
  missing: string[];
  lacks: Capability[];
  notes: string[];
  /** null for a format with no aggregates of its own (the simulator's). */
  reported: Record<string, Reported> | null;
  failures: Record<string, number>;
  completed?: ImportResult['completed'];
  agreement: Agreement[];
  runs?: RunEntry[];
  /** What the reader returned, for the commands that go on from it (the audit). */
  imported: ImportResult;
}

export function metricsInput(path: string, source: string | ResultInput, opts: { format?: string; entry?: number }): MetricsInput {
  return fromImport(importChecked(path, source, opts));
}

/** A file through the registry as every command reads it: --format checked, an unrecognised file named clearly. */
export function importChecked(path: string, source: string | ResultInput, opts: { format?: string; entry?: number }): ImportResult {
  const input = typeof source === 'string' ? textInput(path, source) : source;
  const format = opts.format === undefined ? undefined : parseFormat(opts.format);
  try {
    return importResult(path, input, { format, entry: opts.entry });
  } catch (err) {
    if (err instanceof UserError && /cannot tell which tool/.test(err.message)) throw new UserError(undetectedMessage(path, input, err.message));
    throw err;
  }
}

/** The same for a file stored as an SQLite database, from its tables. */
export function metricsInputFromTables(path: string, tables: SqliteTables, opts: { format?: string; entry?: number }): MetricsInput {
  const format = opts.format === undefined ? undefined : parseFormat(opts.format);
  return fromImport(importTables(path, tables, { format, entry: opts.entry }));
}

function fromImport(res: ImportResult): MetricsInput {
  const lacks = [...res.lacks];
  // Without chunk times, the last token's time is known only where the reader kept it.
  if (lacks.includes('chunkTimes') && !lacks.includes('lastToken') && !res.run.records.some((r) => r.ok && r.lastTokenT != null)) lacks.push('lastToken');
  return {
    run: res.run,
    imported: res,
    format: res.format,
    version: res.version,
    ...(res.definitions ? { definitions: res.definitions } : {}),
    ...(res.outputTokenizer ? { outputTokenizer: res.outputTokenizer } : {}),
    missing: res.missing,
    lacks,
    notes: res.notes,
    reported: formatById(res.format)!.aggregates ? res.reported : null,
    failures: res.failures,
    ...(res.completed ? { completed: res.completed } : {}),
    agreement: res.agreement,
    ...(res.runs ? { runs: res.runs } : {}),
  };
}

/** A clearer line for a file no format recognised: broken JSON is named as such; the simulator's format says how to make one. */
function undetectedMessage(path: string, input: ResultInput, message: string): string {
  const text = input.head.replace(/^\uFEFF/, '').trim();
  if (input.whole && /^[[{]/.test(text)) {
    try {
      parsePythonJson(text);
    } catch (err) {
      const lines = text.split('\n').filter((l) => l.trim());
      const everyLine = lines.every((l) => {
        try {
          parsePythonJson(l);
          return true;
        } catch {
          return false;
        }
      });
      if (!everyLine) {
        const msg = (err as Error).message.split('\n')[0];
        const pos = /position (\d+)/.exec(msg);
        // at the very end of the text (a position past it counts: the Python literals' rewrite lengthens the text)
        const atEnd = /end of (JSON )?input|Unterminated string/i.test(msg) || (pos !== null && Number(pos[1]) >= text.length - 1);
        return `${path}: not valid JSON (${msg})${atEnd ? '; the text ends early: is the file truncated?' : ''}`;
      }
    }
  }
  return message.replace(`supported formats: ${SIMULATOR_FORMAT}, `, `supported formats: ${SIMULATOR_FORMAT} (\`stopwatches simulate --tokens\` output), `);
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
 * Rows the file cannot support get value null, n 0 and the reason: the first
 * of the row's needs that the file lacks. (A definition computed from a
 * stand-in — e.g. finish time for the last chunk — would print a number the
 * file never measured; a row with no value measured no sample either, whatever
 * count its definition had already taken.)
 */
export function markUnsupported(rows: ReportRow[], input: Pick<MetricsInput, 'lacks'>): ReportRow[] {
  if (input.lacks.length === 0) return rows;
  return rows.map((row) => {
    const lack = row.needs.find((c) => input.lacks.includes(c));
    if (!lack) return row;
    return { ...row, value: null, n: 0, note: `not in this file: ${CAPABILITY_WORDS[lack]}` };
  });
}
