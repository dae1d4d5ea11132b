/**
 * CSV exports (AIPerf's profile_export_aiperf.csv, GenAI-Perf's
 * profile_export_genai_perf.csv): blocks of rows separated by blank lines,
 * each block with its own header row. papaparse does the quoting rules; it
 * runs in the browser too.
 */
import Papa from 'papaparse';
import { stripBom } from './json-text.ts';

export interface CsvBlock {
  /** 1-based line of the block's header in the file. */
  line: number;
  header: string[];
  rows: { line: number; cells: string[] }[];
}

/** The file's blocks (header + rows), split at blank lines. */
export function csvBlocks(text: string): CsvBlock[] {
  const parsed = Papa.parse<string[]>(stripBom(text), { skipEmptyLines: false });
  const blocks: CsvBlock[] = [];
  let cur: CsvBlock | null = null;
  parsed.data.forEach((cells, i) => {
    const blank = cells.every((c) => c.trim() === '');
    if (blank) {
      cur = null;
      return;
    }
    if (cur === null) {
      cur = { line: i + 1, header: cells.map((c) => c.trim()), rows: [] };
      blocks.push(cur);
    } else cur.rows.push({ line: i + 1, cells });
  });
  return blocks;
}

/** `Time to First Token (ms)` → { name: 'Time to First Token', unit: 'ms' }; no trailing parentheses → unit null. */
export function nameAndUnit(label: string): { name: string; unit: string | null } {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(label.trim());
  return m ? { name: m[1], unit: m[2] } : { name: label.trim(), unit: null };
}

/** `Time to First Token` → `time_to_first_token` (a key for `reported`). */
export function snakeKey(name: string): string {
  return name.toLowerCase().replace(/%/g, ' pct ').replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}
