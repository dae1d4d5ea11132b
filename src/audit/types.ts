/**
 * The audit's contract: what `stopwatches audit` (and the site's "Audit a run"
 * page) gets for one result file. Each finding is one pitfall of the paper,
 * judged on the user's own run: `warn` (the run has it), `ok` (it does not),
 * or `unknown` (the file cannot tell; the message says why). The numbers
 * behind a verdict carry their unit, and where they have them their sample
 * size and interval.
 */

export type Verdict = 'warn' | 'ok' | 'unknown';

export interface AuditNumber {
  value: number;
  /** `s`, `1/s`, `tokens/s`, `requests`, `tokens`, `1` (a share or a ratio) … */
  unit: string;
  /** How many values the number was computed over. */
  n?: number;
  /** A 95% interval, in the number's unit. */
  interval?: [number, number];
  note?: string;
}

export type FindingId =
  | 'first-wave'
  | 'client-queue'
  | 'sample-size'
  | 'window'
  | 'steady-state'
  | 'metronome'
  | 'littles-law'
  | 'tokens'
  | 'errors';

/** Every finding, in the order the report prints them. */
export const FINDING_IDS: readonly FindingId[] = ['first-wave', 'client-queue', 'sample-size', 'window', 'steady-state', 'metronome', 'littles-law', 'tokens', 'errors'];

export interface Finding {
  id: FindingId;
  verdict: Verdict;
  /** One or two sentences: what the run shows, or why the file cannot tell. */
  message: string;
  numbers: Record<string, AuditNumber>;
}

export type ClauseId = 'arrivals' | 'clock' | 'window' | 'definitions' | 'tokens' | 'prompts' | 'versions';

export const CLAUSE_IDS: readonly ClauseId[] = ['arrivals', 'clock', 'window', 'definitions', 'tokens', 'prompts', 'versions'];

/** What a clause says when the file does not tell. */
export const NOT_IN_FILE = 'not in this file';

export interface AuditReport {
  file: string;
  format: string;
  findings: Finding[];
  /** The clauses that should stand next to every number, filled in from the file. */
  clauses: Record<ClauseId, string>;
}
