/**
 * What every reader returns: one BenchmarkRun (src/tools/base/records.ts),
 * the tool's own aggregates with their units, and an honest account of what
 * the file could not give. This is the contract between a tool's readers and
 * everything above them (detection, agreement, the report, the commands).
 */
import type { BenchmarkRun, Capability } from './records.ts';
import type { Json } from './json-text.ts';
import type { ResultInput } from './input.ts';

/** A result-file format's id, as `--format` names it (`vllm`, `mlperf-trace`, `stopwatches` …); the registry lists them. */
export type FormatId = string;

export type { Capability } from './records.ts';

/** A number the tool itself reported (its own aggregate), converted to SI units. */
export interface Reported {
  value: number;
  /** `s`, `1/s`, `tokens/s`, `tokens`, `requests`, `queries`, `1` … after conversion (ms → s, ns → s); '' for settings without a unit. */
  unit: string;
  /** The digits as written, when the value is an integer a double cannot hold exactly (LoadGen's 64-bit seeds). */
  exact?: string;
  /**
   * The number as the file wrote it and the unit its writer computed it in
   * (`mean_ttft_ms`: 111.2 ms; LoadGen's `result_token_throughput`: tokens/ns),
   * when that differs from `value`/`unit`; what the report prints under the key's name.
   */
  written?: { value: number; unit: string };
}

/** One run of a file that holds several (appended JSON lines, a GuideLLM sweep). */
export interface RunEntry {
  /** The value to give --entry. */
  index: number;
  /** Its settings in a few words: `rate inf, concurrency 8, 50 prompts`. */
  label: string;
  reported: Record<string, Reported>;
  /** Why this entry cannot be read, when it cannot (then it is not offered as an --entry). */
  unreadable?: string;
}

/** The tool's own aggregate next to the same quantity recomputed from the file's per-request data. */
export interface Agreement {
  /** The tool's key, as in `reported`. */
  key: string;
  reported: number;
  recomputed: number | null;
  unit: string;
  /** |recomputed − reported| / |reported|; null when either is missing or reported is 0. */
  relDiff: number | null;
  /** Why the two differ by more than 1%, or why no value could be recomputed. */
  reason?: string;
}

export interface ImportResult {
  /** The file, as given. */
  file: string;
  format: FormatId;
  /** Which version of the tool wrote the file (told by its schema, its keys or its own version field), whose definitions apply. */
  version: string;
  /** For tools whose definitions changed between versions: tool id → which version's definitions apply (`{ guidellm: 'up-to-0.3' }`). */
  definitions?: Readonly<Record<string, string>>;
  run: BenchmarkRun;
  /** What the file lacks and what that rules out, one sentence each. */
  missing: string[];
  /** The same, as machine-readable capabilities. */
  lacks: Capability[];
  /** Caveats that do not remove a definition (units converted, rows dropped, clock origin…). */
  notes: string[];
  /** Where t = 0 is on the records' clock. */
  clock: string;
  /**
   * Per request (index-aligned with run.records): the last token-bearing
   * chunk's time when the file knows it but keeps no chunk list (GuideLLM's
   * `last_token_iteration`); null elsewhere — read it from chunkTimes.
   */
  lastTokenT: (number | null)[] | null;
  /**
   * The tokenizer the records' outputTokens were counted with, when it is not
   * the model's own: `llama-2` for LLMPerf's files (its Llama 2 tokenizer's
   * count of the text). Such counts are the tool's own already, so no
   * conversion into them (`--llama2-inflation`) applies. Absent: the model's tokens.
   */
  outputTokenizer?: 'llama-2';
  /** The tool's own aggregates found in the file (for side-by-side comparison), keyed by the tool's name. */
  reported: Record<string, Reported>;
  /** When the file keeps only a sample of the requests the tool measured (GuideLLM's sample_requests): how many successful requests the tool counted. */
  sampledFrom?: number;
  /**
   * An aggregate-only file's own count of what completed (vLLM's `completed`,
   * AIPerf's `request_count`, LoadGen's `result_query_count` …), under its key
   * and in its unit (requests, queries, samples): the header's count when
   * there are no records. A count of 0 makes the file a run with no success.
   */
  completed?: { key: string; value: number; unit: string };
  /** Failed requests by reason as the file records them (`HTTP 429`: 130); empty when none failed. */
  failures: Record<string, number>;
  /** Every run of a multi-run file when no --entry was given (then run.records is empty). */
  runs?: RunEntry[];
  /** The tool's own aggregates beside our recomputation (filled over the registry by src/importers/index.ts from the format's own check). */
  agreement: Agreement[];
}

export interface ImportOptions {
  /** Skip detection and read the file as this format. */
  format?: FormatId;
  /** Which run to take from a file that holds several (appended JSON lines, a GuideLLM sweep). */
  entry?: number;
}

/**
 * What the registry tells a reader about the file it is reading, so a reader
 * never calls back into detection: which format one parsed JSON value looks
 * like (for files of several JSON lines), and the words to add to a "not this
 * format" error (` (it looks like an AIPerf export: --format aiperf)` or '').
 */
export interface Recognition {
  recognise(v: Json): FormatId | null;
  looksLike: string;
}

/**
 * A reader: one file (its name and its text, opened by the command layer:
 * base/input.ts says how to take the text) → the common records and the
 * tool's own aggregates.
 */
export type ReadFile = (file: string, input: ResultInput, opts: ImportOptions, seen: Recognition) => Imported;

/** What an importer returns; the agreement with the tool's own aggregates is added after. */
export type Imported = Omit<ImportResult, 'agreement'>;
