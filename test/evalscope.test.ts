/**
 * EvalScope perf: its summary and percentile JSON under both vintages of key
 * names, and its per-request SQLite database, all built from the writer's
 * source (test/helpers/evalscope-fixtures.ts states the provenance).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importResult } from '../src/importers/index.ts';
import { importResultFile } from '../src/importers/load.ts';
import { evalscopeDb, evalscopePercentiles, evalscopeSummary, latencyOf, REQUESTS } from './helpers/evalscope-fixtures.ts';
import { runCli } from './helpers/cli.ts';
import { scratchDir } from './helpers/scratch.ts';

const dir = scratchDir('sw-evalscope-');
const file = (name: string, data: string | Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

describe('evalscope benchmark_summary.json', () => {
  it('both vintages: each value in the unit its key names, ms kept as written', () => {
    for (const commit of ['fde259d2', '188bf5fb'] as const) {
      const summary = evalscopeSummary(commit);
      const res = importResult('benchmark_summary.json', JSON.stringify(summary));
      expect(res.format, commit).toBe('evalscope-summary');
      const ttftKey = commit === 'fde259d2' ? 'Avg TTFT (ms)' : 'Average time to first token (s)';
      const ttft = res.reported[ttftKey];
      expect(ttft.unit).toBe('s');
      expect(ttft.value).toBeCloseTo(commit === 'fde259d2' ? summary[ttftKey] / 1000 : summary[ttftKey], 12);
      if (commit === 'fde259d2') {
        expect(res.version).toMatch(/from b700f5ae .*latencies in ms/);
        expect(ttft.written).toEqual({ value: summary[ttftKey], unit: 'ms' });
        expect(res.completed).toEqual({ key: 'Success Requests', value: 3, unit: 'requests' });
      } else {
        expect(res.version).toMatch(/up to v1\.9/);
        expect(ttft.written).toBeUndefined();
        expect(res.completed).toEqual({ key: 'Succeed requests', value: 3, unit: 'requests' });
      }
      const names = Object.keys(summary);
      // every key of the writer's summary is shown: none is left without a unit
      expect(Object.keys(res.reported).sort()).toEqual([...names].sort());
      expect(res.reported[names[6]].unit).toBe('1/s');
      expect(res.reported[names[9]].unit).toBe('tokens/s');
      expect(res.reported[names[3]].unit).toBe('requests');
      expect(res.reported[names[8]].unit).toBe('tokens');
      expect(res.failures).toEqual({ 'failed (the file keeps no reasons)': 1 });
      expect(res.notes.join(' ')).toMatch(/writes −1 when requests are sent as fast as the concurrency allows/);
    }
  });

  it('a run where nothing succeeded is said to be one', () => {
    const summary = { ...evalscopeSummary('fde259d2'), 'Success Requests': 0, 'Failed Requests': 4 };
    expect(() => importResult('s.json', JSON.stringify(summary))).toThrow(/^s\.json: no request succeeded \(4 × failed/);
  });
});

describe('evalscope benchmark_percentile.json', () => {
  it('both vintages: one value per label and column, per-request throughputs named so', () => {
    for (const commit of ['fde259d2', '188bf5fb'] as const) {
      const rows = evalscopePercentiles(commit);
      const res = importResult('benchmark_percentile.json', JSON.stringify(rows));
      expect(res.format).toBe('evalscope-percentile');
      const u = commit === 'fde259d2' ? 'ms' : 's';
      const p99 = rows.find((r) => r.Percentiles === '99%')!;
      expect(res.reported[`TTFT (${u}).p99`].value).toBeCloseTo((p99[`TTFT (${u})`] as number) * (u === 'ms' ? 1e-3 : 1), 12);
      expect(res.reported[`TTFT (${u}).p99`].unit).toBe('s');
      expect(res.reported['Output (tok/s).p99'].unit).toBe('tokens/s per request');
      expect(res.reported['Output tokens.p50'].unit).toBe('tokens');
      if (commit === 'fde259d2') expect(res.reported['TTFT (ms).max'].written).toEqual({ value: rows.at(-1)!['TTFT (ms)'], unit: 'ms' });
      expect(res.notes.join(' ')).toMatch(/index int\(n · p \/ 100\), not interpolated/);
      expect(Object.keys(res.reported)).toHaveLength(rows.length * (Object.keys(rows[0]).length - 1));
    }
  });
});

describe('evalscope benchmark_data.db', () => {
  it('the 14-column table (fde259d2): records on one clock, the failure counted, definitions computed', async () => {
    const p = file('benchmark_data.db', await evalscopeDb('fde259d2'));
    const res = await importResultFile(p);
    expect(res.format).toBe('evalscope-db');
    expect(res.version).toMatch(/with is_stream/);
    expect(res.run.records).toHaveLength(REQUESTS.length);
    expect(res.failures).toEqual({ 'failed (the database keeps no reason)': 1 });
    const [a] = res.run.records;
    const q = REQUESTS[0];
    expect(a.sendT).toBe(0);
    expect(a.firstT).toBeCloseTo(q.ttft, 12);
    expect(a.chunkTimes).toHaveLength(q.gaps.length + 1);
    expect(a.finishT).toBeCloseTo(latencyOf(q), 9);
    expect(res.run.records[1].sendT).toBeCloseTo(REQUESTS[1].start - REQUESTS[0].start, 9);
    const r = await runCli(['metrics', p, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out);
    const ok = REQUESTS.filter((x) => x.ok);
    const meanTtftMs = (ok.reduce((s, x) => s + x.ttft, 0) / ok.length) * 1000;
    const row = (tool: string, metric: string) => o.rows.find((x: { tool: string; metric: string }) => x.tool === tool && x.metric === metric).value;
    expect(row('vllm', 'mean_ttft_ms')).toBeCloseTo(meanTtftMs, 9);
    // evalscope's own TPOT: (latency − TTFT) / (completion_tokens − 1), the latency ending at the usage chunk
    const tpots = ok.map((x) => (latencyOf(x) - x.ttft) / (x.completion - 1));
    expect(row('evalscope', 'TPOT mean')).toBeCloseTo(tpots.reduce((s, x) => s + x, 0) / tpots.length, 9);
    expect(row('evalscope', 'TTFT p99')).toBeCloseTo(Math.max(...ok.map((x) => x.ttft)), 9);
  });

  it('the 12-column table (188bf5fb, before request_id and is_stream) reads the same requests', async () => {
    const recent = await importResultFile(file('new.db', await evalscopeDb('fde259d2')));
    const old = await importResultFile(file('old.db', await evalscopeDb('188bf5fb')));
    expect(old.version).toMatch(/12-column table/);
    expect(old.run.records).toEqual(recent.run.records);
  });

  it('a database that is not evalscope’s, or is damaged, is one line naming the file', async () => {
    const bytes = await evalscopeDb('fde259d2');
    const cut = file('cut.db', bytes.slice(0, 1000));
    const r = await runCli(['metrics', cut]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/cut\.db: .*SQLite/);
    const asJson = await runCli(['metrics', file('x.db', bytes), '--format', 'evalscope-summary']);
    expect(asJson.code).toBe(2);
    expect(asJson.err).toMatch(/x\.db: an SQLite database, not an evalscope benchmark summary \(--format evalscope-summary\); it looks like an evalscope benchmark database: use --format evalscope-db/);
  });
});
