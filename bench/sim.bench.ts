/**
 * Simulator speed: simulated request-steps per second (one request served in one
 * engine step) on a 256-slot closed loop of InferenceX 1k/1k requests (isl, osl
 * uniform integers in [819, 1024]).
 *
 * The two kernels (src/sim/engine.ts) run the same workload in alternation, so a
 * shared machine's load falls on both alike. Each run is timed by the wall clock and by
 * the process's CPU time (user + system), which a busy machine inflates far less; the
 * speed-up is the ratio of the kernels' best times. Target: event kernel ≥ 10× the
 * stepwise kernel on 5,120 requests.
 * Then what the options cost on the event kernel: a step observer, every token time.
 */
import { Rng } from '../src/rng/index.ts';
import { defaultServerConfig, inferencexLengths, simulate, type Kernel, type SimOptions, type StepView } from '../src/sim/index.ts';

const SLOTS = 256;

function workload(n: number) {
  const rng = new Rng(2024);
  return { isl: inferencexLengths(rng.fork('isl'), n, 1024, 0.8), osl: inferencexLengths(rng.fork('osl'), n, 1024, 0.8) };
}

const fmtMs = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const rate = (requestSteps: number, s: number) => `${(requestSteps / s / 1e6).toFixed(0)} M`;

interface Timings {
  /** Sorted, s. */
  wall: number[];
  /** Sorted CPU time of the process (user + system), s. */
  cpu: number[];
}

/** `reps` timed samples per variant (each the mean of a batch of runs), alternating variants; plus the run's size. */
function measure(n: number, reps: number, variants: SimOptions[]) {
  const cfg = defaultServerConfig();
  const w = workload(n);
  const client = { kind: 'closed', slots: SLOTS } as const;
  // request-steps counted once with an observer, outside the timed runs
  let requestSteps = 0;
  const probe = simulate(cfg, w, client, { onStep: (v: StepView) => void (requestSteps += v.served) });
  // Warm-up (the JIT's tiers) and batch size: a timed sample repeats a fast run until it
  // lasts about 20 ms, so timer resolution and one-off pauses weigh little.
  const batch = variants.map((o) => {
    let wall = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = process.hrtime.bigint();
      simulate(cfg, w, client, o);
      wall = Number(process.hrtime.bigint() - t0) / 1e9;
    }
    return Math.max(1, Math.min(50, Math.ceil(0.02 / wall)));
  });
  const times: Timings[] = variants.map(() => ({ wall: [], cpu: [] }));
  for (let i = 0; i < reps; i++) {
    variants.forEach((o, j) => {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let b = 0; b < batch[j]; b++) {
        const r = simulate(cfg, w, client, o);
        if (r.steps !== probe.steps || r.makespan !== probe.makespan) throw new Error('the kernels disagree or a run is nondeterministic');
      }
      times[j].wall.push(Number(process.hrtime.bigint() - t0) / 1e9 / batch[j]);
      const c = process.cpuUsage(c0);
      times[j].cpu.push((c.user + c.system) / 1e6 / batch[j]);
    });
  }
  for (const t of times) {
    t.wall.sort((a, b) => a - b);
    t.cpu.sort((a, b) => a - b);
  }
  const head =
    `closed ${SLOTS} slots, ${n.toLocaleString('en')} InferenceX 1k/1k requests: ${probe.steps.toLocaleString('en')} steps, ` +
    `${(requestSteps / 1e6).toFixed(2)} M request-steps, ${probe.makespan.toFixed(1)} s simulated`;
  return { head, requestSteps, times };
}

const median = (a: number[]) => a[Math.floor(a.length / 2)];

function line(label: string, requestSteps: number, t: Timings): string {
  return `  ${label.padEnd(24)} best ${fmtMs(t.cpu[0]).padStart(9)} CPU, ${fmtMs(t.wall[0]).padStart(9)} wall ` +
    `(medians ${fmtMs(median(t.cpu))}, ${fmtMs(median(t.wall))}; ${t.wall.length} samples): ` +
    `${rate(requestSteps, t.cpu[0])} request-steps per CPU second`;
}

function compareKernels(n: number, reps: number): void {
  const kernels: Kernel[] = ['stepwise', 'event'];
  const { head, requestSteps, times } = measure(n, reps, kernels.map((kernel) => ({ kernel })));
  console.log(head);
  kernels.forEach((k, j) => console.log(line(`${k} kernel`, requestSteps, times[j])));
  const [stepwise, event] = times;
  console.log(
    `  event / stepwise speed: ${(stepwise.cpu[0] / event.cpu[0]).toFixed(1)}× (best CPU times), ` +
      `${(stepwise.wall[0] / event.wall[0]).toFixed(1)}× (best walls)`,
  );
}

export default async function (): Promise<void> {
  compareKernels(5_120, 21);
  compareKernels(25_600, 5);
  // what the options cost on the event kernel
  let tokens = 0;
  const options: [string, SimOptions][] = [
    ['event, no options', {}],
    ['event, onStep observer', { onStep: (v) => void (tokens += v.tokens) }],
    ['event, recordTokens', { recordTokens: true }],
  ];
  const { head, requestSteps, times } = measure(5_120, 7, options.map(([, o]) => o));
  console.log(head);
  options.forEach(([label], j) => console.log(line(label, requestSteps, times[j])));
}
