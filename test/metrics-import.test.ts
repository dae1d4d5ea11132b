import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { fromSimResult } from '../src/metrics/index.ts';
import { metricsReport } from '../src/metrics/report.ts';
import { toVllmResult } from '../src/importers/index.ts';
import { loadMetricsInput, markUnsupported } from '../src/importers/for-metrics.ts';

const FIX = 'test/fixtures/results';

const cli = runCli;

type Row = { tool: string; metric: string; value: number | null; note?: string };

describe('stopwatches metrics on real tools’ result files', () => {
  it.each([
    ['vllm-bench-serve.json', 'vllm'],
    ['profile_export.jsonl', 'aiperf'],
    ['benchmarks.json', 'guidellm'],
    ['llmperf_individual_responses.json', 'llmperf'],
    ['sglang-bench-serving.jsonl', 'sglang'],
    ['mlperf_log_detail.txt', 'mlperf-detail'],
    ['mlperf_log_trace.json', 'mlperf-trace'],
  ])('%s is detected as %s', async (file, format) => {
    const r = await cli(['metrics', join(FIX, file), '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).format).toBe(format);
  });

  it('says why instead of printing a number the file cannot support (LLMPerf has no chunk times)', async () => {
    const r = await cli(['metrics', join(FIX, 'llmperf_individual_responses.json'), '--json']);
    const rows = JSON.parse(r.out).rows as Row[];
    const itl = rows.find((x) => x.tool === 'vllm' && x.metric === 'median_itl_ms')!;
    expect(itl.value).toBeNull();
    expect(itl.note).toMatch(/per-chunk/);
    // A per-request definition that needs no shared clock is still computed.
    expect(rows.find((x) => x.tool === 'vllm' && x.metric === 'mean_ttft_ms')!.value).toBeGreaterThan(0);
    expect(r.out).not.toMatch(/"value": NaN/);
  });

  it('prints the tool’s own aggregates for an aggregate-only file', async () => {
    const r = await cli(['metrics', join(FIX, 'mlperf_log_detail.txt')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/What the tool itself reported/);
    expect(r.out).toMatch(/cannot compute:/);
  });

  it('refuses a bad --format and a bad --entry in one line, exit 2', async () => {
    const a = await cli(['metrics', join(FIX, 'vllm-bench-serve.json'), '--format', 'nope']);
    expect(a.code).toBe(2);
    expect(a.err.trim().split('\n')).toHaveLength(1);
    const b = await cli(['metrics', join(FIX, 'vllm-bench-serve.json'), '--entry', '-1']);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--entry/);
  });

  it('a vLLM file written from a simulated run gives the simulator’s own numbers', async () => {
    const r = simulate(defaultServerConfig(), { isl: fixedLengths(96, 512), osl: fixedLengths(96, 64) }, { kind: 'closed', slots: 16 }, { recordTokens: true });
    const run = fromSimResult(r, { client: { kind: 'closed', slots: 16 } });
    const dir = mkdtempSync(join(tmpdir(), 'sw-roundtrip-'));
    const path = join(dir, 'vllm.json');
    writeFileSync(path, JSON.stringify(toVllmResult(run)));
    const input = await loadMetricsInput(path, {});
    expect(input.format).toBe('vllm');
    const opts = { llama2Inflation: null };
    const direct = metricsReport(run, opts) as Row[];
    const viaFile = markUnsupported(metricsReport(input.run, opts), input) as Row[];
    const vllmRows = direct.filter((x) => x.tool === 'vllm' && x.value !== null && /ttft|tpot|itl|e2el/.test(x.metric));
    expect(vllmRows.length).toBeGreaterThan(10);
    for (const d of vllmRows) {
      const f = viaFile.find((x) => x.tool === d.tool && x.metric === d.metric)!;
      expect(f.value, `${d.tool}.${d.metric}`).not.toBeNull();
      expect(Math.abs(f.value! - d.value!), `${d.tool}.${d.metric}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(d.value!)));
    }
  });
});
