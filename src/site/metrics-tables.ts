/**
 * Tables 1 and 2 come from the metrics module (src/metrics/index.ts), which
 * holds each tool's definition next to its code. It is loaded through a glob so
 * this file compiles before that module exists; the pages then fail the build
 * unless STOPWATCHES_ALLOW_MISSING=1 (development only).
 */
export interface Table1Row {
  tool: string;
  metric: string;
  clockStart: string;
  firstToken: string;
  formula: string;
  commit: string;
}

export interface Table2Row {
  tool: string;
  arrivals: string;
  clock: string;
  window: string;
  percentiles: string;
  tokens: string;
}

const mods = import.meta.glob('../metrics/index.ts', { eager: true }) as Record<string, Record<string, unknown>>;
const mod = Object.values(mods)[0] ?? null;

export function allowMissing(): boolean {
  return process.env.STOPWATCHES_ALLOW_MISSING === '1';
}

function pick<T>(names: string[]): T[] | null {
  if (!mod) return null;
  for (const n of names) if (Array.isArray(mod[n])) return mod[n] as T[];
  return null;
}

function need<T>(rows: T[] | null, what: string, page: string): T[] | null {
  if (rows) return rows;
  if (allowMissing()) return null;
  throw new Error(
    `${what} on page ${page}: src/metrics/index.ts ${mod ? `exports none of the expected arrays (has: ${Object.keys(mod).join(', ')})` : 'does not exist yet'}. ` +
      'Set STOPWATCHES_ALLOW_MISSING=1 to build without it during development.',
  );
}

export function table1(page: string): Table1Row[] | null {
  return need(pick<Table1Row>(['TABLE1', 'TABLE_1', 'table1', 'DEFINITIONS_TABLE']), 'Table 1', page);
}

export function table2(page: string): Table2Row[] | null {
  return need(pick<Table2Row>(['TABLE2', 'TABLE_2', 'table2', 'FLAGS_TABLE']), 'Table 2', page);
}
