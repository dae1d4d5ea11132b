/**
 * Quantities given on the command line, with optional units. Each parser
 * names the flag and the accepted units when it refuses a value.
 */
import { UserError } from '../errors.ts';

function split(flag: string, raw: string): { x: number; unit: string } {
  const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-zµ/%]*)\s*$/i.exec(raw);
  if (!m) throw new UserError(`${flag} ${JSON.stringify(raw)} is not a number (with an optional unit)`);
  const x = Number(m[1]);
  if (!Number.isFinite(x)) throw new UserError(`${flag} ${raw}: too large to be a number (above 1.8e308); check the value and its unit`);
  return { x, unit: m[2].toLowerCase() };
}

function scaled(flag: string, raw: string, units: Record<string, number>, what: string): number {
  const { x, unit } = split(flag, raw);
  const scale = units[unit];
  if (scale === undefined) {
    const names = Object.keys(units).filter((u) => u !== '');
    throw new UserError(`${flag} ${raw}: unknown unit "${unit}" for ${what}; use ${names.join(', ')}`);
  }
  if (!(x > 0)) throw new UserError(`${flag} ${raw}: ${what} must be > 0`);
  const v = x * scale;
  if (!Number.isFinite(v)) throw new UserError(`${flag} ${raw}: too large to be a number once scaled by its unit; check the value and its unit`);
  if (!(v >= Number.MIN_VALUE * 2 ** 52)) throw new UserError(`${flag} ${raw}: too small to compute with (it rounds to 0); check the value and its unit`);
  return v;
}

/** Seconds; a bare number is seconds. */
export function parseDuration(flag: string, raw: string): number {
  return scaled(flag, raw, { '': 1, s: 1, sec: 1, ms: 1e-3, us: 1e-6, 'µs': 1e-6, min: 60, h: 3600 }, 'a time');
}

/** Requests per second; a bare number is req/s. */
export function parseRate(flag: string, raw: string): number {
  return scaled(flag, raw, { '': 1, '/s': 1, 'req/s': 1, rps: 1, '/min': 1 / 60, 'req/min': 1 / 60, '/h': 1 / 3600 }, 'a request rate');
}

/** Tokens per second; a bare number is tok/s; `k` suffix allowed (10.7k). */
export function parseTokensPerSecond(flag: string, raw: string): number {
  return scaled(flag, raw, { '': 1, 'tok/s': 1, 'tokens/s': 1, k: 1e3, 'ktok/s': 1e3 }, 'a token rate');
}

/** A plain positive number (concurrency: a time average may be fractional); `k`, `m`, `b` suffixes. */
export function parseCount(flag: string, raw: string): number {
  return scaled(flag, raw, { '': 1, k: 1e3, m: 1e6, b: 1e9 }, 'a count');
}

/**
 * A whole number of things (GPUs, parameters, tokens) from 1 to `max`; `k`, `m`, `b` suffixes
 * (8.03b is 8,030,000,000). `max` is the largest plausible value, named in the message
 * with its reason, so that a slip of the exponent is caught rather than computed with.
 */
export function parseWhole(flag: string, raw: string, max: number, why: string): number {
  const scaledCount = parseCount(flag, raw);
  // 8.03 × 1e9 is 8,029,999,999.999999 in binary floating point: a suffix must not make a whole count fractional.
  const near = Math.round(scaledCount);
  const v = Math.abs(scaledCount - near) <= 1e-12 * scaledCount ? near : scaledCount;
  if (!Number.isInteger(v)) throw new UserError(`${flag} ${raw}: must be a whole number (it counts ${why.split(';')[0]})`);
  if (v > max) throw new UserError(`${flag} ${raw}: above ${max.toLocaleString('en-US')}, the most this check accepts (${why}); check the value`);
  return v;
}

/** The plausible ranges of the whole-number flags, with the reason for each bound. */
export const WHOLE_LIMITS = {
  gpus: [100_000, 'GPUs; no replica of one model spans more'],
  params: [1e15, 'parameters; a thousand times the largest published dense model'],
  context: [1e9, 'tokens of context per user; far beyond any served model'],
} as const satisfies Record<string, readonly [number, string]>;

/** Bytes per second; a bare number is TB/s (the datasheet unit). */
export function parseBandwidth(flag: string, raw: string): number {
  const { unit, x } = split(flag, raw);
  if (unit === '' && x > 100) {
    throw new UserError(`${flag} ${raw}: a bare number is read as TB/s and ${x} TB/s is implausible for one GPU; give a unit (3.35TB/s, 3350GB/s)`);
  }
  return scaled(flag, raw, { '': 1e12, 'tb/s': 1e12, 'gb/s': 1e9, 'b/s': 1, 'tib/s': 2 ** 40, 'gib/s': 2 ** 30 }, 'a bandwidth');
}

/** Bytes; a bare number is GB. */
export function parseBytes(flag: string, raw: string): number {
  const { unit, x } = split(flag, raw);
  if (unit === '' && x > 1e5) {
    throw new UserError(`${flag} ${raw}: a bare number is read as GB and ${x} GB is implausible for model weights; give a unit (15.0GB, 15009849344B)`);
  }
  return scaled(flag, raw, { '': 1e9, gb: 1e9, b: 1, kb: 1e3, mb: 1e6, tb: 1e12, gib: 2 ** 30, mib: 2 ** 20 }, 'a size');
}

/** FLOP/s; a bare number is TFLOP/s. */
export function parseFlops(flag: string, raw: string): number {
  return scaled(flag, raw, { '': 1e12, 'tflop/s': 1e12, 'pflop/s': 1e15, 'flop/s': 1, tflops: 1e12, pflops: 1e15 }, 'a compute peak');
}

/** A fraction in [0, 1) given as 0.1 or 10%. */
export function parseFraction(flag: string, raw: string): number {
  const { x, unit } = split(flag, raw);
  const v = unit === '%' ? x / 100 : unit === '' ? x : NaN;
  if (!(v >= 0 && v < 1)) throw new UserError(`${flag} ${raw}: give a fraction in [0, 1) such as 0.1 or 10%`);
  return v;
}

/** Bytes per token of KV cache; a bare number is bytes (131072 for Llama 3.1 8B BF16). */
export function parseKvBytes(flag: string, raw: string): number {
  return scaled(flag, raw, { '': 1, b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 2 ** 20 }, 'bytes per token');
}
