/**
 * The roofline envelope (docs/model.md; Figure 12 of the paper). Every decode step
 * reads all weights and the KV cache of every token it attends to, and
 * multiplies every weight once per token it computes. So, at B users each
 * holding c tokens of context, one step takes at least
 *
 *   t ≥ max( (W + B·c·kv) / BW ,  B·f / P ),   f = 2·params + 4·layers·d_model·c
 *
 * (W weight bytes, kv bytes per token of context, BW memory bandwidth, P peak
 * FLOP/s, all summed over the GPUs serving one replica). Each user gets one
 * token per step: per-user speed s ≤ 1/t and total throughput = B·s.
 *
 * These are bounds at the datasheet peaks, with no overhead and no
 * efficiency factor (the simulator uses 85% / 75% and 1 ms per step), so an
 * honest run lands inside; a point outside reads fewer bytes or does fewer
 * FLOPs per token than assumed — quantization, speculation, sparsity — and
 * should say which. No tolerance is applied.
 */
import { formatBytes, formatMessage } from '../format/text.ts';
import type { CheckOutcome } from './types.ts';

export interface RooflineInput {
  /** Claimed per-user decode speed, tokens/s. */
  perUserTps?: number;
  /** Claimed total output throughput, tokens/s (one replica). */
  totalTps?: number;
  /** Weight bytes read per step (one replica). */
  weightBytes: number;
  /** Memory bandwidth of one GPU, B/s. */
  hbmBw: number;
  /** GPUs serving one replica (tensor/pipeline parallel): bandwidth and FLOP/s add up. */
  gpus?: number;
  /** Peak FLOP/s of one GPU (for the compute side; optional). */
  peakFlops?: number;
  /** Parameters multiplied per token (for the compute side; optional). */
  flopParams?: number;
  /** KV bytes per token of context, and context tokens per user (0 = weights only, the loosest bound). */
  kvBytesPerToken?: number;
  context?: number;
  /** For attention FLOPs (optional). */
  layers?: number;
  dModel?: number;
}

/** Bytes one user's decode step reads, and FLOPs per token computed, at the given context. */
function perStep(inp: RooflineInput): { kvPerUser: number; flopsPerToken: number | null } {
  const c = inp.context ?? 0;
  const kvPerUser = c * (inp.kvBytesPerToken ?? 0);
  const attn = inp.layers && inp.dModel ? 4 * inp.layers * inp.dModel * c : 0;
  const flopsPerToken = inp.flopParams ? 2 * inp.flopParams + attn : null;
  return { kvPerUser, flopsPerToken };
}

/**
 * The shortest a decode step of `batch` users can take, at the datasheet peaks:
 * max(memory side, compute side); the compute side counts only when its inputs
 * are given. Each user gets one token per step, so per-user speed ≤ 1/t and
 * total throughput ≤ batch/t: the envelope drawn in the paper's roofline figure.
 */
export function stepTimeBound(inp: RooflineInput, batch: number): number {
  const g = inp.gpus ?? 1;
  const { kvPerUser, flopsPerToken } = perStep(inp);
  const memory = (inp.weightBytes + batch * kvPerUser) / (g * inp.hbmBw);
  const compute = flopsPerToken && inp.peakFlops ? (batch * flopsPerToken) / (g * inp.peakFlops) : 0;
  return Math.max(compute, memory);
}

/** The fastest one user can be served: all bandwidth to one step of batch one. */
export function perUserBound(inp: RooflineInput): number {
  const { kvPerUser } = perStep(inp);
  return ((inp.gpus ?? 1) * inp.hbmBw) / (inp.weightBytes + kvPerUser);
}

/**
 * The most total throughput compatible with a per-user speed s (tokens/s):
 * s · B_max(s), where B_max is the largest batch whose step still fits in 1/s
 * on both the memory and the compute side. Without s, only the compute
 * ceiling P/f bounds total throughput. Infinity when no side constrains it.
 */
export function totalBound(inp: RooflineInput, s?: number): { bound: number; side: 'memory' | 'compute' | 'none' } {
  const g = inp.gpus ?? 1;
  const { kvPerUser, flopsPerToken } = perStep(inp);
  const compute = flopsPerToken && inp.peakFlops ? (g * inp.peakFlops) / flopsPerToken : Infinity; // tokens/s
  if (s === undefined) return { bound: compute, side: compute < Infinity ? 'compute' : 'none' };
  const memBatch = kvPerUser > 0 ? Math.max(0, ((g * inp.hbmBw) / s - inp.weightBytes) / kvPerUser) : Infinity;
  const memory = s * memBatch;
  if (memory <= compute) return { bound: memory, side: memory < Infinity ? 'memory' : 'none' };
  return { bound: compute, side: 'compute' };
}

function setup(inp: RooflineInput): string {
  const g = inp.gpus ?? 1;
  const ctx = inp.context ? ` + ${formatMessage(inp.context)} tokens of KV` : '';
  return `${g > 1 ? `${g} × ` : ''}${formatBytes(inp.hbmBw)}/s ÷ ${formatBytes(inp.weightBytes)}${ctx}`;
}

export function rooflinePerUser(inp: RooflineInput): CheckOutcome {
  const s = inp.perUserTps!;
  const bound = perUserBound(inp);
  const ratio = s / bound;
  const values = { perUserTps: s, bound, weightBytes: inp.weightBytes, hbmBw: inp.hbmBw, gpus: inp.gpus ?? 1, context: inp.context ?? 0 };
  if (ratio <= 1) {
    return {
      check: 'roofline-per-user',
      status: 'pass',
      message: `Roofline, per user: ${formatMessage(s)} tok/s ≤ ${setup(inp)} = ${formatMessage(bound)} tok/s (${((1 - ratio) * 100).toFixed(0)}% below the bound)`,
      ratio,
      values,
    };
  }
  return {
    check: 'roofline-per-user',
    status: 'fail',
    message:
      `Roofline, per user: ${formatMessage(s)} tok/s per user but ${setup(inp)} = ${formatMessage(bound)} tok/s: over by ${ratio.toFixed(2)}× ` +
      `(it must read fewer bytes per token than assumed: quantization, speculation or sparsity?)`,
    ratio,
    values,
  };
}

export function rooflineTotal(inp: RooflineInput): CheckOutcome {
  const T = inp.totalTps!;
  const { bound, side } = totalBound(inp, inp.perUserTps);
  const values: Record<string, number> = { totalTps: T, bound, gpus: inp.gpus ?? 1, context: inp.context ?? 0 };
  if (inp.perUserTps !== undefined) values.perUserTps = inp.perUserTps;
  if (side === 'none') {
    delete values.bound; // no side constrains it: there is no number to report (JSON has no Infinity)
    return {
      check: 'roofline-total',
      status: 'skipped',
      message:
        'Roofline, total: not checked — needs the compute side (--peak-flops and --params, or a --model and --gpu preset) ' +
        'or, with --per-user-tps, the KV side (--kv-bytes-per-token and --context)',
      ratio: null,
      values,
    };
  }
  if (bound === 0) {
    return {
      check: 'roofline-total',
      status: 'fail',
      message: `Roofline, total: ${formatMessage(T)} tok/s, but no batch reaches ${formatMessage(inp.perUserTps!)} tok/s per user at all (see the per-user check)`,
      ratio: null,
      values,
    };
  }
  const ratio = T / bound;
  const at = inp.perUserTps !== undefined ? `at ${formatMessage(inp.perUserTps)} tok/s per user ` : '';
  const why = side === 'memory' ? 'memory-bound: weights + every user’s KV per step' : 'compute-bound: 2 FLOPs per parameter per token at peak';
  if (ratio <= 1) {
    return {
      check: 'roofline-total',
      status: 'pass',
      message: `Roofline, total: ${formatMessage(T)} tok/s ≤ ${formatMessage(bound)} tok/s ${at}(${why})`,
      ratio,
      values,
    };
  }
  return {
    check: 'roofline-total',
    status: 'fail',
    message: `Roofline, total: ${formatMessage(T)} tok/s but ${at}the envelope allows ${formatMessage(bound)} tok/s (${why}): over by ${ratio.toFixed(2)}×`,
    ratio,
    values,
  };
}
