/**
 * The common input of every metric definition: what a benchmark client saw of
 * one request. The simulator's results, and every importer of a real tool's
 * result file, are converted to this shape.
 *
 * All times are seconds on one clock. A field the source cannot provide is
 * `null` (never 0): definitions that need it say so instead of guessing.
 */
export interface RequestRecord {
  /** When the client's schedule said the request should leave (open/capped clients); null if the file has no schedule. */
  dueT: number | null;
  /** When the request left the client (after any client-side semaphore). */
  sendT: number;
  /**
   * Arrival of each streamed chunk that carried output, in order; null if the
   * source kept no chunk times. A typed array: a run holds millions of chunk
   * times, kept at 8 bytes each with no per-element cost for the collector;
   * never written once the record is made (it may be a view of the source's
   * own buffer).
   */
  chunkTimes: Float64Array | null;
  /** Output tokens carried by each chunk (same length as chunkTimes); null when unknown (assume the server's count is spread evenly). */
  chunkTokens: number[] | null;
  /** When the first output chunk arrived; null if none arrived. */
  firstT: number | null;
  /** When the response completed. */
  finishT: number;
  /** Prompt tokens, as the server counted them. */
  inputTokens: number;
  /** Output tokens, as the server counted them (usage field); null if unknown. */
  outputTokens: number | null;
  /**
   * Time of the last token-bearing chunk when the source keeps it but no
   * chunk list (GuideLLM's `last_token_iteration`). Optional; ignored when
   * chunkTimes is present.
   */
  lastTokenT?: number | null;
  /** Did the request succeed? Failed requests are excluded by every tool we model. */
  ok: boolean;
  /** Times the server preempted and recomputed this request (simulator only; null elsewhere). */
  preemptions: number | null;
  /**
   * Output length the client asked for (max_tokens), when known. Optional
   * (added by the metrics issue): SGLang falls back to it when the server
   * sends no usage; absent or null means unknown.
   */
  requestedOutputTokens?: number | null;
}

/** A whole benchmark run: the records plus what the client knew about the run. */
export interface BenchmarkRun {
  records: RequestRecord[];
  /** Where the records came from: `simulator`, `vllm-bench-serve`, … */
  source: string;
  /** Client-side concurrency cap, if the run had one. */
  maxConcurrency: number | null;
  /** Target request rate (req/s), if the run had one; Infinity for "all at once". */
  requestRate: number | null;
  /** Run start and end on the records' clock (the tools' benchmark duration). */
  startT: number;
  endT: number;
  /**
   * When the client started its arrival schedule, if the source says: a
   * Poisson schedule's first request is due one gap after it (vLLM's run
   * clock starts here). Absent or null when unknown.
   */
  originT?: number | null;
}

/**
 * What a definition reads from a run, and what a result file may lack: the
 * metrics report declares each row's needs, importers declare what their
 * file lacks, and a row is refused exactly when the two meet.
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
  /** the arrival time of the last token-bearing chunk (every chunk time gives it; some files keep only this one) */
  | 'lastToken'
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
