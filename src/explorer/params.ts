/**
 * The explorer's configuration: one flat record of everything a reader sets,
 * its defaults (the simulated server's own constants), its limits, the URL
 * form a shared link carries, and the validation that puts a message beside
 * each field. Pure: runs in the page, in the worker and in Node tests.
 */
import { defaultServerConfig, inferencexBounds, peakBlocks, vllmRangeBounds } from '../sim/index.ts';

export type ClientKind = 'closed' | 'open' | 'capped';
export type LengthKind = 'fixed' | 'vllm' | 'inferencex';

export interface Params {
  client: ClientKind;
  /** Closed loop: requests kept in flight. */
  slots: number;
  /** Open and capped: Poisson rate, req/s; Infinity sends every request at t = 0. */
  rate: number;
  /** Capped: client-side semaphore size. */
  cap: number;
  lengths: LengthKind;
  isl: number;
  osl: number;
  /** Range ratio (vLLM: [L(1−r), L(1+r)]; InferenceX: [rL, L]); unused for fixed lengths. */
  ratio: number;
  requests: number;
  /** Requests at the start excluded from the statistics. */
  warmup: number;
  /** Requests at the end excluded from the statistics. */
  cooldown: number;
  seed: number;
  /**
   * Random stream label. Empty: lengths and arrivals are forked from createRng(seed) as
   * `isl`, `osl`, `arrivals`; otherwise from createRng(seed).fork(stream) (the experiments
   * that share one seed across runs label each run's stream, e.g. `capped-4000`).
   */
  stream: string;
  tokenBudget: number;
  kvCapacityTokens: number;
  maxNumSeqs: number;
  etaCompute: number;
  etaMemory: number;
  stepOverheadMs: number;
  /** LLMPerf's Llama 2 ÷ model token ratio. */
  inflation: number;
}

export type Key = keyof Params;

export const BLOCK_SIZE = defaultServerConfig().blockSize;

/** Defaults: the first wave's run on the article's server; `inflation` is filled in by the page. */
export function defaultParams(inflation = 1): Params {
  const cfg = defaultServerConfig();
  return {
    client: 'closed',
    slots: 64,
    rate: 10,
    cap: 64,
    lengths: 'inferencex',
    isl: 1024,
    osl: 1024,
    ratio: 0.8,
    requests: 640,
    warmup: 0,
    cooldown: 0,
    seed: 1,
    stream: '',
    tokenBudget: cfg.tokenBudget,
    kvCapacityTokens: cfg.kvCapacityTokens,
    maxNumSeqs: cfg.maxNumSeqs,
    etaCompute: cfg.hw.etaCompute,
    etaMemory: cfg.hw.etaMemory,
    stepOverheadMs: cfg.hw.stepOverheadS * 1000,
    inflation,
  };
}

/** Limits. A run above MAX_REQUESTS, or above MAX_TOKENS of work, is refused. */
export const LIMITS = {
  slots: [1, 4096],
  cap: [1, 4096],
  rate: [0, 100_000],
  isl: [1, 131_072],
  osl: [1, 131_072],
  requests: [1, 500_000],
  seed: [0, 0xffffffff],
  tokenBudget: [1, 1_048_576],
  kvCapacityTokens: [BLOCK_SIZE, 100_000_000],
  maxNumSeqs: [1, 4096],
  stepOverheadMs: [0, 1000],
  inflation: [0, 10],
} as const;
/** Tokens a run may compute at most (prompt + output over all requests, at the longest lengths the draw allows). */
export const MAX_TOKENS = 60_000_000;
/** Output tokens up to which the per-token definitions are computed (they need every token's time: 8 bytes each). */
export const MAX_RECORDED_TOKENS = 8_000_000;

export const fmtInt = (v: number): string => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Which fields a configuration reads (the others are hidden and left out of its URL). */
export function activeKeys(p: Pick<Params, 'client' | 'lengths'>): Key[] {
  const keys: Key[] = ['client'];
  if (p.client === 'closed') keys.push('slots');
  else keys.push('rate');
  if (p.client === 'capped') keys.push('cap');
  keys.push('lengths', 'isl', 'osl');
  if (p.lengths !== 'fixed') keys.push('ratio');
  keys.push('requests', 'warmup', 'cooldown', 'seed', 'stream');
  keys.push('tokenBudget', 'kvCapacityTokens', 'maxNumSeqs', 'etaCompute', 'etaMemory', 'stepOverheadMs', 'inflation');
  return keys;
}

const STRING_KEYS = new Set<Key>(['client', 'lengths', 'stream']);

/** A field's value as text (inputs and URLs): `inf` for an infinite rate, shortest round-trip form for numbers. */
export function valueText(k: Key, v: unknown): string {
  if (STRING_KEYS.has(k)) return String(v);
  const n = v as number;
  if (n === Infinity) return 'inf';
  return String(n);
}

/** Parses a field's text; NaN for anything that is not a number (validation then names the field). */
export function parseValue(k: Key, text: string): Params[Key] {
  if (STRING_KEYS.has(k)) return text.trim();
  const t = text.trim().replace(/[,_\s]/g, '');
  if (k === 'rate' && /^(inf|infinity|∞)$/i.test(t)) return Infinity;
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return NaN;
  return Number(t);
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
  for (const k of Object.keys(defaults) as Key[]) {
    const v = q.get(k);
    if (v === null) continue;
    (p as unknown as Record<string, unknown>)[k] = parseValue(k, v);
    found = true;
  }
  return { params: p, found };
}

export type Problems = Partial<Record<Key, string>>;

const isInt = (v: number) => Number.isInteger(v);

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
  const intIn = (k: Key, lo: number, hi: number, what: string) => {
    const v = p[k] as number;
    if (!active.has(k) || out[k]) return;
    if (!(Number.isFinite(v) && isInt(v) && v >= lo && v <= hi)) out[k] = `${what} must be an integer from ${fmtInt(lo)} to ${fmtInt(hi)}`;
  };
  if (!['closed', 'open', 'capped'].includes(p.client)) out.client = 'choose a closed loop, open arrivals or arrivals behind a cap';
  if (!['fixed', 'vllm', 'inferencex'].includes(p.lengths)) out.lengths = 'choose fixed, upstream vLLM range or InferenceX range';
  intIn('slots', ...LIMITS.slots, 'slots');
  intIn('cap', ...LIMITS.cap, 'the cap');
  if (active.has('rate') && !(p.rate === Infinity || (Number.isFinite(p.rate) && p.rate > LIMITS.rate[0] && p.rate <= LIMITS.rate[1]))) {
    out.rate = `the rate must be above 0 and at most ${fmtInt(LIMITS.rate[1])} requests per second, or inf (every request at once)`;
  }
  intIn('isl', ...LIMITS.isl, 'the input length');
  intIn('osl', ...LIMITS.osl, 'the output length');
  if (active.has('ratio') && !out.isl && !out.osl) {
    if (!Number.isFinite(p.ratio)) out.ratio = 'the range ratio must be a number';
    else {
      for (const w of ['isl', 'osl'] as const) {
        const b = lengthBounds(p, w);
        if (typeof b === 'string' && !out.ratio) out.ratio = b;
      }
    }
  }
  if (!(Number.isFinite(p.requests) && isInt(p.requests) && p.requests >= 1)) out.requests = `requests must be an integer from 1 to ${fmtInt(LIMITS.requests[1])}`;
  else if (p.requests > LIMITS.requests[1]) {
    out.requests = `runs above ${fmtInt(LIMITS.requests[1])} requests are refused: they take too long and too much memory in a browser tab`;
  }
  const n = p.requests;
  if (!(Number.isFinite(p.warmup) && isInt(p.warmup) && p.warmup >= 0)) out.warmup = 'warmup must be an integer ≥ 0';
  else if (!out.requests && p.warmup >= n) out.warmup = `warmup must leave at least one request: at most ${fmtInt(n - 1)}`;
  if (!(Number.isFinite(p.cooldown) && isInt(p.cooldown) && p.cooldown >= 0)) out.cooldown = 'cooldown must be an integer ≥ 0';
  else if (!out.requests && !out.warmup && p.warmup + p.cooldown >= n) {
    out.cooldown = `warmup + cooldown must leave at least one request: at most ${fmtInt(n - 1 - p.warmup)}`;
  }
  intIn('seed', ...LIMITS.seed, 'the seed');
  if (!/^[A-Za-z0-9._-]{0,64}$/.test(p.stream)) out.stream = 'the stream label may hold letters, digits, dots, dashes and underscores (64 at most)';
  intIn('tokenBudget', ...LIMITS.tokenBudget, 'the token budget');
  intIn('kvCapacityTokens', ...LIMITS.kvCapacityTokens, 'the KV pool');
  intIn('maxNumSeqs', ...LIMITS.maxNumSeqs, 'max sequences');
  for (const [k, what] of [['etaCompute', 'compute efficiency'], ['etaMemory', 'bandwidth efficiency']] as const) {
    if (!(Number.isFinite(p[k]) && p[k] > 0 && p[k] <= 1)) out[k] = `${what} must be a fraction above 0 and at most 1`;
  }
  if (!(Number.isFinite(p.stepOverheadMs) && p.stepOverheadMs >= LIMITS.stepOverheadMs[0] && p.stepOverheadMs <= LIMITS.stepOverheadMs[1])) {
    out.stepOverheadMs = `step overhead must be from 0 to ${fmtInt(LIMITS.stepOverheadMs[1])} ms`;
  }
  if (!(Number.isFinite(p.inflation) && p.inflation > LIMITS.inflation[0] && p.inflation <= LIMITS.inflation[1])) {
    out.inflation = `the Llama 2 factor must be above 0 and at most ${fmtInt(LIMITS.inflation[1])}`;
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

/** Maps an error thrown by the simulator or the draws (RangeErrors name their field) to the field it concerns. */
export function fieldOfError(message: string): Key | null {
  const rules: [RegExp, Key][] = [
    [/kvCapacityTokens|KV blocks/, 'kvCapacityTokens'],
    [/tokenBudget/, 'tokenBudget'],
    [/maxNumSeqs/, 'maxNumSeqs'],
    [/etaCompute/, 'etaCompute'],
    [/etaMemory/, 'etaMemory'],
    [/stepOverhead/, 'stepOverheadMs'],
    [/client\.slots/, 'slots'],
    [/client\.cap/, 'cap'],
    [/arrival rate|client\.times/, 'rate'],
    [/range ratio/, 'ratio'],
    [/workload\.isl/, 'isl'],
    [/workload\.osl/, 'osl'],
    [/invalid length/, 'isl'],
    [/seed/, 'seed'],
  ];
  for (const [re, k] of rules) if (re.test(message)) return k;
  return null;
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
