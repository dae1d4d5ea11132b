/**
 * NVIDIA AIPerf: everything the project knows about it, for the registry.
 */
import { defineTool } from '../base/descriptor.ts';
import { isObject, type Json } from '../base/reading.ts';
import { aiperfAgreement } from './agreement.ts';
import { importAiperfCsv, importGenaiPerfCsv, isAiperfCsv, isGenaiPerfCsv } from './csv-reader.ts';
import { importGenaiPerf, isGenaiPerfExport } from './genai-perf-reader.ts';
import { importAiperf, isAggregateExport } from './reader.ts';
import { aiperfReport, aiperfSpeeds } from './report.ts';

export const aiperf = defineTool({
  id: 'aiperf',
  name: 'NVIDIA AIPerf',
  source: {
    repository: 'ai-dynamo/aiperf',
    files: [
      { path: 'src/aiperf/metrics/types/inter_token_latency_metric.py' },
      { path: 'src/aiperf/metrics/types/ttft_metric.py' },
      { path: 'src/aiperf/metrics/types/e2e_normalized_interactivity_metrics.py' },
      { path: 'src/aiperf/metrics/derived_latency.py' },
    ],
  },
  table1: {
    clockStart: 'worker request start (credit_issued_ns kept separately)',
    firstToken: 'first non-empty content chunk',
    end: 'last content chunk',
    perToken: 'inter_token_latency = (latency − ttft)/(OSL − first-chunk tokens | 1); per-user = mean of 1/ITL; E2E output token throughput = OSL/latency',
    percentile: 'linear at q/100·(n−1) (own code); ICL via t-digest; adj_* nearest',
    version: 'code mirror 2026 (article: bfa5ab1)',
    implementation: 'src/tools/aiperf/definitions.ts aiperfItl, aiperfE2eOutputTokenThroughput',
  },
  table2: {
    arrivals: '--request-rate R --arrival-pattern poisson; --concurrency-ramp-duration, --request-rate-ramp-duration',
    clock: 'effective_latency (automatic)',
    window: '--warmup-request-count / --warmup-duration; --benchmark-duration + grace',
    percentileQuality: '--num-profile-runs k (run-level CIs), --slice-duration',
    tokens: '--use-server-token-count [--per-chunk-usage]',
  },
  report: aiperfReport,
  speeds: aiperfSpeeds,
  formats: [
    {
      id: 'aiperf',
      description: 'AIPerf profile_export.jsonl (request_start_ns schema and the Oct 2025 metadata.timestamp_ns schema) and the aggregate profile_export_aiperf.json',
      nameInSentence: 'an AIPerf export',
      sniff: {
        // one profile_export.jsonl record; else the aggregate export: per-metric statistics under "records" or at the top level
        json: (v: Json) => (!isObject(v) ? null : isObject(v.metadata) && isObject(v.metrics) ? 22 : isAggregateExport(v) ? 23 : null),
        fileName: (name) => (name.includes('profile_export') && name.endsWith('.jsonl') ? 3 : null),
      },
      read: importAiperf,
      aggregates: true,
      agreement: aiperfAgreement,
    },
    {
      id: 'aiperf-csv',
      description: 'AIPerf profile_export_aiperf.csv, Oct 2025 and 0.8 (aggregates only)',
      nameInSentence: 'an AIPerf CSV export',
      sniff: {
        text: (_text, firstLine) => (isAiperfCsv(firstLine) ? 3 : null),
        fileName: (name) => (name.includes('profile_export_aiperf') && name.endsWith('.csv') ? 3 : null),
      },
      read: importAiperfCsv,
      aggregates: true,
      agreement: null,
    },
    {
      id: 'genai-perf',
      description: 'GenAI-Perf (AIPerf’s predecessor) per-request profile_export.json, written by perf_analyzer (send timestamp and every response timestamp, ns)',
      nameInSentence: 'a GenAI-Perf per-request export',
      sniff: {
        json: (v: Json) => (isGenaiPerfExport(v) ? 22 : null),
        fileName: (name) => (name === 'profile_export.json' || name.endsWith('_profile_export.json') ? 4 : null),
      },
      read: importGenaiPerf,
      aggregates: false,
      agreement: null,
    },
    {
      id: 'genai-perf-csv',
      description: 'GenAI-Perf (AIPerf’s predecessor) profile_export_genai_perf.csv, 0.0.x (aggregates only)',
      nameInSentence: 'a GenAI-Perf CSV export',
      sniff: {
        text: (_text, firstLine) => (isGenaiPerfCsv(firstLine) ? 3 : null),
        fileName: (name) => (name.includes('profile_export_genai_perf') && name.endsWith('.csv') ? 3 : null),
      },
      read: importGenaiPerfCsv,
      aggregates: true,
      agreement: null,
    },
  ],
  versions: [
    'Oct 2025 schema: metadata.timestamp_ns, tags ttft / request_latency',
    'request_start_ns schema (2026)',
    'aggregate export profile_export_aiperf.json: metrics under records (Oct 2025) or at the top level (from mid-Oct 2025; 0.8 adds schema_version 1.1 and a top-level metadata)',
    'profile_export_aiperf.csv: without a sum column (Oct 2025), with sum and a GPU-telemetry table (0.8)',
    'GenAI-Perf 0.0.x (AIPerf’s predecessor): profile_export_genai_perf.csv, and perf_analyzer’s per-request profile_export.json (experiments[].requests[], ns since the epoch)',
  ],
});
