/**
 * An SQLite result file (evalscope's benchmark_data.db) read into its tables
 * with sql.js (SQLite compiled to WebAssembly, so the same code runs in Node
 * and in a browser). The WebAssembly binary is handed in by the caller (in
 * Node, read from node_modules by src/importers/load.ts), never fetched. The
 * database is opened in memory from the file's bytes and closed before the
 * tables are returned; nothing is written.
 */
import initSqlJs from 'sql.js';
import { UserError } from '../errors.ts';
import type { SqlCell, SqliteTables } from '../tools/base/sqlite-tables.ts';

export async function readSqliteTables(path: string, bytes: Uint8Array, wasmBinary: ArrayBuffer | Uint8Array): Promise<SqliteTables> {
  const SQL = await initSqlJs({ wasmBinary: wasmBinary as ArrayBuffer });
  let db;
  try {
    db = new SQL.Database(bytes);
  } catch (err) {
    throw new UserError(`${path}: not a readable SQLite database (${(err as Error).message})`);
  }
  try {
    const tables: SqliteTables = {};
    const names = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values.map((v) => String(v[0])) ?? [];
    for (const name of names) {
      const quoted = `"${name.replace(/"/g, '""')}"`;
      const cols = db.exec(`PRAGMA table_info(${quoted})`)[0]?.values.map((v) => String(v[1])) ?? [];
      const rows = (db.exec(`SELECT * FROM ${quoted}`)[0]?.values ?? []) as SqlCell[][];
      tables[name] = { columns: cols, rows };
    }
    return tables;
  } catch (err) {
    // a damaged page shows up only when it is read
    throw new UserError(`${path}: the SQLite database cannot be read (${(err as Error).message}); is the file complete?`);
  } finally {
    db.close();
  }
}
