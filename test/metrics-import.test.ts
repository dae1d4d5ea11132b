import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './helpers/cli.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { fromSimResult } from '../src/metrics/index.ts';
import { metricsReport } from '../src/metrics/report.ts';
import { importResult, toVllmResult } from '../src/importers/index.ts';
import { loadMetricsInput } from '../src/importers/load.ts';
import { markUnsupported } from '../src/importers/metrics-input.ts';
import { scratchDir } from './helpers/scratch.ts';

const FIX = 'test/fixtures/results';
const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');

const cli = runCli;

type Row = { tool: string; metric: string; value: number | null; note?: string };

describe('stopwatches metrics on real tools’ result files', () => {
  it.each([
    ['vllm-bench-serve.json', 'vllm'],
    ['profile_export.jsonl', 'aiperf'],
    ['benchmarks.json', 'guidellm'],
    ['llmperf_individual_responses.json', 'llmperf'],
    ['sglang-bench-serving.jsonl', 'sglang'],
    ['mlperf_log_detail.txt', 'mlperf-detail'],
    ['mlperf_log_trace.json', 'mlperf-trace'],
    ['genai-perf_profile_export.json', 'genai-perf'],
  ])('%s is detected as %s', async (file, format) => {
    const r = await cli(['metrics', join(FIX, file), '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).format).toBe(format);
  });

  it('AIPerf CSV of Oct 2025 (no sum column, CRLF): the same reader, that version named', async () => {
    const r = await cli(['metrics', join(FIX, 'aiperf-oct2025_profile_export_aiperf.csv'), '--json']);
    expect(r.code, r.err).toBe(0);
    const o = JSON.parse(r.out);
    expect(o.format).toBe('aiperf-csv');
    expect(o.version).toMatch(/without a sum column \(Oct 2025\)/);
    // the file's lines: Time to First Token (ms) avg 2343.22; Request Count 89.00; Error Request Count 11.00
    expect(o.reported['time_to_first_token.avg']).toEqual({ value: expect.closeTo(2.34322, 12), unit: 's', written: { value: 2343.22, unit: 'ms' } });
    expect(o.completed).toEqual({ key: 'Request Count', value: 89, unit: 'requests' });
    expect(o.failures).toEqual({ error: 11 });
  });
  it('GenAI-Perf profile_export_genai_perf.json (json_exporter.py: AIPerf’s metric objects, GenAI-Perf’s config) is named GenAI-Perf', async () => {
    const doc = { request_latency: { unit: 'ms', avg: 91.2, p99: 149.0, p50: 92.6 }, request_throughput: { unit: 'requests/sec', avg: 10.95 }, time_to_first_token: { unit: 'ms', avg: 5.96 }, input_config: { model_names: ['gpt2'], perf_analyzer: {}, endpoint: {}, input: {}, output: {}, tokenizer: {}, subcommand: 'profile' } };
    const p = join(scratchDir('sw-gp-'), 'profile_export_genai_perf.json');
    writeFileSync(p, JSON.stringify(doc));
    const r = await cli(['metrics', p, '--json']);
    expect(r.code, r.err).toBe(0);
    const o = JSON.parse(r.out);
    expect(o.version).toMatch(/^GenAI-Perf aggregate export/);
    expect(o.reported['request_latency.avg']).toEqual({ value: expect.closeTo(0.0912, 12), unit: 's', written: { value: 91.2, unit: 'ms' } });
  });
  it('GenAI-Perf profile_export.json (built from perf_analyzer’s writer): content responses only, as GenAI-Perf keeps them', async () => {
    const r = await cli(['metrics', join(FIX, 'genai-perf_profile_export.json'), '--json']);
    expect(r.code, r.err).toBe(0);
    const o = JSON.parse(r.out);
    expect(o.version).toMatch(/GenAI-Perf profile_export\.json .*openai v1\/chat\/completions/);
    expect(o.requests).toBe(3);
    // per request (the fixture's own numbers): content from 20 + 5 + 30 / 40 / 25 ms → TTFT 55, 65, 50 ms;
    // last content 85, 90 (+1 ms), 86 ms after the send → GenAI-Perf's request latency = last kept response
    const row = (tool: string, metric: string) => (o.rows as Row[]).find((x) => x.tool === tool && x.metric === metric)!.value;
    expect(row('vllm', 'mean_ttft_ms')).toBeCloseTo((55 + 65 + 50) / 3, 9);
    expect(row('vllm', 'mean_e2el_ms')).toBeCloseTo((85 + 89 + 86) / 3, 9);
    // the role chunk, the usage chunk and [DONE] of each of the 3 streams are left out; usage gives the token counts
    expect(o.notes.join(' ')).toMatch(/9 response\(s\) without content/);
    expect(o.reported).toBeNull();
    expect(o.rows.find((x: Row) => x.tool === 'vllm' && x.metric === 'mean_tpot_ms').value).toBeGreaterThan(0);
  });

  it('says why instead of printing a number the file cannot support (LLMPerf has no chunk times)', async () => {
    const r = await cli(['metrics', join(FIX, 'llmperf_individual_responses.json'), '--json']);
    const rows = JSON.parse(r.out).rows as Row[];
    const itl = rows.find((x) => x.tool === 'vllm' && x.metric === 'median_itl_ms')!;
    expect(itl.value).toBeNull();
    expect(itl.note).toMatch(/per-chunk/);
    // A per-request definition that needs no shared clock is still computed.
    expect(rows.find((x) => x.tool === 'vllm' && x.metric === 'mean_ttft_ms')!.value).toBeGreaterThan(0);
    expect(r.out).not.toMatch(/"value": NaN/);
  });

  it('prints the tool’s own aggregates for an aggregate-only file', async () => {
    const r = await cli(['metrics', join(FIX, 'mlperf_log_detail.txt')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/What the tool itself reported/);
    expect(r.out).toMatch(/cannot compute:/);
  });

  it('refuses a bad --format and a bad --entry in one line, exit 2', async () => {
    const a = await cli(['metrics', join(FIX, 'vllm-bench-serve.json'), '--format', 'nope']);
    expect(a.code).toBe(2);
    expect(a.err.trim().split('\n')).toHaveLength(1);
    const b = await cli(['metrics', join(FIX, 'vllm-bench-serve.json'), '--entry', '-1']);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--entry/);
  });

  it('a vLLM file written from a simulated run gives the simulator’s own numbers', async () => {
    const r = simulate(defaultServerConfig(), { isl: fixedLengths(96, 512), osl: fixedLengths(96, 64) }, { kind: 'closed', slots: 16 }, { recordTokens: true });
    const run = fromSimResult(r, { client: { kind: 'closed', slots: 16 } });
    const dir = scratchDir('sw-roundtrip-');
    const path = join(dir, 'vllm.json');
    writeFileSync(path, JSON.stringify(toVllmResult(run)));
    const input = await loadMetricsInput(path, {});
    expect(input.format).toBe('vllm');
    const opts = { llama2Inflation: null };
    const direct = metricsReport(run, opts) as Row[];
    const viaFile = markUnsupported(metricsReport(input.run, opts), input) as Row[];
    const vllmRows = direct.filter((x) => x.tool === 'vllm' && x.value !== null && /ttft|tpot|itl|e2el/.test(x.metric));
    expect(vllmRows.length).toBeGreaterThan(10);
    for (const d of vllmRows) {
      const f = viaFile.find((x) => x.tool === d.tool && x.metric === d.metric)!;
      expect(f.value, `${d.tool}.${d.metric}`).not.toBeNull();
      expect(Math.abs(f.value! - d.value!), `${d.tool}.${d.metric}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(d.value!)));
    }
  });
});

describe('a simulator result of a burst with no cap', () => {
  // three requests due at 0; in the burst all leave at 0, in the closed loop of 2 slots the third waits for one
  const requests = { due_t: [0, 0, 0], send_t: [0, 0, 0], first_t: [0.1, 0.2, 0.3], finish_t: [0.2, 0.3, 0.4], token_times: [[0.1, 0.2], [0.2, 0.3], [0.3, 0.4]] };
  it('is read without a cap, so its client-queue rows are refused with the reason instead of printed as zeros', () => {
    const burst = importResult('burst.json', JSON.stringify({ requests }));
    expect(burst.run.requestRate).toBe(Infinity);
    expect(burst.run.maxConcurrency).toBeNull();
    expect(burst.notes.join(' ')).toMatch(/a burst with no cap, so the client kept no queue/);
    const rows = (metricsReport(burst.run, { llama2Inflation: null }) as Row[]).filter((x) => x.metric.includes('client_queue'));
    expect(rows.length).toBeGreaterThan(0);
    for (const x of rows) expect(x.value, x.metric).toBeNull();
    expect(rows.find((x) => x.metric === 'mean_client_queue_time_ms')!.note).toMatch(/3 × vLLM reports client_queue_time only with --max-concurrency/);
  });
  it('a closed loop whose requests waited for a slot keeps its cap and its waits', () => {
    const closed = importResult('closed.json', JSON.stringify({ requests: { ...requests, send_t: [0, 0, 0.2], first_t: [0.1, 0.2, 0.3], finish_t: [0.2, 0.3, 0.4] } }));
    expect(closed.run.maxConcurrency).toBe(2);
    const mean = (metricsReport(closed.run, { llama2Inflation: null }) as Row[]).find((x) => x.metric === 'mean_client_queue_time_ms')!;
    expect(mean.value).toBeCloseTo(200 / 3, 9); // (0 + 0 + 200) ms / 3
  });
});

describe('stopwatches metrics under bad input and options', () => {
  const dir = scratchDir('sw-metrics-bad-');
  const write = (name: string, body: string): string => {
    const p = join(dir, name);
    writeFileSync(p, body);
    return p;
  };
  const sim = {
    preemptions: 0, steps: 3, makespan: 0.7,
    requests: { due_t: [0, 0.1], send_t: [0, 0.1], first_t: [0.2, 0.5], finish_t: [0.6, 0.7], npre: [0, 0], token_times: [[0.2, 0.3, 0.5, 0.6], [0.5, 0.6, 0.7]] },
  };
  const withRequests = (patch: Record<string, unknown>) => JSON.stringify({ ...sim, requests: { ...sim.requests, ...patch } });
  const oneLine = async (args: string[], msg: RegExp): Promise<string> => {
    const r = await cli(args);
    expect(r.code, r.err + r.out).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(msg);
    return r.err;
  };

  it('a run with no successful request is said to be one, alike in every format (from the records or the file’s own count)', async () => {
    const v = JSON.parse(readFileSync(join(FIX, 'vllm-bench-serve.json'), 'utf8'));
    // vLLM writes 0.0 for every statistic when nothing succeeded (serve.py: np.mean of an empty list is replaced by 0)
    const zeros = Object.fromEntries(Object.entries(v).filter(([k, x]) => typeof x === 'number' && !/^(num_prompts|request_rate|burstiness|max_concurrency)$/.test(k)).map(([k]) => [k, 0]));
    const aggregates = { ...zeros, completed: 0, failed: 5, duration: 3.2 };
    const noCount = Object.fromEntries(Object.entries(zeros).filter(([k]) => /_ms$/.test(k)));
    const aiperf = readFileSync(join(FIX, 'profile_export.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => {
      const o = JSON.parse(l);
      return JSON.stringify({ ...o, error: { code: 503, type: 'ServiceUnavailable', message: 'busy' } });
    }).join('\n');
    const cases: [string, string, RegExp][] = [
      ['vllm-all-failed-aggregates.json', JSON.stringify(aggregates), /completed = 0\): the run measured nothing/],
      ['vllm-all-zero-no-count.json', JSON.stringify(noCount), /every \*_ms aggregate is 0\.0.*: the run measured nothing/],
      ['aiperf-all-failed_profile_export.jsonl', aiperf, /no request succeeded \(\d+ × 503 ServiceUnavailable\): the run measured nothing/],
      ['aiperf-agg_profile_export_aiperf.json', JSON.stringify({ request_count: { unit: 'requests', avg: 0 }, request_latency: { unit: 'ms', avg: 0 }, error_summary: [{ error_details: { code: 503 }, count: 4 }] }), /no request succeeded \(4 × 503\): the run measured nothing/],
    ];
    for (const [name, body, msg] of cases) await oneLine(['metrics', write(name, body)], msg);
  });

  it('LLMPerf error codes keep their sign and say what they are; the summary’s timestamp tells the version', async () => {
    const summary = { version: '2023-08-31', timestamp: Date.UTC(2024, 0, 15) / 1000, results_ttft_s_mean: 0.5, results_end_to_end_latency_s_mean: 2, results_request_output_throughput_token_per_s_mean: 50, results_number_output_tokens_mean: 100, results_num_completed_requests: 10, results_number_errors: 52, results_error_code_frequency: '{-1: 3, -100: 49, 429.0: 2}' };
    const r = await cli(['metrics', write('x_summary.json', JSON.stringify(summary)), '--json']);
    const o = JSON.parse(r.out);
    // llmperf ray_clients/*_client.py @f1d6bed: −1 is the default code when the request raised before any status; no negative code is HTTP
    expect(o.failures).toEqual({ 'client-side −1 (no HTTP status: the request raised before one)': 3, 'client-side −100 (not an HTTP status)': 49, 'HTTP 429': 2 });
    // run in Jan 2024, before afd137a existed; throughput × latency = the token count, so the two definitions coincide on it
    expect(o.version).toMatch(/before commit afd137a .*run on 2024-01-15/);
    expect(o.notes.join(' ')).toMatch(/on this file they coincide/);
    expect(o.completed).toEqual({ key: 'results_num_completed_requests', value: 10, unit: 'requests' });
    const later = await cli(['metrics', write('y_summary.json', JSON.stringify({ ...summary, timestamp: Date.UTC(2024, 5, 1) / 1000 })), '--json']);
    expect(JSON.parse(later.out).version).toMatch(/afd137a to 03872a4/);
  });

  it.each([
    ['reversed-tokens.json', withRequests({ token_times: [[0.2, 0.5, 0.3, 0.6], [0.5, 0.6, 0.7]] }), /reversed-tokens\.json: requests\.token_times\[0\]\[2\] = 0\.3 is before token_times\[0\]\[1\] = 0\.5/],
    ['negative.json', withRequests({ send_t: [-1, 0.1], due_t: [-1, 0.1] }), /negative\.json: requests\.due_t\[0\] = -1 is negative/],
    ['finish-first.json', withRequests({ finish_t: [0.1, 0.7] }), /finish-first\.json: requests\.finish_t\[0\] = 0\.1 is before first_t\[0\] = 0\.2/],
    ['first-send.json', withRequests({ send_t: [0.3, 0.1] }), /first-send\.json: requests\.first_t\[0\] = 0\.2 is before send_t\[0\] = 0\.3/],
  ])('a simulator result with impossible times (%s) is refused naming the field', async (name, body, msg) => {
    await oneLine(['metrics', write(name, body)], msg);
  });

  it('a UTF-8 byte-order mark is read, in a simulator result and in a tool’s file', async () => {
    const a = await cli(['metrics', write('bom-sim.json', `\uFEFF${JSON.stringify(sim)}`), '--json']);
    expect(a.code, a.err).toBe(0);
    const vllm = readFileSync(join(FIX, 'vllm-bench-serve.json'), 'utf8');
    const b = await cli(['metrics', write('bom-vllm.json', `\uFEFF${vllm}`), '--json']);
    expect(b.code, b.err).toBe(0);
    expect(JSON.parse(b.out).format).toBe('vllm');
  });

  it('a valid file read with the wrong --format says what it looks like, not “invalid JSON”', async () => {
    const err = await oneLine(['metrics', join(FIX, 'vllm-bench-serve.json'), '--format', 'aiperf'], /not an AIPerf export \(--format aiperf\); it looks like a vLLM benchmark result: use --format vllm/);
    expect(err).not.toMatch(/invalid JSON|truncated|a aiperf/);
    await oneLine(['metrics', write('sim.json', JSON.stringify(sim)), '--format', 'vllm'], /not a vLLM benchmark result \(--format vllm\); it looks like a simulator result: use --format stopwatches/);
    await oneLine(['metrics', join(FIX, 'benchmarks.json'), '--format', 'stopwatches'], /not a simulator result \(--format stopwatches\); it looks like a GuideLLM report: use --format guidellm/);
  });

  it('--entry is refused where the file holds one run, and only readable runs are offered', async () => {
    await oneLine(['metrics', join(FIX, 'profile_export.jsonl'), '--entry', '1'], /--entry 1: an AIPerf export holds one run; leave --entry out/);
    const line = readFileSync(join(FIX, 'sglang-bench-serving.jsonl'), 'utf8').trim();
    const p = write('two.jsonl', `${line}\n${JSON.stringify({ ...JSON.parse(line), duration: -1 })}\n`);
    const r = await cli(['metrics', p]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/recompute one with --entry 0\n/);
    expect(r.out).toMatch(/\[1\] .*cannot be read: duration = -1/);
    const ok = await cli(['metrics', p, '--entry', '0', '--json']);
    expect(ok.code, ok.err).toBe(0);
    await oneLine(['metrics', p, '--entry', '1'], /two\.jsonl: duration = -1/);
  });

  it('empty request lists: one rule for every format (exit 2, “the run has no requests”)', async () => {
    const vllm = JSON.parse(readFileSync(join(FIX, 'vllm-bench-serve.json'), 'utf8'));
    for (const k of ['start_times', 'ttfts', 'itls', 'latencies', 'queue_times', 'input_lens', 'output_lens', 'errors', 'generated_texts']) vllm[k] = [];
    const sg = JSON.parse(readFileSync(join(FIX, 'sglang-bench-serving.jsonl'), 'utf8').trim());
    for (const k of ['ttfts', 'itls', 'input_lens', 'output_lens', 'errors', 'generated_texts']) sg[k] = [];
    const cases: [string, string][] = [
      ['empty-sim.json', withRequests({ due_t: [], send_t: [], first_t: [], finish_t: [], npre: [], token_times: [] })],
      ['empty-vllm.json', JSON.stringify(vllm)],
      ['empty-sglang.jsonl', JSON.stringify(sg)],
      ['empty_individual_responses.json', '[]'],
      ['empty-benchmarks.json', (() => {
        const g = JSON.parse(readFileSync(join(FIX, 'benchmarks.json'), 'utf8'));
        g.benchmarks[0].requests = { successful: [], errored: [], incomplete: [] };
        return JSON.stringify(g);
      })()],
    ];
    for (const [name, body] of cases) await oneLine(['metrics', write(name, body)], /the run has no requests, so there is nothing to compute/);
  });

  it.each([
    ['--llmperf-extra-messages', '1e9', /--llmperf-extra-messages must be a whole number ≥ 0 and ≤ 8, got "1e9"/],
    ['--llmperf-extra-messages', '-1', /≥ 0 and ≤ 8/],
    ['--llama2-inflation', '1000', /--llama2-inflation must be a number ≥ 0\.5 and ≤ 3/],
    ['--entry', '2.5', /--entry must be a whole number/],
    ['--ttft-deadline', '1e12', /--ttft-deadline must be a number > 0 and ≤ 600/],
  ])('absurd option %s %s is refused with its bounds', async (flag, v, msg) => {
    await oneLine(['metrics', join(FIX, 'vllm-bench-serve.json'), flag, v], msg);
  });

  // ray-project/llmperf @ f1d6bed token_benchmark_ray.py 117, 124: `number_output_tokens` is LLMPerf's own Llama 2 count of the text
  it('an LLMPerf file holds Llama 2 counts already: --llama2-inflation is refused, never applied a second time', async () => {
    const words = /--llama2-inflation does not apply: the token counts of an LLMPerf result are LLMPerf’s own Llama 2 tokenizer counts already.*leave --llama2-inflation out/;
    for (const f of [join(REAL, 'llmperf', 'leaderboard-lepton_70b_individual_responses.json'), join(REAL, 'llmperf', 'leaderboard-lepton_70b_summary.json'), join(FIX, 'llmperf_individual_responses.json')]) {
      const err = await oneLine(['metrics', f, '--llama2-inflation', '1.3'], words);
      expect(err).toContain(f);
    }
    // without it, LLMPerf’s throughput is the mean of the file’s own counts over their latencies
    const o = JSON.parse((await cli(['metrics', join(FIX, 'llmperf_individual_responses.json'), '--json'])).out);
    const thr = (o.rows as Row[]).find((x) => x.tool === 'llmperf' && x.metric === 'mean request_output_throughput_token_per_s')!;
    const own = JSON.parse(readFileSync(join(FIX, 'llmperf_individual_responses.json'), 'utf8')) as { error_code: unknown; number_output_tokens: number; end_to_end_latency_s: number }[];
    const ok = own.filter((q) => q.error_code === null);
    expect(thr.value).toBeCloseTo(ok.reduce((a, q) => a + q.number_output_tokens / q.end_to_end_latency_s, 0) / ok.length, 9);
    // a file of another tool's records takes the option
    const v = await cli(['metrics', join(FIX, 'vllm-bench-serve.json'), '--llama2-inflation', '1.3', '--json']);
    expect(v.code, v.err).toBe(0);
  });

  // ray-project/llmperf @ 1eac866 (before afd137a) openai_chat_completions_client.py 104, 115: request_output_throughput_token_per_s is
  // `tokens_received / total_request_time`, SSE messages over latency; afd137a token_benchmark_ray.py 116 made it number_output_tokens / e2e
  it('an LLMPerf file written before afd137a gets no token-based throughput under that name: it counted messages then', async () => {
    const o = JSON.parse((await cli(['metrics', join(REAL, 'llmperf', 'leaderboard-lepton_70b_individual_responses.json'), '--json'])).out);
    const speed = (o.rows as Row[]).find((x) => x.tool === 'llmperf' && x.metric === 'per-user speed: request_output_throughput_token_per_s')!;
    expect(speed.value).toBeNull();
    expect(speed.note).toBe('before afd137a this is SSE messages / e2e, and the file keeps no message count');
    // a later file keeps its token-based value
    const later = JSON.parse((await cli(['metrics', join(FIX, 'llmperf_individual_responses.json'), '--json'])).out);
    expect((later.rows as Row[]).find((x) => x.tool === 'llmperf' && x.metric === 'per-user speed: request_output_throughput_token_per_s')!.value).toBeGreaterThan(0);
  });

  it('the grouped table folds refused rows into one line per reason', async () => {
    const r = await cli(['metrics', join(FIX, 'llmperf_individual_responses.json')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^TTFT\s+vllm/m);
    expect(r.out).toMatch(/^ {2}not in this file: per-chunk times → \d+ definitions/m);
    const reasons = r.out.split('Not computed:')[1].split('\n\n')[0].trim().split('\n');
    expect(new Set(reasons).size).toBe(reasons.length);
    expect(r.out.split('\n').length).toBeLessThan(100);
  });
});
