/**
 * Property tests over random workloads, servers and clients: the engine (its default,
 * event kernel) agrees bit for bit with a literal port of the reference
 * (test/sim.reference.ts), and the run obeys the invariants a user relies on. Plus Little's law on a long closed loop.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/rng/index.ts';
import { runEngine } from '../src/sim/engine.ts';
import {
  defaultServerConfig,
  inferencexLengths,
  simulate,
  SimulationError,
  type ClientSpec,
  type SimResult,
  type StepView,
} from '../src/sim/index.ts';
import { referenceRun } from './sim.reference.ts';
import { scenarioFrom, type Scenario } from './helpers/scenarios.ts';
import { expectEqual } from './helpers/same.ts';

const scenarioArb = fc
  .record({
    n: fc.integer({ min: 1, max: 40 }),
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    blockSize: fc.constantFrom(1, 4, 16),
    tokenBudget: fc.integer({ min: 1, max: 2048 }),
    maxNumSeqs: fc.integer({ min: 1, max: 48 }),
    poolFactor: fc.double({ min: 1, max: 6, noNaN: true }),
    kind: fc.constantFrom('open', 'closed', 'capped'),
    limit: fc.integer({ min: 1, max: 16 }),
    rate: fc.double({ min: 0.5, max: 300, noNaN: true }),
    maxIsl: fc.integer({ min: 1, max: 800 }),
    maxOsl: fc.integer({ min: 1, max: 120 }),
    withCached: fc.boolean(),
  })
  .map(scenarioFrom);

/** Requests in flight (sent, not finished) just after time T: sends and completions at T both counted. */
function inflightAt(res: SimResult, T: number): number {
  let k = 0;
  for (let i = 0; i < res.n; i++) if (res.sendT[i] <= T && !(res.finishT[i] <= T)) k++;
  return k;
}

describe('engine vs literal reference port', () => {
  it('agrees bit for bit on random scenarios', () => {
    fc.assert(
      fc.property(scenarioArb, ({ cfg, workload, client }) => {
        const res = simulate(cfg, workload, client, { recordSteps: true, recordTokens: true });
        const ref = referenceRun(cfg, workload, client);
        expect(res.steps).toBe(ref.steps);
        expect(res.preemptions).toBe(ref.preemptions);
        expect(res.makespan).toBe(ref.makespan);
        expectEqual(Array.from(res.npre), ref.reqs.map((r) => r.npre));
        expectEqual(Array.from(res.sendT), ref.reqs.map((r) => r.sendT));
        expectEqual(Array.from(res.firstT), ref.reqs.map((r) => r.firstT));
        expectEqual(Array.from(res.finishT), ref.reqs.map((r) => r.finishT));
        const tt = res.tokenTimes!;
        expectEqual(Array.from(tt.times), ref.reqs.flatMap((r) => r.tok));
        expectEqual(Array.from(tt.offsets.subarray(1)), ref.reqs.map((r) => r.tok.length)
          .map(((sum) => (len: number) => (sum += len))(0)));
        const tr = res.stepTrace!;
        const rows = Array.from({ length: tr.count }, (_, s) =>
          [tr.t[s], tr.dt[s], tr.decodes[s], tr.prefillTokens[s], tr.running[s], tr.waiting[s], tr.usedBlocks[s]]);
        expectEqual(rows, ref.trace);
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });
});

describe('invariants', () => {
  it('hold on random scenarios', () => {
    fc.assert(
      fc.property(scenarioArb, ({ cfg, workload, client }) => {
        const views: number[][] = [];
        const res = simulate(cfg, workload, client, {
          recordSteps: true,
          recordTokens: true,
          onStep: (v: StepView) => views.push([v.t, v.dt, v.decodes, v.prefillTokens, v.running, v.waiting, v.usedBlocks]),
        });
        const n = res.n;
        const totalBlocks = Math.floor(cfg.kvCapacityTokens / cfg.blockSize);
        const tr = res.stepTrace!;
        // Collect violations instead of one expect per element (thousands per scenario).
        const bad: string[] = [];
        const check = (ok: boolean, what: () => string) => {
          if (!ok && bad.length < 5) bad.push(what());
        };
        check(tr.count === res.steps && views.length === res.steps, () => `trace/steps/views: ${tr.count} ${res.steps} ${views.length}`);
        for (let s = 0; s < tr.count; s++) {
          // KV blocks in use never negative nor above the pool; the sequence cap holds
          check(tr.usedBlocks[s] >= 0 && tr.usedBlocks[s] <= totalBlocks, () => `step ${s}: used blocks ${tr.usedBlocks[s]}`);
          check(tr.running[s] <= cfg.maxNumSeqs, () => `step ${s}: running ${tr.running[s]}`);
          const row = [tr.t[s], tr.dt[s], tr.decodes[s], tr.prefillTokens[s], tr.running[s], tr.waiting[s], tr.usedBlocks[s]];
          check(row.every((v, j) => v === views[s][j]), () => `step ${s}: onStep view differs from the trace`);
        }
        // every request finishes; its tokens are in order, first = first-token time, last = finish
        const { offsets, times } = res.tokenTimes!;
        for (let i = 0; i < n; i++) {
          check(Number.isFinite(res.finishT[i]), () => `request ${i} never finished`);
          check(offsets[i + 1] - offsets[i] === workload.osl[i], () => `request ${i}: token count`);
          for (let j = offsets[i] + 1; j < offsets[i + 1]; j++) check(times[j] >= times[j - 1], () => `request ${i}: token times decrease`);
          check(times[offsets[i]] === res.firstT[i], () => `request ${i}: first token time`);
          check(times[offsets[i + 1] - 1] === res.finishT[i], () => `request ${i}: last token time`);
          check(res.sendT[i] >= res.dueT[i], () => `request ${i}: sent before due`);
          check(res.firstT[i] > res.sendT[i], () => `request ${i}: first token before send`);
        }
        check(res.makespan === Math.max(...res.finishT), () => 'makespan is not the last finish');
        const stepEnds = Array.from({ length: tr.count }, (_, s) => tr.t[s] + tr.dt[s]);
        if (client.kind === 'open') {
          for (let i = 0; i < n; i++) check(res.sendT[i] === res.dueT[i], () => `open request ${i}: send ≠ due`);
        } else if (client.kind === 'capped') {
          // FIFO: sent in index order; never more than cap in flight
          for (let i = 1; i < n; i++) check(res.sendT[i] >= res.sendT[i - 1], () => `capped request ${i} overtook ${i - 1}`);
          for (const T of stepEnds) check(inflightAt(res, T) <= client.cap, () => `more than cap in flight at ${T}`);
          for (let i = 0; i < n; i++) check(res.dueT[i] === client.times[i], () => `capped request ${i}: due ≠ scheduled`);
        } else {
          // a closed loop holds N in flight while requests remain
          for (let i = 0; i < n; i++) check(res.dueT[i] === 0, () => `closed request ${i}: due ≠ 0`);
          for (const T of [0, ...stepEnds]) {
            let finished = 0;
            for (let i = 0; i < n; i++) if (res.finishT[i] <= T) finished++;
            const want = Math.min(client.slots, n - finished);
            check(inflightAt(res, T) === want, () => `closed loop: ${inflightAt(res, T)} in flight at ${T}, want ${want}`);
          }
        }
        expect(bad).toEqual([]);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe("Little's law", () => {
  it('rate × mean latency = N within 1% over the steady window of a long closed loop', () => {
    const cfg = defaultServerConfig();
    for (const [seed, N] of [[1, 32], [2, 64], [3, 128]] as const) {
      const rng = new Rng(seed);
      const n = 200 * N;
      const w = { isl: inferencexLengths(rng.fork('isl'), n, 1024, 0.8), osl: inferencexLengths(rng.fork('osl'), n, 1024, 0.8) };
      const res = simulate(cfg, w, { kind: 'closed', slots: N });
      // steady window: drop the first and last 20% of the run (first wave, drain)
      const t1 = 0.2 * res.makespan;
      const t2 = 0.8 * res.makespan;
      let count = 0;
      let sumLatency = 0;
      for (let i = 0; i < n; i++) {
        if (res.finishT[i] > t1 && res.finishT[i] <= t2) {
          count++;
          sumLatency += res.finishT[i] - res.sendT[i];
        }
      }
      const L = (count / (t2 - t1)) * (sumLatency / count);
      expect(Math.abs(L / N - 1), `N=${N}: λW = ${L}`).toBeLessThan(0.01);
    }
  });
});

describe('errors', () => {
  const cfg = defaultServerConfig();
  it('rejects bad inputs with a message naming the field', () => {
    const c: ClientSpec = { kind: 'closed', slots: 1 };
    expect(() => simulate(cfg, { isl: [0], osl: [1] }, c)).toThrow(/workload\.isl\[0\]/);
    expect(() => simulate(cfg, { isl: [5], osl: [1, 2] }, c)).toThrow(/workload\.osl has 2/);
    expect(() => simulate(cfg, { isl: [5], osl: [1], cached: [5] }, c)).toThrow(/workload\.cached\[0\]/);
    expect(() => simulate(cfg, { isl: [5], osl: [1] }, { kind: 'closed', slots: 0 })).toThrow(/client\.slots/);
    expect(() => simulate(cfg, { isl: [5, 5], osl: [1, 1] }, { kind: 'open', times: [1, 0] })).toThrow(/non-decreasing/);
    expect(() => simulate(cfg, { isl: [5], osl: [1] }, { kind: 'capped', times: [0], cap: 0 })).toThrow(/client\.cap/);
    expect(() => simulate({ ...cfg, kvCapacityTokens: 32 }, { isl: [40], osl: [1] }, c)).toThrow(/needs 3 KV blocks/);
  });

  it('turns the reference\'s "nothing schedulable" into a SimulationError', () => {
    // bypass validation: a request larger than the pool preempts itself forever
    const run = () => runEngine({ ...cfg, kvCapacityTokens: 32 }, { isl: [40], osl: [1] }, { kind: 'closed', slots: 1 });
    expect(run).toThrow(SimulationError);
    expect(run).toThrow(/no request could be scheduled/);
  });

  it('turns the reference\'s deadlock into a SimulationError', () => {
    // bypass validation: a closed loop with no slots never sends anything
    const run = () => runEngine(cfg, { isl: [4], osl: [1] }, { kind: 'closed', slots: 0 });
    expect(run).toThrow(SimulationError);
    expect(run).toThrow(/deadlock/);
  });

  it('handles an empty workload', () => {
    const res = simulate(cfg, { isl: [], osl: [] }, { kind: 'open', times: [] });
    expect(res.steps).toBe(0);
    expect(res.makespan).toBe(0);
  });
});
