/**
 * GuideLLM: everything the project knows about it, for the registry.
 */
import { defineTool } from '../base/descriptor.ts';
import { isObject, type Json } from '../base/reading.ts';
import { guidellmAgreement } from './agreement.ts';
import { importGuidellm } from './reader.ts';
import { guidellmReport, guidellmSpeeds } from './report.ts';

export const guidellm = defineTool({
  id: 'guidellm',
  name: 'GuideLLM',
  source: {
    repository: 'vllm-project/guidellm',
    files: [
      { path: 'src/guidellm/schemas/request_stats.py' },
      { path: 'src/guidellm/schemas/statistics.py' },
      { path: 'src/guidellm/benchmark/schemas/metrics.py' },
      { path: 'src/guidellm/backends/openai/http.py' },
    ],
  },
  table1: {
    clockStart: 'right before the HTTP stream opens (targeted_start kept)',
    firstToken: 'first line with content, reasoning or a tool call',
    end: 'TPOT/ITL: last token line; latency: after [DONE]',
    perToken: 'time_per_output_token = (last token − start)/n, token-weighted mean; inter_token_latency = (last − first)/(n − 1)',
    percentile: 'weighted inverse CDF: smallest v with cumulative weight ≥ q',
    version: 'snapshot ee7a7745 (2026-08-07) + code mirror (article: 87a66f0)',
    implementation: 'src/tools/guidellm/definitions.ts guidellmTimePerOutputTokenMs, guidellmMetrics',
  },
  table2: {
    arrivals: '--profile kind=poisson,rate=R[,rampup_duration=s]',
    clock: 'request_scheduled_latency, request_dispatch_delay (newer versions)',
    window: 'warmup= / cooldown= in --profile (inside the run)',
    percentileQuality: 'order-statistic intervals (per the article; UNVERIFIED in code)',
    tokens: 'server usage (default)',
  },
  report: guidellmReport,
  speeds: guidellmSpeeds,
  formats: [
    {
      id: 'guidellm',
      description: 'GuideLLM benchmarks.json: the report up to 0.3.x (flat times, scheduler_info) and from 0.4 (info.timings)',
      nameInSentence: 'a GuideLLM report',
      sniff: {
        json: (v: Json) => (isObject(v) && Array.isArray(v.benchmarks) ? 21 : null),
        fileName: (name) => (name.startsWith('benchmarks') && name.endsWith('.json') ? 5 : null),
      },
      read: importGuidellm,
      aggregates: true,
      agreement: guidellmAgreement,
    },
  ],
  versions: [
    'up to 0.3.x: flat request times, scheduler_info; time_per_output_token over (last − first)',
    '0.4 on: info.timings; token-weighted means from the request start',
  ],
});
