/**
 * `first-wave`: requests sent together at the start queue behind each
 * other's prompts, so their TTFTs grow with their place in the wave, and in
 * a short run they own the tail (the site's section "The first wave";
 * docs/experiments.md, first-wave). The wave's depth is predicted by
 * N × mean prompt ÷ prefill rate; here the rate is estimated from the file
 * (median prompt tokens ÷ TTFT of the requests after the wave, each of which
 * prefilled its own prompt in that time or less). The verdict is the
 * paper's rule: a wave matters when removing it moves a printed percentile
 * out of that percentile's 95% interval.
 */
import { linearPercentile, sortAsc } from '../../stats/percentile.ts';
import { outside, percentileOfSorted, type SortedPercentile } from '../order-stats.ts';
import { pName } from '../printed.ts';
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { count, formatMs, ms, pctText, share, unknown } from './common.ts';

export function firstWave(d: RunData): Finding {
  const id = 'first-wave';
  if (!d.perRequest) return unknown(id, 'aggregates only: no send times, so a wave at the start cannot be seen');
  if (d.ok.length === 0) return unknown(id, 'no successful request has a first-token time');
  const w = d.wave;
  const n = d.run.records.length;
  if (w === null) {
    if (!d.timeline) return unknown(id, 'no shared clock (each request is timed on its own), so which requests left together cannot be told');
    return { id, verdict: 'ok', message: `no wave: no more requests left together at the start than the arrival rate explains`, numbers: { wave_size: count(0, 'requests') } };
  }
  const numbers: Record<string, AuditNumber> = { wave_size: count(w.size, 'requests'), wave_share: share(w.size / n, n) };
  if (w.size >= n) {
    const how = w.from === 'settings' ? `request rate inf with no cap: all ${n} requests were sent at once` : `all ${n} requests were sent before the first one finished`;
    for (const pp of d.ttftPrinted) {
      const s = percentileOfSorted(d.ttftSorted, pp.p);
      numbers[`ttft_${pName(pp.p)}`] = ms(s.value, s.n, s);
    }
    return { id, verdict: 'warn', message: `the whole run is one wave (${how}): every TTFT includes waiting behind the others' prompts, and nothing measures a steady state`, numbers };
  }
  const steady = d.ttftSteadySorted;
  let moved: string[] = [];
  const words: string[] = [];
  for (const pp of d.ttftPrinted) {
    const all = percentileOfSorted(d.ttftSorted, pp.p);
    const rest = percentileOfSorted(steady, pp.p);
    numbers[`ttft_${pName(pp.p)}_with`] = ms(all.value, all.n, all);
    numbers[`ttft_${pName(pp.p)}_without`] = ms(rest.value, rest.n, rest);
    if (movedBeyond(all, rest)) {
      moved.push(pName(pp.p));
      words.push(`${pName(pp.p)} TTFT ${fmtMs(all.value)} with it, ${fmtMs(rest.value)} without`);
    }
  }
  // Predicted depth: N × mean prompt ÷ prefill rate, the rate from the requests after the wave.
  const waveRecs = d.ok.filter((_, i) => d.inWave[i]);
  const prompts = waveRecs.map((r) => r.inputTokens).filter((x) => Number.isFinite(x));
  const perReq: number[] = [];
  d.ok.forEach((r, i) => {
    const t = d.ttft[i];
    if (!d.inWave[i] && Number.isFinite(r.inputTokens) && t > 0) perReq.push(r.inputTokens / t);
  });
  const depthObserved = waveRecs.length ? Math.max(...waveRecs.map((r) => r.firstT! - r.sendT)) : NaN;
  if (waveRecs.length) numbers.wave_depth_observed = { value: depthObserved, unit: 's', n: waveRecs.length, note: 'the largest TTFT in the wave' };
  if (prompts.length && perReq.length) {
    const meanPrompt = prompts.reduce((a, b) => a + b, 0) / prompts.length;
    const rate = linearPercentile(sortAsc(perReq), 0.5, { sorted: true });
    numbers.mean_prompt = { value: meanPrompt, unit: 'tokens', n: prompts.length };
    numbers.prefill_rate = { value: rate, unit: 'tokens/s', n: perReq.length, note: 'median prompt tokens ÷ TTFT after the wave (a lower bound on the server’s prefill rate)' };
    numbers.wave_depth_predicted = { value: (w.size * meanPrompt) / rate, unit: 's', note: 'N × mean prompt ÷ prefill rate' };
  }
  moved = [...new Set(moved)];
  if (moved.length) {
    return { id, verdict: 'warn', message: `a wave of ${w.size} requests sent together at the start (${pctText(w.size / n)} of the run) moves the printed ${moved.join(', ')} TTFT by more than ${moved.length > 1 ? 'their' : 'its'} 95% interval: ${words.join('; ')}`, numbers };
  }
  return { id, verdict: 'ok', message: `a wave of ${w.size} requests sent together at the start (${pctText(w.size / n)} of the run) moves no printed TTFT percentile by more than its 95% interval`, numbers };
}

/**
 * "Moves a percentile by more than its interval": the shift exceeds the
 * width of the printed percentile's 95% interval; where the sample supports
 * only one side, the value without the wave lies beyond that side (or the
 * value with it beyond the interval of the rest).
 */
export function movedBeyond(all: SortedPercentile, rest: SortedPercentile): boolean {
  if (all.lower !== null && all.upper !== null) return Math.abs(all.value - rest.value) > all.upper - all.lower;
  return outside(rest.value, all) || outside(all.value, rest);
}

const fmtMs = (s: number): string => `${formatMs(s)} ms`;
