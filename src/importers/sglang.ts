/**
 * SGLang `python -m sglang.bench_serving --output-file F.jsonl [--output-details]`
 * (python/sglang/benchmark/serving.py at 00f9ec472ffe; TOOLS.md §2.6).
 *
 * JSON lines, one appended per run. Units: per-request arrays `ttfts`, `itls`
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
import type { BenchmarkRun, RequestRecord } from '../metrics/records.ts';
import {
  chunkTimesFromGaps,
  collectReported,
  isObject,
  parseJsonOrLines,
  parseRate,
  pickEntry,
  Reader,
  summaryKeyUnit,
  type JsonObject,
} from './common.ts';
import { looksLike, sniffValue } from './detect.ts';
import type { Capability, ImportOptions, ImportResult } from './types.ts';

export const SGLANG_SOURCE = 'sglang-bench-serving';

export function importSglang(file: string, text: string, opts: ImportOptions = {}): ImportResult {
  const r: Reader = new Reader(file);
  const entries = parseJsonOrLines(file, text);
  const obj = pickEntry(file, entries, opts.entry, 'runs (JSON lines)');
  if (!isObject(obj) || sniffValue(obj) !== 'sglang') {
    r.fail(`not an SGLang bench_serving result: no mean_e2e_latency_ms, total_output_tokens_retokenized or similar keys${looksLike(text)}`);
  }
  return fromObject(r, obj);
}

function fromObject(r: Reader, obj: JsonObject): ImportResult {
  const duration = r.number(obj.duration, 'duration');
  if (duration <= 0) r.fail(`duration = ${duration}; the benchmark duration must be > 0 s`);
  const reported = collectReported(obj, summaryKeyUnit);
  const requestRate = parseRate(r, obj.request_rate, 'request_rate');
  const maxConcurrency = r.optNumber(obj.max_concurrency, 'max_concurrency');
  const missing: string[] = [];
  const lacks = new Set<Capability>(['timeline', 'schedule', 'chunkTokens', 'serverTokenCounts']);
  const notes: string[] = [];
  const base = { source: SGLANG_SOURCE, maxConcurrency, requestRate, startT: 0, endT: duration };

  if (obj.ttfts === undefined || obj.ttfts === null) {
    missing.push('no per-request arrays (run without --output-details): no records, so no definition can be recomputed; only the tool’s own aggregates are shown');
    lacks.add('records').add('chunkTimes').add('firstToken').add('inputTokens').add('outputTokens');
    const run: BenchmarkRun = { records: [], ...base };
    return { file: r.file, format: 'sglang', run, missing, lacks: [...lacks], notes, clock: 'none', lastTokenT: null, reported };
  }
  const ttfts = r.array(obj.ttfts, 'ttfts');
  const n = ttfts.length;
  const itls = r.alignedArray(obj, 'itls', n);
  const inputLens = r.alignedArray(obj, 'input_lens', n);
  const outputLens = r.alignedArray(obj, 'output_lens', n);
  const errors = r.alignedArray(obj, 'errors', n);

  const records: RequestRecord[] = [];
  let okTtftSum = 0;
  let okCount = 0;
  for (let i = 0; i < n; i++) {
    const err = errors ? errors[i] : '';
    const ok = err === '' || err === null;
    const ttft = r.duration(ttfts[i], `ttfts[${i}]`);
    const gaps = itls ? r.array(itls[i], `itls[${i}]`).map((g, k) => r.duration(g, `itls[${i}][${k}]`)) : null;
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
    run,
    missing,
    lacks: [...lacks],
    notes,
    clock: 'none shared: each request starts at t = 0 on its own clock',
    lastTokenT: null,
    reported,
  };
}
