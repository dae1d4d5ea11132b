/**
 * Seeded, forkable random numbers. The generator is always passed explicitly
 * (never a global, never Math.random), so a seed fully determines a result.
 *
 * Core: xoshiro128** (Blackman & Vigna), 32-bit state words, seeded through
 * splitmix32. `fork(label)` derives an independent child stream from the
 * parent's seed and a label, so adding a draw in one job never shifts another.
 */

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a over a string: a stable 32-bit hash for deriving seeds from labels. */
export function hashLabel(label: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  readonly seed: number;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`invalid seed: ${seed} (an integer in [0, 2^32) is required)`);
    }
    this.seed = seed;
    const sm = splitmix32(seed);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
  }

  /** Next 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  random(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [lo, hi], both inclusive (unbiased, by rejection). */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`invalid integer range: [${lo}, ${hi}]`);
    }
    const span = hi - lo + 1;
    if (span > 0x100000000) throw new RangeError(`integer range too wide: [${lo}, ${hi}]`);
    const limit = Math.floor(0x100000000 / span) * span;
    let x: number;
    do x = this.nextUint32();
    while (x >= limit);
    return lo + (x % span);
  }

  /** Exponential with the given rate (mean 1/rate), by inversion. */
  exponential(rate: number): number {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`invalid rate: ${rate}`);
    return -Math.log1p(-this.random()) / rate;
  }

  /** An independent child stream, determined by this generator's seed and the label. */
  fork(label: string | number): Rng {
    return new Rng(hashLabel(String(label), hashLabel(String(this.seed))));
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

export function createRng(seed: number): Rng {
  return new Rng(seed);
}
