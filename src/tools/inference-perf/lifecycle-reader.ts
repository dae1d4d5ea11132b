/**
 * inference-perf's lifecycle reports: `summary_lifecycle_metrics.json` (the
 * whole run) and `stage_<N>_lifecycle_metrics.json` (one load stage), the
 * `ResponsesSummary` that `summarize_requests` returns (reportgen/base.py
 * @7de5ef2), written as JSON by the tool; llm-d keeps the same object as YAML.
 * Aggregates only, every time in SECONDS as the file holds them.
 *
 * `load_summary.schedule_delay` summarises `start_time − scheduled_time` over
 * every request: how long each request waited behind its schedule before it
 * was sent (the load generator's own queue). No other tool writes that as an
 * aggregate. A stage file adds `requested_rate`, `achieved_rate` (count /
 * send_duration) and `send_duration` (last send − first send).
 */
import type { ResultInput } from '../base/input.ts';
import type { BenchmarkRun } from '../base/records.ts';
import { isObject, parseJson, Reader, type Json, type JsonObject } from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, Recognition, Reported } from '../base/result.ts';
import { parseYaml } from '../base/yaml-text.ts';
import { stripBom } from '../base/json-text.ts';

export const INFERENCE_PERF_SOURCE = 'inference-perf';

/** A statistic key of inference-perf's `summarize` (`mean`, `min`, `max`, `median`, `p0.1` … `p99.9`). */
const STAT = /^(mean|min|max|median|p\d+(\.\d+)?)$/;

/**
 * Unit of a lifecycle value by its path (the statistic key removed), as
 * `summarize_requests` computes it. A path not listed here is not shown: its
 * unit would be a guess.
 */
const UNITS: [RegExp, string][] = [
  [/^benchmark_time_seconds$/, 's'],
  [/^load_summary\.(count|concurrency)$/, 'requests'],
  [/^load_summary\.(schedule_delay|send_duration)$/, 's'],
  [/^load_summary\.(requested_rate|achieved_rate)$/, '1/s'],
  [/^(successes|failures)\.count$/, 'requests'],
  [/^successes\.latency\.(request_latency|time_to_first_token)$/, 's'],
  // per output token: seconds (per token), as the tool divides them
  [/^successes\.latency\.(time_per_output_token|normalized_time_per_output_token|inter_token_latency)$/, 's'],
  [/^failures\.request_latency$/, 's'],
  [/^successes\.throughput\.(input|output|total)_tokens_per_sec$/, 'tokens/s'],
  [/^successes\.throughput\.requests_per_sec$/, '1/s'],
  [/^successes\.throughput\.images_per_sec$/, 'images/s'],
  [/^successes\.throughput\.videos_per_sec$/, 'videos/s'],
  [/^successes\.throughput\.audios_per_sec$/, 'audios/s'],
  [/^(successes|failures)\.(prompt_len|output_len)$/, 'tokens'],
  [/^(successes|failures)\.(prompt_tokens|output_tokens)(\.(total|cached|uncached))?$/, 'tokens'],
  [/^successes\.token_count_mismatches$/, 'requests'],
  [/^successes\.request_size_bytes$/, 'bytes'],
  [/^successes\.image\.count$/, 'images'],
  [/^successes\.video\.count$/, 'videos'],
  [/^successes\.audio\.count$/, 'audios'],
  [/^successes\.(image|video)\.pixels$/, 'pixels'],
  [/^successes\.(image|video|audio)\.bytes$/, 'bytes'],
  [/^successes\.(image|video)\.aspect_ratio$/, '1'],
  [/^successes\.video\.frames$/, 'frames'],
  [/^successes\.audio\.seconds$/, 's'],
  [/^successes\.goodput_metrics\.(good_requests|total_requests)$/, 'requests'],
  [/^successes\.goodput_metrics\.(goodput_percentage|\w+_attainment_percentage)$/, '%'],
  [/^successes\.goodput_metrics\.request_goodput$/, '1/s'],
  [/^successes\.goodput_metrics\.token_goodput$/, 'tokens/s'],
];

export function lifecycleUnit(path: string): string | null {
  for (const [re, unit] of UNITS) if (re.test(path)) return unit;
  return null;
}

/** Whether a parsed value is a lifecycle report (the three top-level parts `ResponsesSummary` always has). */
export function isLifecycle(v: Json): boolean {
  return isObject(v) && isObject(v.load_summary) && isObject(v.successes) && 'failures' in v;
}

function parse(file: string, text: string): Json {
  const head = stripBom(text).trimStart()[0];
  return head === '{' || head === '[' ? parseJson(file, text) : parseYaml(file, text);
}

/** Every number of the report with its unit; the paths whose unit we do not know are returned apart. */
function flatten(obj: JsonObject): { reported: Record<string, Reported>; unknown: string[] } {
  const reported: Record<string, Reported> = {};
  const unknown: string[] = [];
  const walk = (v: Json, path: string, parent: string) => {
    if (typeof v === 'number') {
      const last = path.slice(parent.length + 1);
      const unit = lifecycleUnit(STAT.test(last) && parent ? parent : path);
      if (unit === null) unknown.push(path);
      else if (Number.isFinite(v)) reported[path] = { value: v, unit };
      return;
    }
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      // failure labels are counted apart (ImportResult.failures)
      if (path === 'failures' && k === 'by_label') continue;
      walk(x, path ? `${path}.${k}` : k, path);
    }
  };
  walk(obj, '', '');
  return { reported, unknown };
}

const g = (x: number): string => String(+x.toPrecision(4));

export function importInferencePerfLifecycle(file: string, input: ResultInput, _opts: ImportOptions, seen: Recognition): Imported {
  const text = input.text();
  const r: Reader = new Reader(file);
  const doc = parse(file, text);
  if (!isLifecycle(doc)) r.fail(`not an inference-perf lifecycle report: no load_summary, successes and failures at the top level${seen.looksLike}`);
  const obj = doc as JsonObject;
  const load = obj.load_summary as JsonObject;
  const { reported, unknown } = flatten(obj);
  const count = r.count(load.count, 'load_summary.count');
  const okCount = r.count((obj.successes as JsonObject).count, 'successes.count');
  const failures: Record<string, number> = {};
  const failed = isObject(obj.failures) ? r.count(obj.failures.count ?? 0, 'failures.count') : 0;
  const byLabel = isObject(obj.failures) && isObject(obj.failures.by_label) ? obj.failures.by_label : null;
  if (byLabel) for (const [label, v] of Object.entries(byLabel)) failures[label] = isObject(v) ? r.count(v.count, `failures.by_label.${label}.count`) : 0;
  else if (failed > 0) failures['failed (the file keeps no reasons)'] = failed;
  if (okCount + failed !== count) r.fail(`successes.count ${okCount} + failures.count ${failed} ≠ load_summary.count ${count}: the report is inconsistent`);

  const stage = 'requested_rate' in load;
  const requested = r.optNumber(load.requested_rate, 'load_summary.requested_rate');
  const achieved = r.optNumber(load.achieved_rate, 'load_summary.achieved_rate');
  const sendDuration = r.optNumber(load.send_duration, 'load_summary.send_duration');
  const concurrency = r.optNumber(load.concurrency, 'load_summary.concurrency');
  const notes: string[] = [];
  const delay = isObject(load.schedule_delay) ? load.schedule_delay : null;
  if (delay && typeof delay.mean === 'number') {
    const tail = [typeof delay.p99 === 'number' ? `p99 ${g(delay.p99)} s` : null, typeof delay.max === 'number' ? `max ${g(delay.max)} s` : null].filter(Boolean).join(', ');
    notes.push(
      `load_summary.schedule_delay is how long each request waited behind its schedule before it was sent (start_time − scheduled_time): ` +
        `mean ${g(delay.mean)} s${tail ? `, ${tail}` : ''}; no other tool writes this queue as an aggregate`,
    );
  }
  if (requested !== null && achieved !== null) {
    const share = requested > 0 ? achieved / requested : null;
    notes.push(
      `asked for ${g(requested)} req/s, sent ${g(achieved)} req/s (achieved_rate = count / send_duration${sendDuration !== null ? ` = ${count} / ${g(sendDuration)} s` : ''})` +
        (share !== null && share < 0.95 ? `: the load generator fell behind its schedule (${(share * 100).toFixed(0)}% of the asked rate)` : '') +
        // count / (last send − first send) spans count − 1 gaps, so a short stage reads high
        (share !== null && share > 1.05 ? `: above the asked rate because send_duration spans ${count - 1} gaps between ${count} sends` : ''),
    );
  }
  const outMin = reported['successes.output_len.min'] ?? reported['successes.output_tokens.min'];
  if (outMin && outMin.value === 0 && okCount > 0) {
    notes.push('some successful requests returned no output token (output length min 0): inference-perf counts their normalized_time_per_output_token as 0, which pulls its mean and low percentiles down');
  }
  if (unknown.length) notes.push(`${unknown.length} value(s) not shown, their unit unknown to this reader: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`);

  const parts = [
    ...(stripBom(text).trimStart()[0] === '{' ? [] : ['as YAML (inference-perf itself writes JSON)']),
    stage ? 'one stage (stage_<N>_lifecycle_metrics)' : 'the whole run (summary_lifecycle_metrics)',
    'benchmark_time_seconds' in obj ? 'with benchmark_time_seconds (7ebc8bb, Apr 2026, or later)' : 'without benchmark_time_seconds (before 7ebc8bb, Apr 2026)',
  ];
  const run: BenchmarkRun = {
    records: [],
    source: INFERENCE_PERF_SOURCE,
    maxConcurrency: concurrency,
    requestRate: requested,
    startT: 0,
    endT: typeof obj.benchmark_time_seconds === 'number' ? obj.benchmark_time_seconds : 0,
  };
  const lacks: Capability[] = ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'serverTokenCounts'];
  return {
    file,
    format: 'inference-perf-lifecycle',
    version: `inference-perf lifecycle report, ${parts.join(', ')}`,
    run,
    missing: ['aggregates only: no per-request records, so no definition can be recomputed (inference-perf writes them to per_request_lifecycle_metrics.json when report.request_lifecycle.per_request is true); the tool’s own aggregates are shown'],
    lacks,
    notes,
    clock: 'none (aggregates only)',
    lastTokenT: null,
    reported,
    completed: { key: 'successes.count', value: okCount, unit: 'requests' },
    failures,
  };
}
