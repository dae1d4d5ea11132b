/**
 * inference-perf's files (../shared/real-results/, provenance in its README):
 * the KubeCon NA 2025 demo's summary and seven stage reports, the lifecycle
 * report llm-d keeps as YAML, the per-request corpus case, and the two older
 * per-request layouts built from their writers' source.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importResult } from '../src/importers/index.ts';
import { importResultFile } from '../src/importers/load.ts';
import { inferencePerfAgreement } from '../src/tools/inference-perf/agreement.ts';
import { inferencePerfTpot } from '../src/tools/inference-perf/definitions.ts';
import { lifecycleUnit } from '../src/tools/inference-perf/lifecycle-reader.ts';
import { runCli } from './helpers/cli.ts';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');
if (!existsSync(REAL)) throw new Error(`${REAL} is missing: the real result files live beside the repository (../shared/real-results/)`);
const DEMO = join(REAL, 'inference-perf');
const stageFiles = readdirSync(DEMO).filter((f) => /stage_\d+_lifecycle_metrics\.json$/.test(f)).sort();
const summaryFile = join(DEMO, 'kubecon-na-2025-vllm_summary_lifecycle_metrics.json');
const perRequestFile = join(DEMO, 'pr705-corpus-clean-two-stage_per_request_lifecycle_metrics.json');
const yamlFile = join(REAL, 'llm-d', 'llm-d-benchmark-fixture_inference_perf_lifecycle.yaml');

async function json(file: string): Promise<{ format: string; version: string; reported: Record<string, { value: number; unit: string }>; notes: string[]; rows: { tool: string; metric: string; value: number | null; unit: string }[]; requests: number; successful: number; failures: Record<string, number> }> {
  const r = await runCli(['metrics', file, '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

describe('inference-perf lifecycle reports', () => {
  it('the seven stages are recognised as stage reports and add up to the summary', async () => {
    expect(stageFiles).toHaveLength(7);
    const summary = await json(summaryFile);
    expect(summary.format).toBe('inference-perf-lifecycle');
    expect(summary.version).toMatch(/the whole run/);
    let total = 0;
    for (const f of stageFiles) {
      const o = await json(join(DEMO, f));
      expect(o.version, f).toMatch(/one stage/);
      const raw = JSON.parse(readFileSync(join(DEMO, f), 'utf8'));
      // every number of the file is shown, with the unit summarize_requests computes it in
      expect(o.reported['load_summary.schedule_delay.max']).toEqual({ value: raw.load_summary.schedule_delay.max, unit: 's' });
      expect(o.reported['load_summary.requested_rate']).toEqual({ value: raw.load_summary.requested_rate, unit: '1/s' });
      expect(o.reported['load_summary.send_duration'].unit).toBe('s');
      expect(o.reported['successes.latency.time_per_output_token.p99.9'].unit).toBe('s');
      expect(o.reported['successes.throughput.output_tokens_per_sec'].unit).toBe('tokens/s');
      expect(o.reported['successes.output_len.max'].unit).toBe('tokens');
      expect(o.notes.join(' ')).toMatch(/schedule_delay is how long each request waited behind its schedule/);
      total += o.reported['load_summary.count'].value;
    }
    expect(total).toBe(summary.reported['load_summary.count'].value);
  });

  it('a stage the load generator could not keep up with says so, from its own rates', async () => {
    const raw = JSON.parse(readFileSync(join(DEMO, 'kubecon-na-2025-vllm_stage_6_lifecycle_metrics.json'), 'utf8'));
    expect(raw.load_summary.achieved_rate / raw.load_summary.requested_rate).toBeLessThan(0.95);
    const o = await json(join(DEMO, 'kubecon-na-2025-vllm_stage_6_lifecycle_metrics.json'));
    expect(o.notes.join(' ')).toMatch(/fell behind its schedule \(58% of the asked rate\)/);
    const first = await json(join(DEMO, 'kubecon-na-2025-vllm_stage_0_lifecycle_metrics.json'));
    expect(first.notes.join(' ')).not.toMatch(/fell behind/);
  });

  it('zero-token successes are named: they make NTPOT’s minimum 0', async () => {
    const o = await json(summaryFile);
    expect(o.reported['successes.output_len.min'].value).toBe(0);
    expect(o.notes.join(' ')).toMatch(/normalized_time_per_output_token as 0/);
  });

  it('the YAML copy llm-d keeps is read as an inference-perf lifecycle report, multimodal keys with their units', async () => {
    const o = await json(yamlFile);
    expect(o.format).toBe('inference-perf-lifecycle');
    expect(o.version).toMatch(/as YAML/);
    expect(o.reported['successes.image.pixels.mean'].unit).toBe('pixels');
    expect(o.reported['successes.audio.seconds.mean'].unit).toBe('s');
    expect(o.reported['successes.throughput.images_per_sec'].unit).toBe('images/s');
    expect(o.reported['successes.prompt_tokens.total'].unit).toBe('tokens');
    // 3 sends over 2 s: count / send_duration reads above the asked rate
    expect(o.notes.join(' ')).toMatch(/above the asked rate because send_duration spans 2 gaps between 3 sends/);
    expect(o.notes.join(' ')).not.toMatch(/not shown/);
  });

  it('a path whose unit the reader does not know is left out and named, never shown with a guessed unit', () => {
    expect(lifecycleUnit('successes.latency.time_to_first_token')).toBe('s');
    expect(lifecycleUnit('successes.kv_cache_usage')).toBeNull();
    const text = JSON.stringify({ load_summary: { count: 1 }, successes: { count: 1, kv_cache_usage: { mean: 0.5 } }, failures: { count: 0 } });
    const res = importResult('x.json', text);
    expect(res.reported['successes.kv_cache_usage.mean']).toBeUndefined();
    expect(res.notes.join(' ')).toMatch(/not shown, their unit unknown to this reader: successes\.kv_cache_usage\.mean/);
  });

  it('an inconsistent report is one line naming the fields', () => {
    const text = JSON.stringify({ load_summary: { count: 5 }, successes: { count: 3 }, failures: { count: 1 } });
    expect(() => importResult('bad.json', text)).toThrow(/^bad\.json: successes\.count 3 \+ failures\.count 1 ≠ load_summary\.count 5/);
  });
});

describe('inference-perf per-request file', () => {
  it('the corpus case (layout info.response_metrics): layout named, the failure counted by its type', async () => {
    const o = await json(perRequestFile);
    expect(o.format).toBe('inference-perf-requests');
    expect(o.version).toMatch(/info\.response_metrics/);
    expect(o.requests).toBe(6);
    expect(o.successful).toBe(5);
    expect(o.failures).toEqual({ 'HTTP Error 500': 1 });
    expect(o.rows.find((r) => r.tool === 'inference-perf' && r.metric === 'time_to_first_token mean')!.unit).toBe('s');
  });

  it('its definitions reproduce the summary inference-perf wrote for the same records', async () => {
    const res = await importResultFile(perRequestFile);
    // Pinned from summary_lifecycle_metrics.json beside this file in the same corpus case
    // (kubernetes-sigs/inference-perf @bb26274, tests/reportgen/validation/corpus/full-runs/
    // v0_5_0-clean-two-stage-run/), which summarize_requests wrote from these six records.
    const summary = {
      'successes.count': 5,
      'successes.latency.request_latency.mean': 1.2,
      'successes.latency.request_latency.p90': 1.42,
      'successes.latency.normalized_time_per_output_token.mean': 0.14166666666666666,
      'successes.latency.normalized_time_per_output_token.median': 0.125,
      'successes.latency.time_per_output_token.mean': 0.126002886002886,
      'successes.latency.time_per_output_token.p90': 0.15740259740259738,
      'successes.latency.time_to_first_token.mean': 0.12600288600288598,
      'successes.latency.inter_token_latency.mean': 0.12153772153772155,
      'successes.latency.inter_token_latency.p90': 0.1714285714285717,
      'successes.throughput.requests_per_sec': 0.4166666666666667,
      'successes.throughput.input_tokens_per_sec': 43.333333333333336,
      'successes.throughput.output_tokens_per_sec': 3.6666666666666665,
      'successes.prompt_len.mean': 104.0,
    };
    const reported = Object.fromEntries(Object.entries(summary).map(([k, value]) => [k, { value, unit: lifecycleUnit(k.replace(/\.(mean|median|p\d+)$/, '')) ?? '' }]));
    const agreement = inferencePerfAgreement(res, reported);
    expect(agreement.map((a) => a.key).sort()).toEqual(Object.keys(summary).sort());
    for (const a of agreement) expect(a.relDiff, a.key).toBeLessThan(1e-9);
  });

  // The two older layouts, built as the writers dump them: InferenceInfo.model_dump() of
  // apis/base.py at e3e690b (v0.4.0: input_tokens, output_tokens, output_token_times per chunk) and at
  // 3b882ba (response_info with chunk_times and per-token output_token_times), inside the
  // per-request dict of reportgen/base.py generate_reports (start_time, end_time, request, response, info, error).
  const layout1 = [
    { start_time: 100.0, end_time: 100.5, request: '{}', response: 'ok', info: { input_tokens: 10, output_tokens: 6, output_token_times: [100.1, 100.2, 100.4] }, error: null },
    { start_time: 100.2, end_time: 100.3, request: '{}', response: null, info: { input_tokens: 10, output_tokens: 0, output_token_times: [] }, error: { error_type: 'TimeoutError', error_msg: 'timed out' } },
  ];
  const layout2 = [
    {
      start_time: 100.0, end_time: 100.5, request: '{}', response: 'ok',
      info: { input_tokens: 10, extra_info: {}, lora_adapter: null, response_info: { response_chunks: [], chunk_times: [100.1, 100.2, 100.4], output_tokens: 6, output_token_times: [100.1, 100.2, 100.2, 100.4, 100.4, 100.4] } },
      error: null,
    },
  ];

  it('layout info.output_token_times (to v0.4.0): chunk times, and that version’s TPOT divides by the timestamps − 1', () => {
    const res = importResult('per_request_lifecycle_metrics.json', JSON.stringify(layout1));
    expect(res.format).toBe('inference-perf-requests');
    expect(res.version).toMatch(/info\.output_token_times/);
    expect(res.definitions).toEqual({ 'inference-perf': 'chunks' });
    expect(res.failures).toEqual({ TimeoutError: 1 });
    const rec = res.run.records[0];
    expect(rec.chunkTimes).toHaveLength(3);
    expect(rec.chunkTokens).toBeNull();
    // (100.4 − 100.1) / (3 − 1) in the chunk version; / (6 − 1) in the token version
    expect(inferencePerfTpot(rec, 'chunks').value).toBeCloseTo(0.3 / 2, 12);
    expect(inferencePerfTpot(rec, 'tokens').value).toBeCloseTo(0.3 / 5, 12);
  });

  it('layout info.response_info (v0.5.0): per-token times give the tokens of each chunk', async () => {
    const res = importResult('x.json', JSON.stringify(layout2));
    expect(res.version).toMatch(/info\.response_info/);
    expect(res.definitions).toEqual({ 'inference-perf': 'tokens' });
    expect(res.run.records[0].chunkTokens).toEqual([1, 2, 3]);
    expect(res.run.records[0].sendT).toBe(0);
  });

  it('records of two layouts in one file are refused with one line', () => {
    expect(() => importResult('mixed.json', JSON.stringify([...layout2, ...layout1]))).toThrow(/^mixed\.json: \[1\]\.info has the output_token_times layout but earlier records the response_info one/);
  });
});
