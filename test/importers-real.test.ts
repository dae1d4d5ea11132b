/**
 * Result files written by the real tools (../shared/real-results/, with their
 * provenance in its README): every one is read, per-request files give
 * computed definitions, aggregate-only files their aggregates, and the
 * file's own aggregates agree with our recomputation or say why not.
 * The folder is not copied into the project; without it these tests fail.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importResultFile } from '../src/importers/load.ts';
import { runCli } from './helpers/cli.ts';
import { LLMPERF_BOS, llmperfOutputTokens } from '../src/tools/llmperf/definitions.ts';
import type { RequestRecord } from '../src/tools/base/records.ts';
import { scratchDir } from './helpers/scratch.ts';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');
if (!existsSync(REAL)) {
  throw new Error(`${REAL} is missing: the real result files live beside the repository (../shared/real-results/); CI provides them`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]))
    .filter((f) => !f.endsWith('README.md'))
    .sort();
}
const FILES = filesUnder(REAL);
const real = (name: string): string => {
  const f = FILES.find((x) => x.endsWith(name));
  if (!f) throw new Error(`${name} is not in ${REAL}`);
  return f;
};

type Row = { tool: string; metric: string; value: number | null; n: number; note?: string; quantity: string };
type Agreement = { key: string; reported: number; recomputed: number | null; unit: string; relDiff: number | null; reason?: string };
interface Out {
  format: string;
  version: string;
  requests: number;
  successful: number;
  failures: Record<string, number>;
  reported: Record<string, { value: number; unit: string; exact?: string; written?: { value: number; unit: string } }>;
  agreement: Agreement[];
  rows: Row[];
  notes: string[];
  missing: string[];
  runs?: { index: number; label: string; reported: Record<string, { value: number; unit: string }> }[];
  completed?: { key: string; value: number; unit: string };
}

async function metricsJson(file: string, ...args: string[]): Promise<Out> {
  const r = await runCli(['metrics', file, '--json', ...args]);
  expect(r.err, relative(REAL, file)).toBe('');
  expect(r.code, relative(REAL, file)).toBe(0);
  return JSON.parse(r.out) as Out;
}

const value = (o: Out, tool: string, metric: string): number | null => {
  const row = o.rows.find((x) => x.tool === tool && x.metric === metric);
  if (!row) throw new Error(`no row ${tool} ${metric}`);
  return row.value;
};

describe('every real result file is read', () => {
  it('the folder holds the files its README lists', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(13);
  });
  it.each(FILES.map((f) => [relative(REAL, f), f]))('%s: exit 0; computed definitions or the tool’s own aggregates; agreement holds', async (_name, file) => {
    const o = await metricsJson(file);
    if (o.requests > 0) {
      expect(o.rows.filter((r) => r.value !== null).length).toBeGreaterThan(3);
      expect(JSON.stringify(o.rows)).not.toMatch(/"value": ?NaN/);
    } else if (o.runs) {
      for (const r of o.runs) expect(Object.keys(r.reported).length, `run ${r.index}`).toBeGreaterThan(3);
    } else {
      expect(Object.keys(o.reported).length).toBeGreaterThan(3);
    }
    for (const a of o.agreement) {
      if (a.relDiff === null || a.relDiff > 0.01) expect(a.reason, `${a.key}: ${a.reported} vs ${a.recomputed}`).toBeTruthy();
    }
    // a row with no value (refused, or nothing to compute) claims no sample size
    for (const r of o.rows) if (r.value === null) expect(r.n, `${r.tool} ${r.metric}`).toBe(0);
  });
});

describe('vLLM', () => {
  it('benchmark_serving.py of 2024 (no start_times): per-request definitions reproduce the file’s own numbers', async () => {
    const o = await metricsJson(real('lambdalabs-llama3-8b-h100-len2048.json'));
    expect(o.requests).toBe(10);
    expect(o.version).toMatch(/without start_times/);
    const agree = Object.fromEntries(o.agreement.map((a) => [a.key, a]));
    for (const k of ['mean_ttft_ms', 'p99_ttft_ms', 'mean_itl_ms', 'p99_itl_ms', 'request_throughput', 'output_throughput']) expect(agree[k].relDiff, k).toBeLessThan(1e-9);
    expect(agree.mean_latency_ms.relDiff).toBeLessThan(0.01);
    expect(agree.median_tpot_ms.reason).toMatch(/after the stream closes/);
    // E2E from TTFT + Σ ITL; what needs one shared clock is refused with the reason
    expect(value(o, 'vllm', 'mean_e2el_ms')).toBeGreaterThan(0);
    expect(value(o, 'aiperf', 'request_throughput')).toBeNull();
    expect(o.rows.find((r) => r.tool === 'aiperf' && r.metric === 'request_throughput')!.note).toMatch(/one shared clock/);
  });
  it('aggregates only, no duration: the aggregates with units, no fatal error', async () => {
    const o = await metricsJson(real('vllm-ascend-serving_llama8B_tp1_1.json'));
    expect(o.requests).toBe(0);
    // kept in seconds, and as written: milliseconds, the unit its key names (serve.py writes *_ms in ms)
    expect(o.reported.mean_ttft_ms).toEqual({ value: expect.closeTo(0.11123647520318627, 12), unit: 's', written: { value: 111.23647520318627, unit: 'ms' } });
    expect(o.rows).toEqual([]);
  });
});

describe('SGLang', () => {
  it('reads Python’s Infinity literal', async () => {
    const res = await importResultFile(real('tonyli-agg_n50_in128_out64_c8.jsonl'));
    expect(res.run.requestRate).toBe(Infinity);
    expect(res.run.maxConcurrency).toBe(8);
    expect(res.reported.mean_e2e_latency_ms.unit).toBe('s');
  });
  it('several runs in one file: listed side by side, or one picked with --entry', async () => {
    const line = readFileSync(real('tonyli-agg_n50_in128_out64_c8.jsonl'), 'utf8').trim();
    const { writeFileSync } = await import('node:fs');
    const p = join(scratchDir('sw-sglang-'), 'runs.jsonl');
    writeFileSync(p, `${line}\n${line.replace('"max_concurrency": 8', '"max_concurrency": 16')}\n`);
    const all = await metricsJson(p);
    expect(all.runs!.map((r) => r.label)).toEqual([expect.stringMatching(/rate inf, max concurrency 8/), expect.stringMatching(/max concurrency 16/)]);
    const text = await runCli(['metrics', p]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/Runs in this file/);
    expect((await metricsJson(p, '--entry', '1')).runs).toBeUndefined();
  });
});

describe('GuideLLM', () => {
  it('0.5 synchronous with warmup/cooldown: the measured window and no schedule clock', async () => {
    const o = await metricsJson(real('korat-gpt-oss-20b_benchmarks.json'));
    expect(o.requests).toBe(25); // GuideLLM's own count; 5 requests outside the window are left out
    expect(o.notes.join(' ')).toMatch(/5 request\(s\) entirely outside it are left out/);
    for (const a of o.agreement) expect(a.relDiff, a.key).toBeLessThan(1e-6);
    expect(o.agreement.map((a) => a.key)).toEqual(expect.arrayContaining(['requests_per_second.mean', 'time_per_output_token_ms.mean', 'inter_token_latency_ms.mean']));
    // one stream: concurrency near 1, not inflated by warmup requests; no queue from the scheduler start
    expect(value(o, 'sglang', 'concurrency (Σ e2e / D)')).toBeLessThan(1.1);
    expect(value(o, 'vllm', 'mean_client_queue_time_ms')).toBeNull();
    // GuideLLM's own ITL is computed on GuideLLM files
    expect(value(o, 'guidellm', 'inter_token_latency_ms (token-weighted mean)')).toBeGreaterThan(0);
  });
  it('up to 0.3 (schema before info.timings): that version’s TPOT, and scheduler_info read', async () => {
    const o = await metricsJson(real('grazdev-qwen25-7b-throughput_benchmarks.json'));
    expect(o.version).toMatch(/up to 0\.3/);
    expect(o.requests).toBe(1000);
    const tpot = o.agreement.find((a) => a.key === 'time_per_output_token_ms.mean')!;
    expect(tpot.relDiff).toBeLessThan(1e-9);
    expect(value(o, 'guidellm', 'time_per_output_token_ms (mean, up to 0.3)')).toBeCloseTo(tpot.reported * 1000, 6);
    expect(o.agreement.find((a) => a.key === 'requests_per_second.mean')!.reason).toMatch(/per-interval rates/);
    // that version merged change times within 1e-6 s, not 0.4's 1e-4 s: recomputed as it computed, exactly
    expect(o.agreement.find((a) => a.key === 'request_concurrency.mean')!.relDiff).toBe(0);
  });
});

describe('AIPerf', () => {
  it('Oct 2025 schema: metadata.timestamp_ns, cancelled records counted as failed', async () => {
    const o = await metricsJson(real('aiperf-examples-run1_profile_export.jsonl'));
    expect(o.requests).toBe(100);
    expect(o.successful).toBe(89);
    expect(o.failures).toEqual({ 'cancelled (499)': 11 });
    expect(o.version).toMatch(/Oct 2025/);
    for (const a of o.agreement) expect(a.relDiff, a.key).toBeLessThan(1e-9);
    expect(o.agreement.map((a) => a.key)).toContain('inter_token_latency.avg');
  });
  it('the aggregate export: AIPerf’s own numbers with units', async () => {
    const o = await metricsJson(real('aiperf-examples-run1_profile_export_aiperf.json'));
    expect(o.requests).toBe(0);
    expect(o.reported['request_throughput.avg'].unit).toBe('1/s');
    expect(o.reported['ttft.avg']).toEqual({ value: expect.closeTo(2.343219436988764, 12), unit: 's', written: { value: expect.closeTo(2343.219436988764, 9), unit: 'ms' } });
    expect(o.failures).toEqual({ 'cancelled (499)': 11 });
  });
});

describe('formats read since the second set of files', () => {
  it('vllm bench sweep summary.json: the two runs side by side, each with its own aggregates in ms as written', async () => {
    const o = await metricsJson(real('er0080-sweep-v0.25.1-summary.json'));
    expect(o.runs!.map((r) => r.label)).toEqual([expect.stringMatching(/^run 0, max_num_seqs 4, rate inf/), expect.stringMatching(/^run 1, max_num_seqs 4/)]);
    // the file's own numbers (checked by reading it): 8 completed in each run, mean TTFT 217.27 ms in run 0
    expect(o.runs![0].reported.completed).toEqual({ value: 8, unit: 'requests' });
    expect(o.runs![0].reported.mean_ttft_ms).toMatchObject({ unit: 's', written: { value: expect.closeTo(217.27289337468392, 9), unit: 'ms' } });
    const one = await metricsJson(real('er0080-sweep-v0.25.1-summary.json'), '--entry', '1');
    expect(one.completed).toEqual({ key: 'completed', value: 8, unit: 'requests' });
  });
  it('AIPerf 0.8 aggregate JSON (schema 1.1, top-level metadata): read as AIPerf, each metric with its unit', async () => {
    const o = await metricsJson(real('ajith-kimik25-b200-conc1_profile_export_aiperf.json'));
    expect(o.format).toBe('aiperf');
    expect(o.version).toMatch(/AIPerf 0\.8\.0 .*schema 1\.1/);
    expect(o.completed).toEqual({ key: 'request_count', value: 66, unit: 'requests' });
    expect(o.reported['time_to_first_token.avg']).toMatchObject({ unit: 's', written: { value: expect.closeTo(886.0269695757576, 9), unit: 'ms' } });
    expect(o.reported['output_token_throughput_per_user.avg'].unit).toBe('tokens/s per user');
    expect(o.reported['benchmark_duration.avg']).toEqual({ value: expect.closeTo(1708.091573504, 9), unit: 's' });
    expect(o.reported['http_req_connection_reused.avg'].unit).toBe('1');
    const told = await runCli(['metrics', real('ajith-kimik25-b200-conc1_profile_export_aiperf.json'), '--format', 'aiperf']);
    expect(told.code).toBe(0);
  });
  it('AIPerf CSV export: names in words with the unit in brackets, two decimals, empty cells skipped', async () => {
    const o = await metricsJson(real('ajith-kimik25-b200-conc1_profile_export_aiperf.csv'));
    expect(o.format).toBe('aiperf-csv');
    expect(o.version).toMatch(/sum column.*0\.8/);
    expect(o.completed!.value).toBe(66);
    expect(o.reported['time_to_first_token.avg']).toMatchObject({ value: expect.closeTo(0.88603, 9), written: { value: 886.03, unit: 'ms' } });
    // the Active … rows have no p1–p25 or p75 (empty cells): their p50 is kept, no p25 is invented
    expect(o.reported['active_decode_throughput.p50'].value).toBe(139.82);
    expect(o.reported['http_chunks_received.avg'].unit).toBe('count');
    expect(o.reported['request_count.avg'].unit).toBe('requests');
    expect(o.notes.join(' ')).toMatch(/two decimals/);
  });
  it('InferenceX result and agg_bmk.json: aggregates in seconds, tokens/s per user and per GPU', async () => {
    const one = await metricsJson(real('ajith-kimik25-b200-conc1-agentic.json'));
    expect(one.format).toBe('inferencex');
    expect(one.reported.mean_ttft).toEqual({ value: 0.8860269695757576, unit: 's' });
    expect(one.reported.mean_intvty).toEqual({ value: 139.9852593397364, unit: 'tokens/s per user' });
    expect(one.reported.tput_per_gpu.unit).toBe('tokens/s per GPU');
    // the same run's AIPerf export says 886.03 ms: InferenceX divided it by 1000
    const aiperf = await metricsJson(real('ajith-kimik25-b200-conc1_profile_export_aiperf.json'));
    expect(one.reported.mean_ttft.value).toBeCloseTo(aiperf.reported['time_to_first_token.avg'].value, 12);
    const agg = await metricsJson(real('ajith-minimaxm25-agg_bmk.json'));
    expect(agg.completed).toEqual({ key: 'total_requests_completed', value: 300, unit: 'requests' });
    expect(agg.notes.join(' ')).toMatch(/image, framework, precision are empty/);
  });
  it('InferenceX nested form (request_metrics.latency.*): read as the flat keys', async () => {
    const flat = JSON.parse(readFileSync(real('ajith-kimik25-b200-conc1-agentic.json'), 'utf8')) as Record<string, unknown>;
    const latency = Object.fromEntries(Object.entries(flat).filter(([k]) => /_(ttft|tpot|itl|e2el|intvty)$/.test(k)));
    const rest = Object.fromEntries(Object.entries(flat).filter(([k]) => !(k in latency)));
    const { writeFileSync } = await import('node:fs');
    const p = join(scratchDir('sw-infx-'), 'nested.json');
    // tput_per_gpu nested too, so only the nested statistics can tell the format
    const { tput_per_gpu: tpg, ...top } = rest;
    writeFileSync(p, JSON.stringify({ ...top, request_metrics: { latency, throughput: { tput_per_gpu: tpg } } }));
    const o = await metricsJson(p);
    expect(o.format).toBe('inferencex');
    expect(o.reported.mean_ttft).toEqual({ value: 0.8860269695757576, unit: 's' });
    expect(o.reported.p95_intvty.unit).toBe('tokens/s per user');
  });
  it('InferenceX --with the same run’s AIPerf records: its aggregates are AIPerf’s statistics of them', async () => {
    const o = await metricsJson(real('ajith-kimik25-b200-conc1-agentic.json'), '--with', real('ajith-kimik25-b200-conc1_profile_export.jsonl'));
    const a = Object.fromEntries(o.agreement.map((x) => [x.key, x]));
    for (const k of ['mean_ttft', 'p95_ttft', 'std_e2el', 'mean_itl', 'mean_intvty', 'p90_output_tokens_actual', 'total_prompt_tokens', 'output_tput_tps', 'duration_seconds']) expect(a[k].relDiff, k).toBeLessThan(1e-9);
    // the file's own numbers differ from AIPerf's records where the README says so: 69,501 vs total_osl 69,471, and mean_qps
    expect(a.total_generation_tokens).toMatchObject({ reported: 69501, recomputed: 69471 });
    expect(a.mean_qps.relDiff).toBeGreaterThan(1e-3);
    expect(a.p75_qps.reason).toMatch(/per-second request counts/);
    const bad = await runCli(['metrics', real('ajith-kimik25-b200-conc1-agentic.json'), '--with', real('ajith-kimik25-b200-conc1_profile_export_aiperf.json')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--with needs the per-request records of the same run/);
  });
  it('GenAI-Perf CSV: latencies in ns as written, percentiles in descending columns', async () => {
    const o = await metricsJson(real('triton-client-pr635_profile_export_genai_perf.csv'));
    expect(o.format).toBe('genai-perf-csv');
    expect(o.reported['time_to_first_token.avg']).toEqual({ value: expect.closeTo(0.005964158, 15), unit: 's', written: { value: 5964158, unit: 'ns' } });
    expect(o.reported['time_to_first_token.p99'].written!.value).toBe(6875790);
    expect(o.reported['request_throughput.avg']).toEqual({ value: 10.95, unit: '1/s' });
    expect(o.reported['output_token_throughput.avg']).toEqual({ value: 623.19, unit: 'tokens/s' });
    const text = await runCli(['metrics', real('triton-client-pr635_profile_export_genai_perf.csv')]);
    expect(text.out).toMatch(/time_to_first_token\.avg\s+5964158 ns/);
  });
});

describe('LLMPerf', () => {
  it('before afd137a: told apart by its numbers, 429s counted, that version’s definitions applied', async () => {
    const o = await metricsJson(real('leaderboard-lepton_70b_individual_responses.json'));
    expect(o.requests).toBe(150);
    expect(o.successful).toBe(20);
    expect(o.failures).toEqual({ 'HTTP 429': 130 });
    expect(o.version).toMatch(/before commit afd137a/);
    const itl = o.agreement.find((a) => a.key === 'inter_token_latency_s.mean')!;
    expect(itl.relDiff).toBeLessThan(0.01);
    expect(o.agreement.find((a) => a.key === 'request_output_throughput_token_per_s.mean')!.reason).toMatch(/SSE messages/);
  });
  // ray-project/llmperf @ f1d6bed token_benchmark_ray.py 63–66 and 117 (the same lines in this file's 2023 version):
  // `len(tokenizer.encode(text))` counts the start-of-sequence token, which LLMPERF_BOS models
  it('counts the start-of-sequence token: an empty text counts 1, a full answer max_tokens + 1', () => {
    const summary = JSON.parse(readFileSync(real('leaderboard-lepton_70b_summary.json'), 'utf8')) as Record<string, unknown>;
    const asked = summary.mean_output_tokens as number; // max_tokens of every request: the spread is 0
    expect(summary.stddev_output_tokens).toBe(0);
    const reqs = JSON.parse(readFileSync(real('leaderboard-lepton_70b_individual_responses.json'), 'utf8')) as { error_code: number | null; number_output_tokens: number }[];
    const failed = reqs.filter((q) => q.error_code !== null);
    const ok = reqs.filter((q) => q.error_code === null);
    // a 429 carries no generated text: LLMPerf's count of "" is the start-of-sequence token alone
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((q) => q.number_output_tokens))).toEqual(new Set([LLMPERF_BOS]));
    // an answer can stop early, never run past max_tokens: the longest count is max_tokens + 1, and most reach it
    const counts = ok.map((q) => q.number_output_tokens);
    expect(Math.max(...counts)).toBe(asked + LLMPERF_BOS);
    expect(counts.filter((n) => n === asked + LLMPERF_BOS).length).toBeGreaterThan(ok.length / 2);
    // the model of the count gives the file's: 150 model tokens (Llama 2 here, inflation 1) count 151, no text counts 1
    const rec = (outputTokens: number): RequestRecord => ({ dueT: null, sendT: 0, chunkTimes: null, chunkTokens: null, firstT: 0.1, finishT: 1, inputTokens: 550, outputTokens, ok: true, preemptions: null });
    expect(llmperfOutputTokens(rec(asked), 1)).toBe(asked + LLMPERF_BOS);
    expect(llmperfOutputTokens(rec(0), 1)).toBe(failed[0].number_output_tokens);
  });
  it('the summary: aggregates only, version and failures', async () => {
    const o = await metricsJson(real('leaderboard-lepton_70b_summary.json'));
    expect(o.version).toMatch(/before commit afd137a.*2023-08-31/);
    expect(o.failures).toEqual({ 'HTTP 429': 130 });
    expect(o.reported.results_ttft_s_mean.unit).toBe('s');
  });
});

describe('MLPerf LoadGen', () => {
  it('the trace (not valid JSON as written): E2E and rate computed, token throughput refused', async () => {
    const o = await metricsJson(real('scc24-server-demo_mlperf_log_trace.json'));
    expect(o.requests).toBe(985);
    const detail = await metricsJson(real('scc24-server-demo_mlperf_log_detail.txt'));
    // the same run's detail log: our E2E from the trace matches LoadGen's own mean and p99
    expect(value(o, 'mlperf', 'result_mean_latency_ns')! / 1e9).toBeCloseTo(detail.reported.result_mean_latency_ns.value, 6);
    expect(value(o, 'mlperf', 'result_99.00_percentile_latency_ns')! / 1e9).toBeCloseTo(detail.reported['result_99.00_percentile_latency_ns'].value, 6);
    expect(value(o, 'mlperf', 'result_completed_samples_per_sec')).toBeCloseTo(detail.reported.result_completed_samples_per_sec.value, 0);
    expect(value(o, 'mlperf', 'result_completed_tokens_per_second')).toBeNull();
    expect(value(o, 'vllm', 'request_throughput')).toBeGreaterThan(90);
    // no Token_Latency counters in this trace: nothing was matched by scheduled time, and the note says only what is true
    expect(o.notes.join(' ')).not.toMatch(/matched to samples by scheduled time/);
    expect(o.missing.join(' ')).toMatch(/no first-token events/);
    // a definition refused without a reason is named, not only counted
    const text = await runCli(['metrics', real('scc24-server-demo_mlperf_log_trace.json')]);
    for (const line of text.out.split('\n').filter((l) => /^  no value/.test(l))) expect(line).toMatch(/\((\w+: [\w.]+(, [\w.]+)*(; )?)+\)$/);
  });
  it('detail logs: result_* typed by what they are, 64-bit seeds exact', async () => {
    const o = await metricsJson(real('v6.0-amd-mi355x-llama2-70b-interactive_mlperf_log_detail.txt'));
    expect(o.version).toMatch(/6\.0\.5/);
    // results.cc counts it over sample_latencies (the Server scenario has one sample per query): samples
    expect(o.reported.result_overlatency_query_count).toEqual({ value: 3366912, unit: 'samples' });
    expect(o.reported.result_time_to_output_token_mean.unit).toBe('s');
    expect(o.reported.result_completed_tokens_per_second.unit).toBe('tokens/s');
    expect(o.reported.effective_sample_index_rng_seed.exact).toBe('14276810075590677512');
    const text = await runCli(['metrics', real('v6.0-amd-mi355x-llama2-70b-interactive_mlperf_log_detail.txt')]);
    expect(text.out).toMatch(/effective_sample_index_rng_seed\s+14276810075590677512/);
  });
  it('LoadGen 5.1 SingleStream detail log: result_token_throughput is tokens per nanosecond, as results.cc computes it', async () => {
    const o = await metricsJson(real('v5.1-intel-b60-llama31-8b-edge-singlestream_mlperf_log_detail.txt'));
    // token_count / (sample_latency_mean [ns] × sample_count): 3.77261e-08 tokens/ns = 37.7261 tokens/s,
    // beside …_with_loadgen_overhead = token_count / final_query_issued_time [s] = 37.7323 tokens/s
    expect(o.reported.result_token_throughput).toEqual({ value: expect.closeTo(37.7261, 9), unit: 'tokens/s', written: { value: 3.77261e-8, unit: 'tokens/ns' } });
    expect(o.reported.result_token_throughput_with_loadgen_overhead).toEqual({ value: 37.7323, unit: 'tokens/s' });
    expect(o.reported.result_qps_with_loadgen_overhead.unit).toBe('queries/s');
    // early_stopping_latency_ss and _ms are both nanoseconds (QuerySampleLatency)
    expect(o.reported.early_stopping_latency_ms).toMatchObject({ written: { value: 333755801, unit: 'ns' } });
    expect(o.reported['early_stopping_ttft_90.0th_percentile_estimate'].written!.value).toBe(272739682);
    expect(o.reported['early_stopping_tpot_90.0th_percentile_estimate'].written!.value).toBe(26493158);
    expect(o.completed).toEqual({ key: 'result_query_count', value: 5000, unit: 'queries' });
    expect(o.notes.join(' ')).toMatch(/sample_concatenate_permutation was set to true.*generated_samples_per_query is 1/);
  });
  it('the summary with two early-stopping sections: TTFT and TPOT kept apart, TPS with its unit, the warning kept', async () => {
    const o = await metricsJson(real('v5.1-intel-b60-llama31-8b-edge-singlestream_mlperf_log_summary.txt'));
    // the file's lines (read by hand): TTFT estimates 272739682 / 333755801 ns, TPOT 26493158 / 27141604 ns
    expect(o.reported['early_stopping_ttft_90.0th_percentile_estimate'].written).toEqual({ value: 272739682, unit: 'ns' });
    expect(o.reported['early_stopping_ttft_99.0th_percentile_estimate'].written).toEqual({ value: 333755801, unit: 'ns' });
    expect(o.reported['early_stopping_tpot_90.0th_percentile_estimate'].written).toEqual({ value: 26493158, unit: 'ns' });
    expect(o.reported['early_stopping_tpot_99.0th_percentile_estimate'].written).toEqual({ value: 27141604, unit: 'ns' });
    expect(o.reported['tps_w/_loadgen_overhead']).toEqual({ value: 37.73, unit: 'tokens/s' });
    expect(o.reported['qps_w/_loadgen_overhead']).toEqual({ value: 0.29, unit: 'queries/s' });
    expect(o.reported.performance_sample_count.unit).toBe('samples');
    expect(o.notes.join(' ')).toMatch(/sample_concatenate_permutation was set to true/);
  });
  it('the human-readable summary', async () => {
    const o = await metricsJson(real('scc24-server-demo_mlperf_log_summary.txt'));
    expect(o.format).toBe('mlperf-summary');
    expect(o.reported.mean_latency_ns.value).toBeCloseTo(0.003882235, 12);
  });
});

describe('README', () => {
  it('shows the real output of `metrics` on the vLLM file, as the command prints it today', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const cmd = '$ npx stopwatches metrics ../shared/real-results/vllm/lambdalabs-llama3-8b-h100-len2048.json\n';
    const start = readme.indexOf(cmd);
    expect(start).toBeGreaterThan(0);
    const shown = readme.slice(start + cmd.length, readme.indexOf('```', start));
    const r = await runCli(['metrics', relative(join(import.meta.dirname, '..'), real('lambdalabs-llama3-8b-h100-len2048.json'))]);
    expect(r.code).toBe(0);
    expect(shown).toBe(r.out);
  });
});
