/**
 * Every definition side by side on one run: the rows `stopwatches metrics`
 * prints (and `--json` emits), made by each tool's descriptor in the
 * registry's order, then every tool's per-user speeds, each row carrying what
 * its function reads (its `needs`, declared beside the speed in the tool's
 * folder), so a file that lacks one of those refuses the row instead of
 * printing a stand-in.
 */
import type { BenchmarkRun } from '../tools/base/records.ts';
import type { Quantity, ReportOptions, ReportRow } from '../tools/base/report-rows.ts';
import { TOOLS } from '../tools/registry.ts';
import { perUserSpeeds } from './index.ts';

export type { Quantity, ReportOptions, ReportRow } from '../tools/base/report-rows.ts';

export function metricsReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const rows: ReportRow[] = [];
  for (const tool of TOOLS) if (tool.report) rows.push(...tool.report(run, opts));
  for (const sp of perUserSpeeds(run, opts)) {
    rows.push({
      tool: sp.tool,
      metric: `per-user speed: ${sp.metric}${sp.primary ? ' ★' : ''}`,
      value: sp.tokPerS,
      unit: 'tok/s',
      n: sp.n,
      note: sp.reason ?? sp.formula,
      quantity: 'per-user speed',
      stat: `per-user speed: ${sp.metric}`,
      needs: [...speedNeeds(sp.tool, sp.metric)],
    });
  }
  return rows;
}

/** What a per-user speed reads, as its tool declares it; an undeclared speed is a defect, not a default. */
export function speedNeeds(tool: string, metric: string) {
  const needs = TOOLS.find((t) => t.id === tool)?.speeds?.needs[metric];
  if (!needs) throw new Error(`per-user speed "${tool} ${metric}" has no declared needs in src/tools/${tool}/`);
  return needs;
}

const QUANTITY_ORDER: Quantity[] = ['TTFT', 'ITL', 'TPOT', 'E2E', 'queue', 'throughput', 'per-user speed', 'other'];

/** Display unit of a quantity and the factor from a row's unit to it. */
function displayScale(row: ReportRow): { unit: string; k: number } {
  switch (row.unit) {
    case 's':
      return { unit: 'ms', k: 1000 };
    case 'ns':
      return { unit: 'ms', k: 1e-6 };
    default:
      return { unit: row.unit, k: 1 };
  }
}

function fmtNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(3);
  return v.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 4);
}

/**
 * The grouped table: one block per quantity, one line per statistic, one
 * column per tool; refused rows are folded into one line per reason.
 */
export function formatGrouped(rows: ReportRow[]): string {
  const out: string[] = [];
  const shown = rows.filter((r) => r.value !== null && !Number.isNaN(r.value));
  for (const q of QUANTITY_ORDER) {
    const block = shown.filter((r) => r.quantity === q);
    if (block.length === 0) continue;
    const n = [...new Set(block.map((r) => r.n))];
    const nText = `n = ${n.length === 1 ? n[0] : `${Math.min(...n)} to ${Math.max(...n)}`}`;
    if (q === 'per-user speed') {
      // one definition per line: every tool's headline and variants, in tokens/s per user
      out.push(`${q} (tok/s per user; ★ = the tool's headline)`);
      const seen = new Set<string>();
      const items: [string, string, string][] = [];
      for (const r of block) {
        const name = r.metric.replace(/^per-user speed: /, '');
        const key = `${r.tool} ${name.replace(/ ★$/, '')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        items.push([r.tool, name, fmtNumber(r.value!)]);
      }
      const order = TOOLS.map((t) => t.id);
      items.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
      const w0 = Math.max(...items.map((i) => i[0].length));
      const w1 = Math.max(...items.map((i) => i[1].length));
      for (const [t, m, v] of items) out.push(`  ${t.padEnd(w0)}  ${m.padEnd(w1)}  ${v.padStart(9)}`);
      out.push(`  ${nText}`, '');
      continue;
    }
    // the text table keeps the usual statistics; --json has every percentile
    const visible = block
      .map((r) => (r.stat === 'p50' ? { ...r, stat: 'median' } : r))
      .filter((r) => !/^p(1|5|10|25|75|95)$/.test(r.stat));
    const tools = [...new Set(visible.map((r) => r.tool))];
    const stats = [...new Set(visible.map((r) => `${r.stat}\u0000${displayScale(r).unit}`))];
    const head = [`${q}`, ...tools];
    const lines = stats.map((key) => {
      const [stat, unit] = key.split('\u0000');
      return [`  ${stat} (${unit})`, ...tools.map((t) => {
        const r = visible.find((x) => x.tool === t && x.stat === stat && displayScale(x).unit === unit);
        return r ? fmtNumber(r.value! * displayScale(r).k) : '';
      })];
    });
    const w = head.map((h, j) => Math.max(h.length, ...lines.map((l) => l[j].length)));
    const line = (c: string[]) => c.map((x, j) => (j === 0 ? x.padEnd(w[j]) : x.padStart(w[j]))).join('  ').trimEnd();
    out.push(line(head), ...lines.map(line), `  ${nText}`, '');
  }
  const refused = new Map<string, ReportRow[]>();
  for (const r of rows) {
    if (r.value !== null && !Number.isNaN(r.value)) continue;
    const why = r.note ?? 'no value';
    refused.set(why, [...(refused.get(why) ?? []), r]);
  }
  if (refused.size) {
    out.push('Not computed:');
    for (const [why, rs] of refused) {
      const names = [...new Set(rs.map((r) => r.tool))];
      // without a reason, the definitions themselves are named: "no value" alone tells the reader nothing
      const which = why === 'no value' ? names.map((t) => `${t}: ${rs.filter((r) => r.tool === t).map((r) => r.metric).join(', ')}`) : names;
      out.push(`  ${why === 'no value' ? 'no value (the file’s data give none)' : why} → ${rs.length} definition${rs.length === 1 ? '' : 's'} (${which.join(why === 'no value' ? '; ' : ', ')})`);
    }
  }
  return out.join('\n') + '\n';
}
