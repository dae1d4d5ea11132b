/**
 * The one node-only step of reading a result file: opening it once, as a
 * ResultInput (src/tools/base/input.ts) or, for an SQLite database, as its
 * tables (sql.js, its WebAssembly read from node_modules here). A regular
 * file is streamed from disk in pieces, as often as a reader asks, so what it
 * costs grows with the records it holds, not with its bytes. Anything else (a
 * pipe, /dev/stdin, a device) is read once, up to MAX_STREAM_BYTES, and
 * refused past it. Everything after this (recognition, readers, agreement,
 * definitions) works on the input or the tables and runs in a browser too.
 */
import { closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cannotRead, openForReading, readBoundedBytes, readBoundedFrom, readFirstBytes, readPieces } from '../fs/read.ts';
import { HEAD_CHARS, MAX_TEXT_BYTES, textInput, tooLargeForText, type ResultInput } from '../tools/base/input.ts';
import type { ImportOptions, ImportResult } from '../tools/base/result.ts';
import { isSqlite, type SqliteTables } from '../tools/base/sqlite-tables.ts';
import { importResult, importTables, parseFormat } from './index.ts';
import { importChecked, metricsInput, metricsInputFromTables, type MetricsInput } from './metrics-input.ts';

/** The most read from a pipe or device (it cannot be read twice, so it is held), and the largest SQLite database. */
export const MAX_STREAM_BYTES = MAX_TEXT_BYTES;

/** Told, as a file is read, how many of its bytes have been read so far (null: the pass ended). */
export type ReadProgress = (bytesRead: number | null, bytes: number) => void;

/** A regular file as an input: its head read now, the rest streamed on each pass. */
function fileInput(path: string, progress?: ReadProgress): ResultInput {
  const f = openForReading(path);
  let head = '';
  try {
    for (const s of readPieces(path, f.fd, 0, HEAD_CHARS)) head += s;
  } finally {
    closeSync(f.fd);
  }
  const size = f.size;
  const whole = size <= HEAD_CHARS;
  return {
    file: path,
    bytes: size,
    head,
    whole,
    *chunks() {
      if (whole) {
        yield head;
        return;
      }
      const g = openForReading(path);
      let read = 0;
      try {
        for (const piece of readPieces(path, g.fd, 0)) {
          read += piece.length; // characters: bytes for the ASCII these files are
          progress?.(Math.min(read, size), size);
          yield piece;
        }
      } finally {
        closeSync(g.fd);
        progress?.(null, size);
      }
    },
    text() {
      if (whole) return head;
      if (size > MAX_TEXT_BYTES) throw tooLargeForText(path, `the file (${(size / 2 ** 20).toFixed(0)} MiB)`);
      try {
        return readFileSync(path, 'utf8');
      } catch (err) {
        throw cannotRead(path, err);
      }
    },
  };
}

/** sql.js's WebAssembly binary, from the installed package (never fetched). */
function sqlWasm(): Buffer {
  return readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
}

/** A result file opened once: an SQLite database's tables, or the input every other reader takes. */
export async function openResult(path: string, progress?: ReadProgress): Promise<{ tables: SqliteTables } | { input: ResultInput }> {
  const f = openForReading(path);
  if (f.regular) {
    closeSync(f.fd);
    if (!isSqlite(readFirstBytes(path, 16))) return { input: fileInput(path, progress) };
  }
  // A pipe is read from the descriptor that opened it: it cannot be opened a second time.
  const bytes = f.regular ? readBoundedBytes(path, MAX_STREAM_BYTES, 'an SQLite database') : readBoundedFrom(path, f, MAX_STREAM_BYTES, 'the input');
  if (isSqlite(bytes)) {
    // sql.js only for a database: loading it costs every other file about 90 ms of CPU and 8 MiB
    const { readSqliteTables } = await import('./sqlite.ts');
    return { tables: await readSqliteTables(path, bytes, sqlWasm()) };
  }
  return { input: textInput(path, bytes.toString('utf8')) };
}

/** A result file as an input (not an SQLite database): streamed when it is a regular file, else held up to MAX_STREAM_BYTES. */
export function openResultInput(path: string): ResultInput {
  const f = openForReading(path);
  if (!f.regular) return textInput(path, readBoundedFrom(path, f, MAX_STREAM_BYTES, 'the input').toString('utf8'));
  closeSync(f.fd);
  return fileInput(path);
}

/** Read and import a result file; the format is detected unless given. */
export async function importResultFile(path: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const o = await openResult(path);
  return 'tables' in o ? importTables(path, o.tables, opts) : importResult(path, o.input, opts);
}

/** Open a file once and prepare it for `stopwatches metrics`. */
export async function loadMetricsInput(path: string, opts: { format?: string; entry?: number }, progress?: ReadProgress): Promise<MetricsInput> {
  const o = await openResult(path, progress);
  return 'tables' in o ? metricsInputFromTables(path, o.tables, opts) : metricsInput(path, o.input, opts);
}

/** Open a file once and import it, the reader's whole result (`stopwatches audit`); a file of several runs gives each entry asked for. */
export async function loadImported(path: string, opts: { format?: string; entry?: number }, progress?: ReadProgress): Promise<ImportResult> {
  const o = await openResult(path, progress);
  if ('tables' in o) return importTables(path, o.tables, { format: opts.format === undefined ? undefined : parseFormat(opts.format), entry: opts.entry });
  return importChecked(path, o.input, opts);
}
