/**
 * vLLM's `vllm bench serve` (and its predecessor benchmark_serving.py): everything the
 * project knows about it, for the registry.
 */
import { defineTool } from '../base/descriptor.ts';
import { isObject, type Json } from '../base/reading.ts';
import { vllmAgreement } from './agreement.ts';
import { importVllm } from './reader.ts';
import { vllmReport, vllmSpeeds } from './report.ts';

/** Keys of vLLM's result dict (serve.py `benchmark`, `--save-result`). */
const VLLM_KEYS = ['start_times', 'queue_times', 'latencies', 'mean_e2el_ms', 'endpoint_type', 'num_prompts', 'mean_ttft_ms', 'request_throughput'];

const isVllmObject = (v: Json): boolean => isObject(v) && VLLM_KEYS.some((k) => k in v);

export const vllm = defineTool({
  id: 'vllm',
  name: 'vLLM bench serve',
  source: {
    repository: 'vllm-project/vllm',
    files: [
      { path: 'vllm/benchmarks/serve.py', commit: '009e6d4a1cd6' },
      { path: 'vllm/benchmarks/lib/endpoint_request_func.py', commit: '02cfb534df56' },
    ],
  },
  table1: {
    clockStart: 'after the --max-concurrency semaphore, inside the request function',
    firstToken: 'first SSE message with non-empty choices (content may be empty)',
    end: 'last choices message',
    perToken: 'TPOT = mean over requests of (latency − ttft)/(n − 1); ITL = every message gap, pooled',
    percentile: 'np.percentile linear, index (p/100)(N−1); np.std ddof 0',
    version: 'code mirror ≥ Sept 2026 (article: 3fe917a)',
    implementation: 'src/tools/vllm/definitions.ts vllmTpot, vllmItls',
  },
  table2: {
    arrivals: '--request-rate R (Poisson; --burstiness), optional --max-concurrency, --ramp-up-strategy',
    clock: '--percentile-metrics …,client_queue_time,e2el_including_client_queue (needs a finite rate and a cap)',
    window: '--num-warmups (before the run; no trimming)',
    percentileQuality: '--metric-percentiles 50,90,99,99.9; no intervals',
    tokens: 'server usage (default)',
  },
  report: vllmReport,
  speeds: vllmSpeeds,
  formats: [
    {
      id: 'vllm',
      description: 'vLLM benchmark_serving.py / vllm bench serve --save-result JSON, 2024 (ttfts/itls, no start_times) to 2026 (start_times, latencies, queue_times); --append-result JSON lines; vllm bench sweep summary.json (a JSON array of runs)',
      nameInSentence: 'a vLLM benchmark result',
      // the loosest of the key tests: SGLang writes many of vLLM's keys, so its own keys rank first
      // (a `vllm bench sweep` summary.json is a JSON array of such objects)
      sniff: { json: (v: Json) => (isVllmObject(v) || (Array.isArray(v) && v.length > 0 && v.every(isVllmObject)) ? 26 : null) },
      read: importVllm,
      aggregates: true,
      agreement: vllmAgreement,
    },
  ],
  versions: [
    'benchmarks/benchmark_serving.py (2024): ttfts, itls, input_lens, output_lens; no start_times or latencies; E2E named *_latency_ms',
    'vllm bench serve (vllm/benchmarks/serve.py): start_times, latencies, queue_times; E2E named *_e2el_ms',
    'vllm bench sweep summary.json (0.25): a JSON array of the runs’ vllm bench serve results, each with run_number and the swept server settings',
  ],
});
