/**
 * Sharding a build over machines: `stopwatches run --shard i/n` runs only its
 * share of the jobs the cache lacks, and the shards' cache folders are merged
 * (`stopwatches cache merge`) before one build combines everything.
 *
 * Shares are balanced by expected run time, not by job count: a job is
 * expected to take what its previous cache entry recorded (any earlier key of
 * the same job), else the mean recorded for its experiment's other jobs, else
 * `DEFAULT_JOB_ESTIMATE_MS`. Jobs are dealt longest first, each to the shard
 * with the least expected time so far (ties: lower shard, then job label), so
 * every shard computes the same assignment from the same cache. Shards that
 * start from different caches may disagree; then a job runs twice or is left
 * to the merging build, which runs whatever is still missing: slower, never
 * wrong.
 */
import { UserError } from '../errors.ts';

/** Expected run time of a job nothing is known about: about what a mid-sized job of the paper takes. */
export const DEFAULT_JOB_ESTIMATE_MS = 1000;

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count || count > 1000) {
    throw new UserError(`--shard ${text}: write i/n with 1 ≤ i ≤ n ≤ 1000, e.g. --shard 2/3`);
  }
  return { index, count };
}

export interface ShardJob {
  /** `<experiment>/<job>`: unique, and the tie-breaker that makes the deal deterministic. */
  label: string;
  experiment: string;
  /** Recorded by an earlier entry of the job, if any. */
  previousMs?: number;
}

/** Expected run time per job: its own record, else its experiment's mean record, else the default. */
export function estimateRuntimes(jobs: ShardJob[]): number[] {
  const byExperiment = new Map<string, number[]>();
  for (const j of jobs) if (j.previousMs !== undefined) byExperiment.set(j.experiment, [...(byExperiment.get(j.experiment) ?? []), j.previousMs]);
  return jobs.map((j) => {
    if (j.previousMs !== undefined) return j.previousMs;
    const known = byExperiment.get(j.experiment);
    return known ? known.reduce((s, x) => s + x, 0) / known.length : DEFAULT_JOB_ESTIMATE_MS;
  });
}

/** The shard (1-based) of each job, longest-processing-time first onto the least-loaded shard. */
export function assignShards(jobs: ShardJob[], count: number): number[] {
  const estimates = estimateRuntimes(jobs);
  const order = jobs.map((_, i) => i).sort((a, b) => estimates[b] - estimates[a] || (jobs[a].label < jobs[b].label ? -1 : jobs[a].label > jobs[b].label ? 1 : 0));
  const load = new Array<number>(count).fill(0);
  const out = new Array<number>(jobs.length);
  for (const i of order) {
    let best = 0;
    for (let s = 1; s < count; s++) if (load[s] < load[best]) best = s;
    load[best] += estimates[i];
    out[i] = best + 1;
  }
  return out;
}

export interface ShardReport extends Shard {
  /** Jobs this shard runs, of the `missing` ones, and their expected times. */
  jobs: number;
  missing: number;
  expectedMs: number;
  totalExpectedMs: number;
}

/** This shard's share of the jobs the cache lacks (in their order), and what it expects to take. */
export function shareOf<T>(jobs: T[], describe: (job: T) => ShardJob, shard: Shard): { mine: T[]; report: ShardReport } {
  const all = jobs.map(describe);
  const estimates = estimateRuntimes(all);
  const owner = assignShards(all, shard.count);
  const mine = jobs.filter((_, i) => owner[i] === shard.index);
  const expectedMs = estimates.reduce((s, e, i) => s + (owner[i] === shard.index ? e : 0), 0);
  const totalExpectedMs = estimates.reduce((s, e) => s + e, 0);
  return { mine, report: { ...shard, jobs: mine.length, missing: jobs.length, expectedMs, totalExpectedMs } };
}

export function describeShare(r: ShardReport): string {
  return `shard ${r.index}/${r.count}: ${r.jobs} of the ${r.missing} missing jobs (expected ${(r.expectedMs / 1000).toFixed(1)} s of ${(r.totalExpectedMs / 1000).toFixed(1)} s)`;
}
