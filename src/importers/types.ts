/**
 * What every importer returns: the common records (src/metrics/records.ts)
 * plus an honest account of what the file could not give.
 */
import type { BenchmarkRun } from '../metrics/records.ts';

/** The result-file formats we read, one importer each. */
export const FORMATS = [
  'vllm',
  'aiperf',
  'guidellm',
  'llmperf',
  'sglang',
  'mlperf-detail',
  'mlperf-trace',
] as const;
export type Format = (typeof FORMATS)[number];

/** One line per format for help texts and error messages. */
export const FORMAT_DESCRIPTIONS: Record<Format, string> = {
  vllm: 'vllm bench serve --save-result --save-detailed JSON (also --append-result JSON lines)',
  aiperf: 'AIPerf profile_export.jsonl (per-request records, --export-level records)',
  guidellm: 'GuideLLM benchmarks.json (GenerativeBenchmarksReport)',
  llmperf: 'LLMPerf *_individual_responses.json',
  sglang: 'SGLang bench_serving --output-file JSONL (per-request arrays need --output-details)',
  'mlperf-detail': 'MLPerf LoadGen mlperf_log_detail.txt (aggregates only)',
  'mlperf-trace': 'MLPerf LoadGen mlperf_log_trace.json (per-sample Chrome trace)',
};

/**
 * Things a definition may need and a file may lack. The metrics command can
 * skip a definition mechanically when one of its needs is in `lacks`;
 * `missing` says the same in words.
 */
export type Capability =
  /** per-request records at all (aggregate-only files have none) */
  | 'records'
  /** requests placed on one shared clock (send times), so throughput, concurrency and windows can be computed */
  | 'timeline'
  /** the scheduled (due) time of each request */
  | 'schedule'
  /** the arrival time of every streamed chunk */
  | 'chunkTimes'
  /** tokens carried by each chunk */
  | 'chunkTokens'
  /** when the first output arrived */
  | 'firstToken'
  /** prompt token counts */
  | 'inputTokens'
  /** output token counts of any kind */
  | 'outputTokens'
  /** output tokens as the server counted them (usage), not a client tokenizer */
  | 'serverTokenCounts'
  /** the tool's run duration (start and end of the benchmark) */
  | 'runWindow';

/** A number the tool itself reported (its own aggregate), converted to SI units. */
export interface Reported {
  value: number;
  /** `s`, `1/s`, `tokens/s`, `tokens`, `requests`, … after conversion (ms → s, ns → s). */
  unit: string;
}

export interface ImportResult {
  /** The file, as given. */
  file: string;
  format: Format;
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
  /** The tool's own aggregates found in the file (for side-by-side comparison), keyed by the tool's name. */
  reported: Record<string, Reported>;
}

export interface ImportOptions {
  /** Skip detection and read the file as this format. */
  format?: Format;
  /** Which run to take from a file that holds several (appended JSON lines, a GuideLLM sweep). */
  entry?: number;
}
