/**
 * SemiAnalysis InferenceX: its definitions are read and applied; the project reads no result file of its own format.
 */
import { defineTool } from '../base/descriptor.ts';
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
  formats: [],
  versions: [
    'the fixed-sequence lane (inferencex-e2e/infx) with the bench_serving client',
  ],
});
