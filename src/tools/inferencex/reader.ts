/**
 * InferenceX result files: the flat result object its pipeline writes per
 * run (`<run>.json`), the same objects collected in a JSON array
 * (`agg_bmk.json`), and the nested form with `request_metrics.latency.*`.
 * Aggregates only. Units as InferenceX computes them (its agentic lane
 * converts AIPerf's ms to seconds, gg_agentic/extract_agg_bmk.py; the
 * fixed-sequence lane, infx/results/fixed_sequence.py, divides vLLM's ms by 1000):
 * every ttft/tpot/itl/e2el statistic in SECONDS, `*_intvty` tokens/s per user
 * (1 / TPOT), `*_qps` requests/s (in the agentic lane, per-second counts:
 * p75_qps can be 0), `*_tput_tps` tokens/s of the deployment,
 * `*tput_per_gpu` tokens/s per GPU, `duration_seconds` s.
 */
import type { ResultInput } from '../base/input.ts';
import { fail, isObject, readJsonDocument, Reader, type Json, type JsonObject, type KeyUnit } from '../base/reading.ts';
import type { ImportOptions, Imported, Recognition, Reported } from '../base/result.ts';
import { selectRun } from '../base/reading.ts';

export const INFERENCEX_SOURCE = 'inferencex';

const STAT = '(mean|median|std|p\\d+(?:\\.\\d+)?)';

/** The unit of one InferenceX key as its pipeline computes it, or null for a setting. */
export function inferencexKeyUnit(key: string): KeyUnit | null {
  if (new RegExp(`^${STAT}_(ttft|tpot|itl|e2el)$`).test(key)) return { scale: 1, unit: 's' };
  if (new RegExp(`^${STAT}_(intvty|e2e_norm_intvty)$`).test(key)) return { scale: 1, unit: 'tokens/s per user' };
  if (new RegExp(`^${STAT}_qps$`).test(key)) return { scale: 1, unit: '1/s' };
  if (new RegExp(`^${STAT}_(input_tokens|output_tokens_actual|output_tokens_expected)$`).test(key)) return { scale: 1, unit: 'tokens' };
  if (/^(input|output|total)_tput_tps$/.test(key)) return { scale: 1, unit: 'tokens/s' };
  if (/tput_per_gpu$/.test(key)) return { scale: 1, unit: 'tokens/s per GPU' };
  if (key === 'duration_seconds') return { scale: 1, unit: 's' };
  if (/^total_(prompt|generation)_tokens$/.test(key)) return { scale: 1, unit: 'tokens' };
  if (/^(num_requests_total|num_requests_successful|total_requests_completed)$/.test(key)) return { scale: 1, unit: 'requests' };
  if (/cache_hit_rate$/.test(key)) return { scale: 1, unit: '1' };
  if (/_pct$/.test(key)) return { scale: 1, unit: '%' };
  if (/^kv_offload_bytes_/.test(key)) return { scale: 1, unit: 'bytes' };
  if (/^kv_offload_time_/.test(key)) return { scale: 1, unit: 's' };
  return null;
}

/** The keys only InferenceX's result objects hold. */
export function isInferencexObject(v: Json): boolean {
  if (!isObject(v)) return false;
  const o = flat(v); // the nested form keeps its statistics under request_metrics.latency
  return ('tput_per_gpu' in o || 'median_intvty' in o || 'mean_intvty' in o) && ('hw' in o || 'conc' in o || 'infmax_model_prefix' in o);
}

/** Flatten `request_metrics.latency.mean_ttft` and the like into the flat keys. */
function flat(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) {
    if (isObject(v) && /metrics|latency|throughput/.test(k)) Object.assign(out, flat(v));
    else out[k] = v;
  }
  return out;
}

function importOne(r: Reader, raw: Json, where: string): Imported {
  const o = flat(r.object(raw, where));
  const reported: Record<string, Reported> = {};
  for (const [k, v] of Object.entries(o)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const u = inferencexKeyUnit(k);
    if (u) reported[k] = { value: v * u.scale, unit: u.unit };
  }
  if (Object.keys(reported).length === 0) r.fail(`${where}: no InferenceX metric (mean_ttft, median_intvty, tput_per_gpu …) with a number`);
  const completed = typeof o.total_requests_completed === 'number' ? o.total_requests_completed : typeof o.num_requests_successful === 'number' ? o.num_requests_successful : null;
  const failures: Record<string, number> = {};
  if (typeof o.num_requests_total === 'number' && typeof o.num_requests_successful === 'number' && o.num_requests_total > o.num_requests_successful) {
    failures.failed = o.num_requests_total - o.num_requests_successful;
  }
  const conc = typeof o.conc === 'number' ? o.conc : null;
  const notes: string[] = [];
  const setting = (k: string): string | null => (typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : typeof o[k] === 'number' ? String(o[k]) : null);
  const what = ['model', 'hw', 'framework', 'precision', 'scenario_type'].map((k) => (setting(k) ? `${k} ${setting(k)}` : null)).filter((x) => x !== null);
  if (what.length) notes.push(what.join(', '));
  const empty = ['image', 'framework', 'precision'].filter((k) => o[k] === '');
  if (empty.length) notes.push(`${empty.join(', ')} ${empty.length === 1 ? 'is' : 'are'} empty in the file`);
  if (typeof o.mean_itl === 'number' && o.mean_itl === o.mean_tpot) notes.push('mean_itl equals mean_tpot: InferenceX’s agentic lane fills both from AIPerf’s inter_token_latency');
  return {
    file: r.file,
    format: 'inferencex',
    version: `InferenceX result${typeof o.scenario_type === 'string' ? ` (${o.scenario_type})` : ''}`,
    run: { records: [], source: INFERENCEX_SOURCE, maxConcurrency: conc, requestRate: null, startT: 0, endT: 0 },
    missing: ['aggregates only (an InferenceX result): no definition can be recomputed; the per-request records of the same run (AIPerf’s profile_export.jsonl) can be'],
    lacks: ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'runWindow'],
    notes,
    clock: 'none (aggregates only)',
    lastTokenT: null,
    reported,
    failures,
    ...(completed !== null ? { completed: { key: typeof o.total_requests_completed === 'number' ? 'total_requests_completed' : 'num_requests_successful', value: completed, unit: 'requests' } } : {}),
  };
}

export function importInferencex(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r = new Reader(file);
  const doc = readJsonDocument(input);
  const entries = Array.isArray(doc) ? doc : [doc];
  if (entries.length === 0) fail(file, 'is an empty list: agg_bmk.json holds one result object per run');
  if (!entries.every(isInferencexObject)) r.fail(`not an InferenceX result: expected objects with tput_per_gpu or *_intvty beside hw/conc${seen.looksLike}`);
  const label = (e: Json): string => {
    const o = isObject(e) ? e : {};
    return [o.model, o.hw, o.tp !== undefined ? `tp ${o.tp}` : null, o.conc !== undefined ? `conc ${o.conc}` : null].filter((x) => x !== null && x !== undefined && x !== '').join(', ');
  };
  return selectRun(file, entries, opts.entry, 'results (agg_bmk.json)', (e, i) => importOne(r, e, Array.isArray(doc) ? `[${i}]` : 'the result'), label);
}
