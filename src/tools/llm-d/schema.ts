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
// zod/mini: the same checks and English messages as zod's classic API, at a twentieth of its size in
// the pages that bundle the readers (the explorer's and the audit's workers: 19 KB instead of 450 KB).
import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';

z.config(en());

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
/** A number ≥ `min` (classic zod's `.min`). */
const atLeast = (min: number) => z.number().check(z.gte(min));
/** An integer ≥ `min` (classic zod's `.int().min`). */
const intAtLeast = (min: number) => z.int().check(z.gte(min));
const statistics = z.object({
  units: z.enum(UNITS),
  mean: num,
  mode: z.nullish(num),
  stddev: z.nullish(atLeast(0)),
  min: z.nullish(num),
  p0p1: z.nullish(num),
  p1: z.nullish(num),
  p5: z.nullish(num),
  p10: z.nullish(num),
  p25: z.nullish(num),
  p50: z.nullish(num),
  p75: z.nullish(num),
  p90: z.nullish(num),
  p95: z.nullish(num),
  p99: z.nullish(num),
  p99p9: z.nullish(num),
  max: z.nullish(num),
});
export type BrStatistics = z.infer<typeof statistics>;

/** A Statistics whose `units` must be one of `allowed` (the models' `check_units` / `UNIT_RULES`). */
function stat(allowed: BrUnit[]) {
  return z.nullish(statistics.check(z.refine((s) => allowed.includes(s.units), { message: `units must be one of: ${allowed.join(' ')}`, path: ['units'] })));
}

const anything = z.unknown();

const sequenceLength = z.strictObject({
  distribution: z.enum(['fixed', 'gaussian', 'uniform', 'other']),
  value: atLeast(0),
  std_dev: z.nullish(atLeast(0)),
  min: z.nullish(intAtLeast(0)),
  max: z.nullish(intAtLeast(1)),
});

const load = z.strictObject({
  metadata: z.strictObject({ schema_version: z.optional(z.string()), cfg_id: z.nullish(z.string()), description: z.nullish(z.string()) }),
  standardized: z.strictObject({
    tool: z.string(),
    tool_version: z.string(),
    parallelism: z.optional(intAtLeast(1)),
    source: z.enum(['random', 'sampled', 'unknown']),
    stage: z.optional(intAtLeast(0)),
    input_seq_len: sequenceLength,
    output_seq_len: z.nullish(sequenceLength),
    prefix: z.optional(anything),
    multi_turn: z.optional(anything),
    rate_qps: z.nullish(z.number().check(z.gt(0))),
    concurrency: z.nullish(z.union([intAtLeast(1), z.literal(Infinity)])),
  }),
  native: z.strictObject({ args: z.nullish(z.record(z.string(), anything)), envars: z.nullish(z.record(z.string(), anything)), config: z.optional(anything) }),
});

export const brV021 = z.strictObject({
  version: z.literal('0.2.1'),
  run: z.strictObject({
    uid: z.string(),
    eid: z.nullish(z.string()),
    cid: z.nullish(z.string()),
    pid: z.nullish(z.string()),
    time: z.nullish(z.strictObject({ start: z.nullish(z.string()), end: z.nullish(z.string()), duration: z.nullish(z.string()) })),
    user: z.nullish(z.string()),
    description: z.nullish(z.string()),
    keywords: z.nullish(z.array(z.string())),
  }),
  scenario: z.nullish(z.strictObject({ stack: z.optional(anything), load: z.nullish(load) })),
  results: z.strictObject({
    request_performance: z.nullish(
      z.strictObject({
        aggregate: z.nullish(
          z.strictObject({
            requests: z.nullish(
              z.strictObject({
                total: intAtLeast(0),
                failures: z.nullish(intAtLeast(0)),
                incomplete: z.nullish(intAtLeast(0)),
                input_length: stat(QUANTITY),
                output_length: stat(QUANTITY),
                request_size: stat(MEMORY),
                multimodal: z.optional(anything),
              }),
            ),
            latency: z.nullish(
              z.strictObject({
                time_to_first_token: stat(TIME),
                normalized_time_per_output_token: stat(GEN_LATENCY),
                time_per_output_token: stat(GEN_LATENCY),
                inter_token_latency: stat(GEN_LATENCY),
                request_latency: stat(TIME),
              }),
            ),
            throughput: z.nullish(
              z.strictObject({
                input_token_rate: stat(GEN_THROUGHPUT),
                output_token_rate: stat(GEN_THROUGHPUT),
                total_token_rate: stat(GEN_THROUGHPUT),
                request_rate: stat(REQUEST_THROUGHPUT),
                image_rate: stat(MEDIA_THROUGHPUT),
                video_rate: stat(MEDIA_THROUGHPUT),
                audio_rate: stat(MEDIA_THROUGHPUT),
              }),
            ),
          }),
        ),
        time_series: z.optional(anything),
      }),
    ),
    session_performance: z.optional(anything),
    observability: z.optional(anything),
    profiling: z.optional(anything),
    component_health: z.optional(anything),
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
