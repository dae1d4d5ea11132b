/**
 * `sample-size`: a percentile from n requests is bounded, distribution-free,
 * only by order statistics, and the tail needs many: the sample maximum
 * bounds the p-quantile from above at 95% only when 1 − pⁿ ≥ 0.95, so a p99
 * needs n ≥ 299 and a p99.9 n ≥ 2,995 (the site's section "Percentiles";
 * src/stats/orderstats.ts). Requests issued back to back are not
 * independent: with lag-1 autocorrelation ρ of TTFT in issue order, the run
 * is worth about n(1 − ρ)/(1 + ρ) independent requests (the AR(1) factor),
 * and the bound is judged on that too.
 */
import { autocorrelation } from '../../stats/autocorrelation.ts';
import { minSamplesForMaxBound } from '../../stats/orderstats.ts';
import { sortAsc } from '../../stats/percentile.ts';
import { LEVEL, percentileOfSorted } from '../order-stats.ts';
import { pName, type PrintedPercentile } from '../printed.ts';
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { formatMessage, ms, unknown } from './common.ts';

/** n(1 − ρ)/(1 + ρ) for ρ > 0; n otherwise (negative correlation is not credited). */
export function effectiveSampleSize(n: number, rho: number): number {
  return Number.isFinite(rho) && rho > 0 ? (n * (1 - rho)) / (1 + rho) : n;
}

export function sampleSize(d: RunData): Finding {
  const id = 'sample-size';
  const noTtft = d.perRequest && d.ttft.length === 0;
  const list: PrintedPercentile[] = d.printed.length ? d.printed : noTtft ? d.ttftPrinted.map((p) => ({ ...p, quantity: 'e2e' })) : d.ttftPrinted;
  if (d.completed === null) return unknown(id, 'the file prints percentiles but not how many requests they were computed over');
  const n = d.completed;
  if (n === 0) return unknown(id, 'no successful request');
  const numbers: Record<string, AuditNumber> = { n: { value: n, unit: 'requests' } };
  let nEff = n;
  // Correlation of the steady part: the wave's rising TTFTs are a trend, judged by first-wave.
  const steady = d.wave ? Array.from(d.ttft).filter((_, i) => !d.inWave[i]) : d.ttft;
  if (d.perRequest && d.timeline && steady.length > 2) {
    const rho = autocorrelation(steady, 1);
    nEff = effectiveSampleSize(n, rho);
    numbers.ttft_lag1_autocorrelation = { value: rho, unit: '1', n: steady.length, note: 'TTFT in issue order, after the first wave' };
    numbers.effective_n = { value: nEff, unit: 'requests', note: 'n(1 − ρ)/(1 + ρ)' };
  }
  const e2eSorted = d.perRequest ? sortAsc(d.run.records.filter((r) => r.ok).map((r) => r.finishT - r.sendT)) : null;
  const unbounded: string[] = [];
  const byCorrelation: string[] = [];
  for (const pp of list) {
    const need = minSamplesForMaxBound(pp.p, LEVEL);
    const series = pp.quantity === 'ttft' && d.perRequest ? d.ttftSorted : pp.quantity === 'e2e' ? e2eSorted : null;
    const name = `${pp.quantity}_${pName(pp.p)}`;
    if (series && series.length) {
      const s = percentileOfSorted(series, pp.p);
      numbers[name] = ms(pp.value ?? s.value, s.n, s);
    } else if (pp.value !== null) {
      numbers[name] = { value: pp.value, unit: pp.unit, n };
    }
    numbers[`${name}_needs_n`] = { value: need, unit: 'requests', note: `smallest n whose maximum bounds ${pName(pp.p)} from above at 95% (one-sided)` };
    if (n < need) unbounded.push(`${pName(pp.p)} ${pp.quantity.toUpperCase()} (needs ${formatMessage(need)})`);
    else if (nEff < need) byCorrelation.push(`${pName(pp.p)} ${pp.quantity.toUpperCase()}`);
  }
  if (unbounded.length) {
    return { id, verdict: 'warn', message: `a percentile from ${formatMessage(n)} requests has no 95% upper bound: ${unbounded.join(', ')}`, numbers };
  }
  if (byCorrelation.length) {
    return { id, verdict: 'warn', message: `consecutive TTFTs are correlated (ρ = ${formatMessage(numbers.ttft_lag1_autocorrelation.value)}): ${formatMessage(n)} requests are worth about ${formatMessage(Math.round(nEff))}, too few to bound ${byCorrelation.join(', ')}`, numbers };
  }
  return { id, verdict: 'ok', message: `${formatMessage(n)} requests${nEff < n ? ` (about ${formatMessage(Math.round(nEff))} independent)` : ''} bound every printed percentile at 95%`, numbers };
}
