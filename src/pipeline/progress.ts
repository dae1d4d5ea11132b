/**
 * What the runner tells the person waiting: plan lines, a bar per running job
 * on a terminal (cli-progress), plain periodic lines elsewhere (CI logs), or
 * nothing (tests collect lines instead).
 */
import cliProgress from 'cli-progress';
import type { JobProgress } from './pool.ts';
import { formatDuration, formatRate } from '../format/text.ts';

export interface Reporter {
  /** One line of text (plan lines, summaries). */
  log(line: string): void;
  /** How many jobs this build runs (before the first starts). */
  queued?(total: number): void;
  jobStart(label: string): void;
  jobProgress(label: string, p: JobProgress): void;
  jobDone(label: string, ms: number): void;
  /** Every job of an experiment that ran in this build is done (`ms`: first start to last finish). */
  experimentDone?(id: string, jobs: number, ms: number): void;
  close(): void;
}

/** A finished job gets its own line only when it took at least this long (ms); experiments always get one. */
export const SLOW_JOB_MS = 10_000;

/** Plain mode prints each running job's progress this often (ms). */
export const PLAIN_INTERVAL_MS = 10_000;

interface Running {
  start: number;
  p: JobProgress;
}

function describe(r: Running, now: number): { rate: string; eta: string } {
  const elapsed = now - r.start;
  const rate = formatRate(r.p.requests / (elapsed / 1000));
  const eta = r.p.done > 0 && r.p.total > r.p.done ? formatDuration((elapsed * (r.p.total - r.p.done)) / r.p.done) : r.p.done >= r.p.total && r.p.total > 0 ? '0 s' : '?';
  return { rate, eta };
}

/**
 * Lines only: for CI and pipes. Every `intervalMs`: jobs done so far and a line
 * per running job; a line per finished experiment, and per job that was slow.
 */
export function plainReporter(write: (line: string) => void, intervalMs = PLAIN_INTERVAL_MS): Reporter {
  const running = new Map<string, Running>();
  let total = 0;
  let done = 0;
  const timer = setInterval(() => {
    if (running.size === 0) return;
    const now = performance.now();
    write(`  … ${done} of ${total} jobs done`);
    for (const [label, r] of running) {
      if (r.p.total === 0) {
        write(`    ${label}: running for ${formatDuration(now - r.start)}`);
        continue;
      }
      const { rate, eta } = describe(r, now);
      write(`    ${label}: ${r.p.done}/${r.p.total} runs${r.p.requests ? `, ${rate} req/s` : ''}, ETA ${eta}`);
    }
  }, intervalMs);
  timer.unref();
  return {
    log: write,
    queued(n) {
      total = n;
    },
    jobStart(label) {
      running.set(label, { start: performance.now(), p: { done: 0, total: 0, requests: 0 } });
    },
    jobProgress(label, p) {
      const r = running.get(label);
      if (r) r.p = p;
    },
    jobDone(label, ms) {
      running.delete(label);
      done++;
      if (ms >= SLOW_JOB_MS) write(`  ✓ ${label} (${formatDuration(ms)})`);
    },
    experimentDone(id, jobs, ms) {
      write(`  ✓ ${id}: ${jobs} job${jobs === 1 ? '' : 's'} in ${formatDuration(ms)}`);
    },
    close() {
      clearInterval(timer);
    },
  };
}

/** A bar per running job, on a terminal. */
export function ttyReporter(stream: NodeJS.WriteStream = process.stderr): Reporter {
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: '  {label} {bar} {value}/{total} runs · {rate} req/s · ETA {eta2}',
      barsize: 20,
      hideCursor: true,
      clearOnComplete: true,
      stopOnComplete: false,
      autopadding: true,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, { bar: cliProgress.SingleBar; r: Running }>();
  // With no bar on screen, write at once: MultiBar.log only flushes on its next redraw.
  const log = (line: string) => (bars.size === 0 ? stream.write(`${line}\n`) : multi.log(`${line}\n`));
  return {
    log,
    jobStart(label) {
      const r: Running = { start: performance.now(), p: { done: 0, total: 1, requests: 0 } };
      bars.set(label, { bar: multi.create(1, 0, { label, rate: '–', eta2: '?' }), r });
    },
    jobProgress(label, p) {
      const b = bars.get(label);
      if (!b) return;
      b.r.p = p;
      const { rate, eta } = describe(b.r, performance.now());
      b.bar.setTotal(Math.max(1, p.total));
      b.bar.update(p.done, { label, rate, eta2: eta });
    },
    jobDone(label, ms) {
      const b = bars.get(label);
      if (b) multi.remove(b.bar);
      bars.delete(label);
      if (ms >= SLOW_JOB_MS) log(`  ✓ ${label} (${formatDuration(ms)})`);
    },
    experimentDone(id, jobs, ms) {
      log(`  ✓ ${id}: ${jobs} job${jobs === 1 ? '' : 's'} in ${formatDuration(ms)}`);
    },
    close() {
      multi.stop();
    },
  };
}

/** Collects lines (tests). */
export function memoryReporter(lines: string[] = []): Reporter & { lines: string[] } {
  return {
    lines,
    log: (l) => void lines.push(l),
    jobStart() {},
    jobProgress() {},
    jobDone() {},
    experimentDone(id, jobs) {
      lines.push(`  ✓ ${id}: ${jobs} job${jobs === 1 ? '' : 's'}`);
    },
    close() {},
  };
}
