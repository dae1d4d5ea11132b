/**
 * The seven stopwatches (and Etalon's eighth): the registry of tools, Table 1
 * and Table 2 of the paper as data, and {@link perUserSpeeds}, which applies
 * every tool's per-token definition to the same run (Figure 1).
 */
import type { BenchmarkRun } from './records.ts';
import { collect, successful } from './common.ts';
import { vllmMetrics } from './vllm.ts';
import { sglangMetrics } from './sglang.ts';
import { inferencexMetrics } from './inferencex.ts';
import { aiperfE2eOutputTokenThroughput, aiperfE2eNormalizedInteractivity, aiperfPerUserThroughput } from './aiperf.ts';
import { guidellmMetrics } from './guidellm.ts';
import { llmperfInterTokenLatency, llmperfInterTokenLatencyArticle, llmperfRequestOutputThroughput } from './llmperf.ts';
import { mlperfMetrics } from './mlperf.ts';
import { mean } from '../stats/percentile.ts';

export type { BenchmarkRun, RequestRecord } from './records.ts';
export * from './common.ts';
export * from './vllm.ts';
export * from './sglang.ts';
export * from './inferencex.ts';
export * from './aiperf.ts';
export * from './guidellm.ts';
export * from './llmperf.ts';
export * from './mlperf.ts';
export * from './etalon.ts';
export { sloAttainment, distserveGoodput } from './goodput.ts';
export { fromSimResult, buildRun, type FromSimOptions } from './from-sim.ts';

export type ToolId = 'vllm' | 'sglang' | 'inferencex' | 'aiperf' | 'guidellm' | 'llmperf' | 'mlperf';

/** Table 1: one row per tool, as read from each tool's source (`sourceFiles`, at the commits given there). */
export interface Table1Row {
  tool: ToolId;
  name: string;
  clockStart: string;
  firstToken: string;
  end: string;
  /** the per-token formula as the code computes it */
  perToken: string;
  /** where the article's description differs from the tool's code, the article's reading */
  perTokenArticle?: string;
  percentile: string;
  version: string;
  sourceFiles: string[];
  /** the module and function implementing perToken */
  implementation: string;
}

export const TABLE1: readonly Table1Row[] = [
  {
    tool: 'vllm', name: 'vLLM bench serve',
    clockStart: 'after the --max-concurrency semaphore, inside the request function',
    firstToken: 'first SSE message with non-empty choices (content may be empty)',
    end: 'last choices message',
    perToken: 'TPOT = mean over requests of (latency − ttft)/(n − 1); ITL = every message gap, pooled',
    percentile: 'np.percentile linear, index (p/100)(N−1); np.std ddof 0',
    version: 'code mirror ≥ Sept 2026 (article: 3fe917a)',
    sourceFiles: ['vllm/benchmarks/serve.py @009e6d4a1cd6', 'vllm/benchmarks/lib/endpoint_request_func.py @02cfb534df56'],
    implementation: 'src/metrics/vllm.ts vllmTpot, vllmItls',
  },
  {
    tool: 'sglang', name: 'SGLang bench_serving',
    clockStart: 'after the semaphore; new HTTP session per request',
    firstToken: 'first chunk with non-empty text (reasoning counts)',
    end: 'last SSE line of any kind, incl. usage and [DONE]',
    perToken: 'TPOT = mean of (latency − ttft)/(output_len − 1), output_len = usage or requested; ITL pooled per chunk (native backend: gap/k per token)',
    percentile: 'np.percentile linear, fixed p90/p95/p99',
    version: 'code mirror (article: e607293)',
    sourceFiles: ['python/sglang/benchmark/serving.py @00f9ec472ffe', 'steady_state.py @41f869b4351b'],
    implementation: 'src/metrics/sglang.ts sglangTpot, sglangItls',
  },
  {
    tool: 'inferencex', name: 'SemiAnalysis InferenceX',
    clockStart: 'after the semaphore; new session per request',
    firstToken: 'first message with choices',
    end: 'completions: last choices message; chat: the usage chunk',
    perToken: 'interactivity = 1000 / TPOT statistic (ms) (inverse of the statistic)',
    percentile: 'np.percentile linear, p90/p99/p99.9',
    version: 'code mirror + snapshot 843c6254 (article: c801c9f)',
    sourceFiles: ['inferencex-e2e/infx/bench/fixed_seq.py @2c1e59ec87d6', 'infx/bench_serving/benchmark_serving.py @1669d9761f31', 'infx/results/fixed_sequence.py @1272e0fd7e7a', 'utils/bench_serving/backend_request_func.py @843c6254'],
    implementation: 'src/metrics/inferencex.ts inferencexTpot, interactivity',
  },
  {
    tool: 'aiperf', name: 'NVIDIA AIPerf',
    clockStart: 'worker request start (credit_issued_ns kept separately)',
    firstToken: 'first non-empty content chunk',
    end: 'last content chunk',
    perToken: 'inter_token_latency = (latency − ttft)/(OSL − first-chunk tokens | 1); per-user = mean of 1/ITL; E2E output token throughput = OSL/latency',
    percentile: 'linear at q/100·(n−1) (own code); ICL via t-digest; adj_* nearest',
    version: 'code mirror 2026 (article: bfa5ab1)',
    sourceFiles: ['src/aiperf/metrics/types/inter_token_latency_metric.py', 'src/aiperf/metrics/types/ttft_metric.py', 'src/aiperf/metrics/types/e2e_normalized_interactivity_metrics.py', 'src/aiperf/metrics/derived_latency.py'],
    implementation: 'src/metrics/aiperf.ts aiperfItl, aiperfE2eOutputTokenThroughput',
  },
  {
    tool: 'guidellm', name: 'GuideLLM',
    clockStart: 'right before the HTTP stream opens (targeted_start kept)',
    firstToken: 'first line with content, reasoning or a tool call',
    end: 'TPOT/ITL: last token line; latency: after [DONE]',
    perToken: 'time_per_output_token = (last token − start)/n, token-weighted mean; inter_token_latency = (last − first)/(n − 1)',
    percentile: 'weighted inverse CDF: smallest v with cumulative weight ≥ q',
    version: 'snapshot ee7a7745 (2026-08-07) + code mirror (article: 87a66f0)',
    sourceFiles: ['src/guidellm/schemas/request_stats.py', 'src/guidellm/schemas/statistics.py', 'src/guidellm/benchmark/schemas/metrics.py', 'src/guidellm/backends/openai/http.py'],
    implementation: 'src/metrics/guidellm.ts guidellmTimePerOutputTokenMs, guidellmMetrics',
  },
  {
    tool: 'llmperf', name: 'LLMPerf',
    clockStart: 'just before requests.post',
    firstToken: 'first non-empty delta.content',
    end: 'after the stream closes',
    perToken: 'inter_token_latency_s = (last content − start)/N_messages (SSE data messages, role chunk included)',
    perTokenArticle: '(last content − start)/L, L = Llama-2 token count',
    percentile: 'pandas quantile (linear); std ddof 1',
    version: 'f1d6bed (2024-12-08), the article\u2019s commit',
    sourceFiles: ['token_benchmark_ray.py', 'src/llmperf/ray_clients/openai_chat_completions_client.py', 'src/llmperf/utils.py', 'src/llmperf/common_metrics.py'],
    implementation: 'src/metrics/llmperf.ts llmperfInterTokenLatency (code), llmperfInterTokenLatencyArticle (article)',
  },
  {
    tool: 'mlperf', name: 'MLPerf LoadGen',
    clockStart: 'the scheduled time',
    firstToken: 'when the SUT calls FirstTokenComplete',
    end: 'SUT QuerySamplesComplete',
    perToken: 'TPOT = (latency − first-token latency)/(n − 1), int64 ns',
    percentile: 'sorted[⌊n·p⌋]; early stopping at 99% confidence',
    version: 'v6.0.17, snapshot b66003e1 (article: 3fbc329)',
    sourceFiles: ['loadgen/loadgen.cc', 'loadgen/logging.cc', 'loadgen/results.cc', 'loadgen/early_stopping.cc', 'loadgen/mlperf.conf'],
    implementation: 'src/metrics/mlperf.ts mlperfTpotNs, mlperfMetrics',
  },
];

/** Table 2: the non-default settings that make a tool's numbers carry each clause (read from each tool's CLI and source, as in Table 1). */
export interface Table2Row {
  tool: ToolId;
  arrivals: string;
  clock: string;
  window: string;
  percentileQuality: string;
  tokens: string;
}

export const TABLE2: readonly Table2Row[] = [
  { tool: 'vllm', arrivals: '--request-rate R (Poisson; --burstiness), optional --max-concurrency, --ramp-up-strategy', clock: '--percentile-metrics …,client_queue_time,e2el_including_client_queue (needs a finite rate and a cap)', window: '--num-warmups (before the run; no trimming)', percentileQuality: '--metric-percentiles 50,90,99,99.9; no intervals', tokens: 'server usage (default)' },
  { tool: 'sglang', arrivals: '--request-rate R', clock: 'none', window: '--warmup-requests; steady_state_serving --steady-state-concurrency-ratio f (throughput only)', percentileQuality: 'fixed p90/p95/p99', tokens: 'usage if sent, else the requested length' },
  { tool: 'inferencex', arrivals: 'client has --request-rate; the lane hard-codes inf', clock: 'none', window: '2×conc warmups (before the run)', percentileQuality: 'p90/p99/p99.9', tokens: 'server usage' },
  { tool: 'aiperf', arrivals: '--request-rate R --arrival-pattern poisson; --concurrency-ramp-duration, --request-rate-ramp-duration', clock: 'effective_latency (automatic)', window: '--warmup-request-count / --warmup-duration; --benchmark-duration + grace', percentileQuality: '--num-profile-runs k (run-level CIs), --slice-duration', tokens: '--use-server-token-count [--per-chunk-usage]' },
  { tool: 'guidellm', arrivals: '--profile kind=poisson,rate=R[,rampup_duration=s]', clock: 'request_scheduled_latency, request_dispatch_delay (newer versions)', window: 'warmup= / cooldown= in --profile (inside the run)', percentileQuality: 'order-statistic intervals (per the article; UNVERIFIED in code)', tokens: 'server usage (default)' },
  { tool: 'llmperf', arrivals: 'none', clock: 'none', window: 'none', percentileQuality: 'none', tokens: 'Llama-2 tokenizer, always' },
  { tool: 'mlperf', arrivals: 'Server scenario target_qps (Poisson)', clock: 'scheduled time (always)', window: 'min duration 10 min (mlperf.conf)', percentileQuality: 'early stopping at 99% confidence', tokens: 'SUT-reported n_tokens' },
];

export const TOOLS: readonly { id: ToolId; name: string; module: string }[] = TABLE1.map((r) => ({
  id: r.tool,
  name: r.name,
  module: `src/metrics/${r.tool}.ts`,
}));

export interface SpeedRow {
  tool: ToolId;
  /** the tool's own metric name */
  metric: string;
  formula: string;
  /** tokens/s per user implied by the metric; null with a reason when it cannot be computed */
  tokPerS: number | null;
  /** requests (or gaps) behind the number */
  n: number;
  /** one row per tool is the tool's headline per-user speed (Figure 1's bars) */
  primary: boolean;
  reason?: string;
  /** the tool itself marks this run (e.g. LoadGen logged errors): the number is what it reports, flagged */
  flag?: string;
}

export interface PerUserSpeedOptions {
  /** Llama-2 ÷ model token ratio for LLMPerf's count (an input, measured elsewhere; no default). */
  llama2Inflation: number | null;
  /** LLMPerf's non-content SSE messages per request (default 1: the role chunk). */
  llmperfNonContentMessages?: number;
}

/**
 * Figure 1: every tool's per-token definition applied to the same run,
 * converted to tokens/s per user. The seven `primary` rows are one headline
 * per tool (which headline stands for InferenceX, AIPerf and LLMPerf is
 * **chosen**, the article does not name them); the others are
 * variants a reader may meet under the same names.
 */
export function perUserSpeeds(run: BenchmarkRun, opts: PerUserSpeedOptions): SpeedRow[] {
  const rows: SpeedRow[] = [];
  const inv = (ms: number | null) => (ms !== null && ms > 0 ? 1000 / ms : null);
  const v = vllmMetrics(run, { percentiles: [99] });
  rows.push({ tool: 'vllm', metric: 'median_itl_ms', formula: '1000 / median of pooled chunk gaps', tokPerS: inv(v.itl.median), n: v.itl.n, primary: true });
  rows.push({ tool: 'vllm', metric: 'mean_tpot_ms', formula: '1000 / mean_i[(last − first)/(n_i − 1)]', tokPerS: inv(v.tpot.mean), n: v.tpot.n, primary: false });
  const s = sglangMetrics(run);
  rows.push({ tool: 'sglang', metric: 'mean_tpot_ms', formula: '1000 / mean_i[(end_line − first)/(output_len_i − 1)]', tokPerS: inv(s.tpot.mean), n: s.tpot.n, primary: true });
  const x = inferencexMetrics(run);
  rows.push({ tool: 'inferencex', metric: 'median_intvty', formula: '1000 / median_i TPOT_i (ms)', tokPerS: x.intvty.median, n: x.tpot.n, primary: true });
  rows.push({ tool: 'inferencex', metric: 'mean_intvty', formula: '1000 / mean_i TPOT_i (ms)', tokPerS: x.intvty.mean, n: x.tpot.n, primary: false });
  const recs = successful(run);
  const e2e = collect(recs, aiperfE2eOutputTokenThroughput);
  rows.push({ tool: 'aiperf', metric: 'e2e_output_token_throughput (avg)', formula: 'mean_i[OSL_i / request_latency_i]', tokPerS: e2e.values.length ? mean(e2e.values) : null, n: e2e.values.length, primary: true });
  const pu = collect(recs, (r) => aiperfPerUserThroughput(r));
  rows.push({ tool: 'aiperf', metric: 'output_token_throughput_per_user (avg)', formula: 'mean_i[1 / ITL_i], ITL_i = (latency − ttft)/(OSL − 1)', tokPerS: pu.values.length ? mean(pu.values) : null, n: pu.values.length, primary: false });
  rows.push({ tool: 'aiperf', metric: 'e2e_normalized_interactivity p90', formula: '1 / p90_i(latency_i / OSL_i)', tokPerS: aiperfE2eNormalizedInteractivity(run, 0.9), n: recs.length, primary: false });
  const g = guidellmMetrics(run);
  rows.push({ tool: 'guidellm', metric: 'time_per_output_token_ms (mean)', formula: '1000 / [Σ(last_i − start_i)/Σ n_i ·1000]', tokPerS: inv(g.timePerOutputTokenMs.mean), n: g.timePerOutputTokenMs.n, primary: true });
  const nc = opts.llmperfNonContentMessages ?? 1;
  const lc = collect(recs, (r) => llmperfInterTokenLatency(r, { nonContentMessages: nc }));
  const lcMean = lc.values.length ? mean(lc.values) : null;
  rows.push({ tool: 'llmperf', metric: 'inter_token_latency_s (as coded)', formula: `1 / mean_i[(last − start)/(chunks_i + ${nc})]`, tokPerS: lcMean ? 1 / lcMean : null, n: lc.values.length, primary: opts.llama2Inflation === null });
  if (opts.llama2Inflation === null) {
    const reason = 'needs the Llama-2 token inflation factor (llama2Inflation)';
    rows.push({ tool: 'llmperf', metric: 'inter_token_latency_s (article)', formula: '1 / mean_i[(last − start)/L_i]', tokPerS: null, n: 0, primary: false, reason });
    rows.push({ tool: 'llmperf', metric: 'request_output_throughput_token_per_s', formula: 'mean_i[L_i / e2e_i]', tokPerS: null, n: 0, primary: false, reason });
  } else {
    const f = opts.llama2Inflation;
    const la = collect(recs, (r) => llmperfInterTokenLatencyArticle(r, f));
    const laMean = la.values.length ? mean(la.values) : null;
    rows.push({ tool: 'llmperf', metric: 'inter_token_latency_s (article)', formula: `1 / mean_i[(last − start)/(${f}·n_i)]`, tokPerS: laMean ? 1 / laMean : null, n: la.values.length, primary: true });
    const ro = collect(recs, (r) => llmperfRequestOutputThroughput(r, f));
    rows.push({ tool: 'llmperf', metric: 'request_output_throughput_token_per_s', formula: `mean_i[${f}·n_i / e2e_i]`, tokPerS: ro.values.length ? mean(ro.values) : null, n: ro.values.length, primary: false });
  }
  const m = mlperfMetrics(run);
  const mt = m.timePerOutputToken.meanNs;
  const flag = m.numErrors ? { flag: `LoadGen would log ${m.numErrors} error(s): ${m.errors.join('; ')}` } : {};
  rows.push({ tool: 'mlperf', metric: 'result_time_to_output_token_mean', formula: '1e9 / mean_i[(lat_i − ftl_i)/(n_i − 1)] (int64 ns, from the scheduled time)', tokPerS: mt !== null && mt > 0 ? 1e9 / mt : null, n: m.timePerOutputToken.n, primary: true, ...(mt !== null && mt > 0 ? {} : { reason: mt === null ? 'no scheduled times or no TPOT' : `LoadGen's mean TPOT is ${mt} ns (not positive)` }), ...flag });
  return rows;
}

/** The spread of the seven primary speeds: [min, max] tokens/s. */
export function speedRange(rows: SpeedRow[]): [number, number] | null {
  const v = rows.filter((r) => r.primary && r.tokPerS !== null).map((r) => r.tokPerS as number);
  return v.length ? [Math.min(...v), Math.max(...v)] : null;
}
