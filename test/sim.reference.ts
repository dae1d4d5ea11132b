/**
 * A literal, slow port of the article's `run` (appendix), object per request, kept
 * only for tests: the fast engine must agree with it bit for bit on random inputs,
 * including regimes the golden cases do not reach.
 */
import { stepTime } from '../src/sim/roofline.ts';
import type { ClientSpec, ServerConfig, Workload } from '../src/sim/types.ts';

interface Req {
  isl: number; osl: number; cached: number; computed: number; gen: number; blocks: number;
  npre: number; schedT: number; sendT: number; firstT: number; finishT: number; tok: number[];
}

export function referenceRun(cfg: ServerConfig, w: Workload, client: ClientSpec) {
  const n = w.isl.length;
  const reqs: Req[] = [];
  for (let i = 0; i < n; i++) {
    const cached = w.cached ? w.cached[i] : 0;
    reqs.push({ isl: w.isl[i], osl: w.osl[i], cached, computed: cached, gen: 0, blocks: 0, npre: 0,
      schedT: client.kind === 'closed' ? 0 : client.times[i], sendT: NaN, firstT: NaN, finishT: NaN, tok: [] });
  }
  const kind = client.kind;
  const bs = cfg.blockSize;
  let free = Math.floor(cfg.kvCapacityTokens / bs);
  const waiting: Req[] = [];
  let running: Req[] = [];
  let t = 0;
  let nxt = 0;
  let inflight = 0;
  const clientQ: Req[] = [];
  let done = 0;
  let preemptions = 0;
  let nSteps = 0;
  const steps: number[][] = [];
  const cap = client.kind === 'capped' ? client.cap : 0;
  const N = client.kind === 'closed' ? client.slots : 0;
  const send = (r: Req, ts: number) => { r.sendT = ts; inflight++; waiting.push(r); };
  if (kind === 'closed') while (nxt < n && inflight < N) send(reqs[nxt++], 0.0);
  const dispatch = (upto: number) => {
    while (nxt < n && reqs[nxt].schedT <= upto) {
      const r = reqs[nxt++];
      if (kind === 'open') send(r, r.schedT);
      else if (inflight < cap && clientQ.length === 0) send(r, r.schedT);
      else clientQ.push(r);
    }
  };
  const ceil = (a: number) => Math.ceil(a / bs);
  while (done < n) {
    if (kind !== 'closed') dispatch(t);
    if (running.length === 0 && waiting.length === 0) {
      if (kind !== 'closed' && nxt < n) { t = Math.max(t, reqs[nxt].schedT); continue; }
      throw new Error('deadlock');
    }
    let budget = cfg.tokenBudget;
    const sched: [Req, number][] = [];
    let preemptedNow = false;
    let i = 0;
    while (i < running.length && budget > 0) {
      const r = running[i];
      const need = r.isl + r.gen - r.computed;
      const nNew = need <= budget ? need : budget;
      const want = ceil(r.computed - r.cached + nNew) - r.blocks;
      let selfPreempted = false;
      while (want > free) {
        const v = running.pop()!;
        free += v.blocks; v.blocks = 0; v.computed = v.cached; v.npre++; preemptions++; preemptedNow = true;
        waiting.unshift(v);
        if (v === r) { selfPreempted = true; break; }
      }
      if (selfPreempted) break;
      free -= want; r.blocks += want; sched.push([r, nNew]); budget -= nNew; i++;
    }
    if (!preemptedNow) {
      while (waiting.length && budget > 0 && running.length < cfg.maxNumSeqs) {
        const r = waiting[0];
        const need = r.isl + r.gen - r.computed;
        const nNew = need <= budget ? need : budget;
        const want = ceil(r.computed - r.cached + nNew) - r.blocks;
        if (want > free) break;
        waiting.shift();
        free -= want; r.blocks += want; running.push(r); sched.push([r, nNew]); budget -= nNew;
      }
    }
    if (sched.length === 0) throw new Error('nothing schedulable');
    let nTok = 0, nLogits = 0, attn = 0.0, pre = 0.0, kv = 0.0, nDec = 0;
    for (const [r, k] of sched) {
      nTok += k;
      const c0 = r.computed;
      if (r.computed + k === r.isl + r.gen) nLogits++;
      if (k === 1 && c0 > 0) { attn += c0 + 1; kv += c0; nDec++; }
      else { pre += k * c0 + (k * (k + 1)) / 2.0; kv += c0; }
    }
    const dt = stepTime(cfg, nTok, nLogits, attn, pre, kv);
    const tEnd = t + dt;
    steps.push([t, dt, nDec, nTok - nDec, running.length, waiting.length, Math.floor(cfg.kvCapacityTokens / bs) - free]);
    nSteps++;
    if (kind !== 'closed') dispatch(tEnd);
    const finished: Req[] = [];
    for (const [r, k] of sched) {
      r.computed += k;
      if (r.computed === r.isl + r.gen) {
        r.gen++;
        if (Number.isNaN(r.firstT)) r.firstT = tEnd;
        r.tok.push(tEnd);
        if (r.gen >= r.osl) { r.finishT = tEnd; finished.push(r); }
      }
    }
    if (finished.length) {
      const fin = new Set(finished);
      running = running.filter((r) => !fin.has(r));
      for (const r of finished) { free += r.blocks; r.blocks = 0; done++; inflight--; }
      if (kind === 'closed') while (nxt < n && inflight < N) send(reqs[nxt++], tEnd);
      else if (kind === 'capped') while (clientQ.length && inflight < cap) send(clientQ.shift()!, tEnd);
    }
    t = tEnd;
  }
  return { reqs, preemptions, steps: nSteps, makespan: t, trace: steps };
}
