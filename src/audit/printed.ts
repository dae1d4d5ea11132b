/**
 * Which percentiles a file prints, read from the tool's own aggregates by
 * their keys (`p99_ttft_ms`, `time_to_first_token.p99`,
 * `results_ttft_s_quantiles_p99`, `result_first_token_99.00_percentile_latency_ns`,
 * `median_ttft_ms` …), whatever the tool: the audit speaks of the numbers
 * the user would publish.
 */
import type { Reported } from '../tools/base/result.ts';

export type Quantity = 'ttft' | 'itl' | 'tpot' | 'e2e' | 'other';

export interface PrintedPercentile {
  /** The tool's key; null for the percentiles the audit reports on a file that prints none. */
  key: string | null;
  quantity: Quantity;
  /** A fraction in (0, 1). */
  p: number;
  /** The printed value in SI units; null when the file prints none. */
  value: number | null;
  unit: string;
}

function quantityOf(key: string): Quantity | null {
  const k = key.toLowerCase();
  if (/ttft|first_token|time_to_first/.test(k)) return 'ttft';
  if (/tpot|time_per_output|time_to_output_token/.test(k)) return 'tpot';
  if (/itl|inter_token|inter_chunk/.test(k)) return 'itl';
  if (/e2el|e2e|end_to_end|request_latency|(^|_)latency_(ms|s|ns)$|(^|[_.])latency($|[_.])/.test(k)) return 'e2e';
  if (/throughput|tokens|length|count|qps|tps/.test(k)) return 'other';
  return /latency/.test(k) ? 'e2e' : null;
}

/** The fraction a key names: `p99`, `p99.9`, `median`, `99.00_percentile`, `90.0th`; null when it names none. */
export function percentileOf(key: string): number | null {
  const k = key.toLowerCase();
  if (/(^|[_.])median([_.]|$)/.test(k)) return 0.5;
  const m = /(?:^|[_.])p(\d{1,2}(?:\.\d+)?)(?:[_.]|$)/.exec(k) ?? /(?:^|[_.])(\d{1,2}(?:\.\d+)?)(?:th)?_(?:[a-z_]*_)?percentile/.exec(k);
  if (!m) return null;
  const v = Number(m[1]) / 100;
  return v > 0 && v < 1 ? v : null;
}

/** Every percentile among a file's aggregates whose quantity is a latency, one per (quantity, p). */
export function printedPercentiles(reported: Record<string, Reported>): PrintedPercentile[] {
  const out: PrintedPercentile[] = [];
  const seen = new Set<string>();
  for (const [key, v] of Object.entries(reported)) {
    if (v.unit !== 's' || /early_stopping|target/.test(key)) continue;
    const p = percentileOf(key);
    const quantity = quantityOf(key);
    if (p === null || quantity === null || quantity === 'other') continue;
    const id = `${quantity}@${p}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ key, quantity, p, value: v.value, unit: v.unit });
  }
  return out.sort((a, b) => a.quantity.localeCompare(b.quantity) || a.p - b.p);
}

/** `p99`, `p99.9`, `p50`. */
export function pName(p: number): string {
  return `p${+(p * 100).toFixed(3)}`;
}
