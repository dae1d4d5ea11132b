/**
 * What every importer returns: the common records (src/metrics/records.ts)
 * plus an honest account of what the file could not give.
 */
import type { GuidellmVersion } from '../metrics/guidellm.ts';
import type { LlmperfVersion } from '../metrics/llmperf.ts';
import type { BenchmarkRun, Capability } from '../metrics/records.ts';

/** The result-file formats we read, one importer each. */
export const FORMATS = [
  'vllm',
  'aiperf',
  'guidellm',
  'llmperf',
  'sglang',
  'mlperf-detail',
  'mlperf-summary',
  'mlperf-trace',
] as const;
export type Format = (typeof FORMATS)[number];

/** One line per format for help texts and error messages. */
export const FORMAT_DESCRIPTIONS: Record<Format, string> = {
  vllm: 'vLLM benchmark_serving.py / vllm bench serve --save-result JSON, 2024 (ttfts/itls, no start_times) to 2026 (start_times, latencies, queue_times); --append-result JSON lines',
  aiperf: 'AIPerf profile_export.jsonl (request_start_ns schema and the Oct 2025 metadata.timestamp_ns schema) and the aggregate profile_export_aiperf.json',
  guidellm: 'GuideLLM benchmarks.json: the report up to 0.3.x (flat times, scheduler_info) and from 0.4 (info.timings)',
  llmperf: 'LLMPerf *_individual_responses.json (before and after commit afd137a) and *_summary.json',
  sglang: 'SGLang bench_serving --output-file JSON lines, one run per line (per-request arrays need --output-details)',
  'mlperf-detail': 'MLPerf LoadGen mlperf_log_detail.txt, 4.0 to 6.0 (aggregates only)',
  'mlperf-summary': 'MLPerf LoadGen mlperf_log_summary.txt (aggregates only)',
  'mlperf-trace': 'MLPerf LoadGen mlperf_log_trace.json (per-sample Chrome trace, 4.0 to 6.0)',
};

/** What a file of each format is called in a sentence ("it looks like an AIPerf file"). */
export const FORMAT_NAMES: Record<Format, string> = {
  vllm: 'a vLLM benchmark result',
  aiperf: 'an AIPerf export',
  guidellm: 'a GuideLLM report',
  llmperf: 'an LLMPerf result',
  sglang: 'an SGLang bench_serving result',
  'mlperf-detail': 'an MLPerf LoadGen detail log',
  'mlperf-summary': 'an MLPerf LoadGen summary',
  'mlperf-trace': 'an MLPerf LoadGen trace',
};

export type { Capability } from '../metrics/records.ts';

/** A number the tool itself reported (its own aggregate), converted to SI units. */
export interface Reported {
  value: number;
  /** `s`, `1/s`, `tokens/s`, `tokens`, `requests`, `queries`, `1` … after conversion (ms → s, ns → s); '' for settings without a unit. */
  unit: string;
  /** The digits as written, when the value is an integer a double cannot hold exactly (LoadGen's 64-bit seeds). */
  exact?: string;
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
  format: Format;
  /** Which version of the tool wrote the file (told by its schema, its keys or its own version field), whose definitions apply. */
  version: string;
  /** For tools whose definitions changed between versions: which version's definitions apply. */
  definitions?: { guidellm: GuidellmVersion } | { llmperf: LlmperfVersion | 'afd137a-or-later' };
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
  /** When the file keeps only a sample of the requests the tool measured (GuideLLM's sample_requests): how many successful requests the tool counted. */
  sampledFrom?: number;
  /** Failed requests by reason as the file records them (`HTTP 429`: 130); empty when none failed. */
  failures: Record<string, number>;
  /** Every run of a multi-run file when no --entry was given (then run.records is empty). */
  runs?: RunEntry[];
  /** The tool's own aggregates beside our recomputation (filled by agreement.ts). */
  agreement: Agreement[];
}

export interface ImportOptions {
  /** Skip detection and read the file as this format. */
  format?: Format;
  /** Which run to take from a file that holds several (appended JSON lines, a GuideLLM sweep). */
  entry?: number;
}

/** What an importer returns; the agreement with the tool's own aggregates is added after. */
export type Imported = Omit<ImportResult, 'agreement'>;
