/**
 * The rules of llm-d's Benchmark Report v0.2.1, as its pydantic models state
 * them (llm-d/llm-d-benchmark @8bc9f1d, llmdbenchmark/analysis/benchmark_report/
 * base.py `Units` and the `UNITS_*` lists, schema_v0_2.py, schema_v0_2_1.py):
 * the required fields, `extra="forbid"` on every model (MODEL_CONFIG), the
 * allowed units of each statistic, `total`/`failures` ≥ 0, `stddev` ≥ 0,
 * `rate_qps` > 0, `concurrency` ≥ 1 or `.inf`. The request-level aggregates,
 * `run` and the load descriptor are encoded field by field; the parts
 * stopwatches neither reads nor writes (the stack, observability, sessions,
 * component health, time series) are accepted as they come.
 */
import { z } from 'zod';

/** base.py `Units`. */
export const UNITS = [
  'count', 'pixels', 'percent', 'fraction', 'ratio', 'ms', 's',
  'bytes', 'MB', 'GB', 'TB', 'MiB', 'GiB', 'TiB',
  'Mbit/s', 'Gbit/s', 'Tbit/s', 'GiB/s', 'MB/s', 'GB/s', 'TB/s',
  'ms/token', 's/token', 'tokens/s', 'queries/s', 'images/s', 'videos/s', 'audios/s', 'Watts',
] as const;
export type BrUnit = (typeof UNITS)[number];

const QUANTITY: BrUnit[] = ['count', 'pixels'];
const TIME: BrUnit[] = ['ms', 's'];
const GEN_LATENCY: BrUnit[] = ['ms/token', 's/token'];
const GEN_THROUGHPUT: BrUnit[] = ['tokens/s'];
const REQUEST_THROUGHPUT: BrUnit[] = ['queries/s'];
const MEDIA_THROUGHPUT: BrUnit[] = ['images/s', 'videos/s', 'audios/s'];
const MEMORY: BrUnit[] = ['bytes', 'MB', 'GB', 'TB', 'MiB', 'GiB', 'TiB'];

/** The statistic keys of `Statistics` (schema_v0_2.py); pydantic's default for it ignores other keys. */
export const STAT_KEYS = ['mean', 'mode', 'stddev', 'min', 'p0p1', 'p1', 'p5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'p99p9', 'max'] as const;

const num = z.number();
const statistics = z.object({
  units: z.enum(UNITS),
  mean: num,
  mode: num.nullish(),
  stddev: num.min(0).nullish(),
  min: num.nullish(),
  p0p1: num.nullish(),
  p1: num.nullish(),
  p5: num.nullish(),
  p10: num.nullish(),
  p25: num.nullish(),
  p50: num.nullish(),
  p75: num.nullish(),
  p90: num.nullish(),
  p95: num.nullish(),
  p99: num.nullish(),
  p99p9: num.nullish(),
  max: num.nullish(),
});
export type BrStatistics = z.infer<typeof statistics>;

/** A Statistics whose `units` must be one of `allowed` (the models' `check_units` / `UNIT_RULES`). */
function stat(allowed: BrUnit[]) {
  return statistics
    .refine((s) => allowed.includes(s.units), { message: `units must be one of: ${allowed.join(' ')}`, path: ['units'] })
    .nullish();
}

const anything = z.unknown();

const sequenceLength = z.strictObject({
  distribution: z.enum(['fixed', 'gaussian', 'uniform', 'other']),
  value: num.min(0),
  std_dev: num.min(0).nullish(),
  min: z.number().int().min(0).nullish(),
  max: z.number().int().min(1).nullish(),
});

const load = z.strictObject({
  metadata: z.strictObject({ schema_version: z.string().optional(), cfg_id: z.string().nullish(), description: z.string().nullish() }),
  standardized: z.strictObject({
    tool: z.string(),
    tool_version: z.string(),
    parallelism: z.number().int().min(1).optional(),
    source: z.enum(['random', 'sampled', 'unknown']),
    stage: z.number().int().min(0).optional(),
    input_seq_len: sequenceLength,
    output_seq_len: sequenceLength.nullish(),
    prefix: anything.optional(),
    multi_turn: anything.optional(),
    rate_qps: num.gt(0).nullish(),
    concurrency: z.union([z.number().int().min(1), z.literal(Infinity)]).nullish(),
  }),
  native: z.strictObject({ args: z.record(z.string(), anything).nullish(), envars: z.record(z.string(), anything).nullish(), config: anything.optional() }),
});

export const brV021 = z.strictObject({
  version: z.literal('0.2.1'),
  run: z.strictObject({
    uid: z.string(),
    eid: z.string().nullish(),
    cid: z.string().nullish(),
    pid: z.string().nullish(),
    time: z.strictObject({ start: z.string().nullish(), end: z.string().nullish(), duration: z.string().nullish() }).nullish(),
    user: z.string().nullish(),
    description: z.string().nullish(),
    keywords: z.array(z.string()).nullish(),
  }),
  scenario: z.strictObject({ stack: anything.optional(), load: load.nullish() }).nullish(),
  results: z.strictObject({
    request_performance: z
      .strictObject({
        aggregate: z
          .strictObject({
            requests: z
              .strictObject({
                total: z.number().int().min(0),
                failures: z.number().int().min(0).nullish(),
                incomplete: z.number().int().min(0).nullish(),
                input_length: stat(QUANTITY),
                output_length: stat(QUANTITY),
                request_size: stat(MEMORY),
                multimodal: anything.optional(),
              })
              .nullish(),
            latency: z
              .strictObject({
                time_to_first_token: stat(TIME),
                normalized_time_per_output_token: stat(GEN_LATENCY),
                time_per_output_token: stat(GEN_LATENCY),
                inter_token_latency: stat(GEN_LATENCY),
                request_latency: stat(TIME),
              })
              .nullish(),
            throughput: z
              .strictObject({
                input_token_rate: stat(GEN_THROUGHPUT),
                output_token_rate: stat(GEN_THROUGHPUT),
                total_token_rate: stat(GEN_THROUGHPUT),
                request_rate: stat(REQUEST_THROUGHPUT),
                image_rate: stat(MEDIA_THROUGHPUT),
                video_rate: stat(MEDIA_THROUGHPUT),
                audio_rate: stat(MEDIA_THROUGHPUT),
              })
              .nullish(),
          })
          .nullish(),
        time_series: anything.optional(),
      })
      .nullish(),
    session_performance: anything.optional(),
    observability: anything.optional(),
    profiling: anything.optional(),
    component_health: anything.optional(),
  }),
});
export type BenchmarkReportV021 = z.infer<typeof brV021>;

/** The first rule a document breaks, as `results.request_performance.aggregate.latency.time_to_first_token.units: units must be one of: ms s`, or null. */
export function brProblem(doc: unknown): string | null {
  const r = brV021.safeParse(doc);
  if (r.success) return null;
  const issue = r.error.issues[0];
  const path = issue.path.map(String).join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') message = `${issue.keys.map((k) => JSON.stringify(k)).join(', ')} ${issue.keys.length === 1 ? 'is' : 'are'} not a field of the schema (extra fields are forbidden)`;
  else if (issue.code === 'invalid_type' && /received undefined/i.test(issue.message)) message = 'is required';
  return `${path || '(top level)'}: ${message}`;
}
