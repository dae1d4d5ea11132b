/**
 * EvalScope perf (modelscope/evalscope, `evalscope perf`): everything the
 * project knows about it, for the registry. Not in Tables 1 and 2; its files
 * are read: the summary and percentile JSON in both vintages of their key
 * names, and the per-request SQLite database.
 */
import { defineTool } from '../base/descriptor.ts';
import type { Json } from '../base/reading.ts';
import { SQLITE_MAGIC, type SqliteTables } from '../base/sqlite-tables.ts';
import { importEvalscopeDb, importEvalscopeDbText, isEvalscopeDb } from './db-reader.ts';
import { evalscopeReport } from './report.ts';
import { importEvalscopePercentiles, importEvalscopeSummary, isPercentiles, isSummary } from './reader.ts';

export const evalscope = defineTool({
  id: 'evalscope',
  name: 'EvalScope perf',
  source: {
    repository: 'modelscope/evalscope',
    files: [
      { path: 'evalscope/perf/utils/db_util.py', commit: 'fde259d2' },
      { path: 'evalscope/perf/utils/perf_constants.py', commit: 'fde259d2' },
      { path: 'evalscope/perf/utils/benchmark_util.py', commit: 'fde259d2' },
      { path: 'evalscope/perf/plugin/api/default_api.py', commit: 'fde259d2' },
      { path: 'evalscope/perf/utils/db_util.py', commit: '188bf5fb' },
    ],
  },
  table1: null,
  table2: null,
  report: evalscopeReport,
  speeds: null,
  formats: [
    {
      id: 'evalscope-summary',
      description: 'evalscope perf benchmark_summary.json (aggregates; key names up to v1.9 in s, from v1.10 in ms)',
      nameInSentence: 'an evalscope benchmark summary',
      sniff: { json: (v: Json) => (isSummary(v) ? 15 : null) },
      read: importEvalscopeSummary,
      aggregates: true,
      agreement: null,
    },
    {
      id: 'evalscope-percentile',
      description: 'evalscope perf benchmark_percentile.json (per-percentile rows; both vintages of key names)',
      nameInSentence: 'an evalscope percentile table',
      sniff: { json: (v: Json) => (isPercentiles(v) ? 15 : null) },
      read: importEvalscopePercentiles,
      aggregates: true,
      agreement: null,
    },
    {
      id: 'evalscope-db',
      description: 'evalscope perf benchmark_data.db (SQLite, per request: the result table)',
      nameInSentence: 'an evalscope benchmark database',
      sniff: {
        text: (text: string) => (text.startsWith(SQLITE_MAGIC) ? 10 : null),
        tables: (t: SqliteTables) => (isEvalscopeDb(t) ? 10 : null),
      },
      read: importEvalscopeDbText,
      readTables: importEvalscopeDb,
      aggregates: false,
      agreement: null,
    },
  ],
  versions: [
    'up to v1.9: summary keys such as "Average time to first token (s)", percentiles in s (4 decimals) at 10 … 99%',
    'v1.10 on (b700f5ae, Apr 2026): "TTFT (ms)", "Test Duration (s)", percentiles in ms (2 decimals) at 1 … 99%; "Avg TTFT (ms)" and min/max rows from f77c7b52 (Jul 2026)',
    'benchmark_data.db: 12 columns (2024 on), request_id from 4250718a and is_stream from fbfb6255 (Jul 2026)',
  ],
});
