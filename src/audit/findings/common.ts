/** Small constructors the findings share: numbers with units, and the `unknown` verdict with its reason. */
import { formatMessage } from '../../format/text.ts';
import type { SortedPercentile } from '../order-stats.ts';
import type { AuditNumber, Finding, FindingId } from '../types.ts';

export function unknown(id: FindingId, reason: string, numbers: Record<string, AuditNumber> = {}): Finding {
  return { id, verdict: 'unknown', message: reason, numbers };
}

export function count(value: number, unit: string): AuditNumber {
  return { value, unit };
}

export function share(value: number, n: number): AuditNumber {
  return { value, unit: '1', n };
}

/** A time in seconds with its sample size and interval (a missing side of the interval is left out). */
export function ms(value: number, n: number, s?: SortedPercentile): AuditNumber {
  const out: AuditNumber = { value, unit: 's', n };
  if (s && s.lower !== null && s.upper !== null) out.interval = [s.lower, s.upper];
  else if (s) out.note = s.upper === null ? `no 95% upper bound from ${n} values` : `no 95% lower bound from ${n} values`;
  return out;
}

/** Seconds written as milliseconds for a message. */
export function formatMs(seconds: number): string {
  return formatMessage(seconds * 1000);
}

/** A share as a whole or one-decimal per cent. */
export function pctText(x: number): string {
  const p = x * 100;
  return `${p >= 10 || Number.isInteger(p) ? Math.round(p) : p.toFixed(1)}%`;
}

export { formatMessage };
