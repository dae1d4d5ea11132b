/**
 * The one node-only step of reading a result file: its text, read once.
 * Everything after it (recognition, readers, agreement, definitions) works
 * on that text and runs in a browser too.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.ts';
import type { ImportOptions, ImportResult } from '../tools/base/result.ts';
import { importResult } from './index.ts';
import { importText, metricsInput, type MetricsInput } from './metrics-input.ts';

/** A file's text, or one line saying why it cannot be read. */
export function readResultText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${path}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? (err as Error).message})`);
  }
}

/** Read and import a result file; the format is detected unless given. */
export async function importResultFile(path: string, opts: ImportOptions = {}): Promise<ImportResult> {
  return importResult(path, readResultText(path), opts);
}

/** Read a file once and prepare it for `stopwatches metrics`. */
export function loadMetricsInput(path: string, opts: { format?: string; entry?: number }): MetricsInput {
  return metricsInput(path, readResultText(path), opts);
}

/** Read a file once and import it (the reader's whole result, e.g. for `stopwatches audit`). */
export function loadImported(path: string, opts: { format?: string; entry?: number }): ImportResult {
  return importText(path, readResultText(path), opts);
}
