/**
 * The roofline step time of one engine step (the article's `step_time`).
 *
 * Bit-identity with the reference needs the same IEEE-754 operations in the same
 * order: Python evaluates `2.0 * m.body_params * n_tok` as `(2.0 * body) * n_tok`,
 * so precomputing `2.0 * body` (and the other constant-only prefixes) changes nothing;
 * reassociating anything else would.
 */
import type { ServerConfig } from './types.ts';

/** Constant-only prefixes of the formula, computed once per configuration. */
export interface Roofline {
  /** 2.0 * body_params */
  twoBody: number;
  /** 2.0 * lm_head_params */
  twoLmHead: number;
  /** 4.0 * layers * d_model */
  fourLD: number;
  streamedWeightBytes: number;
  kvBytesPerToken: number;
  /** eta_compute * peak_flops */
  flopRate: number;
  /** eta_memory * hbm_bw */
  byteRate: number;
  overhead: number;
}

export function roofline(cfg: ServerConfig): Roofline {
  const m = cfg.model;
  const hw = cfg.hw;
  return {
    twoBody: 2.0 * m.bodyParams,
    twoLmHead: 2.0 * m.lmHeadParams,
    fourLD: 4.0 * m.layers * m.dModel,
    streamedWeightBytes: m.streamedWeightBytes,
    kvBytesPerToken: m.kvBytesPerToken,
    flopRate: hw.etaCompute * hw.peakFlops,
    byteRate: hw.etaMemory * hw.hbmBw,
    overhead: hw.stepOverheadS,
  };
}

/**
 * Duration (s) of a step that computes `nTok` tokens, samples `nLogits` of them,
 * attends over `attnCtxSum` (decodes) + `prefillAttnPairs` (prefill chunks) query-key
 * pairs and reads `kvReadTokens` tokens of cached KV.
 */
export function stepTimeOf(
  r: Roofline,
  nTok: number,
  nLogits: number,
  attnCtxSum: number,
  prefillAttnPairs: number,
  kvReadTokens: number,
): number {
  let flops = r.twoBody * nTok + r.twoLmHead * nLogits;
  flops += r.fourLD * (attnCtxSum + prefillAttnPairs);
  const bytes = r.streamedWeightBytes + r.kvBytesPerToken * (kvReadTokens + nTok);
  const tC = flops / r.flopRate;
  const tM = bytes / r.byteRate;
  // Python's max(t_c, t_m) returns t_c unless t_m is strictly larger.
  return r.overhead + (tM > tC ? tM : tC);
}

/** The reference's `step_time(cfg, ...)`, for one-off use (the engine keeps a `Roofline`). */
export function stepTime(
  cfg: ServerConfig,
  nTok: number,
  nLogits: number,
  attnCtxSum: number,
  prefillAttnPairs: number,
  kvReadTokens: number,
): number {
  return stepTimeOf(roofline(cfg), nTok, nLogits, attnCtxSum, prefillAttnPairs, kvReadTokens);
}
