/**
 * The kinds of qualitative statement prose makes about numbers, one typed
 * helper each. A predicate names the number ids it reads and, given their
 * values, says whether it holds and by how much: `slack` is how far the
 * numbers are from flipping it, in the claim's own terms (a relative gap for
 * an order, points of tolerance for "within", the tightest element for "every"),
 * positive when it holds and negative when it fails; `margin` says the same in
 * words for the dossier and the tooltip.
 *
 * Literal bounds in a predicate (the 1 of "at least 1 collapsed", the range
 * that counts as "about 2×") are the claim's definition, not results: they say
 * what the words mean, and they live here rather than in the prose.
 */
import { formatGap, formatMargin } from '../format/text.ts';
import { fisherExact } from '../stats/proportion.ts';

export type Values = Readonly<Record<string, number>>;

export interface Outcome {
  holds: boolean;
  /** Distance to flipping in the claim's terms; ≥ 0 when it holds. */
  slack: number;
  /** The margin in words: what it is and what would flip it. */
  margin: string;
}

export interface Predicate {
  kind: string;
  /** Number ids read, in the order the claim names them. */
  ids: readonly string[];
  test(v: Values): Outcome;
}


/** Relative gap of a over b: 0.2 when a is 20% above b. */
function rel(a: number, b: number): number {
  if (b === 0) return a === 0 ? 0 : Math.sign(a) * Infinity;
  return (a - b) / Math.abs(b);
}

/** a > b: margin is how far a is above b, relative to b. */
export function greater(a: string, b: string): Predicate {
  return {
    kind: 'greater',
    ids: [a, b],
    test: (v) => {
      const g = rel(v[a], v[b]);
      return { holds: v[a] > v[b], slack: g, margin: g > 0 ? `${formatGap(g)} above; flips if the gap closes` : `${formatGap(g)} below` };
    },
  };
}

/** a < b: margin is how far a is below b, relative to b. */
export function less(a: string, b: string): Predicate {
  return {
    kind: 'less',
    ids: [a, b],
    test: (v) => {
      const g = -rel(v[a], v[b]);
      return { holds: v[a] < v[b], slack: g, margin: g > 0 ? `${formatGap(g)} below; flips if the gap closes` : `${formatGap(g)} above` };
    },
  };
}

/**
 * Distance of x from a literal bound: relative to the bound, or, for a bound
 * of zero (a sign: "more", "dearer", "does not rise"), in the number's own unit.
 */
function fromBound(x: number, limit: number, side: 'above' | 'below'): { slack: number; margin: string } {
  const d = side === 'above' ? x - limit : limit - x;
  const where = d >= 0 ? side : side === 'above' ? 'below' : 'above';
  if (limit === 0) return { slack: d, margin: `${formatMargin(Math.abs(d))} ${where} zero` };
  const g = d / Math.abs(limit);
  return { slack: g, margin: `${formatGap(g)} ${where} the bound ${formatMargin(limit)}` };
}

/** a > limit, a literal bound in the number's unit (what "above" means here). */
export function above(a: string, limit: number): Predicate {
  return { kind: `above ${formatMargin(limit)}`, ids: [a], test: (v) => ({ holds: v[a] > limit, ...fromBound(v[a], limit, 'above') }) };
}

/** a < limit, a literal bound in the number's unit. */
export function below(a: string, limit: number): Predicate {
  return { kind: `below ${formatMargin(limit)}`, ids: [a], test: (v) => ({ holds: v[a] < limit, ...fromBound(v[a], limit, 'below') }) };
}

/** a ≥ k for a count (k of n collapsed, none collapsed: `atMost(x, 0)`). Margin in whole counts. */
export function atLeast(a: string, k: number): Predicate {
  return {
    kind: 'atLeast',
    ids: [a],
    test: (v) => ({ holds: v[a] >= k, slack: v[a] - k, margin: `${formatMargin(v[a])} against at least ${formatMargin(k)}` }),
  };
}

export function atMost(a: string, k: number): Predicate {
  return {
    kind: 'atMost',
    ids: [a],
    test: (v) => ({ holds: v[a] <= k, slack: k - v[a], margin: `${formatMargin(v[a])} against at most ${formatMargin(k)}` }),
  };
}

/** lo ≤ a ≤ hi, literal bounds: margin is the distance to the nearer end, relative to it. */
export function between(a: string, lo: number, hi: number): Predicate {
  if (!(lo < hi)) throw new Error(`between(${a}): lo ${lo} must be below hi ${hi}`);
  return {
    kind: 'between',
    ids: [a],
    test: (v) => {
      const x = v[a];
      const toLo = rel(x, lo);
      const toHi = -rel(x, hi);
      const slack = Math.min(toLo, toHi);
      const end = toLo <= toHi ? `the lower end ${formatMargin(lo)}` : `the upper end ${formatMargin(hi)}`;
      return { holds: x >= lo && x <= hi, slack, margin: `${formatGap(slack)} ${slack >= 0 ? 'inside' : 'outside'} ${end}` };
    },
  };
}

/**
 * "About T": the range [lo, hi] is what this claim accepts as "about", stated
 * with the claim so a reader can see it; a plain between() otherwise.
 */
export function about(a: string, target: number, range: readonly [number, number]): Predicate {
  if (!(range[0] <= target && target <= range[1])) throw new Error(`about(${a}): target ${target} outside its range`);
  const p = between(a, range[0], range[1]);
  return { ...p, kind: `about ${formatMargin(target)} (${formatMargin(range[0])}–${formatMargin(range[1])})` };
}

/** |a/b − 1| ≤ tol: agreement within a relative tolerance; margin in points of tolerance left. */
export function within(a: string, b: string, tol: number): Predicate {
  return {
    kind: `within ${formatGap(tol)}`,
    ids: [a, b],
    test: (v) => {
      const d = Math.abs(rel(v[a], v[b]));
      return { holds: d <= tol, slack: tol - d, margin: `differ by ${formatGap(d)} against ${formatGap(tol)} allowed` };
    },
  };
}

/** A series that rises (or falls) strictly at every step; margin is the smallest step, relative. */
export function monotone(ids: readonly string[], direction: 'rising' | 'falling'): Predicate {
  if (ids.length < 2) throw new Error('monotone() needs at least two ids');
  return {
    kind: direction,
    ids,
    test: (v) => {
      let worst = Infinity;
      let at = 0;
      for (let i = 1; i < ids.length; i++) {
        const step = direction === 'rising' ? rel(v[ids[i]], v[ids[i - 1]]) : -rel(v[ids[i]], v[ids[i - 1]]);
        if (step < worst) [worst, at] = [step, i];
      }
      return {
        holds: worst > 0,
        slack: worst,
        margin: `smallest step ${worst > 0 ? '' : 'against the direction '}${formatGap(worst)}, between ${ids[at - 1]} and ${ids[at]}`,
      };
    },
  };
}

/** Every part holds ("at every size"): the margin is the tightest part's, named. */
export function every(parts: readonly Predicate[], label = 'every'): Predicate {
  if (parts.length === 0) throw new Error('every() needs at least one part');
  return {
    kind: `${label}: ${[...new Set(parts.map((p) => p.kind))].join(', ')}`,
    ids: [...new Set(parts.flatMap((p) => p.ids))],
    test: (v) => {
      const outs = parts.map((p) => p.test(v));
      const failing = outs.filter((o) => !o.holds).length;
      let i = 0;
      outs.forEach((o, j) => {
        if (o.slack < outs[i].slack) i = j;
      });
      const where = parts[i].ids.join(' vs ');
      return {
        holds: failing === 0,
        slack: outs[i].slack,
        margin: failing === 0 ? `tightest (${where}): ${outs[i].margin}` : `${failing} of ${parts.length} fail; worst (${where}): ${outs[i].margin}`,
      };
    },
  };
}

/** At least k of the parts hold ("most sizes", "k of n"); margin in parts to spare. */
export function kOfN(parts: readonly Predicate[], k: number): Predicate {
  return {
    kind: `at least ${k} of ${parts.length}: ${parts[0]?.kind ?? ''}`,
    ids: [...new Set(parts.flatMap((p) => p.ids))],
    test: (v) => {
      const n = parts.filter((p) => p.test(v).holds).length;
      return { holds: n >= k, slack: n - k, margin: `${n} of ${parts.length} hold, ${k} needed` };
    },
  };
}

/** lo ≤ a/b ≤ hi ("doubles": [1.7, 2.5]); margin relative to the nearer end. */
export function ratioBetween(a: string, b: string, lo: number, hi: number): Predicate {
  if (!(lo < hi)) throw new Error(`ratioBetween(${a}, ${b}): lo ${lo} must be below hi ${hi}`);
  return {
    kind: `ratio in ${formatMargin(lo)}–${formatMargin(hi)}`,
    ids: [a, b],
    test: (v) => {
      const r = v[a] / v[b];
      const slack = Math.min(rel(r, lo), -rel(r, hi));
      return { holds: r >= lo && r <= hi, slack, margin: `ratio ${formatMargin(r)}, ${formatGap(slack)} ${slack >= 0 ? 'inside' : 'outside'} ${formatMargin(lo)}–${formatMargin(hi)}` };
    },
  };
}

/** a/b ≥ k ("more than twice as late"); margin relative to k. */
export function ratioAtLeast(a: string, b: string, k: number): Predicate {
  if (!(k > 0)) throw new Error(`ratioAtLeast(${a}, ${b}): k ${k} must be positive`);
  return {
    kind: `ratio at least ${formatMargin(k)}`,
    ids: [a, b],
    test: (v) => {
      const r = v[a] / v[b];
      const slack = rel(r, k);
      return { holds: r >= k, slack, margin: `ratio ${formatMargin(r)}, ${formatGap(slack)} ${slack >= 0 ? 'above' : 'below'} ${formatMargin(k)}` };
    },
  };
}

/** The values of `tight` span a smaller max/min ratio than those of `loose` ("agree closely here, scatter there"). */
export function narrower(tight: readonly string[], loose: readonly string[]): Predicate {
  const span = (ids: readonly string[], v: Values) => Math.max(...ids.map((i) => v[i])) / Math.min(...ids.map((i) => v[i]));
  return {
    kind: 'narrower spread',
    ids: [...tight, ...loose],
    test: (v) => {
      const t = span(tight, v);
      const l = span(loose, v);
      const slack = rel(l - 1, t - 1);
      return { holds: t < l, slack, margin: `max/min ${formatMargin(t)} against ${formatMargin(l)}` };
    },
  };
}

/**
 * k of n runs (two ids) and a literal count k2 of n2 (the original article's)
 * are the same share as far as Fisher's exact test can tell: two-sided p at
 * least alpha. The margin is the p-value; the slack is p − alpha.
 */
export function sameShare(k: string, n: string, k2: number, n2: number, alpha = 0.05): Predicate {
  return {
    kind: `same share as ${formatMargin(k2)} of ${formatMargin(n2)} (Fisher’s exact test, α ${formatMargin(alpha)})`,
    ids: [k, n],
    test: (v) => {
      const count = Number.isInteger(v[k]) && Number.isInteger(v[n]) && v[n] >= 1 && v[k] >= 0 && v[k] <= v[n];
      if (!count) return { holds: false, slack: -alpha, margin: `${formatMargin(v[k])} of ${formatMargin(v[n])} is not a count of runs` };
      const p = fisherExact(v[k], v[n], k2, n2);
      return { holds: p >= alpha, slack: p - alpha, margin: `p = ${formatMargin(p)} against α = ${formatMargin(alpha)}` };
    },
  };
}
