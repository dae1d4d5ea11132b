/**
 * One result file → its runs, each audited: the loop shared by
 * `stopwatches audit` (which streams the file from disk) and the site's
 * "Audit a run" page (which has the dropped file's text). A file holding
 * several runs (appended JSON lines, a GuideLLM sweep) is audited run by run,
 * each entry imported again, unless `entry` picks one. How the file is read
 * is the caller's `load`; no I/O here.
 */
import type { ImportResult } from '../tools/base/result.ts';
import { auditRun, type AuditReport } from './index.ts';

export interface Audited {
  report: AuditReport;
  /** The run as its reader returned it, for the figures. */
  imported: ImportResult;
}

/** `load(entry)` imports the file, or one run of it. */
export async function auditFile(file: string, load: (entry: number | undefined) => ImportResult | Promise<ImportResult>, entry?: number): Promise<Audited[]> {
  const res = await load(entry);
  if (!res.runs || entry !== undefined) return [{ report: auditRun(file, res.format, res), imported: res }];
  const out: Audited[] = [];
  for (const r of res.runs) {
    if (r.unreadable) continue;
    const one = await load(r.index);
    out.push({ report: auditRun(`${file} [--entry ${r.index}]`, one.format, one), imported: one });
  }
  return out;
}
