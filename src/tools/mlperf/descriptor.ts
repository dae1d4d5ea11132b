/**
 * MLPerf LoadGen: everything the project knows about it, for the registry. Its three
 * files are three formats: the detail log, the summary and the per-sample trace.
 */
import { defineTool } from '../base/descriptor.ts';
import { isObject, type Json } from '../base/reading.ts';
import { importMlperfDetail, importMlperfSummary, importMlperfTrace } from './reader.ts';
import { mlperfReport, mlperfSpeeds } from './report.ts';

export const mlperf = defineTool({
  id: 'mlperf',
  name: 'MLPerf LoadGen',
  source: {
    repository: 'mlcommons/inference',
    files: [
      { path: 'loadgen/loadgen.cc' },
      { path: 'loadgen/logging.cc' },
      { path: 'loadgen/results.cc' },
      { path: 'loadgen/early_stopping.cc' },
      { path: 'loadgen/mlperf.conf' },
    ],
  },
  table1: {
    clockStart: 'the scheduled time',
    firstToken: 'when the SUT calls FirstTokenComplete',
    end: 'SUT QuerySamplesComplete',
    perToken: 'TPOT = (latency − first-token latency)/(n − 1), int64 ns',
    percentile: 'sorted[⌊n·p⌋]; early stopping at 99% confidence',
    version: 'v6.0.17, snapshot b66003e1 (article: 3fbc329)',
    implementation: 'src/tools/mlperf/definitions.ts mlperfTpotNs, mlperfMetrics',
  },
  table2: {
    arrivals: 'Server scenario target_qps (Poisson)',
    clock: 'scheduled time (always)',
    window: 'min duration 10 min (mlperf.conf)',
    percentileQuality: 'early stopping at 99% confidence',
    tokens: 'SUT-reported n_tokens',
  },
  report: mlperfReport,
  speeds: mlperfSpeeds,
  formats: [
    {
      id: 'mlperf-detail',
      description: 'MLPerf LoadGen mlperf_log_detail.txt, 4.0 to 6.0 (aggregates only)',
      nameInSentence: 'an MLPerf LoadGen detail log',
      sniff: {
        text: (_text, firstLine) => (firstLine.startsWith(':::MLLOG') ? 0 : null),
        fileName: (name) => (name.includes('mlperf_log_detail') ? 0 : null),
      },
      read: importMlperfDetail,
      aggregates: true,
      agreement: null,
    },
    {
      id: 'mlperf-summary',
      description: 'MLPerf LoadGen mlperf_log_summary.txt (aggregates only)',
      nameInSentence: 'an MLPerf LoadGen summary',
      sniff: {
        text: (text, firstLine) => (/^=+$/.test(firstLine) && /^MLPerf Results Summary\s*$/m.test(text.slice(0, 400)) ? 1 : null),
        fileName: (name) => (name.includes('mlperf_log_summary') ? 1 : null),
      },
      read: importMlperfSummary,
      aggregates: true,
      agreement: null,
    },
    {
      id: 'mlperf-trace',
      description: 'MLPerf LoadGen mlperf_log_trace.json (per-sample Chrome trace, 4.0 to 6.0)',
      nameInSentence: 'an MLPerf LoadGen trace',
      sniff: {
        // LoadGen traces are not valid JSON (see base/json-text.ts); their opening is enough
        text: (text) => (/^\{\s*"traceEvents"\s*:\s*\[/.test(text.trimStart()) ? 2 : null),
        json: (v: Json) => {
          if (Array.isArray(v)) {
            const first = v.find((e) => isObject(e));
            return isObject(first) && 'ph' in first && 'name' in first ? 11 : null;
          }
          return isObject(v) && Array.isArray(v.traceEvents) ? 20 : null;
        },
        fileName: (name) => (name.includes('mlperf_log_trace') ? 2 : null),
      },
      read: importMlperfTrace,
      aggregates: true,
      agreement: null,
    },
  ],
  versions: [
    'LoadGen 4.0 to 6.0 (6.0.17 read): the same detail-log keys and trace events',
  ],
});
