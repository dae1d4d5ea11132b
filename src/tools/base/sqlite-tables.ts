/**
 * A result file stored as an SQLite database (evalscope's benchmark_data.db),
 * as its readers see it: every table's columns and rows, read once by the
 * importer (src/importers/sqlite.ts) so that a reader stays a pure function of
 * what the file holds, as text readers are of the text.
 */

/** A cell as SQLite stores it: INTEGER/REAL → number, TEXT → string, BLOB → bytes, NULL → null. */
export type SqlCell = number | string | Uint8Array | null;

export type SqliteTables = Record<string, { columns: string[]; rows: SqlCell[][] }>;

/** The first 16 bytes of every SQLite 3 database file. */
export const SQLITE_MAGIC = 'SQLite format 3\u0000';

export function isSqlite(bytes: Uint8Array): boolean {
  if (bytes.length < SQLITE_MAGIC.length) return false;
  for (let i = 0; i < SQLITE_MAGIC.length; i++) if (bytes[i] !== SQLITE_MAGIC.charCodeAt(i)) return false;
  return true;
}
