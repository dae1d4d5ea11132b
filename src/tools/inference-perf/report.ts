/**
 * inference-perf's rows of `stopwatches metrics`: its lifecycle latencies as
 * `summarize_requests` computes them (seconds, numpy-linear percentiles), for
 * the version whose definitions the reader found (`chunks` or `tokens`).
 * Shown on runs read from inference-perf's own files (the reader names the
 * version): it is not one of the article's seven stopwatches, whose columns
 * every other run shows.
 */
import type { BenchmarkRun } from '../base/records.ts';
import { FIRST, LAST, R, type Quantity, type ReportOptions, type ReportRow } from '../base/report-rows.ts';
import type { Capability } from '../base/records.ts';
import { successful, type Maybe } from '../base/definitions.ts';
import {
  inferencePerfItls,
  inferencePerfNtpot,
  inferencePerfRequestLatency,
  inferencePerfSummarize,
  inferencePerfTpot,
  inferencePerfTtft,
  type InferencePerfVersion,
} from './definitions.ts';

const STATS: [string, string][] = [['mean', 'mean'], ['median', 'median'], ['p90', 'p90'], ['p99', 'p99']];

export function inferencePerfReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const version = opts.definitions?.['inference-perf'] as InferencePerfVersion | undefined;
  if (version === undefined) return [];
  const ok = successful(run);
  const rows: ReportRow[] = [];
  // statLabel keeps two rows of one tool in one block apart (TPOT and NTPOT)
  const add = (name: string, xs: number[], quantity: Quantity, needs: Capability[], statLabel = (s: string) => s, note?: string) => {
    const s = inferencePerfSummarize(xs, [50, 90, 99]);
    for (const [key, stat] of STATS) rows.push({ tool: 'inference-perf', metric: `${name} ${stat}`, value: s ? s[key] : null, unit: 's', n: xs.length, quantity, stat: statLabel(stat), needs, ...(s ? (note ? { note } : {}) : { note: 'no values' }) });
  };
  const values = (f: (r: (typeof ok)[number]) => Maybe) => ok.map(f).flatMap((m) => (m.value === null ? [] : [m.value]));
  add('time_to_first_token', values(inferencePerfTtft), 'TTFT', [...FIRST, 'chunkTimes']);
  add('inter_token_latency', ok.flatMap(inferencePerfItls), 'ITL', [R, 'chunkTimes']);
  add(`time_per_output_token (${version})`, values((r) => inferencePerfTpot(r, version)), 'TPOT', [...LAST, 'chunkTimes', ...(version === 'tokens' ? (['outputTokens'] as Capability[]) : [])]);
  add('normalized_time_per_output_token', values(inferencePerfNtpot), 'TPOT', [R, 'outputTokens'], (s) => `${s}, e2e / output tokens`, 'zero-token answers count as 0');
  add('request_latency', values(inferencePerfRequestLatency), 'E2E', [R]);
  return rows;
}
