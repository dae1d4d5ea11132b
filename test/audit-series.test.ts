/**
 * The audit page's chart data (src/audit/series.ts) on a real AIPerf export
 * (read from ../shared/real-results/ at run time): the bins conserve what they
 * cut up (request-seconds in flight, output tokens), the wave and the steady
 * window are the findings' own, and the bin width follows its stated rule.
 * Expectations are derived from the file's records, not typed in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditRun } from '../src/audit/index.ts';
import { auditSeries, binWidth, TARGET_BINS } from '../src/audit/series.ts';
import { importChecked } from '../src/importers/metrics-input.ts';

const FILE = join(import.meta.dirname, '..', '..', 'shared', 'real-results', 'aiperf', 'aiperf-examples-run1_profile_export.jsonl');

describe('audit series', () => {
  const imported = importChecked(FILE, readFileSync(FILE, 'utf8'), {});
  const report = auditRun(FILE, imported.format, imported);
  const s = auditSeries(imported, report);
  const recs = imported.run.records;

  it('bins the run at duration ÷ TARGET_BINS rounded up to 1, 2 or 5 × 10^k', () => {
    for (const d of [0.37, 9.3, 60, 601, 86_400]) {
      const w = binWidth(d);
      expect(w).toBeGreaterThanOrEqual(d / TARGET_BINS * (1 - 1e-9));
      expect(w / 10 ** Math.floor(Math.log10(w) + 1e-9)).toSatisfy((m: number) => [1, 2, 5].some((k) => Math.abs(m - k) < 1e-9));
      // the next smaller step would be too fine
      expect(d / w).toBeGreaterThan(TARGET_BINS / 2.5 - 1e-9);
    }
  });

  it('keeps every request-second in flight and every output token', () => {
    const b = s.bins!;
    const duration = Math.max(...recs.map((r) => r.finishT)) - s.t0;
    const span = (i: number) => Math.min(b.width, duration - b.start[i]);
    let flight = 0;
    let tokens = 0;
    for (let i = 0; i < b.start.length; i++) {
      flight += b.inFlight[i] * span(i);
      tokens += b.rate[i] * span(i);
    }
    const latency = recs.reduce((a, r) => a + (r.finishT - r.sendT), 0);
    expect(flight).toBeCloseTo(latency, 6);
    expect(b.placement).toBe('chunks');
    const out = recs.filter((r) => r.ok && r.chunkTimes?.length).reduce((a, r) => a + (r.chunkTokens ? r.chunkTokens.reduce((x, y) => x + y, 0) : r.outputTokens ?? r.chunkTimes!.length), 0);
    expect(tokens).toBeCloseTo(out, 6);
  });

  it('marks the wave the first-wave finding found, over the successful requests in send order', () => {
    const waveSize = report.findings.find((f) => f.id === 'first-wave')!.numbers.wave_size.value;
    expect(s.waveSize).toBe(waveSize);
    const order = recs.map((r, i) => i).sort((a, b) => recs[a].sendT - recs[b].sendT || a - b);
    const okPos = order.map((i, pos) => ({ r: recs[i], pos })).filter(({ r }) => r.ok && r.firstT !== null);
    expect(s.ttft.length).toBe(okPos.length);
    expect([...s.inWave]).toEqual(okPos.map(({ pos }) => (pos < waveSize ? 1 : 0)));
    expect([...s.ttft]).toEqual(okPos.map(({ r }) => r.firstT! - r.sendT));
    for (let i = 1; i < s.send.length; i++) expect(s.send[i]).toBeGreaterThanOrEqual(s.send[i - 1]);
  });

  it('takes the steady window from the window finding, or none when it found the run never steady', () => {
    const w = report.findings.find((f) => f.id === 'window')!.numbers;
    const open = w.steady_end_s.value > w.steady_start_s.value;
    expect(s.steady === null).toBe(!open);
    if (s.steady) {
      expect(s.steady.start + s.t0).toBeCloseTo(w.steady_start_s.value, 9);
      const [from, to] = s.steadyIndex!;
      for (let i = from; i < to; i++) expect(s.send[i]).toBeGreaterThanOrEqual(s.steady.start);
    }
  });
});
