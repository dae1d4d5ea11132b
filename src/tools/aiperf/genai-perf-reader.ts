/**
 * GenAI-Perf's per-request `profile_export.json`, written by perf_analyzer
 * (triton-inference-server/perf_analyzer src/profile_data_exporter.cc
 * @263c5f6e): `experiments[]`, each `{experiment: {mode, value}, requests[],
 * window_boundaries}`; a request is `{timestamp, request_inputs,
 * response_timestamps[], response_outputs[]}` with every timestamp an integer
 * of NANOSECONDS since the epoch (std::chrono::system_clock, written with
 * SetUint64), one per response the server streamed.
 *
 * GenAI-Perf keeps only responses with content (genai_perf/profile_data_parser/
 * llm_profile_data_parser.py `_preprocess_response`: the SSE `[DONE]`, and
 * empty first or last responses, are dropped); so does this reader, when the
 * response outputs are in the file. Mapping to RequestRecord (t = 0 at the
 * earliest request timestamp): sendT = timestamp, chunkTimes = the kept
 * response timestamps, firstT = the first, finishT = the last (GenAI-Perf's
 * request latency). Output tokens: the last response's `usage.completion_tokens`
 * when the server sent usage, else unknown (GenAI-Perf tokenizes the text).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import { isObject, parseJson, Reader, selectRun, type Json, type JsonObject } from '../base/reading.ts';
import { stripBom } from '../base/json-text.ts';
import type { ResultInput } from '../base/input.ts';
import type { Capability, ImportOptions, Imported, Recognition } from '../base/result.ts';

export const GENAI_PERF_SOURCE = 'genai-perf';

/** perf_analyzer's export: experiments with requests that carry response_timestamps. */
export function isGenaiPerfExport(v: Json): boolean {
  if (!isObject(v) || !Array.isArray(v.experiments)) return false;
  const e = v.experiments.find(isObject);
  return isObject(e) && Array.isArray(e.requests) && (e.requests.length === 0 || (isObject(e.requests[0]) && 'response_timestamps' in e.requests[0]));
}

/** Quote the nanosecond integers so every digit survives (they exceed 2^53). */
function protectNs(text: string): string {
  return text
    .replace(/("timestamp"\s*:\s*)(\d+)/g, '$1"$2"')
    .replace(/("response_timestamps"\s*:\s*\[)([\d\s,]*)\]/g, (_m, head: string, list: string) => `${head}${list.split(',').map((x) => x.trim()).filter(Boolean).map((x) => `"${x}"`).join(',')}]`);
}

/** Whether one streamed response carries content (not `[DONE]`, not an empty delta), and its usage count if any. */
function responseContent(out: Json): { content: boolean; completionTokens: number | null } | null {
  if (!isObject(out) || typeof out.response !== 'string') return null;
  const body = out.response.trim().replace(/^data:\s*/, '');
  if (body === '' || body === '[DONE]') return { content: false, completionTokens: null };
  let data: Json;
  try {
    data = JSON.parse(body) as Json;
  } catch {
    return { content: true, completionTokens: null }; // not JSON (a Triton response): it is the output
  }
  const usage = isObject(data) && isObject(data.usage) && typeof data.usage.completion_tokens === 'number' ? data.usage.completion_tokens : null;
  const choice = isObject(data) && Array.isArray(data.choices) && isObject(data.choices[0]) ? data.choices[0] : null;
  const text = choice ? (isObject(choice.delta) ? choice.delta.content : choice.text) : null;
  return { content: typeof text === 'string' && text !== '', completionTokens: usage };
}

function importExperiment(r: Reader, e: JsonObject, where: string, version: string): Imported {
  const reqs = r.array(e.requests, `${where}.requests`);
  if (reqs.length === 0) r.fail(`${where}.requests is empty: the run has no requests, so there is nothing to compute`);
  const big = (v: Json | undefined, at: string): bigint => {
    if (typeof v !== 'string' || !/^\d+$/.test(v)) r.fail(`${at} should be an integer of nanoseconds since the epoch, found ${JSON.stringify(v)}`);
    return BigInt(v);
  };
  const raw = reqs.map((q, i) => {
    const o = r.object(q, `${where}.requests[${i}]`);
    const ts = big(o.timestamp, `${where}.requests[${i}].timestamp`);
    const res = r.array(o.response_timestamps, `${where}.requests[${i}].response_timestamps`).map((t, k) => big(t, `${where}.requests[${i}].response_timestamps[${k}]`));
    return { i, o, ts, res };
  });
  const origin = raw.reduce((m, x) => (x.ts < m ? x.ts : m), raw[0].ts);
  const sec = (t: bigint): number => Number(t - origin) / 1e9;
  let dropped = 0;
  let withOutputs = 0;
  let withUsage = 0;
  const records: RequestRecord[] = raw.map(({ i, o, ts, res }) => {
    for (let k = 1; k < res.length; k++) if (res[k] < res[k - 1]) r.fail(`${where}.requests[${i}].response_timestamps[${k}] is before the one before it`);
    if (res.length && res[0] < ts) r.fail(`${where}.requests[${i}]: the first response is before the request's timestamp`);
    const outs = Array.isArray(o.response_outputs) && o.response_outputs.length === res.length ? o.response_outputs.map(responseContent) : null;
    let kept = res;
    let usage: number | null = null;
    if (outs && outs.every((x) => x !== null)) {
      withOutputs++;
      kept = res.filter((_t, k) => outs[k]!.content);
      dropped += res.length - kept.length;
      usage = outs.reduce<number | null>((u, x) => x!.completionTokens ?? u, null);
      if (usage !== null) withUsage++;
    }
    const sendT = sec(ts);
    if (kept.length === 0) {
      return { dueT: null, sendT, chunkTimes: null, chunkTokens: null, firstT: null, finishT: res.length ? sec(res[res.length - 1]) : sendT, inputTokens: NaN, outputTokens: null, ok: false, preemptions: null };
    }
    const chunkTimes = Float64Array.from(kept, sec);
    return { dueT: null, sendT, chunkTimes, chunkTokens: null, firstT: chunkTimes[0], finishT: chunkTimes[chunkTimes.length - 1], inputTokens: NaN, outputTokens: usage, ok: true, preemptions: null };
  });
  const failed = records.filter((x) => !x.ok).length;
  const lacks = new Set<Capability>(['schedule', 'chunkTokens', 'inputTokens', 'serverTokenCounts']);
  const missing = [
    'no scheduled times: GenAI-Perf stamps the send only, so latency from the schedule cannot be computed',
    'no per-chunk token counts: a chunk’s tokens are assumed to be the request’s output tokens spread evenly',
    'no prompt token counts (GenAI-Perf tokenizes the request inputs itself)',
  ];
  if (withUsage < records.length - failed) {
    missing.push('no output token counts for every request (GenAI-Perf tokenizes the text; usage is read where the server sent it): per-token definitions cannot be computed');
    lacks.add('outputTokens');
  }
  const notes = [`experiment: ${isObject(e.experiment) ? `${e.experiment.mode} ${e.experiment.value}` : 'not stated'}`, 'timestamps are nanoseconds since the epoch (perf_analyzer’s system_clock), read exactly and made relative to the earliest request'];
  if (dropped) notes.push(`${dropped} response(s) without content (the SSE [DONE], empty deltas) are left out, as GenAI-Perf leaves them out`);
  if (withOutputs < records.length) notes.push(`${records.length - withOutputs} request(s) have no response_outputs to tell content from: all their responses are kept`);
  const run: BenchmarkRun = {
    records,
    source: GENAI_PERF_SOURCE,
    maxConcurrency: isObject(e.experiment) && e.experiment.mode === 'concurrency' && typeof e.experiment.value === 'number' ? e.experiment.value : null,
    requestRate: isObject(e.experiment) && e.experiment.mode === 'request_rate' && typeof e.experiment.value === 'number' ? e.experiment.value : null,
    startT: 0,
    endT: records.reduce((m, x) => Math.max(m, x.finishT), 0),
  };
  return {
    file: r.file,
    format: 'genai-perf',
    version,
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: `seconds after the earliest request timestamp (epoch ${origin} ns)`,
    lastTokenT: null,
    reported: {},
    failures: failed ? { 'no response with content': failed } : {},
  };
}

export function importGenaiPerf(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r = new Reader(file);
  const doc = parseJson(file, protectNs(stripBom(input.text())));
  if (!isGenaiPerfExport(doc)) r.fail(`not a GenAI-Perf profile_export.json: no experiments[].requests[] with response_timestamps${seen.looksLike}`);
  const d = doc as JsonObject;
  const version = `GenAI-Perf profile_export.json (perf_analyzer${typeof d.version === 'string' && d.version ? ` ${d.version}` : ''}; ${typeof d.service_kind === 'string' ? d.service_kind : 'service kind not written'}${typeof d.endpoint === 'string' && d.endpoint ? ` ${d.endpoint}` : ''})`;
  const exps = d.experiments as Json[];
  const label = (e: Json): string => (isObject(e) && isObject(e.experiment) ? `${e.experiment.mode} ${e.experiment.value}` : 'an experiment');
  return selectRun(file, exps, opts.entry, 'experiments', (e, i) => importExperiment(r, r.object(e, `experiments[${i}]`), `experiments[${i}]`, version), label);
}
