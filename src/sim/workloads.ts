/**
 * Request lengths and arrival times, each drawn from an explicitly passed Rng.
 * The length draws follow each tool's own code (docs/definitions.md): bounds are inclusive
 * and computed with the tools' rounding, then lengths are uniform integers.
 */
import type { Rng } from '../rng/index.ts';

/** Every request the same length (the AIPerf/NIM replay, or vLLM with range ratio 0). */
export function fixedLengths(n: number, length: number): Int32Array {
  checkLength(length);
  return new Int32Array(n).fill(length);
}

/**
 * Upstream `vllm bench serve` random dataset (`get_sampling_params`):
 * [floor(L(1−r)), ceil(L(1+r))], inclusive, 0 ≤ r < 1. vLLM floors output lengths at 1;
 * we floor input lengths at 1 too, since the server needs a prompt of at least one token.
 * (vLLM first subtracts the tokenizer's special tokens from L; pass the reduced L if you
 * model that.)
 */
export function vllmRangeBounds(length: number, ratio: number): [number, number] {
  checkLength(length);
  if (!(ratio >= 0 && ratio < 1)) throw new RangeError(`invalid vLLM range ratio: ${ratio} (must be in [0, 1))`);
  const lo = Math.max(Math.floor(length * (1 - ratio)), 1);
  const hi = Math.max(Math.ceil(length * (1 + ratio)), 1);
  return [lo, hi];
}

/**
 * SemiAnalysis InferenceX (`sample_random_requests`): [int(L·r), L], inclusive.
 * With r = 0.8 and L = 1024 that is [819, 1024] (mean 921.5). A lower bound of 0
 * (r < 1/L) would draw empty requests, which the server cannot serve: rejected.
 */
export function inferencexBounds(length: number, ratio: number): [number, number] {
  checkLength(length);
  if (!(ratio >= 0 && ratio <= 1)) throw new RangeError(`invalid InferenceX range ratio: ${ratio} (must be in [0, 1])`);
  const lo = Math.trunc(length * ratio);
  if (lo < 1) {
    throw new RangeError(`InferenceX range ratio ${ratio} with length ${length} can draw 0-token requests; use a ratio ≥ ${1 / length}`);
  }
  return [lo, length];
}

/** SGLang (`compute_random_lens`): [max(int(L·r), 1), L], inclusive; r = 0 gives uniform on [1, L]. */
export function sglangBounds(length: number, ratio: number): [number, number] {
  checkLength(length);
  if (!(ratio >= 0 && ratio <= 1)) throw new RangeError(`invalid SGLang range ratio: ${ratio} (must be in [0, 1])`);
  return [Math.max(Math.trunc(length * ratio), 1), length];
}

export function vllmRangeLengths(rng: Rng, n: number, length: number, ratio: number): Int32Array {
  return uniformInts(rng, n, vllmRangeBounds(length, ratio));
}

export function inferencexLengths(rng: Rng, n: number, length: number, ratio: number): Int32Array {
  return uniformInts(rng, n, inferencexBounds(length, ratio));
}

export function sglangLengths(rng: Rng, n: number, length: number, ratio: number): Int32Array {
  return uniformInts(rng, n, sglangBounds(length, ratio));
}

/**
 * Poisson arrivals at `rate` requests/s: exponential gaps, times = cumulative sums, so the
 * first request arrives after one gap (as the reference's `poisson_times`). No rescaling
 * (vLLM rescales so the last arrival lands at n/rate; model that separately if needed).
 */
export function poissonTimes(rng: Rng, n: number, rate: number): Float64Array {
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`invalid arrival rate: ${rate} (must be > 0 and finite)`);
  const times = new Float64Array(n);
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += rng.exponential(rate);
    times[i] = t;
  }
  return times;
}

function uniformInts(rng: Rng, n: number, [lo, hi]: [number, number]): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(lo, hi);
  return out;
}

function checkLength(length: number): void {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`invalid length: ${length} (must be an integer ≥ 1)`);
}
