/**
 * Each tool's own result on a small hand-made record, computed by hand from
 * the tool's rule as its code states it. Every case cites the upstream file
 * (repository @ commit, function, line where the file was read whole) whose
 * rule the expected value follows.
 */
import { describe, expect, it } from 'vitest';
import type { BenchmarkRun, RequestRecord } from '../src/tools/base/records.ts';
import * as M from '../src/metrics/index.ts';
import { metricsReport } from '../src/metrics/report.ts';
import { simulate, defaultServerConfig, fixedLengths } from '../src/sim/index.ts';

function rec(p: Partial<Omit<RequestRecord, 'chunkTimes'>> & { chunkTimes: number[] }): RequestRecord {
  return {
    dueT: p.dueT ?? 0,
    sendT: p.sendT ?? p.dueT ?? 0,
    chunkTimes: Float64Array.from(p.chunkTimes),
    chunkTokens: p.chunkTokens ?? null,
    firstT: p.chunkTimes[0] ?? null,
    finishT: p.finishT ?? p.chunkTimes[p.chunkTimes.length - 1],
    inputTokens: p.inputTokens ?? 100,
    outputTokens: p.outputTokens !== undefined ? p.outputTokens : p.chunkTimes.length,
    ok: true,
    preemptions: 0,
  };
}

const run = (records: RequestRecord[], extra: Partial<BenchmarkRun> = {}): BenchmarkRun => ({
  records, source: 'test', maxConcurrency: null, requestRate: null, startT: 0, endT: 2, ...extra,
});

// mlcommons/inference @ b66003e10e2d (LoadGen 6.0.17): loadgen/loadgen.cc, loadgen/results.cc, loadgen/logging.cc
describe('MLPerf LoadGen, as loadgen.cc / results.cc / logging.cc compute it', () => {
  // X is issued first and finishes last; Y is the last query issued and finishes before X
  const X = rec({ dueT: 0, chunkTimes: [0.1, 2.0], outputTokens: 2 });
  const Y = rec({ dueT: 0.5, chunkTimes: [0.6, 1.0], outputTokens: 2 });

  it('throughput ends at the last ISSUED query\u2019s completion (loadgen.cc 533, 580–581; results.cc 761–762, 816–817)', () => {
    // final_query = queries[queries_issued − 1] = Y; final_query_all_samples_done_time = 1.0 − 0
    // qps_as_completed = (2 − 1) / 1.0; tps_as_completed = (2 + 2) / 1.0 — not over the 2.0 s makespan
    for (const order of [[X, Y], [Y, X]]) {
      const m = M.mlperfMetrics(run(order));
      expect(m.finalQueryAllSamplesDoneS).toBe(1.0);
      expect(m.completedSamplesPerSec).toBe(1);
      expect(m.completedTokensPerSec).toBe(4);
    }
  });

  it('the clock starts at query 0\u2019s scheduled time (loadgen.cc 337/398: scheduled_delta 0; issue_query_controller.cc 172, 296)', () => {
    const m = M.mlperfMetrics(run([{ ...X, dueT: 0.25, sendT: 0.25 }, Y]));
    expect(m.finalQueryAllSamplesDoneS).toBeCloseTo(0.75, 12); // 1.0 − 0.25
    expect(m.completedSamplesPerSec).toBeCloseTo(1 / 0.75, 12);
  });

  it('means are int64 divisions Σ/sample_count, truncated toward zero (results.cc 32, 99, 104)', () => {
    const P = rec({ chunkTimes: [0.2, 0.5], outputTokens: 2 });
    const Q = rec({ chunkTimes: [0.200000001, 0.5], finishT: 0.500000002, outputTokens: 2 });
    const m = M.mlperfMetrics(run([P, Q]));
    expect(m.latency.meanNs).toBe(500_000_001); // (500000000 + 500000002) / 2
    expect(m.firstTokenLatency.meanNs).toBe(200_000_000); // 400000001 / 2 = 200000000.5 → 200000000
    expect(m.timePerOutputToken.meanNs).toBe(300_000_000); // (300000000 + 300000001) / 2 → 300000000
    // the per-user speed follows result_time_to_output_token_mean
    const row = M.perUserSpeeds(run([P, Q]), { llama2Inflation: null }).find((r) => r.tool === 'mlperf')!;
    expect(row.tokPerS).toBe(1e9 / 300_000_000);
    // C++ truncates toward zero: −3 / 2 = −1, not ⌊−1.5⌋ = −2
    expect(M.mlperfIntegerMean([-3, 0])).toBe(-1);
    // exact past 2^53 (a long run's latency sum): (3·2^53 + 6) / 3 = 2^53 + 2; a float sum rounds it to 2^53
    expect(M.mlperfIntegerMean([2 ** 53, 2 ** 53 + 2, 2 ** 53 + 4])).toBe(2 ** 53 + 2);
  });

  it('a one-token answer: error logged, n_tokens kept as 0, negative TPOT averaged over all samples (logging.cc 450–454, 474–476; results.cc 89–104)', () => {
    // A: scheduled 0, first token 0.2, done 0.65, 4 tokens → TPOT (650 − 200) ms / 3 = 150 ms
    const A = rec({ chunkTimes: [0.2, 0.3, 0.5, 0.6], finishT: 0.65 });
    // B: scheduled 0, one token at 0.4, done 0.45 → n_tokens 1 → error, kept as 0 → TPOT (450 − 400) ms / (0 − 1) = −50 ms
    const B = rec({ sendT: 0.1, chunkTimes: [0.4], finishT: 0.45, outputTokens: 1 });
    expect(M.mlperfTpotNs(B).value).toBe(-50_000_000);
    expect(M.mlperfSampleTokens(B)).toEqual({ nTokens: 0, error: 'Number of tokens need to be greater than 1' });
    const m = M.mlperfMetrics(run([A, B]), { targets: { ttftS: 2, tpotS: 0.1 } });
    expect(m.timePerOutputToken.n).toBe(2);
    expect(m.timePerOutputToken.meanNs).toBe(50_000_000); // (150 − 50) ms / 2 samples
    expect(m.timePerOutputToken.percentilesNs['50']).toBe(150_000_000); // sorted [−50, 150] ms, index ⌊2·0.5⌋ = 1
    expect(m.tokenCount).toBe(4); // B's token is not in token_count
    // final query = B (same schedule, later index), done at 0.45 s
    expect(m.completedTokensPerSec).toBeCloseTo(4 / 0.45, 12);
    expect(m.completedSamplesPerSec).toBeCloseTo(1 / 0.45, 12);
    // the run is erroneous the way LoadGen says it: num_errors, "1 ERROR encountered"
    expect(m.numErrors).toBe(1);
    expect(m.errors).toEqual(['1 × Number of tokens need to be greater than 1']);
    // early stopping sees every sample (queries_issued = 2), the 150 ms one over the 100 ms target
    expect(m.earlyStopping!.tpot.queriesIssued).toBe(2);
    expect(m.earlyStopping!.tpot.overTarget).toBe(1);
    const row = M.perUserSpeeds(run([A, B]), { llama2Inflation: null }).find((r) => r.tool === 'mlperf')!;
    expect(row.tokPerS).toBe(20); // 1e9 / 50e6, what LoadGen's mean implies
    expect(row.flag).toMatch(/1 error\(s\).*greater than 1/);
    // `metrics` shows the flag as its own row, and only for an erroneous run
    const flagged = metricsReport(run([A, B]), { llama2Inflation: null }).filter((r) => r.metric === 'num_errors');
    expect(flagged).toMatchObject([{ tool: 'mlperf', value: 1, note: '1 × Number of tokens need to be greater than 1' }]);
    expect(metricsReport(run([A]), { llama2Inflation: null }).some((r) => r.metric === 'num_errors')).toBe(false);
  });

  it('zero tokens: its own error, TPOT −(latency − first-token latency) (logging.cc 442–445)', () => {
    const Z = rec({ chunkTimes: [0.2, 0.3, 0.5, 0.6], finishT: 0.65, outputTokens: 0 });
    expect(M.mlperfTpotNs(Z).value).toBe(-450_000_000);
    expect(M.mlperfMetrics(run([Z])).errors).toEqual(['1 × n_tokens argument missing or attempted to record 0 as number of tokens']);
  });

  it('a clean run has no errors and no flag', () => {
    const m = M.mlperfMetrics(run([X, Y]));
    expect(m.numErrors).toBe(0);
    expect(M.perUserSpeeds(run([X, Y]), { llama2Inflation: null }).find((r) => r.tool === 'mlperf')!.flag).toBeUndefined();
  });
});

// mlcommons/inference @ b66003e10e2d: loadgen/results.cc ProcessTokenLatencies (int64 sum / size_t count), LogDetail (TPOT && TTFT)
describe('LoadGen’s own arithmetic on an erroneous run', () => {
  // one-token answers keep n_tokens 0: TPOT = −(latency − first-token latency), a negative sum
  const one = (t0: number) => rec({ dueT: t0, chunkTimes: [t0 + 0.4], finishT: t0 + 0.45, outputTokens: 1 });
  const A = rec({ chunkTimes: [0.2, 0.3, 0.5, 0.6], finishT: 0.65 }); // TPOT 150 ms
  it('the mean divides the int64 sum by the size_t count: a negative sum wraps to ≈ 1.5e17 ns, shown beside the signed mean', () => {
    const recs = [A, one(0.1), one(0.2), one(0.3), one(0.4)]; // Σ = 150 − 4·50 = −50 ms over 5 samples
    const m = M.mlperfMetrics(run(recs));
    expect(m.timePerOutputToken.meanNs).toBe(-10_000_000);
    // (2^64 − 5·10^7) / 5, computed exactly: what `uint64(Σ) / 5` gives in C++, stored back in an int64
    const expected = Number(((1n << 64n) - 50_000_000n) / 5n);
    expect(m.timePerOutputToken.loadgenMeanNs).toBe(expected);
    expect(expected).toBeGreaterThan(3.6e18); // 2^64 / 5; with n ≈ 120 samples it is the ≈ 1.5e17 of a real erroneous run
    expect(M.mlperfLoadgenMean([-1, -1])).toBe(Number(((1n << 64n) - 2n) / 2n));
    expect(M.mlperfLoadgenMean([3, 4])).toBe(3); // a non-negative sum is the plain truncated mean
    const rows = metricsReport(run(recs), { llama2Inflation: null }).filter((r) => r.tool === 'mlperf' && r.quantity === 'TPOT');
    expect(rows.find((r) => r.metric === 'result_time_to_output_token_mean')!.value).toBe(-10_000_000);
    const lg = rows.find((r) => r.metric === 'result_time_to_output_token_mean (LoadGen’s arithmetic)')!;
    expect(lg.value).toBe(expected);
    expect(lg.note).toMatch(/what LoadGen would print.*size_t.*signed mean is -10000000 ns/);
    // a clean run has no second row
    expect(metricsReport(run([A]), { llama2Inflation: null }).some((r) => r.metric.includes('LoadGen’s arithmetic'))).toBe(false);
  });
  it('TTFT early stopping is never evaluated when the TPOT one fails (`EarlyStopping(tpot) && EarlyStopping(ttft)`)', () => {
    const slow = rec({ chunkTimes: [0.2, 0.5, 0.8], finishT: 0.8 }); // TPOT 300 ms, over a 100 ms target
    const failing = M.mlperfMetrics(run([slow, slow]), { targets: { ttftS: 2, tpotS: 0.1 } });
    expect(failing.earlyStopping!.tpot.passes).toBe(false);
    expect(failing.earlyStopping!.ttft).toBeNull();
    const passing = M.mlperfMetrics(run([slow, slow]), { targets: { ttftS: 2, tpotS: 1 } });
    expect(passing.earlyStopping!.tpot.passes).toBe(passing.earlyStopping!.tpot.queriesIssued >= passing.earlyStopping!.tpot.queriesNeeded);
    if (passing.earlyStopping!.tpot.passes) expect(passing.earlyStopping!.ttft).not.toBeNull();
  });
});

// ai-dynamo/aiperf @ db4f6397: aiperf/metrics/metric_dicts.py line 39 (`if not value: raise NoMetricValue`), good_request_count_metric.py
describe('AIPerf: an ITL of exactly 0 is a missing value', () => {
  it('fails an ITL SLO (NoMetricValue → not good), while a TTFT-only SLO still counts the request', () => {
    // latency = TTFT: (latency − ttft) / (OSL − 1) = 0 exactly
    const zero = rec({ chunkTimes: [0.2, 0.2, 0.2], finishT: 0.2, outputTokens: 3 });
    const fine = rec({ chunkTimes: [0.2, 0.25, 0.3], finishT: 0.3, outputTokens: 3 });
    expect(M.aiperfItl(zero).value).toBe(0);
    const r = run([zero, fine], { startT: 0, endT: 1 });
    const D = M.aiperfDuration(r);
    expect(M.aiperfMetrics(r, { goodput: { tpotMs: 1000 } }).goodput).toBeCloseTo(1 / D, 12);
    expect(M.aiperfMetrics(r, { goodput: { ttftMs: 1000 } }).goodput).toBeCloseTo(2 / D, 12);
  });
});

// SemiAnalysisAI/InferenceX utils/bench_serving/backend_request_func.py (async_request_openai_chat_completions): most_recent_timestamp moves on every message
describe('InferenceX chat latency', () => {
  it('ends at the usage chunk when the server sent one, else at the last message', () => {
    const withUsage = rec({ chunkTimes: [0.2, 0.3, 0.4], finishT: 0.45, outputTokens: 3 });
    const noUsage = rec({ chunkTimes: [0.2, 0.3, 0.4], finishT: 0.45, outputTokens: null });
    expect(M.inferencexLatency(withUsage, 'chat').value).toBeCloseTo(0.45, 12);
    expect(M.inferencexLatency(noUsage, 'chat').value).toBeCloseTo(0.4, 12);
    expect(M.inferencexLatency(noUsage, 'completions').value).toBeCloseTo(0.4, 12);
  });
});

// ai-dynamo/aiperf @ 58dd5dea729c: src/aiperf/metrics/types/inter_token_latency_metric.py, _decode_token_count
describe('AIPerf inter_token_latency with --per-chunk-usage', () => {
  // latency 0.6 s, TTFT 0.2 s, OSL 4
  const at = [0.2, 0.4, 0.6];
  it('a first chunk reporting 0 tokens is inconsistent → OSL − 1', () => {
    const R = rec({ chunkTimes: at, chunkTokens: [0, 2, 2], outputTokens: 4 });
    expect(M.aiperfItl(R, { perChunkUsage: true }).value).toBeCloseTo(0.4 / 3, 12); // not 0.4 / 4 = 0.1
  });
  it('a first chunk holding every token leaves < 1 decode token → OSL − 1', () => {
    const R = rec({ chunkTimes: at, chunkTokens: [4, 0, 0], outputTokens: 4 });
    expect(M.aiperfItl(R, { perChunkUsage: true }).value).toBeCloseTo(0.4 / 3, 12);
  });
  it('a consistent count is subtracted: OSL − first-chunk tokens', () => {
    const R = rec({ chunkTimes: at, chunkTokens: [2, 1, 1], outputTokens: 4 });
    expect(M.aiperfItl(R, { perChunkUsage: true }).value).toBeCloseTo(0.4 / 2, 12);
    expect(M.aiperfItl(R).value).toBeCloseTo(0.4 / 3, 12); // without the flag AIPerf never sees the count
  });
});

// vllm-project/vllm @ 009e6d4a1cd6: vllm/benchmarks/serve.py
describe('vLLM bench serve', () => {
  it('usage.completion_tokens == 0 is treated as missing: the generated text is counted (calculate_metrics, `if not output_len:`)', () => {
    const V = rec({ chunkTimes: [0.2, 0.3, 0.5, 0.6], outputTokens: 0 });
    expect(M.vllmOutputTokens(V)).toBe(4);
    expect(M.vllmTpot(V).value).toBeCloseTo(0.4 / 3, 12);
    expect(M.vllmMetrics(run([V])).outputThroughput).toBe(2); // 4 tokens / D = 2 s
    expect(M.vllmOutputTokens(rec({ chunkTimes: [0.2, 0.3, 0.5], chunkTokens: [2, 1, 1], outputTokens: 0 }))).toBe(4);
    expect(M.vllmOutputTokens(rec({ chunkTimes: [0.2, 0.3], outputTokens: 7 }))).toBe(7); // a non-zero usage count wins
  });

  it('client_queue_time exists only with --max-concurrency (benchmark: `if max_concurrency is not None`)', () => {
    const B = rec({ dueT: 0, sendT: 0.1, chunkTimes: [0.4] });
    const open = M.vllmMetrics(run([B], { requestRate: 5 }));
    expect(open.clientQueueTime.n).toBe(0);
    expect(open.clientQueueTime.mean).toBeNull();
    expect(open.clientQueueTime.excluded).toMatch(/1 × vLLM reports client_queue_time only with --max-concurrency/);
    const capped = M.vllmMetrics(run([B], { requestRate: 5, maxConcurrency: 2 }));
    expect(capped.clientQueueTime.mean).toBeCloseTo(100, 9);
    expect(capped.e2elIncludingClientQueue.mean).toBeCloseTo(400, 9); // 0.3 s latency + 0.1 s queue
  });
});

// sgl-project/sglang @ 00f9ec472ffe: python/sglang/benchmark/serving.py, async_request_sglang_generate
describe('SGLang native backend', () => {
  it('a chunk with 0 new tokens is skipped; the next gap runs from the last token chunk (`if num_new_tokens == 0: continue`)', () => {
    // chunks at .5 .6 .7 .8 .9 carrying 3 2 1 0 2 tokens:
    // .6: .1/2 ×2; .7: .1/1; .8: skipped; .9: (.9 − .7)/2 ×2
    const S = rec({ chunkTimes: [0.5, 0.6, 0.7, 0.8, 0.9], chunkTokens: [3, 2, 1, 0, 2] });
    expect(M.sglangItls(S, 'sglang').map((x) => +x.toFixed(12))).toEqual([0.05, 0.05, 0.1, 0.1, 0.1]);
  });
});

// sgl-project/sglang @ 00f9ec472ffe: python/sglang/benchmark/serving.py, async_request_openai_completions
// (`if data["choices"][0]["text"]:`) and async_request_openai_chat_completions (`if content:`): most_recent_timestamp
// moves only on a chunk with text, and the first such chunk is the first token
describe('SGLang OpenAI-compatible backends skip chunks without text', () => {
  // sent at 0; an empty role chunk at .3, text at .5 .6 .7, an empty chunk at .8, text at .9; 4 tokens of usage
  const S = rec({ chunkTimes: [0.3, 0.5, 0.6, 0.7, 0.8, 0.9], chunkTokens: [0, 1, 1, 1, 0, 1], finishT: 1.0, outputTokens: 4 });
  it('the next gap runs from the last chunk with text, and the time to first token ends at the first text', () => {
    expect(M.sglangItls(S, 'openai').map((x) => +x.toFixed(12))).toEqual([0.1, 0.1, 0.2]); // not .2 .1 .1 .1 .1
    expect(M.sglangTtft(S).value).toBeCloseTo(0.5, 12); // not the role chunk at .3
    expect(M.sglangTpot(S).value).toBeCloseTo((1.0 - 0.5) / 3, 12); // (latency − ttft)/(output_len − 1)
    expect(M.sglangItls(S, 'sglang').map((x) => +x.toFixed(12))).toEqual([0.1, 0.1, 0.2]); // the native backend: from the first text too
  });
  it('the printed ITL pools those gaps (not the shared series of every chunk gap)', () => {
    const m = M.sglangMetrics(run([S]));
    expect(m.itl.n).toBe(3);
    expect(m.itl.mean).toBeCloseTo(400 / 3, 9);
    expect(m.maxItlMs).toBeCloseTo(200, 9);
    expect(m.ttft.mean).toBeCloseTo(500, 9);
    // without per-chunk counts every chunk carried text: one gap per chunk, as before
    const plain = rec({ chunkTimes: [0.3, 0.5, 0.6], outputTokens: 3 });
    expect(M.sglangMetrics(run([plain])).itl.n).toBe(2);
    expect(M.sglangTtft(plain).value).toBeCloseTo(0.3, 12);
  });
});

// vllm-project/guidellm @ ee7a77457ba6: src/guidellm/schemas/request_stats.py 135–144 (`output_tokens`:
// `return self.info.timings.token_iterations or None` without usage), backends/openai/http.py 553
// (`token_iterations += iterations`), backends/openai/request_handlers.py 1153–1204 (`return 1 if updated else 0`)
describe('GuideLLM without usage counts content lines', () => {
  it('a line counts once whatever it carried (token_iterations), not the tokens summed; no line is no count', () => {
    const G = rec({ chunkTimes: [0.2, 0.3, 0.5], chunkTokens: [1, 3, 2], finishT: 0.55, outputTokens: null });
    expect(M.guidellmOutputTokens(G)).toBe(3); // not 1 + 3 + 2 = 6
    expect(M.guidellmTimePerOutputTokenMs(G).value).toBeCloseTo(500 / 3, 9); // 1000·(last − start)/3
    expect(M.guidellmInterTokenLatencyMs(G).value).toBeCloseTo(300 / 2, 9); // 1000·(last − first)/(3 − 1)
    expect(M.guidellmOutputTokens({ ...G, outputTokens: 6 })).toBe(6); // the server's usage wins
    expect(M.guidellmOutputTokens({ ...G, outputTokens: 0 })).toBe(0); // a usage of 0 is a count (total_tokens 0, not None)
    expect(M.guidellmOutputTokens(rec({ chunkTimes: [], finishT: 0.5, outputTokens: null }))).toBeNull(); // `0 or None`
  });
});

// vllm-project/guidellm @ ee7a77457ba6: src/guidellm/schemas/statistics.py 391–511
// (concurrency_distribution_from_timings, threshold = 1e-4 at 398) and 583–634 (_merge_sorted_times_with_weights:
// `within = diffs <= threshold` 603, groups up to `times[starts] + threshold` 610)
describe('GuideLLM merges concurrency change times within 1e-4 s', () => {
  it('a request that starts 0.05 ms after another ends keeps the level at 1: the −1 and +1 merge', () => {
    const A = rec({ sendT: 0, chunkTimes: [0.5], finishT: 1.0 });
    const B = rec({ sendT: 1.00005, chunkTimes: [1.5], finishT: 2.0 });
    // without the merge: (1 + 0.99995) / 2 = 0.999975
    expect(M.guidellmConcurrency(run([A, B], { startT: 0, endT: 2 }))).toBeCloseTo(1, 12);
    // 0.2 ms apart is past the threshold: the 0.2 ms at level 0 stays
    const C = rec({ sendT: 1.0002, chunkTimes: [1.5], finishT: 2.0 });
    expect(M.guidellmConcurrency(run([A, C], { startT: 0, endT: 2 }))).toBeCloseTo((1 + 0.9998) / 2, 12);
  });
  it('a chain of close times merges group by group from its first time, not into one point', () => {
    // changes at 1.0 (A ends), 1.00006 (B starts), 1.00012 (C starts): 1.00006 joins 1.0 (level stays 1);
    // 1.00012 is past 1.0 + 1e-4 and opens the next group: level 2 from 1.00012 to 2
    const A = rec({ sendT: 0, chunkTimes: [0.5], finishT: 1.0 });
    const B = rec({ sendT: 1.00006, chunkTimes: [1.5], finishT: 2.0 });
    const C = rec({ sendT: 1.00012, chunkTimes: [1.5], finishT: 2.0 });
    const g = M.guidellmConcurrency(run([A, B, C], { startT: 0, endT: 2 }))!;
    expect(g).toBeCloseTo((1.00012 + 2 * (2 - 1.00012)) / 2, 12); // 1.49994
    expect(g).not.toBeCloseTo(1.5, 6); // all three merged onto 1.0
    expect(g).not.toBeCloseTo((1 + 0.99994 + 0.99988) / 2, 6); // no merge: 1.49991
  });
  it('a change just before the window sets the level the window opens with', () => {
    // A starts 0.05 ms before the window and B ends 0.05 ms inside it: merged onto the earlier time, both fall before it
    const A = rec({ sendT: 0.99995, chunkTimes: [1.5], finishT: 2.0 });
    const B = rec({ sendT: 0, chunkTimes: [0.5], finishT: 1.00004 });
    expect(M.guidellmConcurrency(run([A, B], { startT: 1, endT: 2 }))).toBeCloseTo(1, 12); // without the merge: 1 + 0.00004
  });
});

// ray-project/llmperf @ f1d6bed: token_benchmark_ray.py 66 (`get_token_length = lambda text: len(tokenizer.encode(text))`),
// 117 (`num_output_tokens = get_token_length(gen_text)`), 124; src/llmperf/ray_clients/openai_chat_completions_client.py 92–101
// (only delta.content is read; no stream_options, so no usage chunk is asked for)
describe('LLMPerf tokenizes the generated text and never reads usage', () => {
  it('a server reporting usage 0 still gives LLMPerf the text’s count', () => {
    const Z = rec({ chunkTimes: [0.2, 0.3, 0.5, 0.6], finishT: 0.8, outputTokens: 0 });
    expect(M.llmperfOutputTokens(Z, 1.25)).toBeCloseTo(4 * 1.25, 12); // the 4 streamed tokens, re-counted in Llama 2
    expect(M.llmperfRequestOutputThroughput(Z, 1.25).value).toBeCloseTo(5 / 0.8, 12);
    expect(M.llmperfOutputTokens({ ...Z, chunkTokens: [1, 2, 1, 1] }, 1)).toBe(5);
    expect(M.llmperfOutputTokens({ ...Z, outputTokens: 4 }, 1.25)).toBeCloseTo(5, 12); // the same text, however the server counted
    const m = M.llmperfMetrics(run([Z]), { llama2Inflation: 1.25 });
    expect(m.numberOutputTokens.mean).toBeCloseTo(5, 12);
    expect(m.meanOutputThroughputTokenPerS).toBeCloseTo(5 / 2, 12); // Σ tokens / (end − start) = 5 / 2 s
  });
});

// ray-project/llmperf @ f1d6bed: src/llmperf/ray_clients/openai_chat_completions_client.py 36 (`ttft = 0`), 45 (`error_code`
// None), 92–94 (ttft set only on a chunk with `delta.content`), 112–113 (`sum(time_to_next_token)`, `ttft` written);
// token_benchmark_ray.py 120–123 (`if num_output_tokens: … /= … else: … = 0`), 218 (the summary drops only rows with an error code)
describe('LLMPerf: a stream with no content is not an error', () => {
  const A = rec({ chunkTimes: [0.2, 0.4, 0.6], finishT: 0.7 });
  const Z = rec({ chunkTimes: [], finishT: 0.3, outputTokens: 0 });
  it('its TTFT stays at the initial 0 and its inter-token latency is 0, in every reading', () => {
    expect(M.llmperfTtft(Z)).toEqual({ value: 0 });
    expect(M.llmperfInterTokenLatency(Z)).toEqual({ value: 0 });
    expect(M.llmperfInterTokenLatencyArticle(Z, 1.25)).toEqual({ value: 0 });
    expect(M.llmperfInterTokenLatencyPerToken(Z)).toEqual({ value: 0 });
    expect(M.llmperfRequestOutputThroughput(Z, 1.25)).toEqual({ value: 0 });
  });
  it('both zeros go into the means and the quantiles', () => {
    const m = M.llmperfMetrics(run([A, Z]), { llama2Inflation: 1.25 });
    expect(m.numCompletedRequests).toBe(2);
    expect(m.ttftS.n).toBe(2);
    expect(m.ttftS.mean).toBeCloseTo((0.2 + 0) / 2, 12);
    expect(m.interTokenLatencyS.n).toBe(2);
    expect(m.interTokenLatencyS.mean).toBeCloseTo((0.6 / 4 + 0) / 2, 12); // A: 0.6 s over 3 content chunks + the role chunk
    expect(m.interTokenLatencyS.percentiles['25']).toBeCloseTo(0.25 * 0.15, 12); // pandas linear between 0 and 0.15
    expect(m.requestOutputThroughputTokenPerS.mean).toBeCloseTo((3.75 / 0.7 + 0) / 2, 12);
  });
});

// sgl-project/sglang @ 00f9ec472ffe: python/sglang/benchmark/serving.py. Every request function sets
// `output.success = True` after its loop, text or not; `ttft` (0.0 at the start) is set only under the text test
// (`if data["choices"][0]["text"]:` / `if content:` / `if "text" in data and data["text"]:`), `latency` on every line;
// calculate_metrics appends `outputs[i].ttft` and, if output_len > 1, `(latency − ttft) / (output_len − 1)`.
// async_request_openai_completions and async_request_sglang_generate set output_len only under the text test;
// async_request_openai_chat_completions reads `usage` before `choices = data.get("choices") or []; if not choices: continue`
describe('SGLang: a stream with no text succeeds with ttft 0', () => {
  // sent at 0: a role chunk at .2 and a last line at .5, no text; the server counted 0 tokens, 8 were asked for
  const E: RequestRecord = { ...rec({ chunkTimes: [0.2], chunkTokens: [0], finishT: 0.5, outputTokens: 0 }), requestedOutputTokens: 8 };
  const T: RequestRecord = { ...rec({ chunkTimes: [0.1, 0.2, 0.3], finishT: 0.4, outputTokens: 3 }), requestedOutputTokens: 3 };
  it('TTFT 0, E2E at the last line; TPOT over the requested length (completions, native) or the usage (chat)', () => {
    expect(M.sglangTtft(E)).toEqual({ value: 0 });
    expect(M.sglangE2e(E).value).toBeCloseTo(0.5, 12);
    expect(M.sglangItls(E)).toEqual([]);
    expect(M.sglangOutputLen(E, 'openai')).toBe(8); // the usage sits in no chunk with text: never read
    expect(M.sglangOutputLen(E, 'sglang')).toBe(8);
    expect(M.sglangTpot(E, 'openai').value).toBeCloseTo(0.5 / 7, 12); // (latency − 0) / (8 − 1)
    expect(M.sglangOutputLen(E, 'openai-chat')).toBe(0); // the chat function reads usage from any chunk
    expect(M.sglangTpot(E, 'openai-chat').value).toBeNull(); // output_len 0: no TPOT
    const none = { ...rec({ chunkTimes: [], finishT: 0.5, outputTokens: null }), requestedOutputTokens: 8 }; // not even a role chunk
    expect(M.sglangTtft(none)).toEqual({ value: 0 });
    expect(M.sglangTpot(none).value).toBeCloseTo(0.5 / 7, 12);
    expect(M.sglangOutputLen(T, 'openai')).toBe(3); // with text, the server's count is read
  });
  it('its 0 enters the TTFT mean, its latency the E2E mean and the concurrency, its requested length the output', () => {
    const m = M.sglangMetrics(run([T, E], { endT: 0.5 }));
    expect(m.completed).toBe(2);
    expect(m.ttft.n).toBe(2);
    expect(m.ttft.mean).toBeCloseTo((100 + 0) / 2, 9);
    expect(m.e2eLatency.mean).toBeCloseTo((400 + 500) / 2, 9);
    expect(m.tpot.mean).toBeCloseTo((((0.4 - 0.1) / 2 + 0.5 / 7) * 1000) / 2, 9);
    expect(m.outputThroughput).toBeCloseTo((3 + 8) / 0.5, 9);
    expect(m.concurrency).toBeCloseTo((0.4 + 0.5) / 0.5, 9);
    expect(m.itl.n).toBe(2); // T's two gaps only
  });
});

describe('where each tool\u2019s run clock starts for throughput', () => {
  // the schedule starts at 0; requests are due (and sent) at 0.25 and 0.75
  const E = rec({ dueT: 0.25, chunkTimes: [0.5, 1.2], finishT: 1.25 });
  const F = rec({ dueT: 0.75, chunkTimes: [1.0, 1.9], finishT: 2.0 });
  const r = run([E, F], { originT: 0, startT: 0.25, endT: 2.0, requestRate: 2 });

  it('vLLM: before the first arrival, at the schedule\u2019s origin (serve.py @009e6d4a1cd6: benchmark_start_time, then get_request sleeps delay_ts[0])', () => {
    expect(M.vllmDuration(r)).toBe(2.0);
    expect(M.vllmMetrics(r).requestThroughput).toBe(1); // 2 requests / 2.0 s
    expect(M.vllmDuration({ ...r, originT: null })).toBe(1.75); // an imported file's own start when the origin is unknown
  });
  it('SGLang and InferenceX: at the first arrival (get_request yields the first request before any sleep)', () => {
    // sglang serving.py @00f9ec472ffe get_request; InferenceX infx/bench_serving/benchmark_serving.py get_request
    expect(M.sglangDuration(r)).toBe(1.75);
    expect(M.sglangMetrics(r).requestThroughput).toBeCloseTo(2 / 1.75, 12);
    expect(M.inferencexDuration(r)).toBe(1.75);
  });
  it('AIPerf: first request sent → last response (benchmark_duration_metric.py: max response − min request)', () => {
    expect(M.aiperfDuration(r)).toBeCloseTo(1.9 - 0.25, 12);
  });
  it('LoadGen: the first query\u2019s scheduled time → the last issued query\u2019s completion', () => {
    expect(M.mlperfMetrics(r).finalQueryAllSamplesDoneS).toBe(1.75);
  });
  it('a simulated run knows its schedule\u2019s origin: t = 0', () => {
    const times = [0.5, 1.0, 1.5];
    const res = simulate(defaultServerConfig(), { isl: fixedLengths(3, 128), osl: fixedLengths(3, 8) }, { kind: 'open', times }, { recordTokens: true });
    const sim = M.fromSimResult(res, { client: { kind: 'open', times } as never, requestRate: 2 });
    expect(sim.originT).toBe(0);
    expect(sim.startT).toBe(0.5);
    expect(M.vllmDuration(sim)).toBe(sim.endT);
    expect(M.sglangDuration(sim)).toBe(sim.endT - 0.5);
  });
});
