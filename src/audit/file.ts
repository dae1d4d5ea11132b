/**
 * A result file's text → its runs, each audited: the one path from text to
 * findings, shared by `stopwatches audit` (which reads the file) and the
 * site's "Audit a run" page (which is handed the dropped file's text). A file
 * holding several runs (appended JSON lines, a GuideLLM sweep) is audited run
 * by run, unless `entry` picks one. No I/O here.
 */
import { importText } from '../importers/metrics-input.ts';
import type { ImportResult } from '../tools/base/result.ts';
import { auditRun, type AuditReport } from './index.ts';

export interface Audited {
  report: AuditReport;
  /** The run as its reader returned it, for the figures. */
  imported: ImportResult;
}

export function auditText(file: string, text: string, opts: { format?: string; entry?: number } = {}): Audited[] {
  const res = importText(file, text, opts);
  if (!res.runs || opts.entry !== undefined) return [{ report: auditRun(file, res.format, res), imported: res }];
  const out: Audited[] = [];
  for (const r of res.runs) {
    if (r.unreadable) continue;
    const one = importText(file, text, { format: opts.format, entry: r.index });
    out.push({ report: auditRun(`${file} [--entry ${r.index}]`, one.format, one), imported: one });
  }
  return out;
}
