/**
 * §9 Coordinated omission (Figure 8). A Poisson schedule whose requests wait
 * in the client for one of 64 in-flight slots (vLLM's --request-rate with --max-concurrency), offered
 * at 50–150% of what 64 in flight sustain. Timed from the send (after the
 * semaphore, what the tools print) and from when each request was due (what a
 * user experiences). Goodput both ways: vLLM's count of requests meeting the
 * SLOs per second (clock after the semaphore) and DistServe's highest rate at
 * which 90% of requests meet them (clock from due).
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, poissonTimes, simulate, type ServerConfig, type StepView } from '../src/sim/index.ts';
import { createRng } from '../src/rng/index.ts';
import { inferencexLengths } from '../src/sim/index.ts';
import { num, pctNum, configNumbers, overSeeds, percentileOverSeeds, seedList, tpotS } from './lib/measure.ts';
import { closedPoint, SWEEP } from './lib/sweep.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  cap: 64,
  loadsPct: [50, 60, 70, 80, 90, 100, 110, 125, 150],
  requests: 4000,
  /**
   * Independent runs per load. Near capacity the wait behind the cap comes
   * from a few arrival bursts, so one seed's due-clock p99 says little about
   * another's: every number is the median over the seeds, with their spread.
   */
  seeds: seedList(20),
  /**
   * Past capacity the due-clock tail grows with every request sent: the same
   * load run shorter shows by how much (whole runs, like the main one).
   */
  runLength: { loadPct: 150, requests: [2000, 3000] },
  /** SLOs for both goodputs (chosen): TTFT and TPOT. */
  slo: { ttftMs: 500, tpotMs: 50 },
  attainment: 0.9,
};

type Params = { loadPct: number; seed: number; requests: number };

export interface CappedRun {
  offered: number;
  achieved: number;
  ttftSendMs: Float64Array;
  ttftDueMs: Float64Array;
  e2eSendS: Float64Array;
  e2eDueS: Float64Array;
  tpotMs: Float64Array;
  duration: number;
}

/** One capped run: Poisson at `rate` behind a FIFO semaphore of `cap`. Exported for the sensitivity study, whose `watch` sees every engine step. */
export function cappedRun(rate: number, cap: number, n: number, seed: number, cfg: ServerConfig = defaultServerConfig(), watch?: (v: StepView) => void): CappedRun {
  const rng = createRng(seed).fork(`capped-${n}`);
  const times = poissonTimes(rng.fork('arrivals'), n, rate);
  const isl = inferencexLengths(rng.fork('isl'), n, SWEEP.isl, SWEEP.rangeRatio);
  const osl = inferencexLengths(rng.fork('osl'), n, SWEEP.osl, SWEEP.rangeRatio);
  const r = simulate(cfg, { isl, osl }, { kind: 'capped', times, cap }, watch ? { onStep: watch } : {});
  const f = (fn: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => fn(i));
  // vLLM's benchmark duration: from the first request's generation to the last completion.
  const duration = r.makespan - r.dueT[0];
  return {
    offered: rate,
    achieved: n / duration,
    ttftSendMs: f((i) => (r.firstT[i] - r.sendT[i]) * 1000),
    ttftDueMs: f((i) => (r.firstT[i] - r.dueT[i]) * 1000),
    e2eSendS: f((i) => r.finishT[i] - r.sendT[i]),
    e2eDueS: f((i) => r.finishT[i] - r.dueT[i]),
    tpotMs: f((i) => tpotS(r, i) * 1000),
    duration,
  };
}

const experiment = defineExperiment({
  id: 'omission',
  title: 'Coordinated omission',
  config,
  jobs: (c) => [
    ...c.loadsPct.flatMap((loadPct) => c.seeds.map((seed) => ({ id: `${loadPct}pct-s${seed}`, params: { loadPct, seed, requests: c.requests } }))),
    ...c.runLength.requests.flatMap((requests) =>
      c.seeds.map((seed) => ({ id: `${c.runLength.loadPct}pct-n${requests}-s${seed}`, params: { loadPct: c.runLength.loadPct, seed, requests } })),
    ),
  ],
  runJob(c, p: Params, ctx) {
    const capacity = closedPoint(c.cap).rate;
    const run = cappedRun((capacity * p.loadPct) / 100, c.cap, p.requests, p.seed);
    ctx.progress(1, 1, p.requests);
    let goodSend = 0;
    let goodDue = 0;
    for (let i = 0; i < p.requests; i++) {
      const tpotOk = run.tpotMs[i] <= c.slo.tpotMs;
      if (tpotOk && run.ttftSendMs[i] <= c.slo.ttftMs) goodSend++;
      if (tpotOk && run.ttftDueMs[i] <= c.slo.ttftMs) goodDue++;
    }
    return {
      ...p,
      capacity,
      offered: run.offered,
      achieved: run.achieved,
      ttftSend: pctNum(run.ttftSendMs, 0.99, 'ms'),
      ttftDue: pctNum(run.ttftDueMs, 0.99, 'ms'),
      e2eSend: pctNum(run.e2eSendS, 0.99, 's'),
      e2eDue: pctNum(run.e2eDueS, 0.99, 's'),
      vllmGoodput: goodSend / run.duration,
      attainmentDue: goodDue / p.requests,
      attainmentSend: goodSend / p.requests,
    };
  },
  combine(c, results) {
    const main = results.filter((r) => r.requests === c.requests);
    const at = (load: number) => main.filter((r) => r.loadPct === load);
    const n: Record<string, NumberValue> = {};
    const seeds = (rs: typeof main, f: (r: (typeof main)[number]) => number, unit: string, size: number | null = c.requests) => overSeeds(rs.map(f), unit, size);
    for (const load of c.loadsPct) {
      const g = at(load);
      const k = `load${load}`;
      n[`${k}.offered_req_per_s`] = num(g[0]!.offered, 'req/s');
      n[`${k}.achieved_req_per_s`] = seeds(g, (r) => r.achieved, 'req/s');
      n[`${k}.p99_ttft_send_ms`] = percentileOverSeeds(g.map((r) => r.ttftSend));
      n[`${k}.p99_ttft_due_ms`] = percentileOverSeeds(g.map((r) => r.ttftDue));
      n[`${k}.p99_e2e_send_s`] = percentileOverSeeds(g.map((r) => r.e2eSend));
      n[`${k}.p99_e2e_due_s`] = percentileOverSeeds(g.map((r) => r.e2eDue));
      n[`${k}.due_over_send_p99_x`] = seeds(g, (r) => r.ttftDue.value / r.ttftSend.value, '×', null);
      n[`${k}.vllm_goodput_req_per_s`] = seeds(g, (r) => r.vllmGoodput, 'req/s');
      n[`${k}.slo_attainment_due_pct`] = seeds(g, (r) => 100 * r.attainmentDue, '%');
      n[`${k}.slo_attainment_send_pct`] = seeds(g, (r) => 100 * r.attainmentSend, '%');
      n[`${k}.load_pct`] = num(load, '%');
    }
    for (const requests of c.runLength.requests) {
      const g = results.filter((r) => r.requests === requests);
      n[`load${c.runLength.loadPct}.requests${requests}.p99_ttft_due_ms`] = percentileOverSeeds(g.map((r) => r.ttftDue));
      n[`load${c.runLength.loadPct}.requests${requests}.requests`] = num(requests, 'requests');
    }
    n['config.seeds'] = num(c.seeds.length, 'seeds');
    n['capacity_req_per_s'] = num(main[0]!.capacity, 'req/s');
    const sendMedians = c.loadsPct.map((load) => n[`load${load}.p99_ttft_send_ms`]!.value);
    n['p99_ttft_send.min_ms'] = num(Math.min(...sendMedians), 'ms', c.loadsPct.length);
    n['p99_ttft_send.max_ms'] = num(Math.max(...sendMedians), 'ms', c.loadsPct.length);
    // Per seed: the highest achieved rate over the sweep.
    n['achieved.max_req_per_s'] = overSeeds(c.seeds.map((seed) => Math.max(...main.filter((r) => r.seed === seed).map((r) => r.achieved))), 'req/s', c.loadsPct.length);
    // DistServe, per seed: the highest offered rate up to which every point keeps ≥ 90% of requests within the SLOs (clock from due).
    const distserve = c.seeds.map((seed) => {
      let best = 0;
      for (const r of main.filter((x) => x.seed === seed).sort((a, b) => a.offered - b.offered)) {
        if (r.attainmentDue >= c.attainment) best = r.offered;
        else break;
      }
      return best;
    });
    n['distserve_goodput_req_per_s'] = overSeeds(distserve, 'req/s', c.loadsPct.length);
    n['slo.ttft_ms'] = num(c.slo.ttftMs, 'ms');
    n['slo.attainment_pct'] = num(100 * c.attainment, '%');
    Object.assign(n, configNumbers(c, { cap: 'requests', requests: 'requests' }));
    n['slo.tpot_ms'] = num(c.slo.tpotMs, 'ms');
    const band = (load: number, f: (r: (typeof main)[number]) => number) => {
      const v = overSeeds(at(load).map(f), 's');
      return { v: v.value, q1: v.spread?.q1 ?? v.value, q3: v.spread?.q3 ?? v.value };
    };
    const lines = c.loadsPct.flatMap((load) => [
      { load, clock: 'from send (printed)', ...band(load, (r) => r.ttftSend.value / 1000) },
      { load, clock: 'from due (experienced)', ...band(load, (r) => r.ttftDue.value / 1000) },
    ]);
    const rates = c.loadsPct.map((load) => ({ load, offered: n[`load${load}.offered_req_per_s`]!.value, achieved: n[`load${load}.achieved_req_per_s`]!.value }));
    return { data: { lines, rates, seeds: c.seeds.length }, numbers: n };
  },
  clauses: {
    arrivals: 'Poisson at 50–150% of the 64-slot capacity, behind a client FIFO semaphore of 64 (vLLM --request-rate + --max-concurrency)',
    clock: 'from send (after the semaphore) vs from due (the scheduled arrival)',
    window: `whole run of 4,000 requests; overloaded runs keep growing with run length; medians over ${config.seeds.length} seeds per load`,
    definitions: 'p99 by numpy linear interpolation with 95% order-statistic interval; vLLM goodput = requests meeting TTFT ≤ 500 ms and TPOT ≤ 50 ms ÷ duration (clock after the semaphore); DistServe goodput = highest offered rate with ≥ 90% meeting them (clock from due)',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths in [819, 1,024] in and out',
  },
});
export default experiment;

/** The combined data: what experiments/figures/omission.ts draws. */
export type OmissionData = DataOf<typeof experiment>;
