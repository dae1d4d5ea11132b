/**
 * vLLM `vllm bench serve --save-result --save-detailed` (vllm/benchmarks/serve.py,
 * read at commit 009e6d4a1cd6) and its predecessor `benchmarks/benchmark_serving.py`
 * (2024), whose files have `ttfts`, `itls`, `input_lens`, `output_lens` but no
 * `start_times` or `latencies`, and name E2E `*_latency_ms` instead of `*_e2el_ms`.
 *
 * Units: every per-request array is in SECONDS (`ttfts`, `itls`, `latencies`,
 * `queue_times`; `start_times` are `time.perf_counter()` values, seconds from an
 * arbitrary origin); summary keys ending in `_ms` are milliseconds; `duration`
 * is seconds. Arrays are index-aligned and include failed requests
 * (`errors[i]` non-empty, `ttfts[i]` = 0, `output_lens[i]` = 0).
 *
 * Mapping to RequestRecord:
 *   sendT   = start_times[i]                      (clock starts after the concurrency semaphore)
 *   dueT    = start_times[i] − queue_times[i]     (when get_request yielded it; null without queue_times)
 *   firstT  = sendT + ttfts[i]
 *   chunkTimes = firstT, then + each itls[i][k]   (one gap per choices-bearing SSE message)
 *   finishT = sendT + latencies[i]                (last choices-bearing message; older files
 *                                                  without `latencies`: firstT + Σ itls[i])
 * Run window: D = `duration` ends when all tasks finish, so endT = max finishT, startT = endT − D.
 *
 * Without start_times each request sits on its own clock (sendT = 0, finish at
 * its last chunk, firstT + Σ itls): per-request definitions are exact, rates use
 * `duration` only, and nothing that needs requests on one timeline is computed.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import type { ResultInput } from '../base/input.ts';
import { isNumberLists, type NumberLists } from '../base/number-lists.ts';
import {
  CLOCK_PRECISION,
  CONSISTENCY_TOLERANCE,
  MAX_CLOCK_S,
  chunkTimesFromGaps,
  collectReported,
  isCount,
  isDuration,
  isFiniteNumber,
  isObject,
  readJsonOrLines,
  parseRate,
  Reader,
  selectRun,
  summaryKeyUnit,
  type Json,
  type JsonObject,
} from '../base/reading.ts';
import type { Capability, ImportOptions, Imported, ImportResult, Recognition } from '../base/result.ts';

export const VLLM_SOURCE = 'vllm-bench-serve';

export function importVllm(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const doc = readJsonOrLines(input);
  // `vllm bench sweep` writes summary.json as one JSON array of the runs' results
  const sweep = doc.length === 1 && Array.isArray(doc[0]);
  const entries = sweep ? (doc[0] as Json[]) : doc;
  const label = (e: Json): string => {
    if (!isObject(e)) return 'not a result object';
    const rate = e.request_rate === Infinity ? 'inf' : e.request_rate;
    // a sweep's other keys beside the result are the swept server settings (max_num_seqs …)
    const swept = sweep ? Object.keys(e).filter((k) => k !== 'run_number' && !KNOWN_RESULT_KEYS.test(k) && (typeof e[k] === 'number' || typeof e[k] === 'string')) : [];
    return [
      ...(sweep && e.run_number !== undefined ? [`run ${e.run_number}`] : []),
      ...swept.map((k) => `${k} ${e[k]}`),
      `rate ${rate ?? '?'}, max concurrency ${e.max_concurrency ?? 'none'}, ${e.num_prompts ?? '?'} prompts`,
    ].join(', ');
  };
  return selectRun(file, entries, opts.entry, sweep ? 'runs (a vllm bench sweep summary)' : 'results (appended with --append-result)', (obj) => {
    if (!isObject(obj) || seen.recognise(obj) !== 'vllm') {
      r.fail(`not a vLLM benchmark result: no start_times, ttfts, mean_ttft_ms or request_throughput at the top level${seen.looksLike}`);
    }
    return vllmObjectToImport(r, obj);
  }, label);
}

/** Keys every `vllm bench serve` result holds (serve.py `benchmark` and `save_to_pytorch_benchmark_format` callers); the rest of a sweep entry is its swept settings. */
const KNOWN_RESULT_KEYS = /^(date|endpoint_type|backend|label|model_id|tokenizer_id|best_of|num_prompts|request_rate|burstiness|max_concurrency|duration|completed|failed|total_input_tokens|total_output_tokens|request_throughput|request_goodput|output_throughput|total_token_throughput|max_output_tokens_per_s|max_concurrent_requests|rtfx|(mean|median|std|p[\d.]+)_\w+_ms)$/;

/** Which writer made the file, from the keys it holds. */
function vllmVersion(obj: JsonObject): string {
  const e2el = Object.keys(obj).some((k) => /_e2el_ms$/.test(k));
  const old = Object.keys(obj).some((k) => /^(mean|median|p\d+(\.\d+)?)_latency_ms$/.test(k));
  const writer = e2el ? 'vllm bench serve / benchmark_serving.py with *_e2el_ms keys (from late 2024)' : old ? 'benchmark_serving.py with *_latency_ms keys (2024)' : 'vLLM serving benchmark';
  const detail = obj.start_times != null ? ', per-request start_times' : obj.ttfts != null ? ', per-request ttfts/itls without start_times' : ', aggregates only';
  return writer + detail;
}

function vllmObjectToImport(r: Reader, obj: JsonObject): Imported {
  const missing: string[] = [];
  const lacks = new Set<Capability>();
  const notes: string[] = [];
  const durationRaw = r.optNumber(obj.duration, 'duration');
  if (durationRaw !== null && durationRaw <= 0) r.fail(`duration = ${durationRaw}; the benchmark duration must be > 0 s`);
  const requestRate = parseRate(r, obj.request_rate, 'request_rate');
  const maxConcurrency = r.optNumber(obj.max_concurrency, 'max_concurrency');
  const reported = collectReported(obj, summaryKeyUnit);
  const version = vllmVersion(obj);
  const failures: Record<string, number> = {};
  if (durationRaw === null) {
    missing.push('no duration: request and token throughputs cannot be computed');
    lacks.add('runWindow');
  }

  const startTimes = obj.start_times;
  if ((startTimes === undefined || startTimes === null) && (obj.ttfts === undefined || obj.ttfts === null)) {
    // Saved without --save-detailed: aggregates only.
    missing.push('no per-request data (saved without --save-detailed): no definition can be recomputed; the tool’s own aggregates are shown');
    lacks.add('records').add('timeline').add('schedule').add('chunkTimes').add('chunkTokens').add('firstToken');
    const run: BenchmarkRun = { records: [], source: VLLM_SOURCE, maxConcurrency, requestRate, startT: 0, endT: durationRaw ?? 0 };
    return { file: r.file, format: 'vllm', version, run, missing, lacks: [...lacks], notes, clock: 'none (aggregates only)', lastTokenT: null, reported, failures, ...completedOf(obj, reported) };
  }
  if (startTimes === undefined || startTimes === null) return ownClockImport(r, obj, { version, reported, missing, lacks, notes, requestRate, maxConcurrency, duration: durationRaw, failures });
  const duration = durationRaw ?? NaN;
  const starts = r.array(startTimes, 'start_times');
  const n = starts.length;
  if (n === 0) r.fail('start_times is empty: the run has no requests, so there is nothing to compute');
  const ttfts = r.alignedArray(obj, 'ttfts', n);
  const itls = r.alignedLists(obj, 'itls', n);
  const latencies = r.alignedArray(obj, 'latencies', n);
  const queueTimes = r.alignedArray(obj, 'queue_times', n);
  const inputLens = r.alignedArray(obj, 'input_lens', n);
  const outputLens = r.alignedArray(obj, 'output_lens', n);
  const errors = r.alignedArray(obj, 'errors', n);
  if (!ttfts) r.fail('has start_times but no ttfts; a --save-detailed file has both');

  let disagree = 0;
  let worst = 0;
  const records: RequestRecord[] = [];
  // every request's chunk times in one buffer, each record a view of its part (a buffer per request costs more than its times)
  let pool: Float64Array | null = null;
  let used = 0;
  if (itls) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const g = listAt(itls, i);
      if (g !== null) total += g.length + 1;
    }
    pool = new Float64Array(total);
  }
  for (let i = 0; i < n; i++) {
    const s = starts[i];
    const sendT = isFiniteNumber(s) ? s : r.number(s, `start_times[${i}]`);
    if (sendT < 0) r.fail(`start_times[${i}] = ${sendT} is negative; perf_counter times are ≥ 0`);
    if (sendT > MAX_CLOCK_S) r.fail(`start_times[${i}] = ${sendT} s: ${CLOCK_PRECISION}`);
    const err = errors ? errors[i] : '';
    const ok = err === '' || err === null;
    const queue = queueTimes ? durationAt(r, queueTimes[i], 'queue_times', i) : null;
    const dueT = queue === null ? null : sendT - queue;
    const inputTokens = inputLens ? countAt(r, inputLens[i], 'input_lens', i) : NaN;
    const outLen = outputLens ? countAt(r, outputLens[i], 'output_lens', i) : null;
    const ttft = durationAt(r, ttfts[i], 'ttfts', i);
    const gaps = itls ? checkedGaps(r, itls, i) : null;
    const latency = latencies ? durationAt(r, latencies[i], 'latencies', i) : null;
    if (!ok) {
      const why = typeof err === 'string' ? err.split('\n')[0].slice(0, 80) : 'error';
      failures[why] = (failures[why] ?? 0) + 1;
      records.push({
        dueT, sendT, chunkTimes: null, chunkTokens: null, firstT: null,
        finishT: sendT + (latency ?? 0), inputTokens, outputTokens: null, ok: false, preemptions: null,
      });
      continue;
    }
    if (latency !== null && latency + CONSISTENCY_TOLERANCE * Math.max(1, latency) < ttft) {
      r.fail(
        `latencies[${i}] = ${latency} s ends before ttfts[${i}] = ${ttft} s: a request cannot finish before its first token (are both in seconds?)`,
      );
    }
    const firstT = sendT + ttft;
    const chunkTimes = gaps ? chunkTimesFromGaps(firstT, gaps, pool!.subarray(used, (used += gaps.length + 1))) : null;
    const lastChunk = chunkTimes ? chunkTimes[chunkTimes.length - 1] : firstT;
    if (latency !== null && chunkTimes) {
      const diff = Math.abs(sendT + latency - lastChunk);
      if (diff > CONSISTENCY_TOLERANCE * Math.max(1, latency) + 1e-6) {
        disagree++;
        worst = Math.max(worst, diff);
      }
    }
    records.push({
      dueT,
      sendT,
      chunkTimes,
      chunkTokens: null,
      firstT,
      finishT: latency !== null ? sendT + latency : lastChunk,
      inputTokens,
      outputTokens: outLen === null || outLen === 0 ? null : outLen,
      ok: true,
      preemptions: null,
    });
  }

  const endT = records.reduce((m, x) => Math.max(m, x.finishT), -Infinity);
  const firstSend = records.reduce((m, x) => Math.min(m, x.dueT ?? x.sendT), Infinity);
  const span = endT - firstSend;
  if (n > 0 && Number.isFinite(duration) && span > duration * (1 + 1e-3) + 1e-3) {
    r.fail(`duration = ${duration} s is shorter than the span of the requests (${span.toPrecision(6)} s from the first start to the last finish): are start_times and duration in seconds?`);
  }

  if (!queueTimes) {
    missing.push('no queue_times: scheduled (due) times are unknown, so latency from the schedule (coordinated-omission-corrected) cannot be computed');
    lacks.add('schedule');
  }
  if (!itls) {
    missing.push('no itls: no per-chunk times, so ITL and TPOT-with-gaps cannot be computed');
    lacks.add('chunkTimes');
  }
  missing.push('no per-chunk token counts: a chunk’s tokens are assumed to be the request’s output tokens spread evenly (vLLM’s own ITL is per chunk)');
  lacks.add('chunkTokens');
  if (!inputLens) {
    missing.push('no input_lens: prompt tokens are unknown (input and total token throughput cannot be computed)');
    lacks.add('inputTokens');
  }
  if (!outputLens) {
    missing.push('no output_lens: output tokens are unknown, so per-token speeds and token throughput cannot be computed');
    lacks.add('outputTokens').add('serverTokenCounts');
  }
  if (!errors) notes.push('no errors list: every request is taken as successful');
  if (!latencies) notes.push('no latencies list (older vLLM): each finish is the last chunk, firstT + Σ itls');
  if (disagree > 0) {
    notes.push(`${disagree} request(s) have latencies that differ from ttft + Σ itls by up to ${worst.toPrecision(3)} s; finish times follow latencies`);
  }
  notes.push('times are seconds on the client’s perf_counter clock (arbitrary origin), as vLLM wrote them');

  const run: BenchmarkRun = {
    records,
    source: VLLM_SOURCE,
    maxConcurrency,
    requestRate,
    startT: n > 0 ? (Number.isFinite(duration) ? endT - duration : firstSend) : 0,
    endT: n > 0 ? endT : Number.isFinite(duration) ? duration : 0,
  };
  return {
    file: r.file,
    format: 'vllm',
    version,
    failures,
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: 'time.perf_counter() of the benchmark client (arbitrary origin)',
    lastTokenT: null,
    reported,
  };
}

/*
 * Each value is tested before its path is spelled out: the path (`ttfts[12]`)
 * is made only for the message of one that fails, never for the millions that pass.
 */
const durationAt = (r: Reader, v: Json, key: string, i: number): number => (isDuration(v) ? v : r.duration(v, `${key}[${i}]`));
const countAt = (r: Reader, v: Json, key: string, i: number): number => (isCount(v) ? v : r.count(v, `${key}[${i}]`));

/** `itls[i]` when it is a list (its numbers, when the document kept them packed), else null. */
function listAt(itls: Json[] | NumberLists, i: number): ArrayLike<Json> | null {
  if (isNumberLists(itls)) {
    const numbers = itls.numbers(i);
    if (numbers !== null) return numbers;
    const other = itls.other(i);
    return Array.isArray(other) ? other : null;
  }
  const g = itls[i];
  return Array.isArray(g) ? g : null;
}

/** `itls[i]`, every gap checked as a duration (the path spelled out only for one that fails). */
function checkedGaps(r: Reader, itls: Json[] | NumberLists, i: number): ArrayLike<number> {
  const packed = isNumberLists(itls) ? itls.numbers(i) : null;
  if (packed !== null) {
    for (let k = 0; k < packed.length; k++) if (!isDuration(packed[k])) r.duration(packed[k], `itls[${i}][${k}]`);
    return packed;
  }
  const v = isNumberLists(itls) ? itls.other(i)! : itls[i];
  const gaps = Array.isArray(v) ? v : r.array(v, `itls[${i}]`);
  for (let k = 0; k < gaps.length; k++) if (!isDuration(gaps[k])) r.duration(gaps[k], `itls[${i}][${k}]`);
  return gaps as number[];
}

/**
 * What an aggregate-only result says completed: its `completed` count; a file
 * without one (older writers) whose every latency aggregate is 0.0 is a run in
 * which nothing succeeded (serve.py writes 0 for the statistics of an empty list).
 */
function completedOf(obj: JsonObject, reported: ImportResult['reported']): Pick<Imported, 'completed'> {
  if (typeof obj.completed === 'number') return { completed: { key: 'completed', value: obj.completed, unit: 'requests' } };
  const latencies = Object.keys(reported).filter((k) => /_ms$/.test(k));
  if (latencies.length > 0 && latencies.every((k) => reported[k].value === 0)) return { completed: { key: `every *_ms aggregate is 0.0 (${latencies.length} keys), so completed`, value: 0, unit: 'requests' } };
  return {};
}

interface OwnClockContext {
  version: string;
  reported: ImportResult['reported'];
  missing: string[];
  lacks: Set<Capability>;
  notes: string[];
  requestRate: number | null;
  maxConcurrency: number | null;
  duration: number | null;
  failures: Record<string, number>;
}

/** benchmark_serving.py of 2024: ttfts and itls per request, no start times, no latencies. */
function ownClockImport(r: Reader, obj: JsonObject, c: OwnClockContext): Imported {
  const ttfts = r.array(obj.ttfts, 'ttfts');
  const n = ttfts.length;
  if (n === 0) r.fail('ttfts is empty: the run has no requests, so there is nothing to compute');
  const itls = r.alignedLists(obj, 'itls', n);
  const latencies = r.alignedArray(obj, 'latencies', n);
  const inputLens = r.alignedArray(obj, 'input_lens', n);
  const outputLens = r.alignedArray(obj, 'output_lens', n);
  const errors = r.alignedArray(obj, 'errors', n);
  const records: RequestRecord[] = [];
  for (let i = 0; i < n; i++) {
    const err = errors ? errors[i] : '';
    const ok = err === '' || err === null;
    const ttft = durationAt(r, ttfts[i], 'ttfts', i);
    const gaps = itls ? checkedGaps(r, itls, i) : null;
    const latency = latencies ? durationAt(r, latencies[i], 'latencies', i) : null;
    const inputTokens = inputLens ? countAt(r, inputLens[i], 'input_lens', i) : NaN;
    if (!ok) {
      const why = typeof err === 'string' ? err.split('\n')[0].slice(0, 80) : 'error';
      c.failures[why] = (c.failures[why] ?? 0) + 1;
      records.push({ dueT: null, sendT: 0, chunkTimes: null, chunkTokens: null, firstT: null, finishT: latency ?? 0, inputTokens, outputTokens: null, ok: false, preemptions: null });
      continue;
    }
    const chunkTimes = gaps ? chunkTimesFromGaps(ttft, gaps) : null;
    const last = chunkTimes ? chunkTimes[chunkTimes.length - 1] : ttft;
    if (!isDuration(last)) r.duration(last, `ttfts[${i}] + Σ itls[${i}]`);
    const outLen = outputLens ? countAt(r, outputLens[i], 'output_lens', i) : null;
    records.push({
      dueT: null,
      sendT: 0,
      chunkTimes,
      chunkTokens: null,
      firstT: ttft,
      finishT: latency ?? last,
      inputTokens,
      outputTokens: outLen === null || outLen === 0 ? null : outLen,
      ok: true,
      preemptions: null,
    });
  }
  c.missing.push(
    'no start_times (benchmark_serving.py before --save-detailed kept them): each request is on its own clock, so concurrency, time windows and Little’s law cannot be computed; rates use the file’s duration',
    'no queue_times: scheduled (due) times are unknown, so latency from the schedule cannot be computed',
    'no per-chunk token counts: a chunk’s tokens are assumed to be the request’s output tokens spread evenly',
  );
  c.lacks.add('timeline').add('schedule').add('chunkTokens');
  if (!itls) {
    c.missing.push('no itls: no per-chunk times, so ITL and TPOT-with-gaps cannot be computed');
    c.lacks.add('chunkTimes');
  }
  if (!inputLens) c.lacks.add('inputTokens');
  if (!outputLens) c.lacks.add('outputTokens').add('serverTokenCounts');
  if (!latencies) c.notes.push('no latencies list: each request’s end-to-end latency is its TTFT + Σ ITL (the last chunk), as this vLLM version computed it');
  const run: BenchmarkRun = { records, source: VLLM_SOURCE, maxConcurrency: c.maxConcurrency, requestRate: c.requestRate, startT: 0, endT: c.duration ?? 0 };
  return {
    file: r.file,
    format: 'vllm',
    version: c.version,
    run,
    missing: c.missing,
    lacks: [...c.lacks],
    notes: c.notes,
    clock: 'none shared: each request starts at t = 0 on its own clock',
    lastTokenT: null,
    reported: c.reported,
    failures: c.failures,
  };
}

/* ------------------------------------------------------------------------ */
/* Exporter: a BenchmarkRun written as vLLM would have written it.           */
/* ------------------------------------------------------------------------ */

/** numpy's default percentile (linear interpolation at (p/100)(N−1)), as vLLM uses it. */
function npPercentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const h = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function stats(prefix: string, xsSeconds: number[], out: Record<string, Json>, percentiles: number[]): void {
  // A typed array sorts numerically without calling a comparator per comparison (5,000 requests have 640,000 ITL
  // gaps: 0.5 s of the 0.7 s this file took to write); the same order, so the same sums and percentiles.
  const xs = Float64Array.from(xsSeconds, (x) => x * 1000).sort();
  const mean = xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0;
  const std = xs.length ? Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length) : 0;
  out[`mean_${prefix}_ms`] = mean;
  out[`median_${prefix}_ms`] = npPercentile(xs, 50);
  out[`std_${prefix}_ms`] = std;
  for (const p of percentiles) out[`p${String(p).replace(/\.0$/, '')}_${prefix}_ms`] = npPercentile(xs, p);
}

export interface VllmExportOptions {
  model?: string;
  /** `--metric-percentiles` (vLLM default: 99). */
  percentiles?: number[];
}

/**
 * Writes a run as `vllm bench serve --save-result --save-detailed` would
 * (same keys, same units, same per-request arrays), so a simulated run can
 * be fed through `importVllm` and compared with its own records.
 *
 * What vLLM's format cannot carry is lost on the way back: per-chunk token
 * counts, preemptions, finish times of failed requests (vLLM writes latency 0),
 * dueT when it was null (written as queue time 0, read back as dueT = sendT).
 * Records need chunkTimes for ITL; an ok record without them is written with
 * no gaps. Aggregates follow serve.py::calculate_metrics (successful requests,
 * TPOT over n > 1, ITL pooled per chunk, numpy linear percentiles, ddof 0).
 */
export function toVllmResult(run: BenchmarkRun, opts: VllmExportOptions = {}): Record<string, Json> {
  const recs = run.records;
  const duration = run.endT - run.startT;
  const ok = recs.filter((x) => x.ok);
  const outLen = (x: RequestRecord): number => (x.ok ? x.outputTokens ?? (x.chunkTimes ? x.chunkTimes.length : 0) : 0);
  const ttft = (x: RequestRecord): number => (x.ok && x.firstT !== null ? x.firstT - x.sendT : 0);
  const gaps = (x: RequestRecord): number[] => {
    if (!x.ok || !x.chunkTimes) return [];
    const g: number[] = [];
    for (let k = 1; k < x.chunkTimes.length; k++) g.push(x.chunkTimes[k] - x.chunkTimes[k - 1]);
    return g;
  };
  const latency = (x: RequestRecord): number => (x.ok ? x.finishT - x.sendT : 0);
  const totalIn = ok.reduce((s, x) => s + x.inputTokens, 0);
  const totalOut = ok.reduce((s, x) => s + outLen(x), 0);
  const rate = run.requestRate === null || run.requestRate === Infinity ? 'inf' : run.requestRate;
  const percentiles = opts.percentiles ?? [99];

  const out: Record<string, Json> = {
    endpoint_type: 'openai',
    backend: 'openai',
    label: null,
    model_id: opts.model ?? 'unknown',
    tokenizer_id: opts.model ?? 'unknown',
    num_prompts: recs.length,
    request_rate: rate,
    burstiness: 1.0,
    max_concurrency: run.maxConcurrency,
    duration,
    completed: ok.length,
    failed: recs.length - ok.length,
    total_input_tokens: totalIn,
    total_output_tokens: totalOut,
    request_throughput: ok.length / duration,
    request_goodput: null,
    output_throughput: totalOut / duration,
    total_token_throughput: (totalIn + totalOut) / duration,
  };
  const tpots: number[] = [];
  for (const x of ok) {
    const n = outLen(x);
    if (n > 1) tpots.push((latency(x) - ttft(x)) / (n - 1));
  }
  stats('ttft', ok.map(ttft), out, percentiles);
  stats('tpot', tpots, out, percentiles);
  stats('itl', ok.flatMap(gaps), out, percentiles);
  stats('e2el', ok.map(latency), out, percentiles);
  Object.assign(out, {
    latencies: recs.map(latency),
    queue_times: recs.map((x) => (x.dueT === null ? 0 : x.sendT - x.dueT)),
    input_lens: recs.map((x) => x.inputTokens),
    output_lens: recs.map(outLen),
    ttfts: recs.map(ttft),
    itls: recs.map(gaps),
    start_times: recs.map((x) => x.sendT),
    generated_texts: recs.map(() => ''),
    errors: recs.map((x) => (x.ok ? '' : 'request failed')),
  });
  return out;
}
