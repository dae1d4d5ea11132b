/**
 * `errors`: every tool drops failed and cancelled requests before computing
 * its percentiles, so a run that lost requests reports the ones that
 * survived (docs/definitions.md, failures; the site's section "Percentiles").
 * The finding bounds the damage: if every failure had instead taken forever
 * (+∞), the p-quantile of all n + f requests is the order statistic at
 * rank ⌈p(n + f)⌉ of the n successes, or +∞ once f exceeds (1 − p)(n + f).
 * It warns when that bound leaves a printed percentile's 95% interval.
 */
import { percentileOfSorted } from '../order-stats.ts';
import { pName } from '../printed.ts';
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { count, formatMessage, formatMs, ms, pctText, share, unknown } from './common.ts';

export function errors(d: RunData): Finding {
  const id = 'errors';
  const f = d.failed;
  const n = d.completed;
  const reasons = Object.entries(d.imported.failures).map(([k, v]) => `${formatMessage(v)} × ${k}`).join(', ');
  if (n === null) return f > 0 ? unknown(id, `${formatMessage(f)} requests failed (${reasons}), but the file does not say how many succeeded`) : unknown(id, 'the file says neither how many requests succeeded nor how many failed');
  const numbers: Record<string, AuditNumber> = { failed: count(f, 'requests'), completed: count(n, 'requests'), failed_share: share(f / (n + f), n + f) };
  if (f === 0) return { id, verdict: 'ok', message: `no request failed (${formatMessage(n)} completed)`, numbers };
  const moved: string[] = [];
  for (const pp of d.ttftPrinted) {
    const total = n + f;
    const rank = Math.ceil(pp.p * total); // 1-based rank among all; failures sit above every success
    const bounded = rank <= n;
    if (d.perRequest && d.ttftSorted.length) {
      const s = percentileOfSorted(d.ttftSorted, pp.p);
      const worst = bounded ? d.ttftSorted[Math.max(0, Math.min(d.ttftSorted.length - 1, rank - 1))] : Infinity;
      numbers[`ttft_${pName(pp.p)}_printed`] = ms(s.value, s.n, s);
      if (bounded) numbers[`ttft_${pName(pp.p)}_failures_at_infinity`] = { value: worst, unit: 's', n: total };
      else numbers[`ttft_${pName(pp.p)}_printed`].note = `unbounded if the ${formatMessage(f)} failures had taken forever`;
      if (!bounded || (s.upper !== null && worst > s.upper)) moved.push(`${pName(pp.p)} TTFT ${formatMs(s.value)} ms could be ${bounded ? `${formatMs(worst)} ms` : 'unbounded'}`);
    } else if (!bounded) {
      moved.push(`${pName(pp.p)} TTFT could be unbounded`);
    }
  }
  const head = `${formatMessage(f)} of ${formatMessage(n + f)} requests failed (${pctText(f / (n + f))}, ${reasons || 'no reason recorded'}) and are left out of every percentile`;
  if (moved.length) return { id, verdict: 'warn', message: `${head}; had they taken forever: ${moved.join('; ')}`, numbers };
  if (!d.perRequest) return unknown(id, `${head}; without per-request data how far they could move the percentiles cannot be computed`, numbers);
  return { id, verdict: 'ok', message: `${head}; even at +∞ they would not move a printed TTFT percentile out of its 95% interval`, numbers };
}
