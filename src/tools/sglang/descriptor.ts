/**
 * SGLang's `bench_serving`: everything the project knows about it, for the registry.
 */
import { defineTool } from '../base/descriptor.ts';
import { isObject, type Json } from '../base/reading.ts';
import { sglangAgreement } from './agreement.ts';
import { importSglang } from './reader.ts';
import { sglangReport, sglangSpeeds } from './report.ts';

/** Keys only SGLang's result dict has (vLLM's share the rest). */
const SGLANG_ONLY = ['total_output_tokens_retokenized', 'mean_e2e_latency_ms', 'median_e2e_latency_ms', 'sharegpt_output_len', 'random_input_len', 'accept_length', 'total_input_text_tokens'];

export const sglang = defineTool({
  id: 'sglang',
  name: 'SGLang bench_serving',
  source: {
    repository: 'sgl-project/sglang',
    files: [
      { path: 'python/sglang/benchmark/serving.py', commit: '00f9ec472ffe' },
      { path: 'steady_state.py', commit: '41f869b4351b' },
    ],
  },
  table1: {
    clockStart: 'after the semaphore; new HTTP session per request',
    firstToken: 'first chunk with non-empty text (reasoning counts)',
    end: 'last SSE line of any kind, incl. usage and [DONE]',
    perToken: 'TPOT = mean of (latency − ttft)/(output_len − 1), output_len = usage or requested; ITL pooled per chunk (native backend: gap/k per token)',
    percentile: 'np.percentile linear, fixed p90/p95/p99',
    version: 'code mirror (article: e607293)',
    implementation: 'src/tools/sglang/definitions.ts sglangTpot, sglangItls',
  },
  table2: {
    arrivals: '--request-rate R',
    clock: 'none',
    window: '--warmup-requests; steady_state_serving --steady-state-concurrency-ratio f (throughput only)',
    percentileQuality: 'fixed p90/p95/p99',
    tokens: 'usage if sent, else the requested length',
  },
  report: sglangReport,
  speeds: sglangSpeeds,
  formats: [
    {
      id: 'sglang',
      description: 'SGLang bench_serving --output-file JSON lines, one run per line (per-request arrays need --output-details)',
      nameInSentence: 'an SGLang bench_serving result',
      sniff: { json: (v: Json) => (isObject(v) && SGLANG_ONLY.some((k) => k in v) ? 25 : null) },
      read: importSglang,
      aggregates: true,
      agreement: sglangAgreement,
    },
  ],
  versions: [
    'bench_serving (python/sglang/benchmark/serving.py): one JSON line per run; per-request arrays with --output-details',
  ],
});
