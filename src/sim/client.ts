/**
 * What both kernels share: the requests, the client that sends them, and the server's
 * waiting queue they arrive in. The kernels (kernel-event.ts, kernel-stepwise.ts) extend
 * `Requests` and add their own scheduler; only the scheduler differs between them, so
 * the client's behaviour and the result's shape cannot drift apart.
 *
 * Client kinds, as in the reference: an open client sends each request at its scheduled
 * time; a closed loop of N slots sends the next request when one finishes; a capped
 * client sends at the scheduled time but holds at most `cap` in flight, queueing the
 * rest in a FIFO semaphore. Requests leave the client in index order.
 *
 * Fields live on the kernel object itself (a base class, not a member object), so the
 * kernels' hot loops read them exactly as before.
 */
import type { TraceBuilder } from './step-trace.ts';
import type { ClientSpec, SimOptions, SimResult, Workload } from './types.ts';

export const OPEN = 0;
export const CLOSED = 1;
export const CAPPED = 2;

export class Requests {
  readonly n: number;
  readonly kind: number;
  /** Closed: slots. Capped: cap. Open: unused. */
  readonly limit: number;

  // ---- per request (indexed by request number) ----
  readonly isl: Int32Array;
  readonly osl: Int32Array;
  readonly cached: Int32Array;
  /** Output tokens emitted so far; read and written only when the request is not running. */
  readonly gen: Int32Array;
  readonly npre: Int32Array;
  readonly dueT: Float64Array;
  readonly sendT: Float64Array;
  readonly firstT: Float64Array;
  readonly finishT: Float64Array;
  /** Token times: request i's tokens are tokTimes[tokOffsets[i] ..), in order of emission. */
  readonly tokOffsets: Int32Array | null;
  readonly tokTimes: Float64Array | null;
  readonly schedT: Float64Array;

  // ---- server waiting queue: a ring (preempted requests go back to its front) ----
  readonly wq: Int32Array;
  readonly wMask: number;
  wHead = 0;
  wLen = 0;

  // ---- client side ----
  /** Next request the client has neither sent nor queued (the reference's `nxt`). */
  nxt = 0;
  inflight = 0;
  /** Capped clients' FIFO semaphore queue; each request enters at most once, so no wrap. */
  readonly cq: Int32Array;
  cqHead = 0;
  cqTail = 0;

  // ---- global state ----
  t = 0;
  done = 0;
  preemptions = 0;

  constructor(w: Workload, client: ClientSpec, opts: SimOptions) {
    const n = w.isl.length;
    this.n = n;
    this.kind = client.kind === 'open' ? OPEN : client.kind === 'closed' ? CLOSED : CAPPED;
    this.limit = client.kind === 'closed' ? client.slots : client.kind === 'capped' ? client.cap : 0;

    this.isl = Int32Array.from(w.isl);
    this.osl = Int32Array.from(w.osl);
    this.cached = w.cached ? Int32Array.from(w.cached) : new Int32Array(n);
    this.gen = new Int32Array(n);
    this.npre = new Int32Array(n);
    this.dueT = new Float64Array(n);
    this.sendT = new Float64Array(n).fill(NaN);
    this.firstT = new Float64Array(n).fill(NaN);
    this.finishT = new Float64Array(n).fill(NaN);
    this.schedT = client.kind === 'closed' ? new Float64Array(n) : Float64Array.from(client.times);
    this.dueT.set(this.schedT);

    if (opts.recordTokens) {
      const off = new Int32Array(n + 1);
      let total = 0;
      for (let i = 0; i < n; i++) {
        off[i] = total;
        total += this.osl[i];
      }
      off[n] = total;
      this.tokOffsets = off;
      this.tokTimes = new Float64Array(total);
    } else {
      this.tokOffsets = null;
      this.tokTimes = null;
    }

    let ring = 1;
    while (ring < n) ring <<= 1;
    this.wq = new Int32Array(ring);
    this.wMask = ring - 1;
    this.cq = new Int32Array(this.kind === CAPPED ? n : 0);
  }

  send(rid: number, ts: number): void {
    this.sendT[rid] = ts;
    this.inflight++;
    this.wq[(this.wHead + this.wLen) & this.wMask] = rid;
    this.wLen++;
  }

  /** Open and capped clients: send (or queue behind the cap) every request due by `upto`, in index order. */
  dispatchArrivals(upto: number): void {
    const n = this.n;
    const sched = this.schedT;
    while (this.nxt < n && sched[this.nxt] <= upto) {
      const rid = this.nxt++;
      if (this.kind === OPEN || (this.inflight < this.limit && this.cqHead === this.cqTail)) {
        this.send(rid, sched[rid]);
      } else {
        this.cq[this.cqTail++] = rid;
      }
    }
  }

  /** After completions at `ts`: closed loops send the next requests, capped ones drain their FIFO. */
  refill(ts: number): void {
    if (this.kind === CLOSED) {
      while (this.nxt < this.n && this.inflight < this.limit) this.send(this.nxt++, ts);
    } else if (this.kind === CAPPED) {
      while (this.cqHead < this.cqTail && this.inflight < this.limit) this.send(this.cq[this.cqHead++], ts);
    }
  }

  /** The run's result: the per-request records as they stand, and the step trace if one was kept. */
  result(steps: number, trace: TraceBuilder | null): SimResult {
    const result: SimResult = {
      n: this.n,
      preemptions: this.preemptions,
      steps,
      makespan: this.t,
      dueT: this.dueT,
      sendT: this.sendT,
      firstT: this.firstT,
      finishT: this.finishT,
      npre: this.npre,
      isl: this.isl,
      osl: this.osl,
    };
    if (this.tokOffsets && this.tokTimes) result.tokenTimes = { offsets: this.tokOffsets, times: this.tokTimes };
    if (trace) result.stepTrace = trace.build();
    return result;
  }
}
