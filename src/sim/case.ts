/**
 * The golden-case file format (`llm-sim-golden/1`, described in test/fixtures/golden/README)
 * as input to `stopwatches simulate`, and the result in the shape of its `expected` block.
 *
 * Every check names the file, the field and the fix in one line, because the message
 * is all a user sees (the CLI prints it and exits with status 2). A field the format does
 * not have is an error, never ignored: a misspelt `cached` would silently run another workload.
 */
import { UserError } from '../errors.ts';
import { peakBlocks } from './index.ts';
import { CONSTANTS } from './constants.ts';
import { roofline, stepTimeOf } from './roofline.ts';
import type { ClientSpec, ServerConfig, SimResult, Workload } from './types.ts';

export const SCHEMA = 'llm-sim-golden/1';

/**
 * Every field of the format, by section. `expected` (the reference's answer) is carried but
 * never read, so its contents are not checked.
 */
export const CASE_FIELDS: Record<string, readonly string[]> = {
  '': ['schema', 'case', 'description', 'generator', 'config', 'client', 'workload', 'expected'],
  config: ['model', 'hw', 'kv_capacity_tokens', 'block_size', 'token_budget', 'max_num_seqs'],
  'config.model': [
    'name', 'layers', 'd_model', 'n_kv_heads', 'head_dim', 'total_params', 'vocab_size',
    'body_params', 'lm_head_params', 'streamed_weight_bytes', 'kv_bytes_per_token',
  ],
  'config.hw': ['peak_flops', 'eta_compute', 'hbm_bw', 'eta_memory', 'step_overhead_s'],
  client: ['kind', 'n_slots', 'times', 'cap'],
  workload: ['n', 'isl', 'osl', 'cached'],
};

/** The client fields each kind reads (besides `kind`). */
const CLIENT_FIELDS: Record<string, readonly string[]> = { closed: ['n_slots'], open: ['times'], capped: ['times', 'cap'] };

export interface SimCase {
  cfg: ServerConfig;
  workload: Workload;
  client: ClientSpec;
}

type Obj = Record<string, unknown>;

class Reader {
  constructor(private readonly file: string) {}

  fail(path: string, problem: string): never {
    throw new UserError(`${this.file}: ${path} ${problem}`);
  }

  obj(v: unknown, path: string): Obj {
    if (v === undefined) this.fail(path, 'is missing; add it (an object)');
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, `is ${describe(v)}; it must be an object`);
    return v as Obj;
  }

  /** An object whose every key is a field of its section (`section` is a key of CASE_FIELDS). */
  section(v: unknown, section: string): Obj {
    const o = this.obj(v, section || 'the file');
    const known = CASE_FIELDS[section];
    for (const key of Object.keys(o)) {
      if (!known.includes(key)) this.fail(section ? `${section}.${key}` : key, unknownFieldAdvice(section, key));
    }
    return o;
  }

  num(o: Obj, path: string, key: string, rule: 'positive' | 'nonneg' | 'fraction'): number {
    const v = o[key];
    const p = `${path}.${key}`;
    if (v === undefined) this.fail(p, 'is missing; add it (a number)');
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(p, `is ${describe(v)}; it must be a finite number`);
    if (rule === 'positive' && !(v > 0)) this.fail(p, `is ${v}; it must be > 0`);
    if (rule === 'nonneg' && !(v >= 0)) this.fail(p, `is ${v}; it must be ≥ 0`);
    if (rule === 'fraction' && !(v > 0 && v <= 1)) this.fail(p, `is ${v}; it must be in (0, 1]`);
    return v;
  }

  int(o: Obj, path: string, key: string, min: number): number {
    const v = o[key];
    const p = `${path}.${key}`;
    if (v === undefined) this.fail(p, `is missing; add it (an integer ≥ ${min})`);
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(p, `is ${describe(v)}; it must be an integer ≥ ${min}`);
    if (v < min) this.fail(p, `is ${v}; it must be ≥ ${min}`);
    if (v > Number.MAX_SAFE_INTEGER) this.fail(p, `is ${v}; it is too large`);
    return v;
  }

  optNum(o: Obj, path: string, key: string): number {
    return o[key] === undefined ? 0 : this.num(o, path, key, 'nonneg');
  }

  array(v: unknown, path: string, n: number): unknown[] {
    if (v === undefined) this.fail(path, `is missing; add it (an array of ${n} numbers)`);
    if (!Array.isArray(v)) this.fail(path, `is ${describe(v)}; it must be an array of ${n} numbers`);
    if (v.length !== n) this.fail(path, `has ${v.length} entries but workload.n is ${n}; give one per request`);
    return v;
  }

  ints(v: unknown, path: string, n: number, min: number, max = 0x3fffffff): Int32Array {
    const a = this.array(v, path, n);
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      if (typeof x !== 'number' || !Number.isInteger(x)) this.fail(`${path}[${i}]`, `is ${describe(x)}; it must be an integer ≥ ${min}`);
      if (x < min) this.fail(`${path}[${i}]`, `is ${x}; it must be ≥ ${min}`);
      if (x > max) this.fail(`${path}[${i}]`, `is ${x}; it must be ≤ ${max}`);
      out[i] = x;
    }
    return out;
  }

  times(v: unknown, path: string, n: number): Float64Array {
    const a = this.array(v, path, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      const p = `${path}[${i}]`;
      if (typeof x !== 'number' || !Number.isFinite(x)) this.fail(p, `is ${describe(x)}; it must be a time in seconds`);
      if (x < 0) this.fail(p, `is ${x}; arrival times must be ≥ 0`);
      // beyond this a double keeps less than microsecond resolution: the run's latencies would round to nothing
      if (x > 1e10) this.fail(p, `is ${x} s; times beyond 1e10 s keep less than microsecond resolution (a double holds about 16 digits), so latencies would be wrong: shift the arrivals to start near 0`);
      if (i > 0 && x < out[i - 1]) {
        this.fail(p, `is ${x}, before ${path}[${i - 1}] = ${out[i - 1]}; arrival times must be non-decreasing (sort them)`);
      }
      out[i] = x;
    }
    return out;
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 20 ? v.slice(0, 20) + '…' : v)}`;
  if (typeof v === 'number') return String(v);
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours) between two field names. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name a misspelt one most likely meant, or null when none is close. */
export function nearestName(key: string, known: readonly string[]): string | null {
  const norm = (x: string) => x.toLowerCase().replace(/[-\s]/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2');
  const k = norm(key);
  let best: string | null = null;
  let bestD = Infinity;
  for (const name of known) {
    const n = name.toLowerCase();
    const d = k === n ? 0 : n.startsWith(k) || k.startsWith(n) ? 1 : distance(k, n);
    if (d < bestD) [best, bestD] = [name, d];
  }
  return bestD <= Math.max(2, Math.floor(k.length / 3)) ? best : null;
}

/** Why a key is not a field of `section`, and which name was probably meant. */
function unknownFieldAdvice(section: string, key: string): string {
  const where = section || 'the top level';
  const known = CASE_FIELDS[section];
  const elsewhere = Object.keys(CASE_FIELDS).find((s) => s !== section && CASE_FIELDS[s].includes(key));
  if (elsewhere !== undefined) return `is not a field of ${where}; it belongs in ${elsewhere || 'the top level'} (${elsewhere ? `${elsewhere}.` : ''}${key})`;
  const near = nearestName(key, known);
  const full = (name: string) => (section ? `${section}.${name}` : name);
  return near
    ? `is not a field of ${where}; did you mean ${full(near)}?`
    : `is not a field of ${where}; its fields are ${known.join(', ')}`;
}

const sci = (x: number) => (Number.isFinite(x) && x !== 0 && (Math.abs(x) >= 1e6 || Math.abs(x) < 1e-3) ? x.toExponential(3) : String(x));

/**
 * Every step time the run can produce must be a finite number of seconds: a rate that
 * underflows (`peak_flops: 1e-300`) or a model that overflows would otherwise give steps of
 * Infinity s and a result full of nulls. Checked at the cheapest step (one token) and an upper
 * bound on the most expensive (a full token budget, every token attending over the whole pool).
 */
function checkStepTimes(r: Reader, cfg: ServerConfig): void {
  const roof = roofline(cfg);
  const budget = cfg.tokenBudget;
  const logits = Math.min(budget, cfg.maxNumSeqs);
  const pool = cfg.kvCapacityTokens;
  const big = { flops: roof.twoBody * budget + roof.twoLmHead * logits + roof.fourLD * budget * pool, bytes: roof.streamedWeightBytes + roof.kvBytesPerToken * (pool + budget) };
  const worst = stepTimeOf(roof, budget, logits, 0, budget * pool, pool);
  const least = stepTimeOf(roof, 1, 1, 0, 1, 0);
  if (Number.isFinite(worst) && Number.isFinite(least)) return;
  const tC = big.flops / roof.flopRate;
  const tM = big.bytes / roof.byteRate;
  const h = cfg.hw;
  if (!Number.isFinite(big.flops)) {
    r.fail('config.model', `gives ${sci(big.flops)} FLOPs for one step of ${budget} tokens; check body_params, lm_head_params, layers and d_model`);
  }
  if (!Number.isFinite(big.bytes)) {
    r.fail('config.model', `gives ${sci(big.bytes)} bytes read in one step; check streamed_weight_bytes and kv_bytes_per_token`);
  }
  if (!Number.isFinite(tC)) {
    r.fail(
      'config.hw.peak_flops',
      `is ${sci(h.peakFlops)} (× eta_compute ${h.etaCompute} = ${sci(roof.flopRate)} FLOP/s): one step would take ${sci(tC)} s; ` +
        `give the peak in FLOP/s (the simulator's GPU: ${sci(CONSTANTS.peakFlops.value)})`,
    );
  }
  if (!Number.isFinite(tM)) {
    r.fail(
      'config.hw.hbm_bw',
      `is ${sci(h.hbmBw)} (× eta_memory ${h.etaMemory} = ${sci(roof.byteRate)} B/s): one step would take ${sci(tM)} s; ` +
        `give the bandwidth in bytes per second (the simulator's GPU: ${sci(CONSTANTS.hbmBw.value)})`,
    );
  }
  r.fail('config.hw.step_overhead_s', `makes a step take ${sci(worst)} s; give it in seconds (e.g. 0.001)`);
}

/** Validate a parsed case file and translate it to the simulator's types. `file` names it in messages. */
export function caseFromJson(json: unknown, file: string): SimCase {
  const r: Reader = new Reader(file); // explicit type: lets TS narrow after r.fail() (returns never)
  const root = r.section(json, '');
  if (root.schema !== undefined && root.schema !== SCHEMA) {
    r.fail('schema', `is ${describe(root.schema)}; this version reads ${JSON.stringify(SCHEMA)} only`);
  }
  const c = r.section(root.config, 'config');
  const m = r.section(c.model, 'config.model');
  const h = r.section(c.hw, 'config.hw');
  const P = 'config.model';
  const rawName = m.name === undefined ? 'unnamed' : m.name;
  if (typeof rawName !== 'string') r.fail(`${P}.name`, `is ${describe(rawName)}; it must be a string`);
  const name: string = rawName;
  const cfg: ServerConfig = {
    model: {
      name,
      layers: r.int(m, P, 'layers', 1),
      dModel: r.int(m, P, 'd_model', 1),
      nKvHeads: r.optNum(m, P, 'n_kv_heads'),
      headDim: r.optNum(m, P, 'head_dim'),
      totalParams: r.optNum(m, P, 'total_params'),
      vocabSize: r.optNum(m, P, 'vocab_size'),
      bodyParams: r.num(m, P, 'body_params', 'positive'),
      lmHeadParams: r.num(m, P, 'lm_head_params', 'nonneg'),
      streamedWeightBytes: r.num(m, P, 'streamed_weight_bytes', 'nonneg'),
      kvBytesPerToken: r.num(m, P, 'kv_bytes_per_token', 'nonneg'),
    },
    hw: {
      peakFlops: r.num(h, 'config.hw', 'peak_flops', 'positive'),
      etaCompute: r.num(h, 'config.hw', 'eta_compute', 'fraction'),
      hbmBw: r.num(h, 'config.hw', 'hbm_bw', 'positive'),
      etaMemory: r.num(h, 'config.hw', 'eta_memory', 'fraction'),
      stepOverheadS: r.num(h, 'config.hw', 'step_overhead_s', 'nonneg'),
    },
    kvCapacityTokens: r.int(c, 'config', 'kv_capacity_tokens', 1),
    blockSize: r.int(c, 'config', 'block_size', 1),
    tokenBudget: r.int(c, 'config', 'token_budget', 1),
    maxNumSeqs: r.int(c, 'config', 'max_num_seqs', 1),
  };

  checkStepTimes(r, cfg);

  const w = r.section(root.workload, 'workload');
  const n = r.int(w, 'workload', 'n', 1);
  const isl = r.ints(w.isl, 'workload.isl', n, 1);
  const osl = r.ints(w.osl, 'workload.osl', n, 1);
  let cached: Int32Array | null = null;
  if (w.cached !== undefined && w.cached !== null) {
    cached = r.ints(w.cached, 'workload.cached', n, 0);
    for (let i = 0; i < n; i++) {
      if (cached[i] >= isl[i]) {
        r.fail(`workload.cached[${i}]`, `is ${cached[i]} but isl[${i}] is ${isl[i]}; a cached prefix must be shorter than its prompt`);
      }
    }
  }
  const totalBlocks = Math.floor(cfg.kvCapacityTokens / cfg.blockSize);
  for (let i = 0; i < n; i++) {
    const need = peakBlocks(isl[i], osl[i], cached ? cached[i] : 0, cfg.blockSize);
    if (need > totalBlocks) {
      r.fail(
        'config.kv_capacity_tokens',
        `is ${cfg.kvCapacityTokens} (${totalBlocks} blocks of ${cfg.blockSize}) but request ${i} ` +
          `(isl ${isl[i]}, osl ${osl[i]}) needs ${need} blocks; raise it to at least ${need * cfg.blockSize}`,
      );
    }
  }

  const cl = r.section(root.client, 'client');
  const reads = typeof cl.kind === 'string' ? CLIENT_FIELDS[cl.kind] : undefined;
  if (reads) {
    for (const key of Object.keys(cl)) {
      if (key !== 'kind' && !reads.includes(key)) {
        const owner = Object.keys(CLIENT_FIELDS).filter((k) => CLIENT_FIELDS[k].includes(key)).map((k) => `"${k}"`).join(' or ');
        r.fail(`client.${key}`, `is not read by a ${JSON.stringify(cl.kind)} client (only by ${owner}); remove it, or set client.kind accordingly`);
      }
    }
  }
  let client: ClientSpec;
  if (cl.kind === 'closed') {
    client = { kind: 'closed', slots: r.int(cl, 'client', 'n_slots', 1) };
  } else if (cl.kind === 'open') {
    client = { kind: 'open', times: r.times(cl.times, 'client.times', n) };
  } else if (cl.kind === 'capped') {
    const cap = r.int(cl, 'client', 'cap', 1);
    client = { kind: 'capped', times: r.times(cl.times, 'client.times', n), cap };
  } else if (cl.kind === undefined) {
    return r.fail('client.kind', 'is missing; add "open", "closed" or "capped"');
  } else {
    return r.fail('client.kind', `is ${describe(cl.kind)}; it must be "open", "closed" or "capped"`);
  }
  return { cfg, workload: { isl, osl, cached }, client };
}

export interface CaseOutputOptions {
  /** Add requests.token_times (one array of token times per request). */
  tokens?: boolean;
  /** Add step_trace: one [t, dt, n_decode, n_prefill_tokens, n_running, n_waiting, used_blocks] per step. */
  steps?: boolean;
}

/** The result in the shape of a golden case's `expected` block (snake_case, plain arrays). */
export function resultToJson(res: SimResult, opts: CaseOutputOptions = {}): Obj {
  const requests: Obj = {
    due_t: Array.from(res.dueT),
    send_t: Array.from(res.sendT),
    first_t: Array.from(res.firstT),
    finish_t: Array.from(res.finishT),
    npre: Array.from(res.npre),
  };
  if (opts.tokens && res.tokenTimes) {
    const { offsets, times } = res.tokenTimes;
    const tt: number[][] = [];
    for (let i = 0; i < res.n; i++) tt.push(Array.from(times.subarray(offsets[i], offsets[i + 1])));
    requests.token_times = tt;
  }
  const out: Obj = { preemptions: res.preemptions, steps: res.steps, makespan: res.makespan, requests };
  if (opts.steps && res.stepTrace) {
    const s = res.stepTrace;
    const rows: number[][] = [];
    for (let i = 0; i < s.count; i++) {
      rows.push([s.t[i], s.dt[i], s.decodes[i], s.prefillTokens[i], s.running[i], s.waiting[i], s.usedBlocks[i]]);
    }
    out.step_trace = rows;
  }
  return out;
}

/**
 * What one unit of the event kernel's work costs (src/sim/kernel-event.ts: a
 * step is constant time whatever the batch, and a request costs its own
 * events: admission, prefill chunks, finish), and a token time recorded with
 * --tokens. Measured on one core of a 2-core machine (256,000 requests, 256
 * slots: 0.4 s; 20,000 requests one at a time, 18 million steps: 1.2 s; with
 * every token time: +5 ns each) and rounded up, so an estimate errs long.
 */
export const KERNEL_COST_S = { step: 70e-9, request: 2e-6, tokenTime: 7e-9 } as const;

/**
 * Bounds on one `simulate` run, so that no case can hang the machine or exhaust its memory:
 * the estimated time on the event kernel (a run that finishes in seconds is never refused)
 * and the size of the result (far below what one process can hold). `--max-seconds` and
 * `--max-output-mb` raise them.
 */
export const SIMULATE_LIMITS = { seconds: 60, outputMB: 256 } as const;

/** Estimated seconds of the event kernel for a run of this many steps and requests (and token times recorded). */
export function kernelSeconds(steps: number, requests: number, tokenTimes: number): number {
  return steps * KERNEL_COST_S.step + requests * KERNEL_COST_S.request + tokenTimes * KERNEL_COST_S.tokenTime;
}

/** Characters of one time in the result, with its comma: shortest round-trip doubles are 17–20. */
const TIME_CHARS = 20;
/** Characters of one step_trace row: two times and five counts. */
export const STEP_ROW_BYTES = 2 * TIME_CHARS + 5 * 6 + 3;

/** What a case will cost, known before it runs (lower bounds for the work; preemptions add to it). */
export interface WorkEstimate {
  requests: number;
  /** Requests served, summed over the engine's steps: each request is served once per step it computes in. */
  requestSteps: number;
  /** Engine steps. */
  steps: number;
  /** Output token times kept with --tokens (8 bytes each in memory). */
  tokenRecords: number;
  /** Bytes of the result JSON. */
  outputBytes: number;
  /** Estimated seconds on the event kernel (a lower bound, like the steps). */
  seconds: number;
}

/** Lower bounds on the work of a validated case, and the size of its result. */
export function estimateWork(c: SimCase, opts: CaseOutputOptions = {}): WorkEstimate {
  const { isl, osl } = c.workload;
  const cached = c.workload.cached;
  const n = isl.length;
  const budget = c.cfg.tokenBudget;
  let requestSteps = 0;
  let longest = 0;
  let computed = 0;
  let tokenRecords = 0;
  for (let i = 0; i < n; i++) {
    const prompt = isl[i] - (cached ? cached[i] : 0);
    // The prompt in chunks of at most the budget (its last chunk emits the first token), then one step per further token.
    const own = Math.ceil(prompt / budget) + osl[i] - 1;
    requestSteps += own;
    longest = Math.max(longest, own);
    computed += prompt + osl[i] - 1;
    tokenRecords += osl[i];
  }
  const client = c.client;
  const inFlight = Math.min(n, c.cfg.maxNumSeqs, client.kind === 'closed' ? client.slots : client.kind === 'capped' ? client.cap : n);
  const steps = Math.max(longest, Math.ceil(requestSteps / inFlight), Math.ceil(computed / budget));
  let outputBytes = 200 + n * (4 * TIME_CHARS + 4);
  if (opts.tokens) outputBytes += tokenRecords * TIME_CHARS + n * 3;
  if (opts.steps) outputBytes += steps * STEP_ROW_BYTES;
  return { requests: n, requestSteps, steps, tokenRecords, outputBytes, seconds: kernelSeconds(steps, n, opts.tokens ? tokenRecords : 0) };
}

/** The first time in a result that is not a finite number of seconds, named as in the result; null when all are. */
export function nonFiniteTime(res: SimResult): string | null {
  if (!Number.isFinite(res.makespan)) return `makespan (${res.makespan})`;
  const cols = { due_t: res.dueT, send_t: res.sendT, first_t: res.firstT, finish_t: res.finishT } as const;
  for (const [name, col] of Object.entries(cols)) {
    for (let i = 0; i < col.length; i++) if (!Number.isFinite(col[i])) return `requests.${name}[${i}] (${col[i]})`;
  }
  return null;
}

/**
 * The result as JSON text, in pieces, byte for byte `JSON.stringify(resultToJson(res, opts))`:
 * a result with every token time can be larger than one string may be, and writing it in
 * pieces never holds it all at once.
 */
export function* resultChunks(res: SimResult, opts: CaseOutputOptions = {}): Generator<string> {
  const PIECE = 65_536;
  function* list(a: ArrayLike<number>): Generator<string> {
    yield '[';
    for (let i = 0; i < a.length; i += PIECE) {
      const end = Math.min(a.length, i + PIECE);
      let s = i > 0 ? ',' : '';
      for (let j = i; j < end; j++) s += (j > i ? ',' : '') + String(a[j]);
      yield s;
    }
    yield ']';
  }
  yield `{"preemptions":${res.preemptions},"steps":${res.steps},"makespan":${res.makespan},"requests":{"due_t":`;
  yield* list(res.dueT);
  yield ',"send_t":';
  yield* list(res.sendT);
  yield ',"first_t":';
  yield* list(res.firstT);
  yield ',"finish_t":';
  yield* list(res.finishT);
  yield ',"npre":';
  yield* list(res.npre);
  if (opts.tokens && res.tokenTimes) {
    const { offsets, times } = res.tokenTimes;
    yield ',"token_times":[';
    for (let i = 0; i < res.n; i++) {
      if (i > 0) yield ',';
      yield* list(times.subarray(offsets[i], offsets[i + 1]));
    }
    yield ']';
  }
  yield '}';
  if (opts.steps && res.stepTrace) {
    const s = res.stepTrace;
    yield ',"step_trace":[';
    for (let i = 0; i < s.count; i += PIECE) {
      const end = Math.min(s.count, i + PIECE);
      let out = i > 0 ? ',' : '';
      for (let j = i; j < end; j++) {
        out += `${j > i ? ',' : ''}[${s.t[j]},${s.dt[j]},${s.decodes[j]},${s.prefillTokens[j]},${s.running[j]},${s.waiting[j]},${s.usedBlocks[j]}]`;
      }
      yield out;
    }
    yield ']';
  }
  yield '}';
}
