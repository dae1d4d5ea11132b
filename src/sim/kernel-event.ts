/**
 * The event kernel: the same server as the stepwise kernel (kernel-stepwise.ts), step
 * for step and bit for bit, at a cost per step that does not grow with the batch.
 *
 * Why it can. In most steps every running request just decodes: it computes one token
 * on top of its context, emits it, and takes a new KV block when its last one is full.
 * Such a step's duration depends on the batch only through its size m and the sum S of
 * the requests' computed tokens (attention pairs S + m, KV read S), and every request's
 * state moves by the same amount. So a decoding request stores its state relative to
 * the step number D (steps completed so far):
 *
 *   computed = compOff + D,   tokens left = leftOff − D,   slack = (slackKey − D) mod bs,
 *
 * and one step advances all of them by D += 1. What would need a look at each request
 * comes from aggregates kept as requests start and stop decoding:
 * - finishes: a min-heap on leftOff; a request finishes in the step that makes D = leftOff;
 * - KV blocks: a histogram of slackKey; the requests taking a block in the step from D
 *   are those with slackKey = D mod bs (their last block is full);
 * - S = Σ compOff + m·D.
 * A request is touched only at its own events: admission, each prefill (or recompute)
 * chunk, its first token, preemption, finish.
 *
 * Why every step can. Every running request is served in every step, and all but
 * possibly the last are decoders: a request computes at least one token in the step it
 * is admitted and admissions stop when the budget is spent, so at most tokenBudget
 * requests run; a request left with part of its prompt (a prefill chunk, or of a
 * recompute) has spent the budget, so nothing is served or admitted after it, and it is
 * last (test/sim.kernels.test.ts checks both on the stepwise kernel; `schedule` stops if
 * they ever fail). So a step serves all decoders at once, then the last request if it
 * is still prefilling. A KV shortage preempts a suffix of the running list, found from
 * the tail in O(requests preempted) (`preemptUntilFits`).
 *
 * The running list is doubly linked over slots, so a finish or a preemption unlinks one
 * request without moving the others and the list keeps the reference's order.
 *
 * Bit-identity. The cost sums are integers far below 2^53, exact in any order, and each
 * step's duration is still one `stepTimeOf` call on those sums followed by t = t + dt:
 * every time value comes from the same float operations as in the stepwise kernel.
 *
 * Token times (recordTokens): a decoder emits one token at the end of every step that
 * serves it, so its token times are a contiguous run of step end times, copied from a
 * per-step array at its next event (finish or preemption).
 */
import { deadlock, unschedulable } from './errors.ts';
import { roofline, stepTimeOf, type Roofline } from './roofline.ts';
import { CLOSED, Requests } from './client.ts';
import { fillStepView, newStepView, TraceBuilder } from './step-trace.ts';
import type { ClientSpec, ServerConfig, SimOptions, SimResult, StepView, Workload } from './types.ts';

/** End of the running list. */
const NIL = -1;

class EventKernel extends Requests {
  // ---- configuration ----
  readonly bs: number;
  readonly tokenBudget: number;
  readonly maxNumSeqs: number;
  readonly totalBlocks: number;
  readonly roof: Roofline;

  // ---- running list: doubly linked over slots, in the reference's `running` order ----
  head = NIL;
  tail = NIL;
  nRun = 0;
  readonly next: Int32Array;
  readonly prev: Int32Array;
  /** Unused slots (a stack). */
  readonly spare: Int32Array;
  nSpare: number;
  readonly sRid: Int32Array;
  /** 1: a decoder (state relative to D); 0: prefilling or recomputing (state stored as is). */
  readonly sDecoding: Uint8Array;
  /** Decoder: compOff. Otherwise: tokens computed. */
  readonly sComp: Float64Array;
  /** Decoder: leftOff. Otherwise: osl − gen, or −osl before the first token (as the stepwise kernel's rLeft). */
  readonly sLeft: Float64Array;
  /** Decoder: slackKey in [0, bs). Otherwise: free token slots in the last KV block. */
  readonly sSlack: Int32Array;
  /** Tokens still to compute before the next output token (decoders: always 1, not stored). */
  readonly sNeed: Int32Array;
  /** Next slot of tokTimes for this request. */
  readonly sTok: Int32Array;
  /** Decoder, recording tokens: its token times are written up to the end of step sTokD. */
  readonly sTokD: Float64Array;

  // ---- decoders' aggregates ----
  /** Steps completed: the clock decoders' state is relative to. */
  D = 0;
  /** D mod bs. */
  dMod = 0;
  nDecoding = 0;
  nPrefilling = 0;
  /** Σ compOff over decoders. */
  compOffSum = 0;
  /** Decoders by slackKey. */
  readonly slackHist: Int32Array;
  /** Min-heap of decoder slots on leftOff; heapAt[slot] is the slot's index in it. */
  readonly heap: Int32Array;
  readonly heapAt: Int32Array;
  heapLen = 0;
  /** Recording tokens: stepEnd[d] is the end time of the step that made D = d. */
  stepEnd: Float64Array;

  // ---- global state ----
  free: number;

  // ---- per-step scratch ----
  budget = 0;
  preemptedNow = false;
  nTok = 0;
  nLogits = 0;
  nDec = 0;
  attn = 0;
  pre = 0;
  kvRead = 0;
  /** Requests that emitted their first token this step. */
  readonly firstRid: Int32Array;
  nFirst = 0;
  /** tokTimes slots filled at this step's end (tokens of requests that finished a prefill or recompute). */
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

    this.stepEnd = new Float64Array(opts.recordTokens ? 1024 : 0);

    const cap = Math.max(1, Math.min(n, cfg.maxNumSeqs));
    this.next = new Int32Array(cap);
    this.prev = new Int32Array(cap);
    this.spare = new Int32Array(cap);
    for (let s = 0; s < cap; s++) this.spare[s] = cap - 1 - s;
    this.nSpare = cap;
    this.sRid = new Int32Array(cap);
    this.sDecoding = new Uint8Array(cap);
    this.sComp = new Float64Array(cap);
    this.sLeft = new Float64Array(cap);
    this.sSlack = new Int32Array(cap);
    this.sNeed = new Int32Array(cap);
    this.sTok = new Int32Array(cap);
    this.sTokD = new Float64Array(cap);
    this.slackHist = new Int32Array(this.bs);
    this.heap = new Int32Array(cap);
    this.heapAt = new Int32Array(cap);
    this.firstRid = new Int32Array(cap);
    this.emit = new Int32Array(cap);
  }

  // ---------------- running list ----------------

  append(rid: number): number {
    const s = this.spare[--this.nSpare];
    this.sRid[s] = rid;
    this.next[s] = NIL;
    this.prev[s] = this.tail;
    if (this.tail === NIL) this.head = s;
    else this.next[this.tail] = s;
    this.tail = s;
    this.nRun++;
    return s;
  }

  unlink(s: number): void {
    const a = this.prev[s];
    const b = this.next[s];
    if (a === NIL) this.head = b;
    else this.next[a] = b;
    if (b === NIL) this.tail = a;
    else this.prev[b] = a;
    this.spare[this.nSpare++] = s;
    this.nRun--;
  }

  // ---------------- decoders ----------------

  /** Slack of decoder s at the current D. */
  slackOf(s: number): number {
    const x = this.sSlack[s] - this.dMod;
    return x < 0 ? x + this.bs : x;
  }

  /** Make slot s a decoder whose state, once the clock reads `d`, is (comp, left, slack). */
  startDecoding(s: number, comp: number, left: number, slack: number, d: number): void {
    this.nPrefilling--;
    this.nDecoding++;
    this.sDecoding[s] = 1;
    const off = comp - d;
    this.sComp[s] = off;
    this.compOffSum += off;
    this.sLeft[s] = left + d;
    const key = (slack + (d % this.bs)) % this.bs;
    this.sSlack[s] = key;
    this.slackHist[key]++;
    this.sTokD[s] = d;
    this.heapPush(s);
  }

  /** Take decoder s out of the aggregates (its state must have been read first). */
  stopDecoding(s: number): void {
    this.nDecoding--;
    this.sDecoding[s] = 0;
    this.compOffSum -= this.sComp[s];
    this.slackHist[this.sSlack[s]]--;
    this.heapRemove(s);
  }

  /** Write decoder s's token times up to the end of step `upto`. */
  flushTokens(s: number, upto: number): void {
    const from = this.sTokD[s];
    if (this.tokTimes && upto > from) {
      this.tokTimes.set(this.stepEnd.subarray(from + 1, upto + 1), this.sTok[s]);
      this.sTok[s] += upto - from;
    }
    this.sTokD[s] = upto;
  }

  // ---- the finish heap (keys: sLeft of decoder slots) ----

  heapPush(s: number): void {
    const i = this.heapLen++;
    this.heap[i] = s;
    this.heapAt[s] = i;
    this.siftUp(i);
  }

  heapRemove(s: number): void {
    const i = this.heapAt[s];
    const last = this.heap[--this.heapLen];
    if (i === this.heapLen) return;
    this.heap[i] = last;
    this.heapAt[last] = i;
    this.siftUp(i);
    this.siftDown(this.heapAt[last]);
  }

  siftUp(i: number): void {
    const heap = this.heap;
    const key = this.sLeft;
    const s = heap[i];
    const k = key[s];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const ps = heap[parent];
      if (key[ps] <= k) break;
      heap[i] = ps;
      this.heapAt[ps] = i;
      i = parent;
    }
    heap[i] = s;
    this.heapAt[s] = i;
  }

  siftDown(i: number): void {
    const heap = this.heap;
    const key = this.sLeft;
    const len = this.heapLen;
    const s = heap[i];
    const k = key[s];
    for (;;) {
      let c = 2 * i + 1;
      if (c >= len) break;
      if (c + 1 < len && key[heap[c + 1]] < key[heap[c]]) c++;
      if (key[heap[c]] >= k) break;
      heap[i] = heap[c];
      this.heapAt[heap[i]] = i;
      i = c;
    }
    heap[i] = s;
    this.heapAt[s] = i;
  }

  // ---------------- scheduling ----------------

  /** The step's cost sums for k tokens computed on top of c0 (need: tokens to the next output token). */
  account(c0: number, k: number, need: number): void {
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
  }

  /** Preempt the last running request: free its blocks, recompute from its cached prefix later. */
  preemptLast(): number {
    const s = this.tail;
    const rid = this.sRid[s];
    let comp: number;
    let left: number;
    let slack: number;
    if (this.sDecoding[s] === 1) {
      comp = this.sComp[s] + this.D;
      left = this.sLeft[s] - this.D;
      slack = this.slackOf(s);
      this.flushTokens(s, this.D);
      this.stopDecoding(s);
    } else {
      comp = this.sComp[s];
      left = this.sLeft[s];
      slack = this.sSlack[s];
      this.nPrefilling--;
    }
    this.unlink(s);
    this.free += (comp - this.cached[rid] + slack) / this.bs;
    this.gen[rid] = left < 0 ? 0 : this.osl[rid] - left;
    this.npre[rid]++;
    this.preemptions++;
    this.preemptedNow = true;
    this.wHead = (this.wHead - 1) & this.wMask;
    this.wq[this.wHead] = rid;
    this.wLen++;
    return s;
  }

  /**
   * k tokens computed by non-decoder s (computed c0 → c0 + k; slack: its slack after
   * the step). Emitting a token makes it a decoder from the next step on.
   */
  advance(s: number, c0: number, k: number, need: number, slack: number): void {
    this.account(c0, k, need);
    if (k < need) {
      this.sComp[s] = c0 + k;
      this.sNeed[s] = need - k;
      this.sSlack[s] = slack;
      return;
    }
    let left = this.sLeft[s];
    if (left < 0) {
      left = -left - 1;
      this.firstRid[this.nFirst++] = this.sRid[s];
    } else {
      left--;
    }
    if (this.tokTimes) this.emit[this.nEmit++] = this.sTok[s]++;
    this.startDecoding(s, c0 + k, left, slack, this.D + 1);
  }

  /**
   * Serve non-decoder s: min(need, budget) tokens, preempting from the end of the list
   * while its new blocks do not fit. Returns false when s itself was preempted.
   */
  serveOther(s: number): boolean {
    const need = this.sNeed[s];
    const k = need <= this.budget ? need : this.budget;
    const sl = this.sSlack[s];
    const bs = this.bs;
    const want = k <= sl ? 0 : Math.ceil((k - sl) / bs);
    while (want > this.free) {
      if (this.preemptLast() === s) return false;
    }
    this.free -= want;
    this.advance(s, this.sComp[s], k, need, sl + want * bs - k);
    return true;
  }

  /**
   * Serve every decoder at once, then the last request if it is not one (the blocks fit:
   * see preemptUntilFits). Returns requests served.
   */
  fastServe(): number {
    const m = this.nDecoding;
    this.free -= this.slackHist[this.dMod];
    const sumC = this.compOffSum + m * this.D;
    this.nTok = m;
    this.nLogits = m;
    this.nDec = m;
    this.attn = sumC + m;
    this.kvRead = sumC;
    this.budget -= m;
    if (this.nPrefilling === 1 && this.budget > 0) return this.serveOther(this.tail) ? m + 1 : m;
    return m;
  }

  /**
   * Preempt from the end of the running list until the step's new KV blocks fit, as the
   * stepwise kernel's walk does. The walk serves requests in order; one that needs more
   * blocks than are free preempts the last running request, then the one before, and so
   * on (itself included, which ends the walk). So the preempted requests are the shortest
   * suffix of the list such that the blocks the rest need fit in the free blocks plus
   * those the suffix held: the need only shrinks and the freed blocks only grow as the
   * suffix lengthens, and the walk preempts only while the current suffix is too short.
   * Costs O(requests preempted), not O(batch).
   */
  preemptUntilFits(): void {
    // blocks the last request needs if it is prefilling (served after the decoders, with the budget they leave)
    let tailWant = 0;
    if (this.nPrefilling === 1) {
      const room = this.tokenBudget - this.nDecoding;
      if (room > 0) {
        const s = this.tail;
        const need = this.sNeed[s];
        const k = need <= room ? need : room;
        const sl = this.sSlack[s];
        tailWant = k <= sl ? 0 : Math.ceil((k - sl) / this.bs);
      }
    }
    let want = this.slackHist[this.dMod] + tailWant;
    while (want > this.free) {
      const s = this.tail;
      if (this.sDecoding[s] === 0) want -= tailWant;
      else if (this.slackOf(s) === 0) want--;
      this.preemptLast();
    }
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
      const s = this.append(rid);
      this.nPrefilling++;
      this.sDecoding[s] = 0;
      this.sLeft[s] = gen === 0 ? -this.osl[rid] : this.osl[rid] - gen;
      if (this.tokOffsets) this.sTok[s] = this.tokOffsets[rid] + gen;
      this.advance(s, cached, k, need, want * bs - k);
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
    this.nFirst = this.nEmit = 0;
    if (this.nDecoding > this.tokenBudget || this.nPrefilling > 1 || (this.nPrefilling === 1 && this.sDecoding[this.tail] === 1)) {
      throw new Error('event kernel: the running list breaks the invariant the kernel relies on');
    }
    this.preemptUntilFits();
    const served = this.fastServe();
    const admitted = this.preemptedNow ? 0 : this.admit();
    return served + admitted;
  }

  /** After the step that made D: retire the decoders that emitted their last token. Returns the count. */
  retireFinished(tEnd: number): number {
    let nFin = 0;
    const D = this.D;
    while (this.heapLen > 0 && this.sLeft[this.heap[0]] === D) {
      const s = this.heap[0];
      const rid = this.sRid[s];
      this.finishT[rid] = tEnd;
      this.free += (this.sComp[s] + D - this.cached[rid] + this.slackOf(s)) / this.bs;
      this.flushTokens(s, D);
      this.stopDecoding(s);
      this.unlink(s);
      nFin++;
    }
    return nFin;
  }
}

/**
 * Steps in which the running requests only decode and nothing happens at their ends: no
 * finish, no admission, no arrival before the last of them ends. Runs such steps from
 * the current one on, with the state in locals, and returns how many it ran (0: the
 * next step needs the main loop). A step is the same as on the main loop: the same
 * sums, one stepTimeOf call, t = t + dt, the same trace row and observer view.
 */
function quietSteps(e: EventKernel, trace: TraceBuilder | null, onStep: ((v: StepView) => void) | null, view: StepView): number {
  const m = e.nDecoding;
  if (m === 0 || e.nPrefilling !== 0 || m > e.tokenBudget) return 0;
  // the first finish ends the step that makes D = its leftOff; stop before that step
  const lastQuiet = e.sLeft[e.heap[0]] - 1;
  let D = e.D;
  if (D >= lastQuiet) return 0;
  // a waiting request is admitted once the step leaves budget, a sequence slot and its blocks
  const bs = e.bs;
  let headWant = Infinity;
  if (e.wLen > 0 && e.tokenBudget - m > 0 && e.nRun < e.maxNumSeqs) {
    const rid = e.wq[e.wHead];
    const need = e.isl[rid] + e.gen[rid] - e.cached[rid];
    const room = e.tokenBudget - m;
    headWant = Math.ceil((need <= room ? need : room) / bs);
  }
  const hist = e.slackHist;
  const roof = e.roof;
  const compOffSum = e.compOffSum;
  const nRun = e.nRun;
  const wLen = e.wLen;
  const scheduled = e.kind !== CLOSED;
  const nextDue = scheduled && e.nxt < e.n ? e.schedT[e.nxt] : Infinity;
  const recording = e.tokTimes !== null;
  let dMod = e.dMod;
  let free = e.free;
  let t = e.t;
  const D0 = D;
  while (D < lastQuiet) {
    const blocks = hist[dMod];
    if (blocks > free || headWant <= free - blocks) break;
    free -= blocks;
    const sumC = compOffSum + m * D;
    const dt = stepTimeOf(roof, m, m, sumC + m, 0, sumC);
    const tEnd = t + dt;
    const used = e.totalBlocks - free;
    if (trace) trace.push(t, dt, m, 0, nRun, wLen, used);
    D++;
    dMod = dMod + 1 === bs ? 0 : dMod + 1;
    if (recording) {
      if (D === e.stepEnd.length) {
        const grown = new Float64Array(2 * D);
        grown.set(e.stepEnd);
        e.stepEnd = grown;
      }
      e.stepEnd[D] = tEnd;
    }
    if (onStep) fillStepView(view, D - 1, t, dt, m, m, m, m, nRun, wLen, used, 0, e.done);
    t = tEnd;
    if (nextDue <= tEnd) {
      // the arrival joins the queue at the step's end, as on the main loop, which takes over
      e.D = D;
      e.dMod = dMod;
      e.free = free;
      e.t = t;
      e.dispatchArrivals(tEnd);
      if (onStep) onStep(view);
      return D - D0;
    }
    if (onStep) {
      // the observer may run anything: keep the kernel's state current before calling it
      e.D = D;
      e.dMod = dMod;
      e.free = free;
      e.t = t;
      onStep(view);
    }
  }
  e.D = D;
  e.dMod = dMod;
  e.free = free;
  e.t = t;
  return D - D0;
}

/** Run the event kernel to completion (inputs already validated). */
export function runEventKernel(cfg: ServerConfig, workload: Workload, client: ClientSpec, opts: SimOptions = {}): SimResult {
  const e = new EventKernel(cfg, workload, client, opts);
  const n = e.n;
  const trace = opts.recordSteps ? new TraceBuilder() : null;
  const onStep = opts.onStep ?? null;
  const view = newStepView();
  const scheduledClient = e.kind !== CLOSED;
  const roof = e.roof;
  const recording = e.tokTimes !== null;

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

    if (quietSteps(e, trace, onStep, view) > 0) continue;
    const served = e.schedule();
    if (served === 0) throw unschedulable(e.t, e.totalBlocks, e.bs);

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
    const D = ++e.D;
    e.dMod = e.dMod + 1 === e.bs ? 0 : e.dMod + 1;
    if (recording) {
      for (let j = 0; j < e.nEmit; j++) e.tokTimes![e.emit[j]] = tEnd;
      if (D === e.stepEnd.length) {
        const grown = new Float64Array(2 * D);
        grown.set(e.stepEnd);
        e.stepEnd = grown;
      }
      e.stepEnd[D] = tEnd;
    }
    const nFin = e.heapLen > 0 && e.sLeft[e.heap[0]] === D ? e.retireFinished(tEnd) : 0;
    if (nFin > 0) {
      e.done += nFin;
      e.inflight -= nFin;
      e.refill(tEnd);
    }
    e.t = tEnd;

    if (onStep) onStep(fillStepView(view, D - 1, t, dt, served, e.nDec, e.nTok, e.nLogits, runningNow, waitingNow, used, nFin, e.done));
  }
  return e.result(e.D, trace);
}
