/**
 * The one node-only step of reading a result file: its bytes, read once, as
 * text (every format but one) or, for an SQLite database, as its tables
 * (sql.js, its WebAssembly read from node_modules here).
 * Everything after it (recognition, readers, agreement, definitions) works
 * on that text or those tables and runs in a browser too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { UserError } from '../errors.ts';
import type { ImportOptions, ImportResult } from '../tools/base/result.ts';
import { isSqlite, type SqliteTables } from '../tools/base/sqlite-tables.ts';
import { importResult, importTables } from './index.ts';
import { metricsInput, metricsInputFromTables, type MetricsInput } from './metrics-input.ts';
import { readSqliteTables } from './sqlite.ts';

/** A file's bytes, or one line saying why it cannot be read. */
function readResultBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${path}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? (err as Error).message})`);
  }
}

/** sql.js's WebAssembly binary, from the installed package (never fetched). */
function sqlWasm(): Buffer {
  return readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
}

/** A file's tables when it is an SQLite database, else null. */
async function tablesOf(path: string, bytes: Buffer): Promise<SqliteTables | null> {
  return isSqlite(bytes) ? readSqliteTables(path, bytes, sqlWasm()) : null;
}

/** Read and import a result file; the format is detected unless given. */
export async function importResultFile(path: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readResultBytes(path);
  const tables = await tablesOf(path, bytes);
  return tables ? importTables(path, tables, opts) : importResult(path, bytes.toString('utf8'), opts);
}

/** Read a file once and prepare it for `stopwatches metrics`. */
export async function loadMetricsInput(path: string, opts: { format?: string; entry?: number }): Promise<MetricsInput> {
  const bytes = readResultBytes(path);
  const tables = await tablesOf(path, bytes);
  return tables ? metricsInputFromTables(path, tables, opts) : metricsInput(path, bytes.toString('utf8'), opts);
}
