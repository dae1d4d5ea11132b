/**
 * Named models and GPUs for the roofline check. The article's pair (Llama 3.1
 * 8B BF16 on an H100 SXM) is read from the simulator's constants so there is
 * one source of truth; the others are datasheet / config.json values kept
 * here, each with its source.
 */
import { UserError } from '../errors.ts';
import { CONSTANTS } from '../sim/constants.ts';

export interface ModelPreset {
  name: string;
  /** Weight bytes read by every decode step (the embedding is a lookup, not read whole). */
  weightBytes: number;
  /** Parameters multiplied per computed token (total − embedding): 2 FLOPs each. */
  flopParams: number;
  /** KV-cache bytes per token of context. */
  kvBytesPerToken: number;
  /** For attention FLOPs: 4 · layers · d_model per token of context. */
  layers: number;
  dModel: number;
  source: string;
}

export interface GpuPreset {
  name: string;
  /** HBM bandwidth, B/s (datasheet peak). */
  hbmBw: number;
  /** Dense BF16 tensor peak, FLOP/s. */
  peakFlops: number;
  source: string;
}

const K = CONSTANTS;

export const MODELS: Record<string, ModelPreset> = {
  'llama-3.1-8b-bf16': {
    name: 'Llama 3.1 8B, BF16',
    weightBytes: K.streamedWeightBytes.value,
    flopParams: K.totalParams.value - K.embeddingParams.value,
    kvBytesPerToken: K.kvBytesPerToken.value,
    layers: K.layers.value,
    dModel: K.dModel.value,
    source: 'src/sim/constants.ts (the simulator’s model)',
  },
  // 80 layers, d_model 8192, 8 KV heads × 128, vocab 128,256, untied embeddings:
  // embedding 1,050,673,152; weights read = 2 B × (70,553,706,496 − embedding).
  'llama-3.1-70b-bf16': {
    name: 'Llama 3.1 70B, BF16',
    weightBytes: 2 * (70_553_706_496 - 128_256 * 8192),
    flopParams: 70_553_706_496 - 128_256 * 8192,
    kvBytesPerToken: 2 * 80 * 8 * 128 * 2,
    layers: 80,
    dModel: 8192,
    source: 'meta-llama/Llama-3.1-70B config.json and model-card parameter count (grade B: not re-read for this project)',
  },
};

export const GPUS: Record<string, GpuPreset> = {
  'h100-sxm': {
    name: 'H100 SXM',
    hbmBw: K.hbmBw.value,
    peakFlops: K.peakFlops.value,
    source: 'src/sim/constants.ts (the simulator’s GPU; NVIDIA H100 datasheet)',
  },
  'h200-sxm': { name: 'H200 SXM', hbmBw: 4.8e12, peakFlops: 989.4e12, source: 'NVIDIA H200 datasheet: 4.8 TB/s HBM3e, dense BF16 = half the sparse 1,979 TFLOP/s' },
  'a100-sxm-80gb': { name: 'A100 SXM 80 GB', hbmBw: 2.039e12, peakFlops: 312e12, source: 'NVIDIA A100 datasheet: 2,039 GB/s HBM2e, 312 TFLOP/s dense BF16' },
};

export function modelPreset(name: string): ModelPreset {
  const m = MODELS[name.toLowerCase()];
  if (!m) throw new UserError(`unknown --model ${JSON.stringify(name)}; known: ${Object.keys(MODELS).join(', ')} (or give --model-bytes)`);
  return m;
}

export function gpuPreset(name: string): GpuPreset {
  const g = GPUS[name.toLowerCase()];
  if (!g) throw new UserError(`unknown --gpu ${JSON.stringify(name)}; known: ${Object.keys(GPUS).join(', ')} (or give --hbm-bw)`);
  return g;
}
