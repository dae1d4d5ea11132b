/**
 * The stepwise kernel: the article's reference `run` (its appendix), ported for speed,
 * touching every running request in every step. The event kernel (kernel-event.ts) is
 * the default; this one is kept as its independent check and for reading: its loop is
 * the reference's, step by step.
 *
 * Logic, line for line in meaning: each step serves running
 * requests first, in order, each taking min(need, budget) tokens and the KV blocks
 * those need, preempting the most recently admitted request while the pool is short;
 * only if nothing was preempted, waiting requests are admitted in order; the step
 * lasts the roofline time; arrivals inside the step join the queue before the
 * completions at its end are processed.
 *
 * Layout, for speed:
 * - Requests are a struct of typed arrays indexed by request number.
 * - The running set is a second struct of typed arrays indexed by position in the
 *   running list (the reference's `running`), so the hot loop reads memory in order.
 *   A request's running state is loaded on admission and written back on preemption.
 * - Each running request keeps the free space in its last KV block (`slack`) instead of
 *   recounting blocks with a division every step: a decode needs a new block exactly
 *   when slack is 0.
 * - A step's bookkeeping is applied while it is scheduled (a request's token counts
 *   do not depend on the step's duration); only the times (first token, finish, token
 *   times) wait for the step's end and are stamped from short per-step lists.
 * - Requests that are only decoding go through `decodeRun`, a small function over
 *   packed integers that V8 keeps in registers; everything else takes the general path.
 * The three cost sums are sums of integers far below 2^53 (and k(k+1) is even), so
 * they are exact in any order; the step-time formula and `t = t + dt` keep the
 * reference's operation order, which is what makes the results bit-identical.
 */
import { roofline, stepTimeOf, type Roofline } from './roofline.ts';
import { deadlock, unschedulable } from './errors.ts';
import { CLOSED, Requests } from './client.ts';
import { fillStepView, newStepView, TraceBuilder } from './step-trace.ts';
import type { ClientSpec, ServerConfig, SimOptions, SimResult, Workload } from './types.ts';

class Engine extends Requests {
  // ---- configuration ----
  readonly bs: number;
  readonly tokenBudget: number;
  readonly maxNumSeqs: number;
  readonly totalBlocks: number;
  readonly roof: Roofline;
  readonly recordTokens: boolean;

  // ---- running list (indexed by position; position order = the reference's `running` order) ----
  nRun = 0;
  readonly rRid: Int32Array;
  /** Tokens computed (the reference's `computed`). */
  readonly rComp: Int32Array;
  /** isl + gen − computed: tokens to compute before the next output token. */
  readonly rNeed: Int32Array;
  /**
   * osl − gen (output tokens still to emit), but −osl until the first token: the sign
   * keeps requests that will stamp a first-token time off the decode fast path.
   */
  readonly rLeft: Int32Array;
  /** Free token slots in the request's last KV block: blocks·bs − (computed − cached), in [0, bs). */
  readonly rSlack: Int32Array;
  /** Next slot of tokTimes for this request (only when recording tokens). */
  readonly rTok: Int32Array;

  // ---- global state ----
  free: number;
  steps = 0;

  // ---- per-step scratch (no allocation per step) ----
  budget = 0;
  preemptedNow = false;
  nTok = 0;
  nLogits = 0;
  nDec = 0;
  attn = 0;
  pre = 0;
  kvRead = 0;
  /** Positions that emitted their last token this step, increasing. */
  readonly finPos: Int32Array;
  nFin = 0;
  /** Requests that emitted their first token this step. */
  readonly firstRid: Int32Array;
  nFirst = 0;
  /** tokTimes slots filled at this step's end. */
  readonly emit: Int32Array;
  nEmit = 0;

  constructor(cfg: ServerConfig, w: Workload, client: ClientSpec, opts: SimOptions) {
    super(w, client, opts);
    const n = this.n;
    this.bs = cfg.blockSize;
    this.tokenBudget = cfg.tokenBudget;
    this.maxNumSeqs = cfg.maxNumSeqs;
    this.totalBlocks = Math.floor(cfg.kvCapacityTokens / cfg.blockSize);
    this.free = this.totalBlocks;
    this.roof = roofline(cfg);
    this.recordTokens = !!opts.recordTokens;

    const cap = Math.max(1, Math.min(n, cfg.maxNumSeqs));
    this.rRid = new Int32Array(cap);
    this.rComp = new Int32Array(cap);
    this.rNeed = new Int32Array(cap);
    this.rLeft = new Int32Array(cap);
    this.rSlack = new Int32Array(cap);
    this.rTok = new Int32Array(cap);
    this.finPos = new Int32Array(cap);
    this.firstRid = new Int32Array(cap);
    this.emit = new Int32Array(cap);
  }

  // ---------------- scheduling ----------------

  /** Blocks held by the running request at position p. */
  blocksAt(p: number): number {
    return (this.rComp[p] - this.cached[this.rRid[p]] + this.rSlack[p]) / this.bs;
  }

  /** Preempt the last running request: free its blocks, recompute from its cached prefix later. */
  preemptLast(): number {
    const q = --this.nRun;
    const rid = this.rRid[q];
    this.free += this.blocksAt(q);
    const left = this.rLeft[q];
    this.gen[rid] = left < 0 ? 0 : this.osl[rid] - left;
    this.npre[rid]++;
    this.preemptions++;
    this.preemptedNow = true;
    this.wHead = (this.wHead - 1) & this.wMask;
    this.wq[this.wHead] = rid;
    this.wLen++;
    return q;
  }

  /**
   * Account for k tokens computed at position p (cost sums), then apply them:
   * a request whose computed count reaches isl + gen emits one token.
   */
  serve(p: number, k: number): void {
    const c0 = this.rComp[p];
    const need = this.rNeed[p];
    this.nTok += k;
    if (k === need) this.nLogits++;
    if (k === 1 && c0 > 0) {
      this.attn += c0 + 1;
      this.kvRead += c0;
      this.nDec++;
    } else {
      this.pre += k * c0 + (k * (k + 1)) / 2;
      this.kvRead += c0;
    }
    this.budget -= k;
    this.rComp[p] = c0 + k;
    if (k < need) {
      this.rNeed[p] = need - k;
      return;
    }
    this.rNeed[p] = 1;
    let left = this.rLeft[p];
    if (left < 0) {
      left = -left - 1;
      this.firstRid[this.nFirst++] = this.rRid[p];
    } else {
      left--;
    }
    this.rLeft[p] = left;
    if (left === 0) this.finPos[this.nFin++] = p;
    if (this.recordTokens) this.emit[this.nEmit++] = this.rTok[p]++;
  }

  /**
   * General path for the running request at position p: take min(need, budget) tokens,
   * preempting from the end of the running list while its new blocks do not fit.
   * Returns false when p itself was preempted (stop serving running requests).
   */
  serveRunning(p: number): boolean {
    const need = this.rNeed[p];
    const k = need <= this.budget ? need : this.budget;
    const s = this.rSlack[p];
    const bs = this.bs;
    const want = k <= s ? 0 : Math.ceil((k - s) / bs);
    while (want > this.free) {
      if (this.preemptLast() === p) return false;
    }
    this.free -= want;
    this.rSlack[p] = s + want * bs - k;
    this.serve(p, k);
    return true;
  }

  /** Admit waiting requests in order while budget, sequence cap and blocks allow. Returns the count. */
  admit(): number {
    let admitted = 0;
    const bs = this.bs;
    while (this.wLen > 0 && this.budget > 0 && this.nRun < this.maxNumSeqs) {
      const rid = this.wq[this.wHead];
      const cached = this.cached[rid];
      const gen = this.gen[rid];
      // A waiting request holds no blocks and has computed exactly its cached prefix.
      const need = this.isl[rid] + gen - cached;
      const k = need <= this.budget ? need : this.budget;
      const want = Math.ceil(k / bs);
      if (want > this.free) break;
      this.wHead = (this.wHead + 1) & this.wMask;
      this.wLen--;
      this.free -= want;
      const p = this.nRun++;
      this.rRid[p] = rid;
      this.rComp[p] = cached;
      this.rNeed[p] = need;
      this.rLeft[p] = gen === 0 ? -this.osl[rid] : this.osl[rid] - gen;
      this.rSlack[p] = want * bs - k;
      if (this.tokOffsets) this.rTok[p] = this.tokOffsets[rid] + gen;
      this.serve(p, k);
      admitted++;
    }
    return admitted;
  }

  /** Schedule and apply one step's tokens; returns how many requests were scheduled. */
  schedule(): number {
    this.budget = this.tokenBudget;
    this.preemptedNow = false;
    this.nTok = this.nLogits = this.nDec = 0;
    this.attn = this.pre = this.kvRead = 0;
    this.nFin = this.nFirst = this.nEmit = 0;

    let p = 0;
    while (p < this.nRun && this.budget > 0) {
      p = this.recordTokens ? decodeRunRecording(this, p) : decodeRun(this, p);
      if (p >= this.nRun || this.budget <= 0) break;
      if (!this.serveRunning(p)) break;
      p++;
    }
    // p requests of the running list were served (if p itself was preempted, nRun == p now).
    const admitted = this.preemptedNow ? 0 : this.admit();
    return p + admitted;
  }

  /** Remove finished requests from the running list (keeping order) and free their blocks. */
  retire(tEnd: number): void {
    const fin = this.finPos;
    const nFin = this.nFin;
    for (let j = 0; j < nFin; j++) {
      const p = fin[j];
      const rid = this.rRid[p];
      this.finishT[rid] = tEnd;
      this.free += this.blocksAt(p);
    }
    // Close the gaps segment by segment with copyWithin (a native memmove): far cheaper
    // than moving element by element, and a step rarely finishes more than one or two.
    let w = fin[0];
    for (let j = 0; j < nFin; j++) {
      const from = fin[j] + 1;
      const to = j + 1 < nFin ? fin[j + 1] : this.nRun;
      if (to > from) {
        this.rRid.copyWithin(w, from, to);
        this.rComp.copyWithin(w, from, to);
        this.rNeed.copyWithin(w, from, to);
        this.rLeft.copyWithin(w, from, to);
        this.rSlack.copyWithin(w, from, to);
        if (this.recordTokens) this.rTok.copyWithin(w, from, to);
        w += to - from;
      }
    }
    this.nRun = w;
    this.done += nFin;
    this.inflight -= nFin;
  }
}

/**
 * The decode fast path: serve consecutive running requests from position p0 that only
 * decode (need 1 token, first token already out) and whose block, if they need one, is
 * free. Stops at the first request that needs the general path. Returns the next position.
 * Each served request adds c0 + 1 to the attention sum and c0 to the KV read, where c0 is
 * its computed count, so one running sum of c0 covers both.
 */
function decodeRun(e: Engine, p0: number): number {
  const need = e.rNeed;
  const left = e.rLeft;
  const slack = e.rSlack;
  const comp = e.rComp;
  const fin = e.finPos;
  const bs = e.bs;
  const end = Math.min(e.nRun, p0 + e.budget);
  let free = e.free;
  let nFin = e.nFin;
  let sumC = 0;
  let p = p0;
  for (; p < end; p++) {
    const l = left[p];
    if (need[p] !== 1 || l <= 0) break;
    let s = slack[p];
    if (s === 0) {
      if (free === 0) break; // the general path preempts
      free--;
      s = bs;
    }
    slack[p] = s - 1;
    const c = comp[p];
    sumC += c;
    comp[p] = c + 1;
    left[p] = l - 1;
    if (l === 1) fin[nFin++] = p;
  }
  const k = p - p0;
  e.free = free;
  e.nFin = nFin;
  e.budget -= k;
  e.nTok += k;
  e.nLogits += k;
  e.nDec += k;
  e.attn += sumC + k;
  e.kvRead += sumC;
  return p;
}

/** decodeRun that also notes each emitted token's slot (kept apart so the common loop stays lean). */
function decodeRunRecording(e: Engine, p0: number): number {
  const p = decodeRun(e, p0);
  const tok = e.rTok;
  const emit = e.emit;
  let nEmit = e.nEmit;
  for (let q = p0; q < p; q++) emit[nEmit++] = tok[q]++;
  e.nEmit = nEmit;
  return p;
}

/** Run the stepwise kernel to completion (inputs already validated). */
export function runStepwise(cfg: ServerConfig, workload: Workload, client: ClientSpec, opts: SimOptions = {}): SimResult {
  const e = new Engine(cfg, workload, client, opts);
  const n = e.n;
  const trace = opts.recordSteps ? new TraceBuilder() : null;
  const onStep = opts.onStep ?? null;
  const view = newStepView();
  const scheduledClient = e.kind !== CLOSED;
  const roof = e.roof;

  if (e.kind === CLOSED) e.refill(0.0); // initial dispatch: N slots at t = 0

  while (e.done < n) {
    if (scheduledClient) e.dispatchArrivals(e.t);
    if (e.nRun === 0 && e.wLen === 0) {
      // nothing to do: the clock skips ahead to the next arrival
      if (scheduledClient && e.nxt < n) {
        e.t = Math.max(e.t, e.schedT[e.nxt]);
        continue;
      }
      throw deadlock(e.t, e.done, n);
    }

    const served = e.schedule();
    if (served === 0) {
      throw unschedulable(e.t, e.totalBlocks, e.bs);
    }

    const t = e.t;
    const dt = stepTimeOf(roof, e.nTok, e.nLogits, e.attn, e.pre, e.kvRead);
    const tEnd = t + dt;
    const used = e.totalBlocks - e.free;
    const waitingNow = e.wLen;
    const runningNow = e.nRun;
    if (trace) trace.push(t, dt, e.nDec, e.nTok - e.nDec, runningNow, waitingNow, used);

    // requests due during the step reach the queue before the step's completions are handled at tEnd
    if (scheduledClient) e.dispatchArrivals(tEnd);

    for (let j = 0; j < e.nFirst; j++) e.firstT[e.firstRid[j]] = tEnd;
    if (e.tokTimes) for (let j = 0; j < e.nEmit; j++) e.tokTimes[e.emit[j]] = tEnd;
    const nFin = e.nFin;
    if (nFin > 0) {
      e.retire(tEnd);
      e.refill(tEnd);
    }
    e.t = tEnd;
    e.steps++;

    if (onStep) onStep(fillStepView(view, e.steps - 1, t, dt, served, e.nDec, e.nTok, e.nLogits, runningNow, waitingNow, used, nFin, e.done));
  }
  return e.result(e.steps, trace);
}
