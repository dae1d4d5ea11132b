import { describe, expect, it } from 'vitest';
import type { BenchmarkRun, RequestRecord } from '../src/tools/base/records.ts';
import * as M from '../src/metrics/index.ts';
import { runCli } from './helpers/cli.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './helpers/scratch.ts';

function rec(p: Partial<Omit<RequestRecord, 'chunkTimes'>> & { sendT: number; chunkTimes: number[] }): RequestRecord {
  return {
    dueT: p.dueT ?? 0,
    sendT: p.sendT,
    chunkTimes: Float64Array.from(p.chunkTimes),
    chunkTokens: p.chunkTokens ?? null,
    firstT: p.chunkTimes[0] ?? null,
    finishT: p.finishT ?? p.chunkTimes[p.chunkTimes.length - 1],
    inputTokens: p.inputTokens ?? 100,
    outputTokens: p.outputTokens ?? (p.chunkTokens ? p.chunkTokens.reduce((a, b) => a + b, 0) : p.chunkTimes.length),
    ok: p.ok ?? true,
    preemptions: p.preemptions ?? 0,
    requestedOutputTokens: p.requestedOutputTokens,
  };
}

// A: four one-token chunks; the stream's last line ([DONE]) 50 ms after the last token
const A = rec({ sendT: 0, chunkTimes: [0.2, 0.3, 0.5, 0.6], finishT: 0.65 });
// B: a one-token answer, sent 0.1 s after it was due
const B = rec({ dueT: 0, sendT: 0.1, chunkTimes: [0.4] });
// C: the first chunk carries 3 tokens, the second 2, the third 1 (n = 6)
const C = rec({ sendT: 0, chunkTimes: [0.5, 0.6, 0.7], chunkTokens: [3, 2, 1] });
// D: preempted once and recomputed: a 1 s gap between the 2nd and 3rd token
const D = rec({ sendT: 0, chunkTimes: [0.1, 0.2, 1.2, 1.3], preemptions: 1 });

const run = (records: RequestRecord[], extra: Partial<BenchmarkRun> = {}): BenchmarkRun => ({
  records, source: 'test', maxConcurrency: null, requestRate: null, startT: 0, endT: 2, ...extra,
});

const v = (m: M.Maybe) => m.value;

describe('vLLM bench serve', () => {
  it('TTFT, E2EL (last choices message), TPOT, pooled ITL', () => {
    expect(v(M.vllmTtft(A))).toBeCloseTo(0.2, 12);
    expect(v(M.vllmE2el(A))).toBeCloseTo(0.6, 12); // not 0.65: usage/[DONE] do not advance the end
    expect(v(M.vllmTpot(A))).toBeCloseTo(0.4 / 3, 12);
    expect(M.vllmItls(A).map((x) => +x.toFixed(12))).toEqual([0.1, 0.2, 0.1]);
  });
  it('one-token answer: TPOT undefined with a reason, not a division by zero', () => {
    const t = M.vllmTpot(B);
    expect(t.value).toBeNull();
    expect(t.reason).toMatch(/1-token answer/);
    const m = M.vllmMetrics(run([A, B]));
    expect(m.tpot.n).toBe(1);
    expect(m.tpot.excluded).toMatch(/1 × 1-token answer/);
    expect(m.ttft.n).toBe(2);
  });
  it('a first chunk with 3 tokens still counts as one: TPOT = (0.7 − 0.5)/(6 − 1)', () => {
    expect(v(M.vllmTpot(C))).toBeCloseTo(0.04, 12);
    expect(M.vllmItls(C).length).toBe(2); // one gap per message
  });
  it('preempted request: the recompute shows as one long gap', () => {
    expect(Math.max(...M.vllmItls(D))).toBeCloseTo(1.0, 12);
    expect(v(M.vllmTpot(D))).toBeCloseTo(1.2 / 3, 12);
  });
  it('queue time and queue-inclusive E2EL (only with a cap and a finite rate)', () => {
    expect(v(M.vllmClientQueueTime(B, { maxConcurrency: 2 }))).toBeCloseTo(0.1, 12);
    expect(M.vllmE2elIncludingClientQueue(B, { maxConcurrency: null, requestRate: 5 }).value).toBeNull();
    expect(v(M.vllmE2elIncludingClientQueue(B, { maxConcurrency: 2, requestRate: 5 }))).toBeCloseTo(0.4, 12);
  });
  it('throughputs over D, goodput as a count over D', () => {
    const m = M.vllmMetrics(run([A, B, C, D]));
    expect(m.requestThroughput).toBe(2); // 4 / 2 s
    expect(m.outputThroughput).toBe((4 + 1 + 6 + 4) / 2);
    expect(m.totalTokenThroughput).toBe((400 + 15) / 2);
    // SLO TPOT ≤ 150 ms: A (133 ms), B (one token → 0), C (40 ms) pass; D (400 ms) fails
    const g = M.vllmGoodput(run([A, B, C, D]), { tpotMs: 150 });
    expect(g.good).toBe(3);
    expect(g.value).toBe(1.5);
  });
  it('pooled median ITL over A, C, D', () => {
    // gaps: A .1 .2 .1 | C .1 .1 | D .1 1.0 .1 → sorted .1×6, .2, 1.0 → median .1
    expect(M.vllmMetrics(run([A, C, D])).itl.median).toBeCloseTo(100, 9);
  });
});

describe('SGLang', () => {
  it('E2E ends at the last SSE line; TPOT uses it', () => {
    expect(v(M.sglangE2e(A))).toBeCloseTo(0.65, 12);
    expect(v(M.sglangTpot(A))).toBeCloseTo(0.45 / 3, 12);
  });
  it('no usage → the requested length', () => {
    const r = { ...A, outputTokens: null, requestedOutputTokens: 10 };
    expect(v(M.sglangTpot(r))).toBeCloseTo(0.45 / 9, 12);
  });
  it('native backend splits a multi-token chunk gap per token', () => {
    expect(M.sglangItls(C, 'openai').map((x) => +x.toFixed(12))).toEqual([0.1, 0.1]);
    expect(M.sglangItls(C, 'sglang').map((x) => +x.toFixed(12))).toEqual([0.05, 0.05, 0.1]);
  });
  it('Little-law concurrency Σ e2e / D', () => {
    expect(M.sglangMetrics(run([A, D])).concurrency).toBeCloseTo((0.65 + 1.3) / 2, 12);
  });
});

describe('InferenceX', () => {
  it('interactivity = 1000 / TPOT statistic (inverse of the statistic)', () => {
    const m = M.inferencexMetrics(run([A, C]));
    // TPOTs 133.33 and 40 ms: mean 86.67 → 11.54 tok/s; the mean of inverses would be 16.25
    expect(m.intvty.mean).toBeCloseTo(1000 / ((400 / 3 + 40) / 2), 9);
  });
  it('no usage → n = 0 → no TPOT', () => {
    expect(M.inferencexTpot({ ...A, outputTokens: null }).reason).toMatch(/no usage/);
  });
});

describe('AIPerf', () => {
  it('inter_token_latency = TPOT; per chunk usage divides by OSL − first-chunk tokens', () => {
    expect(v(M.aiperfItl(C))).toBeCloseTo(0.2 / 5, 12);
    expect(v(M.aiperfItl(C, { perChunkUsage: true }))).toBeCloseTo(0.2 / 3, 12);
  });
  it('per-user throughput 1/ITL; E2E throughput OSL/latency (TTFT folded in)', () => {
    expect(v(M.aiperfPerUserThroughput(A))).toBeCloseTo(7.5, 12);
    expect(v(M.aiperfE2eOutputTokenThroughput(A))).toBeCloseTo(4 / 0.6, 12);
    expect(M.aiperfItl(B).reason).toMatch(/OSL ≥ 2/);
  });
  it('duration = max(end) − min(start); effective latency from the credit', () => {
    expect(M.aiperfDuration(run([A, B]))).toBeCloseTo(0.6, 12);
    expect(v(M.aiperfEffectiveLatency(B, { requestRate: 5 }))).toBeCloseTo(0.4, 12);
    expect(v(M.aiperfEffectiveLatency(B, { requestRate: null }))).toBeCloseTo(0.3, 12);
  });
  it('E2E normalized interactivity = 1 / p(latency/OSL)', () => {
    // A: 0.6/4 = .15, D: 1.3/4 = .325 → p90 linear = .15 + .9·.175 = .3075
    expect(M.aiperfE2eNormalizedInteractivity(run([A, D]), 0.9)).toBeCloseTo(1 / 0.3075, 9);
  });
});

describe('GuideLLM', () => {
  it('time_per_output_token includes the TTFT; inter_token_latency does not', () => {
    expect(v(M.guidellmTimePerOutputTokenMs(A))).toBeCloseTo(150, 9);
    expect(v(M.guidellmInterTokenLatencyMs(A))).toBeCloseTo(400 / 3, 9);
    expect(v(M.guidellmTimePerOutputTokenMs(B))).toBeCloseTo(300, 9); // one token: defined (0.4 − 0.1 s)
    expect(M.guidellmInterTokenLatencyMs(B).value).toBeNull();
  });
  it('token-weighted means: Σ(last − start)/Σ n and Σ(last − first)/Σ(n − 1)', () => {
    const g = M.guidellmMetrics(run([A, D]));
    expect(g.timePerOutputTokenMs.mean).toBeCloseTo((1000 * (0.6 + 1.3)) / 8, 9);
    expect(g.interTokenLatencyMs.mean).toBeCloseTo((1000 * (0.4 + 1.2)) / 6, 9);
  });
  it('scheduled latency refused for a closed loop', () => {
    expect(M.guidellmScheduledLatency(B, { requestRate: null }).reason).toMatch(/closed loop/);
    expect(v(M.guidellmScheduledLatency(B, { requestRate: 2 }))).toBeCloseTo(0.4, 12);
  });
});

describe('LLMPerf', () => {
  it('as coded: (last content − start) / SSE messages (role chunk counted)', () => {
    expect(v(M.llmperfInterTokenLatency(A))).toBeCloseTo(0.6 / 5, 12);
    expect(v(M.llmperfInterTokenLatency(A, { nonContentMessages: 2 }))).toBeCloseTo(0.6 / 6, 12);
  });
  it('the article\u2019s reading divides by the Llama-2 count, an explicit input', () => {
    // 4 tokens × 1.25 = 5 Llama 2 tokens, + 1 start-of-sequence token
    expect(v(M.llmperfInterTokenLatencyArticle(A, 1.25))).toBeCloseTo(0.6 / 6, 12);
    expect(v(M.llmperfRequestOutputThroughput(A, 1.25))).toBeCloseTo(6 / 0.65, 12);
    expect(() => M.llmperfMetrics(run([A]), { llama2Inflation: 0 })).toThrow(/llama2Inflation/);
  });
  it('summaries use pandas (linear) quantiles and std ddof 1', () => {
    const m = M.llmperfMetrics(run([A, D]), { llama2Inflation: 1 });
    expect(m.ttftS.std).toBeCloseTo(Math.sqrt(0.005), 12); // ttft .2 and .1
  });
});

describe('MLPerf LoadGen', () => {
  it('latencies from the scheduled time, TPOT in truncated integer ns', () => {
    expect(v(M.mlperfLatencyNs(B))).toBe(400_000_000);
    expect(v(M.mlperfFirstTokenLatencyNs(A))).toBe(200_000_000);
    expect(v(M.mlperfTpotNs(A))).toBe(150_000_000); // (650 − 200) ms / 3
    expect(v(M.mlperfTpotNs({ ...A, finishT: 0.6500000001 }))).toBe(150_000_000); // 450000000/3 exact; truncation below
    expect(v(M.mlperfTpotNs({ ...A, finishT: 0.6000000001 }))).toBe(133_333_333);
    expect(v(M.mlperfTpotNs(B))).toBe(0); // one token: LoadGen keeps n_tokens = 0, (400 − 400) ms / −1
  });
  it('samples/s = (n − 1)/completion of the last issued query (all due at 0: the later index)', () => {
    const m = M.mlperfMetrics(run([A, D]));
    expect(m.completedSamplesPerSec).toBeCloseTo(1 / 1.3, 12);
    expect(m.completedTokensPerSec).toBeCloseTo(8 / 1.3, 12);
  });
});

describe('Etalon fluidity index', () => {
  it('preempted request: slack carries, a late token misses ⌊late/tbt⌋ deadlines and resets', () => {
    // inter-token times .1 .1 1.0 .1; TTFT deadline .5, TBT .2
    // .1 ≤ .5 (slack .4); .1 ≤ .6 (slack .5); 1.0 > .7 → ⌊(1.0 − .5)/.2⌋ = 2 missed; .1 ≤ .2 → met
    const it = M.etalonInterTokenTimes(D)!;
    const m = M.etalonDeadlineMisses(it, 0.5, 0.2);
    expect(m).toEqual({ missRate: 2 / 5, missed: 2, total: 5 });
    expect(v(M.etalonFluidity(D, { ttftS: 0.5, tbtS: 0.2 }))).toBeCloseTo(0.6, 12);
  });
  it('a late first token misses 1 + ⌊excess/tbt⌋', () => {
    expect(M.etalonDeadlineMisses([0.95], 0.5, 0.2)).toEqual({ missRate: 1, missed: 3, total: 3 });
  });
});

describe('goodput: vLLM count vs DistServe rate', () => {
  it('DistServe: highest rate whose SLO attainment ≥ 90%, all lower rates passing', () => {
    const good = run([A, C]);
    const bad = run([D, D, A]);
    const g = M.distserveGoodput([{ rate: 1, run: good }, { rate: 2, run: good }, { rate: 3, run: bad }, { rate: 4, run: good }], { tpotMs: 150 });
    expect(g.value).toBe(2);
  });
});

describe('Table 1, Table 2, registry', () => {
  it('seven tools, each with a version and source files; LLMPerf keeps both readings', () => {
    expect(M.TABLE1.map((r) => r.tool)).toEqual(['vllm', 'sglang', 'inferencex', 'aiperf', 'guidellm', 'llmperf', 'mlperf']);
    for (const r of M.TABLE1) {
      expect(r.version.length).toBeGreaterThan(3);
      expect(r.sourceFiles.length).toBeGreaterThan(0);
    }
    expect(M.TABLE1.find((r) => r.tool === 'llmperf')!.perTokenArticle).toMatch(/Llama-2/);
    expect(M.TABLE2.length).toBe(7);
  });
  it('perUserSpeeds on a hand-made run', () => {
    const rows = M.perUserSpeeds(run([A, D]), { llama2Inflation: null });
    const get = (tool: string, metric: string) => rows.find((r) => r.tool === tool && r.metric.startsWith(metric))!;
    // pooled gaps .1 .2 .1 .1 1.0 .1 → median .1 s → 10 tok/s
    expect(get('vllm', 'median_itl_ms').tokPerS).toBeCloseTo(10, 9);
    // GuideLLM: 8 tokens over 1.9 s
    expect(get('guidellm', 'time_per_output_token_ms').tokPerS).toBeCloseTo(8 / 1.9, 9);
    expect(get('llmperf', 'inter_token_latency_s (article)').reason).toMatch(/inflation/);
    expect(rows.filter((r) => r.primary).length).toBe(7);
  });
});

describe('stopwatches metrics (CLI)', () => {
  const dir = scratchDir('sw-metrics-');
  const write = (name: string, body: string) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    return p;
  };
  const cli = runCli;
  const good = {
    preemptions: 0, steps: 3, makespan: 0.7,
    requests: { due_t: [0, 0], send_t: [0, 0], first_t: [0.2, 0.5], finish_t: [0.6, 0.7], npre: [0, 0], token_times: [[0.2, 0.3, 0.5, 0.6], [0.5, 0.6, 0.7]] },
  };
  it('prints a table and JSON rows', async () => {
    const p = write('ok.json', JSON.stringify(good));
    const t = await cli(['metrics', p]);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/median_itl_ms/);
    const j = await cli(['metrics', p, '--json']);
    const rows = JSON.parse(j.out).rows as { tool: string; metric: string; value: number; n: number }[];
    expect(rows.find((r) => r.metric === 'mean_tpot_ms')!.value).toBeCloseTo(((0.4 / 3) + 0.1) / 2 * 1000, 9);
  });
  const cases: [string, string, RegExp][] = [
    ['garbage.json', '{nope', /not valid JSON/],
    ['array.json', '[1,2]', /cannot tell which tool wrote this file.*stopwatches simulate --tokens/],
    ['notokens.json', JSON.stringify({ ...good, requests: { ...good.requests, token_times: undefined } }), /no requests.token_times.*--tokens/],
    ['empty.json', JSON.stringify({ ...good, requests: { due_t: [], send_t: [], first_t: [], finish_t: [], npre: [], token_times: [] } }), /no requests/],
  ];
  for (const [name, body, msg] of cases) {
    it(`bad input (${name}) → one line, exit 2`, async () => {
      const p = write(name, body);
      const r = await cli(['metrics', p]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n').length).toBe(1);
      expect(r.err).toContain(name);
      expect(r.err).toMatch(msg);
    });
  }
  it('missing file → exit 2 naming it', async () => {
    const r = await cli(['metrics', join(dir, 'nope.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nope\.json: cannot read/);
  });
});
