/**
 * The audit as the terminal prints it: a one-line summary naming the
 * warnings, one short block per finding, then the clauses card.
 */
import { formatMessage } from '../format/text.ts';
import { CLAUSE_IDS, type AuditReport, type Finding } from './types.ts';

/** A warning in a few words with its key numbers, for the summary line. */
export function headline(f: Finding): string {
  const n = f.numbers;
  if (f.id === 'first-wave') {
    const ps = Object.keys(n).filter((k) => /^ttft_p[\d.]+_with$/.test(k)).map((k) => k.slice(5, -5));
    const moved = ps.filter((p) => f.message.includes(`${p} TTFT `)).pop();
    if (moved) return `the ${moved} TTFT is the opening wave (${formatMessage(n[`ttft_${moved}_with`].value * 1000)} ms with it, ${formatMessage(n[`ttft_${moved}_without`].value * 1000)} ms without)`;
    return `the whole run is one wave of ${formatMessage(n.wave_size.value)} requests`;
  }
  if (f.id === 'sample-size') {
    const need = Object.keys(n).filter((k) => k.endsWith('_needs_n') && n[k].value > n.n.value).map((k) => k.replace(/_needs_n$/, ''));
    const worst = need.sort((a, b) => n[`${b}_needs_n`].value - n[`${a}_needs_n`].value)[0];
    if (worst) return `a ${worst.split('_')[1]} from ${formatMessage(n.n.value)} requests has no 95% bound`;
    if (n.effective_n) return `${formatMessage(n.n.value)} correlated requests are worth about ${formatMessage(Math.round(n.effective_n.value))}`;
  }
  if (f.id === 'metronome' && n.cohort_size_median) return `fixed lengths phase-lock the closed loop (cohorts of ${formatMessage(n.cohort_size_median.value)})`;
  const colon = f.message.indexOf(': ');
  return colon > 0 ? f.message.slice(0, colon) : f.message;
}

/** "2 warnings: the p99 TTFT is the opening wave (…); a p99 from 150 requests has no 95% bound" or "no warnings". */
export function summaryLine(r: AuditReport): string {
  const warn = r.findings.filter((f) => f.verdict === 'warn');
  const unknown = r.findings.filter((f) => f.verdict === 'unknown').length;
  const tail = unknown ? ` (${unknown} the file cannot tell)` : '';
  if (warn.length === 0) return `no warnings${tail}`;
  return `${warn.length} warning${warn.length === 1 ? '' : 's'}: ${warn.map(headline).join('; ')}${tail}`;
}

const MARK = { warn: 'WARN', ok: 'ok', unknown: '?' } as const;

export function formatAudit(r: AuditReport): string {
  let out = `${r.file} (--format ${r.format})\n${summaryLine(r)}\n\n`;
  for (const f of r.findings) out += `${MARK[f.verdict].padEnd(4)} ${f.id}: ${f.message}\n`;
  out += '\nNext to every number from this run:\n';
  const w = Math.max(...CLAUSE_IDS.map((c) => c.length));
  for (const c of CLAUSE_IDS) out += `  ${c.padEnd(w)}  ${r.clauses[c]}\n`;
  return out;
}
