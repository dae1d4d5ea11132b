/**
 * Simulator speed: simulated request-steps per second (one request served in one
 * engine step) on the workload: a 256-slot closed loop of InferenceX 1k/1k
 * requests (isl, osl uniform integers in [819, 1024]), 5,120 and 25,600 requests.
 * Target: ≥ 50 M request-steps/s on one core (the article's Python: ~1 M/s).
 */
import { Rng } from '../src/rng/index.ts';
import { defaultServerConfig, inferencexLengths, simulate, type SimOptions, type StepView } from '../src/sim/index.ts';

function workload(n: number) {
  const rng = new Rng(2024);
  return { isl: inferencexLengths(rng.fork('isl'), n, 1024, 0.8), osl: inferencexLengths(rng.fork('osl'), n, 1024, 0.8) };
}

function measure(n: number, reps: number, opts: SimOptions = {}, label = ''): void {
  const cfg = defaultServerConfig();
  const w = workload(n);
  const client = { kind: 'closed', slots: 256 } as const;
  // Count request-steps once with the observer (outside the timed runs).
  let requestSteps = 0;
  const count = (v: StepView) => {
    requestSteps += v.served;
  };
  const probe = simulate(cfg, w, client, { onStep: count });
  simulate(cfg, w, client, opts); // warm-up
  const walls: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = process.hrtime.bigint();
    const r = simulate(cfg, w, client, opts);
    walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
    if (r.steps !== probe.steps) throw new Error('nondeterministic run');
  }
  walls.sort((a, b) => a - b);
  const best = walls[0];
  const median = walls[Math.floor(walls.length / 2)];
  console.log(
    `closed 256 slots, ${n.toLocaleString('en')} InferenceX 1k/1k requests${label}: ${probe.steps.toLocaleString('en')} steps, ` +
      `${(requestSteps / 1e6).toFixed(2)} M request-steps, ${probe.makespan.toFixed(1)} s simulated; ` +
      `wall best ${(best * 1000).toFixed(1)} ms, median ${(median * 1000).toFixed(1)} ms over ${reps}; ` +
      `${(requestSteps / best / 1e6).toFixed(1)} M request-steps/s (best), ${(requestSteps / median / 1e6).toFixed(1)} M/s (median)`,
  );
}

export default async function (): Promise<void> {
  measure(5_120, 7);
  measure(25_600, 3);
  // what the options cost: an observer on every step, and every token time stored
  let tokens = 0;
  measure(5_120, 5, { onStep: (v) => void (tokens += v.tokens) }, ' (with onStep)');
  measure(5_120, 5, { recordTokens: true }, ' (with recordTokens)');
}
