/**
 * The two kernels (engine.ts) agree bit for bit on random workloads: open, closed and
 * capped clients, pools small enough to preempt, prefix caching, token budgets smaller
 * than the sequence cap, block sizes that are not powers of two, with token recording, step
 * traces and step observers on or off. Bit for bit means every float's bytes, not ===
 * (which would let −0 pass for 0).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/rng/index.ts';
import { runEngine } from '../src/sim/engine.ts';
import { scenarioFrom } from './helpers/scenarios.ts';
import {
  defaultServerConfig,
  inferencexLengths,
  validateInputs,
  type ClientSpec,
  type Kernel,
  type ServerConfig,
  type SimOptions,
  type SimResult,
  type StepView,
  type Workload,
} from '../src/sim/index.ts';

interface Case {
  cfg: ServerConfig;
  workload: Workload;
  client: ClientSpec;
  recordTokens: boolean;
  recordSteps: boolean;
  observe: boolean;
}

const caseArb = fc
  .record({
    n: fc.integer({ min: 1, max: 300 }),
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    blockSize: fc.constantFrom(1, 3, 16),
    // from budgets smaller than the batch (decoders held back) to roomy ones
    tokenBudget: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 64, max: 4096 })),
    maxNumSeqs: fc.integer({ min: 1, max: 300 }),
    // pool in units of the largest request's peak: 1–2 preempts constantly, 40 rarely
    poolFactor: fc.oneof(fc.double({ min: 1, max: 2, noNaN: true }), fc.double({ min: 2, max: 40, noNaN: true })),
    kind: fc.constantFrom('open', 'closed', 'capped'),
    limit: fc.integer({ min: 1, max: 128 }),
    rate: fc.double({ min: 0.5, max: 2000, noNaN: true }),
    maxIsl: fc.integer({ min: 1, max: 1200 }),
    maxOsl: fc.integer({ min: 1, max: 400 }),
    withCached: fc.boolean(),
    recordTokens: fc.boolean(),
    recordSteps: fc.boolean(),
    observe: fc.boolean(),
  })
  .map((p): Case => ({ ...scenarioFrom(p), recordTokens: p.recordTokens, recordSteps: p.recordSteps, observe: p.observe }));

/** One run, with everything a kernel can report: the result and every step view, 12 numbers a step. */
function run(c: Case, kernel: Kernel): { res: SimResult; views: Float64Array | null } {
  let views = new Float64Array(c.observe ? 12 * 1024 : 0);
  let k = 0;
  const opts: SimOptions = { kernel, recordTokens: c.recordTokens, recordSteps: c.recordSteps };
  if (c.observe) {
    opts.onStep = (v: StepView) => {
      if (k + 12 > views.length) {
        const grown = new Float64Array(2 * views.length);
        grown.set(views);
        views = grown;
      }
      views[k++] = v.step; views[k++] = v.t; views[k++] = v.dt; views[k++] = v.served;
      views[k++] = v.decodes; views[k++] = v.prefillTokens; views[k++] = v.tokens; views[k++] = v.running;
      views[k++] = v.waiting; views[k++] = v.usedBlocks; views[k++] = v.finished; views[k++] = v.done;
    };
  }
  const res = runEngine(c.cfg, c.workload, c.client, opts);
  return { res, views: c.observe ? views.subarray(0, k) : null };
}

/** The bytes of a typed array (absent: none), so that 0 and −0, or two NaN payloads, differ. */
function bytes(a: Float64Array | Int32Array | undefined): Buffer {
  return a === undefined ? Buffer.alloc(0) : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Every field of a run, as bytes. */
function fields(r: { res: SimResult; views: Float64Array | null }): Record<string, Buffer> {
  const { res } = r;
  const tr = res.stepTrace;
  return {
    counts: bytes(Float64Array.of(res.n, res.steps, res.preemptions, res.makespan)),
    dueT: bytes(res.dueT),
    sendT: bytes(res.sendT),
    firstT: bytes(res.firstT),
    finishT: bytes(res.finishT),
    npre: bytes(res.npre),
    tokenOffsets: bytes(res.tokenTimes?.offsets),
    tokenTimes: bytes(res.tokenTimes?.times),
    traceT: bytes(tr?.t),
    traceDt: bytes(tr?.dt),
    traceDecodes: bytes(tr?.decodes),
    tracePrefill: bytes(tr?.prefillTokens),
    traceRunning: bytes(tr?.running),
    traceWaiting: bytes(tr?.waiting),
    traceUsedBlocks: bytes(tr?.usedBlocks),
    views: bytes(r.views ?? undefined),
  };
}

/** Names of the fields whose bytes differ between two runs (empty: bit-identical). */
function differences(a: { res: SimResult; views: Float64Array | null }, b: { res: SimResult; views: Float64Array | null }): string[] {
  const fa = fields(a);
  const fb = fields(b);
  return Object.keys(fa).filter((k) => !fa[k].equals(fb[k]));
}

describe('event kernel vs stepwise kernel', () => {
  it('agree bit for bit on random workloads', () => {
    let preempting = 0;
    let smallBudget = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        validateInputs(c.cfg, c.workload, c.client);
        const event = run(c, 'event');
        const stepwise = run(c, 'stepwise');
        expect(differences(event, stepwise)).toEqual([]);
        if (event.res.preemptions > 0) preempting++;
        if (c.cfg.tokenBudget < Math.min(c.cfg.maxNumSeqs, c.workload.isl.length)) smallBudget++;
        if (stepwise.views) {
          // what the event kernel's fast path relies on, seen in the stepwise kernel: every
          // running request is served in every step, and no more run than the token budget
          const v = stepwise.views;
          let bad = -1;
          for (let j = 0; j < v.length && bad < 0; j += 12) if (v[j + 3] !== v[j + 7] || v[j + 7] > c.cfg.tokenBudget) bad = j / 12;
          expect(bad, `step ${bad}: served ${v[bad * 12 + 3]} of ${v[bad * 12 + 7]} running`).toBe(-1);
        }
      }),
      { numRuns: 250, seed: 15 },
    );
    // the draw reaches the regimes the general path exists for
    expect(preempting).toBeGreaterThan(25);
    expect(smallBudget).toBeGreaterThan(25);
  });

  it('agree on the long closed loop the fast path is for (256 slots, InferenceX 1k/1k)', () => {
    const rng = new Rng(7);
    const n = 1024;
    const w = { isl: inferencexLengths(rng.fork('isl'), n, 1024, 0.8), osl: inferencexLengths(rng.fork('osl'), n, 1024, 0.8) };
    const c: Case = {
      cfg: defaultServerConfig(), workload: w, client: { kind: 'closed', slots: 256 },
      recordTokens: true, recordSteps: true, observe: true,
    };
    const event = run(c, 'event');
    expect(event.res.steps).toBeGreaterThan(3000);
    expect(differences(event, run(c, 'stepwise'))).toEqual([]);
  });

  it('report the same errors', () => {
    const cfg = defaultServerConfig();
    for (const kernel of ['event', 'stepwise'] as const) {
      expect(() => runEngine({ ...cfg, kvCapacityTokens: 32 }, { isl: [40], osl: [1] }, { kind: 'closed', slots: 1 }, { kernel }))
        .toThrow(/no request could be scheduled/);
      expect(() => runEngine(cfg, { isl: [4], osl: [1] }, { kind: 'closed', slots: 0 }, { kernel })).toThrow(/deadlock/);
    }
  });
});
