/**
 * The golden-case file format (`llm-sim-golden/1`, see test/fixtures/golden) as input to
 * `stopwatches simulate`, and the result in the shape of its `expected` block.
 *
 * Every check names the file, the field and the fix in one line, because the message
 * is all a user sees (the CLI prints it and exits with status 2).
 */
import { UserError } from '../errors.ts';
import { peakBlocks } from './index.ts';
import type { ClientSpec, ServerConfig, SimResult, Workload } from './types.ts';

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
  return `a ${typeof v}`;
}

/** Validate a parsed case file and translate it to the simulator's types. `file` names it in messages. */
export function caseFromJson(json: unknown, file: string): SimCase {
  const r: Reader = new Reader(file); // explicit type: lets TS narrow after r.fail() (returns never)
  const root = r.obj(json, 'the file');
  const c = r.obj(root.config, 'config');
  const m = r.obj(c.model, 'config.model');
  const h = r.obj(c.hw, 'config.hw');
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

  const w = r.obj(root.workload, 'workload');
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

  const cl = r.obj(root.client, 'client');
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
