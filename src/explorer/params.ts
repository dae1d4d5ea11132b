/**
 * The explorer's configuration: one flat record of everything a reader sets, and
 * what derives from the fields' own records (fields.ts): the defaults, the URL form a
 * shared link carries, and the validation that puts a message beside each field, plus
 * the rules that join several fields (the pool must hold the longest request, the run
 * must fit the work and time bounds). Pure: runs in the page, in the worker and in Node tests.
 */
import { inferencexBounds, peakBlocks, vllmRangeBounds } from '../sim/index.ts';
import { BLOCK_SIZE, FIELD, FIELDS, fieldProblem, fmtInt, type Key, type Params } from './fields.ts';

export { BLOCK_SIZE, fmtInt, type ClientKind, type Key, type LengthKind, type Params } from './fields.ts';

/** Defaults: the first wave's run on the article's server; `inflation` is filled in by the page. */
export function defaultParams(inflation = 1): Params {
  return Object.fromEntries(FIELDS.map((f) => [f.key, f.initial(inflation)])) as unknown as Params;
}

/** Tokens a run may compute at most (prompt + output over all requests, at the longest lengths the draw allows). */
export const MAX_TOKENS = 60_000_000;
/**
 * Output tokens up to which the per-token definitions are computed: they need every token's time, 8 bytes each in
 * the simulator's record (the requests' records view it, src/tools/sim/from-sim.ts), about 64 MB at the limit
 * before what the definitions derive from them. Held on the tokens the drawn lengths emit (run.ts,
 * drawnOutputTokens), known exactly before the simulator starts.
 */
export const MAX_RECORDED_TOKENS = 8_000_000;
/**
 * Seconds the arrivals of an open or capped run may span (requests ÷ rate), about four months.
 * Times are doubles: at 10^7 s two neighbouring times are 2·10^-9 s apart, so a TTFT of a
 * millisecond keeps six digits; the gap grows with the clock until, near 10^13 s, a step of a
 * few milliseconds rounds away. At a rate of 10^-20 req/s (10^20 s) no step moves the clock,
 * and every TTFT read 0 ms.
 */
export const MAX_SPAN_S = 1e7;

/** Which fields a configuration reads (the others are hidden and left out of its URL). */
export function activeKeys(p: Pick<Params, 'client' | 'lengths'>): Key[] {
  return FIELDS.filter((f) => !f.active || f.active(p as Params)).map((f) => f.key);
}

/** A field's value as text (inputs and URLs): `inf` for an infinite rate, shortest round-trip form for numbers. */
export function valueText(k: Key, v: unknown): string {
  if (FIELD[k].kind !== 'number') return String(v);
  const n = v as number;
  if (n === Infinity) return 'inf';
  return String(n);
}

/** Parses a field's text; NaN for anything that is not a number (validation then names the field). */
export function parseValue(k: Key, text: string): Params[Key] {
  const f = FIELD[k];
  if (f.kind !== 'number') return text.trim();
  const t = text.trim().replace(/[,_\s]/g, '');
  if (f.infinite && /^(inf|infinity|∞)$/i.test(t)) return Infinity;
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return NaN;
  // A numeral beyond a double (1e309) is not infinity: only `inf` says that, so it is refused like any other bad value.
  const x = Number(t);
  return Number.isFinite(x) ? x : NaN;
}

/** The URL query of a configuration (active fields only, in a fixed order). */
export function toQuery(p: Params): string {
  const q = new URLSearchParams();
  for (const k of activeKeys(p)) q.set(k, valueText(k, p[k]));
  return q.toString();
}

/** Reads a configuration from a query (or hash) string; missing or unknown keys keep the defaults. */
export function fromQuery(query: string, defaults: Params): { params: Params; found: boolean } {
  const q = new URLSearchParams(query.replace(/^[?#]/, ''));
  const p: Params = { ...defaults };
  let found = false;
  for (const f of FIELDS) {
    const v = q.get(f.key);
    if (v === null) continue;
    (p as unknown as Record<string, unknown>)[f.key] = parseValue(f.key, v);
    found = true;
  }
  return { params: p, found };
}

export type Problems = Partial<Record<Key, string>>;

/** Length bounds [lo, hi] the workload can draw, or the draw function's own error message. */
export function lengthBounds(p: Params, which: 'isl' | 'osl'): [number, number] | string {
  const L = p[which];
  try {
    if (p.lengths === 'fixed') return [L, L];
    if (p.lengths === 'vllm') return vllmRangeBounds(L, p.ratio);
    return inferencexBounds(L, p.ratio);
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Every problem with a configuration, one message per field, worded for the
 * reader. An empty record means the run may start.
 */
export function validate(p: Params): Problems {
  const out: Problems = {};
  const active = new Set(activeKeys(p));
  for (const f of FIELDS) {
    if (!active.has(f.key)) continue;
    const problem = fieldProblem(f, p[f.key]);
    if (problem) out[f.key] = problem;
  }
  // Rules between fields.
  if (active.has('ratio') && !out.ratio && !out.isl && !out.osl) {
    for (const w of ['isl', 'osl'] as const) {
      const b = lengthBounds(p, w);
      if (typeof b === 'string' && !out.ratio) out.ratio = b;
    }
  }
  const n = p.requests;
  if (!out.requests && !out.warmup && p.warmup >= n) out.warmup = `warmup must leave at least one request: at most ${fmtInt(n - 1)}`;
  if (!out.requests && !out.warmup && !out.cooldown && p.warmup + p.cooldown >= n) {
    out.cooldown = `warmup + cooldown must leave at least one request: at most ${fmtInt(n - 1 - p.warmup)}`;
  }
  if (active.has('rate') && !out.rate && !out.requests && p.rate !== Infinity && n / p.rate > MAX_SPAN_S) {
    out.rate =
      `at ${fmtRate(p.rate)} req/s, ${fmtInt(n)} requests would arrive over about ${fmtSpan(n / p.rate)}; ` +
      `runs longer than ${fmtSpan(MAX_SPAN_S)} are refused (past that the clock loses the precision to time each step): give at least ${fmtRate(n / MAX_SPAN_S)} req/s or fewer requests`;
  }
  // Cross-field limits: the pool must hold the longest request; the run must fit the work bound.
  if (!out.isl && !out.osl && !out.ratio && !out.kvCapacityTokens && !out.requests) {
    const bi = lengthBounds(p, 'isl');
    const bo = lengthBounds(p, 'osl');
    if (typeof bi === 'string') out.isl = bi;
    else if (typeof bo === 'string') out.osl = bo;
    else {
      const need = peakBlocks(bi[1], bo[1], 0, BLOCK_SIZE);
      const blocks = Math.floor(p.kvCapacityTokens / BLOCK_SIZE);
      if (need > blocks) {
        out.kvCapacityTokens =
          `the pool holds ${fmtInt(blocks)} blocks of ${BLOCK_SIZE} tokens, but the longest request this workload can draw ` +
          `(input ${fmtInt(bi[1])}, output ${fmtInt(bo[1])}) needs ${fmtInt(need)}: raise it to at least ${fmtInt(need * BLOCK_SIZE)} tokens`;
      }
      const work = n * (bi[1] + bo[1]);
      if (work > MAX_TOKENS) {
        out.requests = `this run would compute up to ${fmtInt(work)} tokens; runs above ${fmtInt(MAX_TOKENS)} are refused (fewer requests or shorter lengths)`;
      }
    }
  }
  return out;
}

/**
 * Maps an error thrown by the simulator or the draws (RangeErrors name their field) to the field
 * it concerns. The server's fields are tried first: a KV-pool message also names the request's lengths.
 */
export function fieldOfError(message: string): Key | null {
  const order = [...FIELDS.filter((f) => f.group === 'server'), ...FIELDS.filter((f) => f.group !== 'server')];
  return order.find((f) => f.errors?.test(message))?.key ?? null;
}

/** A rate for messages: 3 significant digits, never exponent-free nonsense like 0.0000000000000000001. */
function fmtRate(r: number): string {
  return r >= 0.001 && r < 1e6 ? String(+r.toPrecision(3)) : r.toExponential(2);
}

/** A duration for messages, in the largest unit that keeps it ≥ 1. */
function fmtSpan(s: number): string {
  const units: [number, string][] = [[365.25 * 86400, 'years'], [86400, 'days'], [3600, 'hours'], [60, 'minutes'], [1, 's']];
  const [size, name] = units.find(([u]) => s >= u) ?? [1, 's'];
  const v = s / size;
  return `${v >= 1e6 ? v.toExponential(1) : fmtInt(Math.round(v))} ${name}`;
}

const num = (v: number) => (Number.isInteger(v) ? fmtInt(v) : String(+v.toPrecision(4)));

/** The arrivals clause of a configuration, e.g. `closed loop, 64 slots opened at t = 0`. */
export function arrivalsClause(p: Params): string {
  if (p.client === 'closed') return `closed loop, ${num(p.slots)} slots opened at t = 0`;
  const at = p.rate === Infinity ? 'every request at t = 0' : `Poisson at ${num(p.rate)} req/s`;
  return p.client === 'open' ? `open, ${at}` : `${at}, behind a client cap of ${num(p.cap)} in flight`;
}

/** The window clause: which requests the statistics keep. */
export function windowClause(p: Params): string {
  const a = p.warmup + 1;
  const b = p.requests - p.cooldown;
  if (p.warmup === 0 && p.cooldown === 0) return `whole run, ${fmtInt(p.requests)} requests`;
  const dropped = [p.warmup ? `first ${fmtInt(p.warmup)}` : '', p.cooldown ? `last ${fmtInt(p.cooldown)}` : ''].filter(Boolean).join(' and ');
  return `requests ${fmtInt(a)}–${fmtInt(b)} of ${fmtInt(p.requests)} (${dropped} excluded)`;
}

/** The prompts clause. */
export function lengthsClause(p: Params): string {
  const io = `${fmtInt(p.isl)} in / ${fmtInt(p.osl)} out`;
  if (p.lengths === 'fixed') return `fixed ${io}`;
  const b = [lengthBounds(p, 'isl'), lengthBounds(p, 'osl')];
  const range = b.every((x) => typeof x !== 'string')
    ? `: input in [${(b[0] as number[]).map(fmtInt).join(', ')}], output in [${(b[1] as number[]).map(fmtInt).join(', ')}]`
    : '';
  return `${p.lengths === 'vllm' ? 'upstream vLLM' : 'InferenceX'} range ratio ${num(p.ratio)} around ${io}${range}`;
}

/** One line that says what a configuration runs. */
export function describeParams(p: Params): string {
  const rng = p.lengths === 'fixed' && (p.client === 'closed' || p.rate === Infinity) ? '' : ` · seed ${p.seed}${p.stream ? ` (stream ${p.stream})` : ''}`;
  return `${arrivalsClause(p)} · ${lengthsClause(p)} · ${windowClause(p)}${rng}`;
}
