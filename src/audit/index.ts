/**
 * `stopwatches audit` without I/O: a result file as its reader returns it
 * (src/tools/<tool>/reader.ts, through src/importers) → the paper's pitfalls
 * judged on that run, one finding each (./findings/<id>.ts), and the
 * clauses card. Runs in a browser too (the site's "Audit a run" page).
 */
import type { Imported } from '../tools/base/result.ts';
import { clauses } from './clauses.ts';
import { clientQueue } from './findings/client-queue.ts';
import { errors } from './findings/errors.ts';
import { firstWave } from './findings/first-wave.ts';
import { littlesLaw } from './findings/littles-law.ts';
import { metronome } from './findings/metronome.ts';
import { sampleSize } from './findings/sample-size.ts';
import { steadyState } from './findings/steady-state.ts';
import { tokens } from './findings/tokens.ts';
import { window } from './findings/window.ts';
import { runData, type RunData } from './run-data.ts';
import type { AuditReport, Finding, FindingId } from './types.ts';

export type { AuditNumber, AuditReport, ClauseId, Finding, FindingId, Verdict } from './types.ts';
export { CLAUSE_IDS, FINDING_IDS, NOT_IN_FILE } from './types.ts';
export { steadyWindow } from './steady-window.ts';
export { formatAudit, summaryLine } from './text.ts';

const FINDINGS: Record<FindingId, (d: RunData) => Finding> = {
  'first-wave': firstWave,
  'client-queue': clientQueue,
  'sample-size': sampleSize,
  window,
  'steady-state': steadyState,
  metronome,
  'littles-law': littlesLaw,
  tokens,
  errors,
};

export function auditRun(file: string, format: string, imported: Imported): AuditReport {
  const d = runData(file, format, imported);
  const findings = (Object.keys(FINDINGS) as FindingId[]).map((id) => FINDINGS[id](d));
  return { file, format, findings, clauses: clauses(d) };
}
