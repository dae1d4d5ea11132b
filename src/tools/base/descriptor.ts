/**
 * What the project knows about one benchmark tool, in one value: who it is,
 * where its definitions were read (repository, files, commits: stated here
 * once), its rows of Tables 1 and 2, the rows it contributes to
 * `stopwatches metrics` and to the per-user speeds (each with what it reads
 * from a run), the result-file formats it writes (how each is recognised,
 * read, and checked against its own aggregates) and the versions whose
 * definitions differ. src/tools/registry.ts lists the descriptors; everything
 * above iterates over it. A new tool is one folder with a descriptor and one
 * registry line; a new format is one entry in its tool's `formats`.
 */
import type { Json } from './json-text.ts';
import type { BenchmarkRun, Capability } from './records.ts';
import type { PerUserSpeedOptions, ReportOptions, ReportRow, SpeedRow } from './report-rows.ts';
import type { Agreement, ImportOptions, Imported, ReadFile, Reported } from './result.ts';
import type { SqliteTables } from './sqlite-tables.ts';

/** One file of the tool's source that a definition was read from. */
export interface SourceFile {
  path: string;
  /** The commit read (abbreviated as it is cited); absent where the file was read from a mirror without one. */
  commit?: string;
}

export interface ToolSource {
  /** `owner/name` on GitHub. */
  repository: string;
  files: readonly SourceFile[];
}

/** Table 1: how the tool times a request, as read from its source. */
export interface Table1Entry {
  clockStart: string;
  firstToken: string;
  end: string;
  /** the per-token formula as the code computes it */
  perToken: string;
  /** where the article's description differs from the tool's code, the article's reading */
  perTokenArticle?: string;
  percentile: string;
  version: string;
  /** the module and function implementing perToken */
  implementation: string;
}

/** Table 2: the non-default settings that make the tool's numbers carry each clause. */
export interface Table2Entry {
  arrivals: string;
  clock: string;
  window: string;
  percentileQuality: string;
  tokens: string;
}

/**
 * How a format is recognised. Each test returns a rank (lower = more
 * specific: a structure only this format writes beats a loose key match) or
 * null; detection takes the lowest rank over all formats, ties going to the
 * registry's order. `text` sees the file's head (its first 1 MiB, the whole
 * of most files: base/input.ts, BOM stripped) and its first non-empty line,
 * before any parse; `json` sees one parsed JSON value (the
 * whole document, or the first line of a JSON-lines file); `fileName` is the
 * fallback when the content tells nothing (a truncated file still reaches its
 * reader, which then names the problem).
 */
export interface Sniff {
  text?: (text: string, firstLine: string) => number | null;
  json?: (value: Json) => number | null;
  fileName?: (lowerCaseName: string) => number | null;
  /** For a format stored as an SQLite database: its tables and columns. */
  tables?: (tables: SqliteTables) => number | null;
}

/** One result-file format of a tool. */
export interface ResultFormat {
  /** `--format` value; unique over the registry. */
  id: string;
  /** One line for help texts and error messages. */
  description: string;
  /** What a file of this format is called in a sentence ("it looks like an AIPerf export"). */
  nameInSentence: string;
  sniff: Sniff;
  read: ReadFile;
  /** For a format stored as an SQLite database: the reader of its tables (then `read` only explains that the file is read from its bytes). */
  readTables?: (file: string, tables: SqliteTables, opts: ImportOptions) => Imported;
  /** Whether its files carry the tool's own aggregates (the simulator's carry none: `--json` says null rather than {}). */
  aggregates: boolean;
  /** The file's own aggregates beside the same quantities recomputed from its per-request data; null where the format keeps no aggregates to check. */
  agreement: ((res: Imported) => Agreement[]) | null;
  /**
   * For an aggregate-only format: its aggregates beside the same quantities
   * recomputed from another file's per-request records of the same run
   * (`metrics FILE --with RECORDS`), and which record formats it reads.
   */
  agreementWith?: { recordFormats: readonly string[]; check: (reported: Record<string, Reported>, records: BenchmarkRun) => Agreement[] };
}

/** A per-user speed the tool contributes (Figure 1), declared with what it reads. */
export interface SpeedSpec<M extends string = string> {
  /** metric name → what computing it reads from a run. A row naming an undeclared metric is a type error. */
  needs: Readonly<Record<M, readonly Capability[]>>;
  rows: (run: BenchmarkRun, opts: PerUserSpeedOptions) => SpeedRowOf<M>[];
}

export interface ToolDescriptor<M extends string = string> {
  /** Short id (`vllm`): the report's tool column, Table 1's key. */
  id: string;
  /** Display name (`vLLM bench serve`). */
  name: string;
  /** Where its definitions were read; null for the project's own simulator. */
  source: ToolSource | null;
  /** Its Table 1 and Table 2 rows; null for a tool outside the tables (Etalon, the simulator). */
  table1: Table1Entry | null;
  table2: Table2Entry | null;
  /** Its rows of `stopwatches metrics` (without the per-user speeds). */
  report: ((run: BenchmarkRun, opts: ReportOptions) => ReportRow[]) | null;
  speeds: SpeedSpec<M> | null;
  formats: readonly ResultFormat[];
  /** The versions whose definitions or files differ, oldest first, each in a few words. */
  versions: readonly string[];
}

/** Checks the speed rows' metric names against their declared needs at compile time. */
export function defineTool<M extends string>(d: ToolDescriptor<M>): ToolDescriptor<M> {
  return d;
}

/** `path @commit` as Table 1 prints a source file. */
export function citeFile(f: SourceFile): string {
  return f.commit ? `${f.path} @${f.commit}` : f.path;
}

/** A speed row whose metric is one of the declared names. */
export type SpeedRowOf<M extends string> = SpeedRow & { metric: M };
