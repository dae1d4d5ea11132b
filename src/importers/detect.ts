/**
 * Which tool wrote a result file: by content first (key signatures read from
 * each tool's writer; docs/definitions.md lists the files), by file name only as a fallback
 * (so a truncated `profile_export.jsonl` still reaches the AIPerf importer,
 * which then names the problem).
 */
import { isObject, type Json, type JsonObject } from './common.ts';
import { isAggregateExport } from './aiperf.ts';
import { parsePythonJson, stripBom } from './json-text.ts';
import { FORMAT_NAMES, type Format } from './types.ts';

const SGLANG_ONLY = [
  'total_output_tokens_retokenized',
  'mean_e2e_latency_ms',
  'median_e2e_latency_ms',
  'sharegpt_output_len',
  'random_input_len',
  'accept_length',
  'total_input_text_tokens',
];
const VLLM_KEYS = [
  'start_times',
  'queue_times',
  'latencies',
  'mean_e2el_ms',
  'endpoint_type',
  'num_prompts',
  'mean_ttft_ms',
  'request_throughput',
];
const LLMPERF_KEYS = ['end_to_end_latency_s', 'ttft_s', 'inter_token_latency_s', 'number_output_tokens'];

function has(o: JsonObject, keys: string[]): boolean {
  return keys.some((k) => k in o);
}

/** The format of one parsed JSON value (a whole document or one JSON line), or null. */
export function sniffValue(v: Json): Format | null {
  if (Array.isArray(v)) {
    const first = v.find((e) => isObject(e));
    if (first === undefined) return null;
    if (has(first as JsonObject, LLMPERF_KEYS)) return 'llmperf';
    if ('ph' in (first as JsonObject) && 'name' in (first as JsonObject)) return 'mlperf-trace';
    return null;
  }
  if (!isObject(v)) return null;
  if (Array.isArray(v.traceEvents)) return 'mlperf-trace';
  if (Array.isArray(v.benchmarks)) return 'guidellm';
  if (isObject(v.metadata) && isObject(v.metrics)) return 'aiperf';
  // AIPerf's aggregate export (profile_export_aiperf.json): per-metric statistics under "records" or at the top level
  if (isAggregateExport(v)) return 'aiperf';
  // LLMPerf's _summary.json: flat results_* keys
  if (Object.keys(v).some((k) => /^results_(ttft_s|end_to_end_latency_s|inter_token_latency_s)_/.test(k))) return 'llmperf';
  if (has(v, SGLANG_ONLY)) return 'sglang';
  if (has(v, VLLM_KEYS)) return 'vllm';
  if (has(v, LLMPERF_KEYS)) return 'llmperf';
  return null;
}

function firstLine(text: string): string | undefined {
  return text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
}

/** The file-name conventions of each tool's writer. */
export function formatFromName(path: string): Format | null {
  const name = path.split(/[\\/]/).pop()!.toLowerCase();
  if (name.includes('mlperf_log_detail')) return 'mlperf-detail';
  if (name.includes('mlperf_log_summary')) return 'mlperf-summary';
  if (name.includes('mlperf_log_trace')) return 'mlperf-trace';
  if (name.includes('profile_export') && name.endsWith('.jsonl')) return 'aiperf';
  if (name.includes('individual_responses')) return 'llmperf';
  if (name.startsWith('benchmarks') && name.endsWith('.json')) return 'guidellm';
  return null;
}

/** Content-based detection of a whole file's text. */
export function sniffText(raw: string): Format | null {
  const text = stripBom(raw);
  const head = firstLine(text);
  if (head === undefined) return null;
  if (head.startsWith(':::MLLOG')) return 'mlperf-detail';
  if (/^=+$/.test(head) && /^MLPerf Results Summary\s*$/m.test(text.slice(0, 400))) return 'mlperf-summary';
  // LoadGen traces are not valid JSON (see json-text.ts); their opening is enough
  if (/^\{\s*"traceEvents"\s*:\s*\[/.test(text.trimStart())) return 'mlperf-trace';
  try {
    return sniffValue(parsePythonJson(text));
  } catch {
    /* not one JSON document: try the first line (JSON lines) */
  }
  try {
    return sniffValue(parsePythonJson(head));
  } catch {
    return null;
  }
}

/** The format of a result file, or null when neither content nor name tells. */
export function detectFormat(path: string, text: string): Format | null {
  return sniffText(text) ?? formatFromName(path);
}

/** For errors under an explicit --format: " (it looks like an AIPerf file: --format aiperf)" or "". */
export function looksLike(text: string): string {
  const f = sniffText(text);
  return f ? ` (it looks like ${FORMAT_NAMES[f]}: --format ${f})` : '';
}
