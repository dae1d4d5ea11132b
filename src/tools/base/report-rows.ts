/**
 * One line of `stopwatches metrics` (and of its `--json`): a tool's metric on
 * one run, with its unit and sample size, the quantity and statistic it is
 * grouped under, and what its function reads from the run (`needs`), so a file
 * that lacks one of those refuses the row instead of printing a stand-in.
 * Each tool's descriptor makes its own rows; src/report/ puts them together.
 */
import type { Capability } from './records.ts';
import type { Summary } from './definitions.ts';

/** What a row measures, for grouping: the table prints one block per quantity. */
export type Quantity = 'TTFT' | 'ITL' | 'TPOT' | 'E2E' | 'throughput' | 'queue' | 'per-user speed' | 'other';

export interface ReportRow {
  tool: string;
  metric: string;
  value: number | null;
  unit: string;
  n: number;
  note?: string;
  quantity: Quantity;
  /** The statistic, as the grouped table labels its line (`mean`, `p99`, `mean, token-weighted` …). */
  stat: string;
  /** What the row's function reads from the run. */
  needs: Capability[];
}

export interface PerUserSpeedOptions {
  /** Llama-2 ÷ model token ratio for LLMPerf's count (an input, measured elsewhere; no default). */
  llama2Inflation: number | null;
  /** LLMPerf's non-content SSE messages per request (default 1: the role chunk). */
  llmperfNonContentMessages?: number;
  /** Tool id → the version whose definitions apply (as a reader found it: ImportResult.definitions); a tool's default otherwise. */
  definitions?: Readonly<Record<string, string>>;
}

export interface ReportOptions extends PerUserSpeedOptions {
  /** Etalon deadlines (s); fluidity is reported only when both are given. */
  etalon?: { ttftS: number; tbtS: number } | null;
  /**
   * GuideLLM aggregates the requests that overlap the run window, which needs
   * send times on one clock; 'all' takes every request instead (a file whose
   * requests sit on their own clocks has no window to apply). Default 'window'.
   */
  guidellmRequests?: 'window' | 'all';
}

/** One per-user speed (Figure 1): a tool's per-token metric converted to tokens/s per user. */
export interface SpeedRow {
  tool: string;
  /** the tool's own metric name */
  metric: string;
  formula: string;
  /** tokens/s per user implied by the metric; null with a reason when it cannot be computed */
  tokPerS: number | null;
  /** requests (or gaps) behind the number */
  n: number;
  /** one row per tool is the tool's headline per-user speed (Figure 1's bars) */
  primary: boolean;
  reason?: string;
  /** the tool itself marks this run (e.g. LoadGen logged errors): the number is what it reports, flagged */
  flag?: string;
}

/** Needs shared by many rows. */
export const R: Capability = 'records';
export const FIRST: Capability[] = [R, 'firstToken'];
export const LAST: Capability[] = [R, 'firstToken', 'lastToken'];
export const PER_TOKEN: Capability[] = [R, 'firstToken', 'lastToken', 'outputTokens'];

/** mean/median (or the given keys) and every percentile of a summary, one row each. */
export function fromSummary(rows: ReportRow[], tool: string, name: string, s: Summary, quantity: Quantity, needs: Capability[], keys: ('mean' | 'median')[] = ['mean', 'median']): void {
  for (const k of keys) rows.push({ tool, metric: `${k}_${name}`, value: s[k], unit: s.unit, n: s.n, quantity, stat: k, needs, ...(s.excluded ? { note: `excluded: ${s.excluded}` } : s.n === 0 ? { note: 'no values' } : {}) });
  for (const [p, v] of Object.entries(s.percentiles)) rows.push({ tool, metric: `p${p}_${name}`, value: v, unit: s.unit, n: s.n, quantity, stat: `p${p}`, needs });
}

/** `95% order-statistic interval [lo, hi]` scaled for display. */
export function fmtInterval(lo: number, hi: number, scale: number): string {
  const f = (x: number) => (Number.isFinite(x) ? (x * scale).toFixed(2) : x > 0 ? '+∞' : '−∞');
  return `95% order-statistic interval [${f(lo)}, ${f(hi)}]`;
}
