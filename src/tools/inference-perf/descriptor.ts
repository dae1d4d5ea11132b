/**
 * inference-perf (kubernetes-sigs/inference-perf), the load generator llm-d
 * builds on: everything the project knows about it, for the registry. Not in
 * Tables 1 and 2 (the article's seven tools); its definitions are applied to
 * every run and its files are read.
 */
import { defineTool } from '../base/descriptor.ts';
import type { Json } from '../base/reading.ts';
import { yamlTopKeys } from '../base/yaml-text.ts';
import { inferencePerfAgreement } from './agreement.ts';
import { importInferencePerfLifecycle, isLifecycle } from './lifecycle-reader.ts';
import { importInferencePerfRequests, isPerRequest } from './requests-reader.ts';
import { inferencePerfReport } from './report.ts';

export const inferencePerf = defineTool({
  id: 'inference-perf',
  name: 'inference-perf',
  source: {
    repository: 'kubernetes-sigs/inference-perf',
    files: [
      { path: 'inference_perf/reportgen/base.py', commit: '7de5ef2' },
      { path: 'inference_perf/apis/base.py', commit: '7de5ef2' },
      { path: 'inference_perf/apis/chat.py', commit: '7de5ef2' },
      { path: 'inference_perf/reportgen/base.py', commit: 'e3e690b' },
    ],
  },
  table1: null,
  table2: null,
  report: inferencePerfReport,
  speeds: null,
  formats: [
    {
      id: 'inference-perf-lifecycle',
      description: 'inference-perf summary_lifecycle_metrics.json or stage_<N>_lifecycle_metrics.json (aggregates; JSON, or the same object as YAML)',
      nameInSentence: 'an inference-perf lifecycle report',
      sniff: {
        json: (v: Json) => (isLifecycle(v) ? 10 : null),
        text: (text: string, first: string) => (!/^[{[]/.test(first) && yamlTopKeys(text, ['load_summary', 'successes', 'failures']) ? 10 : null),
      },
      read: importInferencePerfLifecycle,
      aggregates: true,
      agreement: null,
    },
    {
      id: 'inference-perf-requests',
      description: 'inference-perf per_request_lifecycle_metrics.json (per request; the info.output_token_times, info.response_info and info.response_metrics layouts)',
      nameInSentence: 'an inference-perf per-request file',
      sniff: { json: (v: Json) => (isPerRequest(v) ? 10 : null), fileName: (n: string) => (n.endsWith('per_request_lifecycle_metrics.json') ? 50 : null) },
      read: importInferencePerfRequests,
      aggregates: false,
      agreement: inferencePerfAgreement,
    },
  ],
  versions: [
    'eb3102f (Jun 2025) to v0.4.0: per-request info.output_token_times, one time per chunk; TPOT divides by the timestamps − 1',
    'v0.5.0 (3b882ba, Apr 2026): info.response_info; output_token_times one per token, TPOT divides by output tokens − 1',
    'v0.6.0 on (f23cb85, May 2026): info.response_metrics and request_metrics',
    'lifecycle reports: benchmark_time_seconds from 7ebc8bb (Apr 2026); multimodal and prompt_tokens keys from f23cb85 and 803b44a (May 2026)',
  ],
});
