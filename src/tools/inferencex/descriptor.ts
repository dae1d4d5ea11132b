/**
 * SemiAnalysis InferenceX: its definitions, and its result files (aggregates only).
 */
import { defineTool } from '../base/descriptor.ts';
import { INFERENCEX_RECORD_FORMATS, inferencexAgreementWith } from './agreement.ts';
import { importInferencex, isInferencexObject } from './reader.ts';
import { inferencexReport, inferencexSpeeds } from './report.ts';

export const inferencex = defineTool({
  id: 'inferencex',
  name: 'SemiAnalysis InferenceX',
  source: {
    repository: 'SemiAnalysisAI/InferenceX',
    files: [
      { path: 'inferencex-e2e/infx/bench/fixed_seq.py', commit: '2c1e59ec87d6' },
      { path: 'infx/bench_serving/benchmark_serving.py', commit: '1669d9761f31' },
      { path: 'infx/results/fixed_sequence.py', commit: '1272e0fd7e7a' },
      { path: 'utils/bench_serving/backend_request_func.py', commit: '843c6254' },
    ],
  },
  table1: {
    clockStart: 'after the semaphore; new session per request',
    firstToken: 'first message with choices',
    end: 'completions: last choices message; chat: the usage chunk',
    perToken: 'interactivity = 1000 / TPOT statistic (ms) (inverse of the statistic)',
    percentile: 'np.percentile linear, p90/p99/p99.9',
    version: 'code mirror + snapshot 843c6254 (article: c801c9f)',
    implementation: 'src/tools/inferencex/definitions.ts inferencexTpot, interactivity',
  },
  table2: {
    arrivals: 'client has --request-rate; the lane hard-codes inf',
    clock: 'none',
    window: '2×conc warmups (before the run)',
    percentileQuality: 'p90/p99/p99.9',
    tokens: 'server usage',
  },
  report: inferencexReport,
  speeds: inferencexSpeeds,
  formats: [
    {
      id: 'inferencex',
      description: 'InferenceX result JSON: one flat result object, or agg_bmk.json (a JSON array of them); aggregates only',
      nameInSentence: 'an InferenceX result',
      sniff: {
        json: (v) => (isInferencexObject(v) || (Array.isArray(v) && v.length > 0 && v.every(isInferencexObject)) ? 21 : null),
        fileName: (name) => (name === 'agg_bmk.json' || name.endsWith('_agg_bmk.json') ? 21 : null),
      },
      read: importInferencex,
      aggregates: true,
      agreement: null,
      agreementWith: { recordFormats: INFERENCEX_RECORD_FORMATS, check: inferencexAgreementWith },
    },
  ],
  versions: [
    'the fixed-sequence lane (inferencex-e2e/infx) with the bench_serving client',
    'result JSON of the agentic lane (from AIPerf’s aggregate export, times in seconds) and agg_bmk.json, 2026',
  ],
});
