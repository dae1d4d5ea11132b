/**
 * Every constant of the simulated server (docs/model.md, "Constants"; the article's Table 4),
 * each with its unit, where it comes from, and a grade:
 *   A read at a primary source, B credible secondary, C derived from others here,
 *   D an assumption (shapes magnitudes, not mechanisms).
 * Derived constants are computed from the others, never typed in.
 */
import type { HardwareConfig, ModelConfig, ServerConfig } from './types.ts';

export type Grade = 'A' | 'B' | 'C' | 'D';

export interface Constant {
  value: number;
  unit: string;
  source: string;
  grade: Grade;
}

const LLAMA_CONFIG = 'meta-llama/Llama-3.1-8B config.json (Hugging Face)';
const H100 = 'NVIDIA H100 Tensor Core GPU datasheet, SXM5';
const VLLM_DEFAULTS =
  'vLLM vllm/engine/arg_utils.py: API-server defaults for an H100-class GPU (keyed on device memory)';

const c = (value: number, unit: string, source: string, grade: Grade): Constant => ({ value, unit, source, grade });

// ---- model: Llama 3.1 8B, BF16 ----
const layers = c(32, 'layers', `${LLAMA_CONFIG}: num_hidden_layers`, 'A');
const dModel = c(4096, 'dims', `${LLAMA_CONFIG}: hidden_size`, 'A');
const nKvHeads = c(8, 'heads', `${LLAMA_CONFIG}: num_key_value_heads`, 'A');
const headDim = c(128, 'dims', `${LLAMA_CONFIG}: head_dim (hidden_size / num_attention_heads = 4096/32)`, 'A');
const totalParams = c(8_030_261_248, 'params', 'meta-llama/Llama-3.1-8B model card (safetensors parameter count)', 'A');
const vocabSize = c(128_256, 'tokens', `${LLAMA_CONFIG}: vocab_size`, 'A');
const bytesPerParam = c(2, 'B/param', 'BF16 weights and KV cache', 'A');

const embeddingParams = c(
  vocabSize.value * dModel.value,
  'params',
  'vocab_size × d_model (embedding and lm_head are untied: tie_word_embeddings = false)',
  'C',
);
const lmHeadParams = c(embeddingParams.value, 'params', 'vocab_size × d_model (untied lm_head)', 'C');
const bodyParams = c(
  totalParams.value - embeddingParams.value - lmHeadParams.value,
  'params',
  'total − embedding − lm_head: parameters touched per computed token',
  'C',
);
const streamedWeightBytes = c(
  bytesPerParam.value * (totalParams.value - embeddingParams.value),
  'B',
  '2 B × (total − embedding): weights read every step (the embedding is a lookup)',
  'C',
);
const kvBytesPerToken = c(
  2 * layers.value * nKvHeads.value * headDim.value * bytesPerParam.value,
  'B/token',
  '2 (K and V) × layers × KV heads × head_dim × 2 B',
  'C',
);

// ---- hardware: H100 SXM class ----
const peakFlops = c(989.4e12, 'FLOP/s', `${H100}: dense BF16 Tensor Core peak`, 'A');
const etaCompute = c(0.75, 'fraction', 'assumption: achieved fraction of the compute peak', 'D');
const hbmBw = c(3.35e12, 'B/s', `${H100}: HBM3 bandwidth`, 'A');
const etaMemory = c(0.85, 'fraction', 'assumption: achieved fraction of HBM bandwidth', 'D');
const stepOverheadS = c(0.001, 's', 'assumption: fixed per-step cost of scheduling, launch and sampling', 'D');

// ---- server ----
const kvCapacityTokens = c(430_000, 'tokens', 'assumption: KV pool left after weights on an 80 GB GPU', 'D');
const blockSize = c(16, 'tokens', 'vLLM default KV block size (--block-size 16)', 'A');
const tokenBudget = c(8192, 'tokens/step', `${VLLM_DEFAULTS}: max_num_batched_tokens`, 'A');
const maxNumSeqs = c(1024, 'sequences', `${VLLM_DEFAULTS}: max_num_seqs`, 'A');

/** All constants by name, in the order Table 4 lists them. */
export const CONSTANTS = {
  layers,
  dModel,
  nKvHeads,
  headDim,
  totalParams,
  vocabSize,
  bytesPerParam,
  embeddingParams,
  lmHeadParams,
  bodyParams,
  streamedWeightBytes,
  kvBytesPerToken,
  peakFlops,
  etaCompute,
  hbmBw,
  etaMemory,
  stepOverheadS,
  kvCapacityTokens,
  blockSize,
  tokenBudget,
  maxNumSeqs,
} as const satisfies Record<string, Constant>;

export type ConstantName = keyof typeof CONSTANTS;

/** Table 4 as data: one row per constant, in display order. */
export interface ConstantRow extends Constant {
  name: ConstantName;
  group: 'model' | 'hardware' | 'server';
}

const GROUP: Record<ConstantName, ConstantRow['group']> = {
  layers: 'model', dModel: 'model', nKvHeads: 'model', headDim: 'model', totalParams: 'model',
  vocabSize: 'model', bytesPerParam: 'model', embeddingParams: 'model', lmHeadParams: 'model',
  bodyParams: 'model', streamedWeightBytes: 'model', kvBytesPerToken: 'model',
  peakFlops: 'hardware', etaCompute: 'hardware', hbmBw: 'hardware', etaMemory: 'hardware',
  stepOverheadS: 'hardware',
  kvCapacityTokens: 'server', blockSize: 'server', tokenBudget: 'server', maxNumSeqs: 'server',
};

export const CONSTANTS_TABLE: readonly ConstantRow[] = (Object.keys(CONSTANTS) as ConstantName[]).map((name) => ({
  name,
  group: GROUP[name],
  ...CONSTANTS[name],
}));

/** The article's server: Llama 3.1 8B on an H100 with vLLM's defaults. A fresh object each call. */
export function defaultServerConfig(): ServerConfig {
  const model: ModelConfig = {
    name: 'Llama-3.1-8B (BF16)',
    layers: layers.value,
    dModel: dModel.value,
    nKvHeads: nKvHeads.value,
    headDim: headDim.value,
    totalParams: totalParams.value,
    vocabSize: vocabSize.value,
    bodyParams: bodyParams.value,
    lmHeadParams: lmHeadParams.value,
    streamedWeightBytes: streamedWeightBytes.value,
    kvBytesPerToken: kvBytesPerToken.value,
  };
  const hw: HardwareConfig = {
    peakFlops: peakFlops.value,
    etaCompute: etaCompute.value,
    hbmBw: hbmBw.value,
    etaMemory: etaMemory.value,
    stepOverheadS: stepOverheadS.value,
  };
  return {
    model,
    hw,
    kvCapacityTokens: kvCapacityTokens.value,
    blockSize: blockSize.value,
    tokenBudget: tokenBudget.value,
    maxNumSeqs: maxNumSeqs.value,
  };
}

/** The knobs the sensitivity study turns (docs/experiments.md §13). */
export interface ServerOverrides {
  etaCompute?: number;
  etaMemory?: number;
  stepOverheadS?: number;
  kvCapacityTokens?: number;
  tokenBudget?: number;
  maxNumSeqs?: number;
}

/** A copy of `base` (default: the article's server) with the given knobs changed. */
export function withOverrides(overrides: ServerOverrides, base: ServerConfig = defaultServerConfig()): ServerConfig {
  const check = (name: string, v: number | undefined, ok: (v: number) => boolean, want: string) => {
    if (v !== undefined && !ok(v)) throw new RangeError(`invalid override ${name}: ${v} (${want})`);
  };
  const frac = (v: number) => v > 0 && v <= 1;
  const posInt = (v: number) => Number.isInteger(v) && v >= 1;
  check('etaCompute', overrides.etaCompute, frac, 'a fraction in (0, 1]');
  check('etaMemory', overrides.etaMemory, frac, 'a fraction in (0, 1]');
  check('stepOverheadS', overrides.stepOverheadS, (v) => v >= 0 && Number.isFinite(v), 'seconds ≥ 0');
  check('kvCapacityTokens', overrides.kvCapacityTokens, posInt, 'an integer ≥ 1');
  check('tokenBudget', overrides.tokenBudget, posInt, 'an integer ≥ 1');
  check('maxNumSeqs', overrides.maxNumSeqs, posInt, 'an integer ≥ 1');
  return {
    model: { ...base.model },
    hw: {
      ...base.hw,
      etaCompute: overrides.etaCompute ?? base.hw.etaCompute,
      etaMemory: overrides.etaMemory ?? base.hw.etaMemory,
      stepOverheadS: overrides.stepOverheadS ?? base.hw.stepOverheadS,
    },
    kvCapacityTokens: overrides.kvCapacityTokens ?? base.kvCapacityTokens,
    blockSize: base.blockSize,
    tokenBudget: overrides.tokenBudget ?? base.tokenBudget,
    maxNumSeqs: overrides.maxNumSeqs ?? base.maxNumSeqs,
  };
}
