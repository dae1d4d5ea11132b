/**
 * SGLang `python -m sglang.bench_serving --output-file F.jsonl [--output-details]`
 * (python/sglang/benchmark/serving.py at 00f9ec472ffe; SGLang 0.5.x writes the same keys).
 *
 * JSON lines, one appended per run (several runs → --entry, or all side by side);
 * Python's json writes the default rate as the bare literal `Infinity`. Units: per-request arrays `ttfts`, `itls`
 * are SECONDS; summary keys ending in `_ms` are milliseconds; `duration` is
 * seconds. Per-request arrays exist only with --output-details, and even then
 * there are NO start times and NO per-request end-to-end latencies.
 *
 * Each record is therefore placed on its own clock (sendT = 0):
 *   firstT = ttfts[i]; chunkTimes = firstT, then + each itls[i][k];
 *   finishT = the last chunk (SGLang's own E2E ends later, at the [DONE] line,
 *   which the file does not keep); outputTokens = output_lens[i] (server usage
 *   when sent, else the REQUESTED length).
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import type { ResultInput } from '../base/input.ts';
import {
  chunkTimesFromGaps,
  collectReported,
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

export const SGLANG_SOURCE = 'sglang-bench-serving';

export function importSglang(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r: Reader = new Reader(file);
  const entries = readJsonOrLines(input);
  const label = (e: Json): string => {
    if (!isObject(e)) return 'not a result object';
    const rate = e.request_rate === Infinity || e.request_rate === 'inf' ? 'inf' : e.request_rate;
    const parts = [typeof e.tag === 'string' ? e.tag : null, `rate ${rate ?? '?'}`, `max concurrency ${e.max_concurrency ?? 'none'}`, e.completed != null ? `${e.completed} completed` : null];
    return parts.filter((x) => x !== null).join(', ');
  };
  return selectRun(file, entries, opts.entry, 'runs (JSON lines)', (obj) => {
    if (!isObject(obj) || seen.recognise(obj) !== 'sglang') {
      r.fail(`not an SGLang bench_serving result: no mean_e2e_latency_ms, total_output_tokens_retokenized or similar keys${seen.looksLike}`);
    }
    return fromObject(r, obj);
  }, label);
}

function fromObject(r: Reader, obj: JsonObject): Imported {
  const durationRaw = r.optNumber(obj.duration, 'duration');
  if (durationRaw !== null && durationRaw <= 0) r.fail(`duration = ${durationRaw}; the benchmark duration must be > 0 s`);
  const duration = durationRaw ?? 0;
  const version = `SGLang bench_serving${typeof obj.backend === 'string' ? ` (backend ${obj.backend})` : ''}`;
  const failures: Record<string, number> = {};
  const reported = collectReported(obj, summaryKeyUnit);
  const requestRate = parseRate(r, obj.request_rate, 'request_rate');
  const maxConcurrency = r.optNumber(obj.max_concurrency, 'max_concurrency');
  const missing: string[] = [];
  const lacks = new Set<Capability>(['timeline', 'schedule', 'chunkTokens', 'serverTokenCounts']);
  const notes: string[] = [];
  if (durationRaw === null) {
    missing.push('no duration: rates cannot be computed');
    lacks.add('runWindow');
  }
  if (requestRate === Infinity) notes.push('request_rate is Infinity (all requests released at once; Python writes the bare literal)');
  const base = { source: SGLANG_SOURCE, maxConcurrency, requestRate, startT: 0, endT: duration };

  if (obj.ttfts === undefined || obj.ttfts === null) {
    missing.push('no per-request arrays (run without --output-details): no records, so no definition can be recomputed; only the tool’s own aggregates are shown');
    lacks.add('records').add('chunkTimes').add('firstToken').add('inputTokens').add('outputTokens');
    const run: BenchmarkRun = { records: [], ...base };
    const completed = typeof obj.completed === 'number' ? { completed: { key: 'completed', value: obj.completed, unit: 'requests' } } : {};
    return { file: r.file, format: 'sglang', version, run, missing, lacks: [...lacks], notes, clock: 'none (aggregates only)', lastTokenT: null, reported, failures, ...completed };
  }
  const ttfts = r.array(obj.ttfts, 'ttfts');
  const n = ttfts.length;
  if (n === 0) r.fail('ttfts is empty: the run has no requests, so there is nothing to compute');
  const itls = r.alignedLists(obj, 'itls', n);
  const inputLens = r.alignedArray(obj, 'input_lens', n);
  const outputLens = r.alignedArray(obj, 'output_lens', n);
  const errors = r.alignedArray(obj, 'errors', n);

  const records: RequestRecord[] = [];
  let okTtftSum = 0;
  let okCount = 0;
  for (let i = 0; i < n; i++) {
    const err = errors ? errors[i] : '';
    const ok = err === '' || err === null;
    if (!ok) {
      const why = typeof err === 'string' ? err.split('\n')[0].slice(0, 80) : 'error';
      failures[why] = (failures[why] ?? 0) + 1;
    }
    const ttft = r.duration(ttfts[i], `ttfts[${i}]`);
    const gaps = itls ? r.array(itls.at(i), `itls[${i}]`).map((g, k) => r.duration(g, `itls[${i}][${k}]`)) : null;
    const chunkTimes = ok ? (gaps ? chunkTimesFromGaps(ttft, gaps) : null) : null;
    const finishT = chunkTimes ? chunkTimes[chunkTimes.length - 1] : ok ? ttft : 0;
    r.duration(finishT, `ttfts[${i}] + Σ itls[${i}]`);
    if (ok) {
      okTtftSum += ttft;
      okCount++;
    }
    records.push({
      dueT: null,
      sendT: 0,
      chunkTimes,
      chunkTokens: null,
      firstT: ok ? ttft : null,
      finishT,
      inputTokens: inputLens ? r.count(inputLens[i], `input_lens[${i}]`) : NaN,
      outputTokens: ok && outputLens ? r.count(outputLens[i], `output_lens[${i}]`) : null,
      ok,
      preemptions: null,
    });
  }
  // Unit cross-check: the per-request ttfts (s) against the tool's own mean_ttft_ms.
  const meanMs = typeof obj.mean_ttft_ms === 'number' ? obj.mean_ttft_ms : null;
  if (meanMs !== null && meanMs > 0 && okCount > 0) {
    const ratio = ((okTtftSum / okCount) * 1000) / meanMs;
    if (ratio > 10 || ratio < 0.1) {
      r.fail(`ttfts average ${(okTtftSum / okCount).toPrecision(4)} but mean_ttft_ms = ${meanMs}: off by ${ratio.toPrecision(3)}×; ttfts must be in seconds`);
    }
  }

  missing.push(
    'no start times: every request is placed at t = 0 on its own clock, so throughput, concurrency, Little’s law and time windows cannot be recomputed (SGLang’s own duration-based figures are shown as reported)',
    'no scheduled times: latency from the schedule cannot be computed (SGLang records no client queue)',
    'no per-request end-to-end latency: finish is taken at the last chunk; SGLang’s own E2E and TPOT end later, at the [DONE] line',
    'no per-chunk token counts',
    'output_lens are server usage only if the server sent usage; otherwise the requested lengths',
  );
  if (!itls) {
    missing.push('no itls: no per-chunk times, so ITL and TPOT-with-gaps cannot be computed');
    lacks.add('chunkTimes');
  }
  if (!inputLens) lacks.add('inputTokens');
  if (!outputLens) lacks.add('outputTokens');
  if (obj.backend === 'sglang') notes.push('native sglang backend: each chunk gap is split evenly over its tokens in itls, so chunk boundaries are lost (token times within a chunk are interpolated)');

  const run: BenchmarkRun = { records, ...base };
  return {
    file: r.file,
    format: 'sglang',
    version,
    failures,
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: 'none shared: each request starts at t = 0 on its own clock',
    lastTokenT: null,
    reported,
  };
}
