/**
 * llm-d's Benchmark Report (llm-d/llm-d-benchmark): the common format llm-d's
 * harness converts every load generator's results into. Read (aggregates) and
 * written (`stopwatches metrics FILE --to br-v0.2.1 OUT.yaml`, ./writer.ts).
 * Not a stopwatch of its own: no definitions, no rows.
 */
import { defineTool } from '../base/descriptor.ts';
import type { Json } from '../base/reading.ts';
import { yamlTopKeys } from '../base/yaml-text.ts';
import { importBenchmarkReport, isBenchmarkReport } from './reader.ts';

export const llmd = defineTool({
  id: 'llm-d',
  name: 'llm-d Benchmark Report',
  source: {
    repository: 'llm-d/llm-d-benchmark',
    files: [
      { path: 'llmdbenchmark/analysis/benchmark_report/schema_v0_2_1.py', commit: '8bc9f1d' },
      { path: 'llmdbenchmark/analysis/benchmark_report/schema_v0_2.py', commit: '8bc9f1d' },
      { path: 'llmdbenchmark/analysis/benchmark_report/base.py', commit: '8bc9f1d' },
    ],
  },
  table1: null,
  table2: null,
  report: null,
  speeds: null,
  formats: [
    {
      id: 'br-v0.2.1',
      description: 'llm-d Benchmark Report v0.2.1 (or v0.2), YAML or JSON (aggregates; checked against the schema’s rules)',
      nameInSentence: 'an llm-d benchmark report',
      sniff: {
        json: (v: Json) => (isBenchmarkReport(v) ? 10 : null),
        text: (text: string, first: string) => (!/^[{[]/.test(first) && yamlTopKeys(text, ['version', 'run', 'results']) ? 10 : null),
      },
      read: importBenchmarkReport,
      aggregates: true,
      agreement: null,
    },
  ],
  versions: ['v0.2 (3b7decf…) and v0.2.1 (3b7decf, Jun 2026): v0.2.1 adds optional multimodal statistics and serving time series'],
});
