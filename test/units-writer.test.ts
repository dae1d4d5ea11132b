/**
 * No reported number is shown in a unit its writer did not compute it in.
 * For every real result file (../shared/real-results/) that `metrics --json`
 * reads as the tool's own aggregates, every key of `reported` (and of each
 * run of a multi-run file) is looked up in the table of its format below —
 * the unit the WRITER computes that key in, read from the writer's source
 * (file and commit beside each table) — and checked three ways: the unit it
 * is printed in (`written.unit`, else `unit`) is the writer's; that number
 * occurs in the file; and the SI value is that number converted by the
 * factor between the two units. A key no table covers fails: a new key needs
 * its writer's unit. Rows computed from per-request data are checked for a
 * unit of the dimension their name states (`_ms` → a time, `_per_s` → a rate).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runCli } from './helpers/cli.ts';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');
if (!existsSync(REAL)) throw new Error(`${REAL} is missing: the real result files live beside the repository (../shared/real-results/)`);

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]))
    .filter((f) => !f.endsWith('README.md'))
    .sort();
}

type Table = { cite: string; units: [RegExp, string | string[]][] };

/** One table per format: key pattern → the unit the writer computes it in (first match wins). */
const WRITER_UNITS: Record<string, Table> = {
  vllm: {
    cite: 'vllm-project/vllm vllm/benchmarks/serve.py @009e6d4a1cd6 (calculate_metrics, benchmark)',
    units: [
      [/_ms$/, 'ms'],
      [/^duration$/, 's'],
      [/^(request_throughput|request_goodput)$/, '1/s'],
      [/^(output_throughput|total_token_throughput|max_output_tokens_per_s)$/, 'tokens/s'],
      [/^(completed|failed|max_concurrent_requests)$/, 'requests'],
      [/^total_(input|output)_tokens$/, 'tokens'],
      [/^rtfx$/, '1'],
    ],
  },
  sglang: {
    cite: 'sgl-project/sglang python/sglang/bench_serving.py (0.5.5, calculate_metrics)',
    units: [
      [/_ms$/, 'ms'],
      [/^duration$/, 's'],
      [/^(request_throughput|request_goodput)$/, '1/s'],
      [/throughput|_per_s$/, 'tokens/s'],
      [/^(completed|max_concurrent_requests)$/, 'requests'],
      [/^total_.*tokens/, 'tokens'],
      [/^concurrency$/, 'requests'],
    ],
  },
  llmperf: {
    cite: 'ray-project/llmperf token_benchmark_ray.py @f1d6bed (metrics_summary)',
    units: [
      [/^results_.*token_per_s(_|$)/, 'tokens/s'],
      [/^results_.*_s_(mean|min|max|stddev|quantiles_p\d+)$/, 's'],
      [/^results_number_(input|output)_tokens_/, 'tokens'],
      [/^results_num_completed_requests_per_min$/, '1/min'],
      [/^results_error_rate$/, '1'],
      [/^results_(num_requests_started|number_errors|num_completed_requests)$/, 'requests'],
    ],
  },
  'mlperf-detail': {
    cite: 'mlcommons/inference loadgen/results.cc @b66003e1 (PerformanceSummary::LogDetail), test_settings_internal.cc (LogEffectiveSettings)',
    units: [
      [/^result_token_throughput$/, 'tokens/ns'], // token_count / (sample_latency_mean [ns] × sample_count)
      [/^result_token_throughput_with_loadgen_overhead$/, 'tokens/s'], // ÷ final_query_issued_time [s]
      [/^result_(completed_|inferred_completed_|inferred_)?tokens_per_second$/, 'tokens/s'],
      [/_latency_ns$|_percentile_ns$|^result_time_to_output_token_(min|max|mean)$|^early_stopping_latency_(ss|ms)$|^effective_target_latency_ns$|_percentile_estimate$/, 'ns'],
      [/^effective_(target|min|max)_duration_ms$/, 'ms'],
      [/^result_overlatency_query_count$/, 'samples'], // counted over sample_latencies
      [/^result_query_count$|^effective_(min|max)_query_count$|^effective_max_async_queries$|_queries_(processed|discarded)$/, 'queries'],
      [/^effective_(min_sample_count|performance_sample_count)$/, 'samples'],
      [/^effective_samples_per_query$/, 'samples per query'],
      [/^result_(scheduled|completed)_samples_per_sec$|^result_samples_per_second$/, 'samples/s'],
      [/^result_qps_with(out)?_loadgen_overhead$|^effective_target_qps$/, 'queries/s'],
      [/^effective_target_latency_percentile$|^effective_accuracy_log_probability$/, '1'],
      [/^num_errors$/, 'errors'],
      [/^effective_(.*_rng_seed|accuracy_log_sampling_target|performance_issue_same_index)$/, ''],
    ],
  },
  'mlperf-summary': {
    cite: 'mlcommons/inference loadgen/results.cc @b66003e1 (PerformanceSummary::LogSummary), test_settings_internal.cc (LogSummary)',
    units: [
      [/_ns$|_percentile_estimate$/, 'ns'],
      [/_ms$/, 'ms'],
      [/^(completed_|scheduled_)?samples_per_second$/, 'samples/s'],
      [/^qps_w\/o?_loadgen_overhead$|^target_qps$/, 'queries/s'], // (sample_count − 1) / final_query_issued_time; 1 / mean latency
      [/^tps_w\/o?_loadgen_overhead$|tokens_per_second/, 'tokens/s'], // token_count / seconds in the summary
      [/_queries_(processed|discarded)$|^(min|max)_query_count$|^max_async_queries$/, 'queries'],
      [/^performance_sample_count$/, 'samples'],
      [/^samples_per_query$/, 'samples per query'],
      [/^accuracy_log_probability$/, '1'],
      [/_rng_seed$|^accuracy_log_sampling_target$|^print_timestamps$|^performance_issue_(unique|same|same_index)$/, ''],
    ],
  },
  'inference-perf-lifecycle': {
    cite: 'kubernetes-sigs/inference-perf @7ff8150 inference_perf/reportgen (summarize_requests: latencies are time.perf_counter differences in seconds, rates per second)',
    units: [
      [/^successes\.image\.count\./, 'images'],
      [/^successes\.video\.count\./, 'videos'],
      [/^successes\.audio\.count\./, 'audios'],
      [/latency\.|schedule_delay|send_duration|^benchmark_time_seconds$|^successes\.audio\.seconds\./, 's'],
      [/^load_summary\.(requested|achieved)_rate$|requests_per_sec$/, '1/s'],
      [/tokens_per_sec$/, 'tokens/s'],
      [/images_per_sec$/, 'images/s'],
      [/videos_per_sec$/, 'videos/s'],
      [/audios_per_sec$/, 'audios/s'],
      [/^successes\.(prompt_len|output_len)\.|^successes\.prompt_tokens\./, 'tokens'],
      [/bytes/, 'bytes'],
      [/\.pixels\./, 'pixels'],
      [/\.frames\./, 'frames'],
      [/aspect_ratio/, '1'],
      [/^(load_summary|successes|failures)\.count$|token_count_mismatches$/, 'requests'],
    ],
  },
  inferencex: {
    cite: 'InferenceX agentic lane (gg_agentic/extract_agg_bmk.py: AIPerf ms × 1e-3; tput_per_gpu = total_token_throughput / tp)',
    units: [
      [/_(ttft|tpot|itl|e2el)$/, 's'],
      [/_intvty$/, 'tokens/s per user'],
      [/_qps$/, '1/s'],
      [/_tput_tps$/, 'tokens/s'],
      [/tput_per_gpu$/, 'tokens/s per GPU'],
      [/^duration_seconds$/, 's'],
      [/_(input_tokens|output_tokens_actual)$|^total_(prompt|generation)_tokens$/, 'tokens'],
      [/^(num_requests_total|num_requests_successful|total_requests_completed)$/, 'requests'],
      [/cache_hit_rate$/, '1'],
    ],
  },
};

/** Units that are one unit spelled two ways (AIPerf's spelling → ours). */
const SAME: Record<string, string> = { 'requests/sec': '1/s', 'tokens/sec': 'tokens/s', 'tokens/sec/user': 'tokens/s per user', sec: 's', ratio: '1' };
const norm = (u: string): string => SAME[u] ?? u;

/** Factor from a written unit to the SI unit beside it. */
const FACTOR: Record<string, number> = { 'ms→s': 1e-3, 'ns→s': 1e-9, 'us→s': 1e-6, 'tokens/ns→tokens/s': 1e9, '1/min→1/s': 1 / 60, 's/token→s': 1, 'queries/s→1/s': 1, 'ratio→1': 1 };

/** The llm-d Benchmark Report states each statistic's unit beside it (`units`, br_v0_2_1 schema): the unit of key `a.b.mean` is `a.b.units`. */
function brUnit(doc: unknown, key: string): string[] | undefined {
  let node: unknown = doc;
  const path = key.split('.').slice(0, -1);
  for (const k of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined;
  const u = node && typeof node === 'object' ? (node as Record<string, unknown>).units : undefined;
  // the schema's `count` unit counts a thing the key names (a request's tokens, its images …): the reader names the thing
  if (typeof u === 'string') return u === 'count' ? ['count', 'tokens', 'images', 'videos', 'audios', 'frames'] : [u];
  return /^requests\.(total|failures)$/.test(key) ? ['requests'] : undefined;
}

/** AIPerf states each metric's unit in the file: JSON `unit` fields, CSV names `Name (unit)` (count/requests left out, metrics_csv_exporter.py @309c4e8). */
function aiperfUnitsFromFile(format: string, text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const snake = (n: string) => n.toLowerCase().replace(/%/g, ' pct ').replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  if (format === 'aiperf') {
    const d = JSON.parse(text) as Record<string, unknown>;
    const recs = (d.records && typeof d.records === 'object' ? d.records : d) as Record<string, { unit?: string }>;
    for (const [k, v] of Object.entries(recs)) if (v && typeof v === 'object' && typeof v.unit === 'string') out.set(k, [v.unit]);
  } else {
    for (const line of text.split(/\r?\n/)) {
      const name = line.split(',')[0];
      if (!name || name === 'Metric') continue;
      const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(name);
      if (m) out.set(snake(m[1]), [m[2] === 'per sec' ? (/token/i.test(m[1]) ? 'tokens/s' : '1/s') : m[2]]);
      else out.set(snake(name), format === 'genai-perf-csv' ? ['tokens'] : ['requests', 'count']);
    }
  }
  return out;
}

interface Rep { value: number; unit: string; exact?: string; written?: { value: number; unit: string } }
interface Out { format: string; requests: number; reported: Record<string, Rep> | null; runs?: { reported: Record<string, Rep> }[]; rows: { tool: string; metric: string; unit: string; value: number | null; quantity: string }[] }

/** Every number written in the file, parsed as a double (so 3.77261e-08 and 0.00 are found however they are spelled). */
function numbersIn(text: string): Set<number> {
  return new Set([...text.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)].map((m) => Number(m[0])));
}

const FILES = filesUnder(REAL);

describe('every reported aggregate is in the unit its writer computed it in', () => {
  it.each(FILES.map((f) => [relative(REAL, f), f]))('%s', async (_name, file) => {
    const r = await runCli(['metrics', file, '--json']);
    if (r.code !== 0) return; // test/importers-real.test.ts requires every file to read; this test checks what is shown

    const o = JSON.parse(r.out) as Out;
    // rows computed from per-request data: the unit's dimension is the one the name states
    for (const row of o.rows.filter((x) => x.quantity !== 'per-user speed')) {
      if (/_(ms|ns|s)\b/.test(row.metric) && !/per_s|throughput|tokens_per|_tps/.test(row.metric)) expect(['s', 'ms', 'ns'], `${row.tool} ${row.metric}`).toContain(row.unit);
      if (/throughput|per_s\b|per_sec|tokens_per_second/.test(row.metric)) expect(row.unit, `${row.tool} ${row.metric}`).toMatch(/\/s/);
    }
    if (o.requests > 0) return; // per-request files: their `reported` are our means of the file's own values
    const text = readFileSync(file, 'utf8');
    const inFile = numbersIn(text);
    const fromFile = o.format === 'aiperf' || o.format === 'aiperf-csv' || o.format === 'genai-perf-csv' ? aiperfUnitsFromFile(o.format, text) : null;
    const br = o.format === 'br-v0.2.1' ? (YAML.parse(text) as { results?: { request_performance?: { aggregate?: unknown } } }) : null;
    const table = WRITER_UNITS[o.format];
    const sets = o.runs ? o.runs.map((x) => x.reported) : [o.reported ?? {}];
    let checked = 0;
    for (const reported of sets) {
      for (const [key, v] of Object.entries(reported)) {
        let writer: string[] | undefined;
        if (fromFile) writer = fromFile.get(key.replace(/\.(avg|p\d+|min|max|std)$/, ''));
        else if (br) writer = brUnit(br.results?.request_performance?.aggregate, key);
        else {
          const hit = table?.units.find(([re]) => re.test(key));
          writer = hit ? (Array.isArray(hit[1]) ? hit[1] : [hit[1]]) : undefined;
        }
        expect(writer, `${o.format} ${key}: no writer unit in the table (${table?.cite ?? 'the file'})`).toBeDefined();
        const shown = v.written ?? { value: v.value, unit: v.unit };
        expect(writer!.map(norm), `${key} is printed in ${shown.unit}`).toContain(norm(shown.unit));
        if (v.exact === undefined) expect(inFile.has(shown.value), `${key} = ${shown.value} ${shown.unit} is not a number of the file`).toBe(true);
        if (v.written) {
          const f = FACTOR[`${v.written.unit}→${v.unit}`];
          expect(f, `${key}: no factor from ${v.written.unit} to ${v.unit}`).toBeDefined();
          expect(v.value).toBeCloseTo(v.written.value * f, 12);
        } else expect(norm(v.unit)).toBe(norm(shown.unit));
        checked++;
      }
    }
    if (o.reported !== null) expect(checked).toBeGreaterThan(0);
  });
});
