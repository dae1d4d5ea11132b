import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../src/errors.ts';
import type { BenchmarkRun, RequestRecord } from '../src/tools/base/records.ts';
import { detectFormat, importResult, toVllmResult, type Format } from '../src/importers/index.ts';
import { importResultFile } from '../src/importers/load.ts';
import { FORMATS } from '../src/tools/registry.ts';

const DIR = join(import.meta.dirname, 'fixtures/results');
const FIX: Record<Format, string> = {
  vllm: 'vllm-bench-serve.json',
  aiperf: 'profile_export.jsonl',
  guidellm: 'benchmarks.json',
  llmperf: 'llmperf_individual_responses.json',
  sglang: 'sglang-bench-serving.jsonl',
  'mlperf-detail': 'mlperf_log_detail.txt',
  'mlperf-summary': 'mlperf_log_summary.txt',
  'mlperf-trace': 'mlperf_log_trace.json',
};
const text = (f: Format): string => readFileSync(join(DIR, FIX[f]), 'utf8');
const load = (f: Format) => importResult(FIX[f], text(f));

/** The UserError a bad file raises: one line, naming the file. */
function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    const e = err as UserError;
    expect(e.message).not.toContain('\n');
    expect(e.exitCode).toBe(2);
    return e;
  }
  throw new Error('expected a UserError');
}

describe('detectFormat', () => {
  it.each(Object.entries(FIX) as [Format, string][])('recognizes the %s fixture by content', (format, file) => {
    expect(detectFormat('renamed.txt', readFileSync(join(DIR, file), 'utf8'))).toBe(format);
  });
  it('falls back to the file name when the content does not parse', () => {
    expect(detectFormat('out/profile_export.jsonl', '{"metadata": {')).toBe('aiperf');
    expect(detectFormat('x/llama_550_150_individual_responses.json', '[{')).toBe('llmperf');
  });
  it('unknown content → UserError listing the formats and --format', () => {
    const e = userError(() => importResult('mystery.json', '{"hello": 1}'));
    expect(e.message).toMatch(/^mystery\.json: cannot tell which tool/);
    // every format of the registry, in its order
    expect(e.message).toContain(`supported formats: ${FORMATS.map((f) => f.id).join(', ')};`);
    expect(e.message).toContain('supported formats: stopwatches, vllm, ');
    expect(e.message).toContain('--format');
  });
  it('importResultFile reads from disk and names a missing file', async () => {
    const res = await importResultFile(join(DIR, FIX.vllm));
    expect(res.format).toBe('vllm');
    await expect(importResultFile(join(DIR, 'nope.json'))).rejects.toThrow(/nope\.json: cannot read \(no such file\)/);
  });
});

describe('vLLM bench serve', () => {
  const res = load('vllm');
  const recs = res.run.records;
  it('maps every request, seconds on the perf_counter clock', () => {
    expect(res.format).toBe('vllm');
    expect(res.run.source).toBe('vllm-bench-serve');
    expect(recs).toHaveLength(5);
    expect(res.run.maxConcurrency).toBe(2);
    expect(res.run.requestRate).toBe(10);
    const r2 = recs[2];
    expect(r2.dueT).toBeCloseTo(5000.2, 9); // start 5000.5 − queue 0.3
    expect(r2.sendT).toBe(5000.5);
    expect(r2.firstT).toBeCloseTo(5000.7, 9);
    expect(Array.from(r2.chunkTimes!, (t) => +t.toFixed(6))).toEqual([5000.7, 5000.8, 5000.95, 5001.05]);
    expect(r2.finishT).toBeCloseTo(5001.05, 9);
    expect(r2.inputTokens).toBe(128);
    expect(r2.outputTokens).toBe(4);
    expect(r2.chunkTokens).toBeNull();
    expect(r2.preemptions).toBeNull();
  });
  it('keeps the failed request as not ok, with no first token', () => {
    expect(recs[4]).toMatchObject({ ok: false, firstT: null, chunkTimes: null, outputTokens: null });
    expect(recs.filter((r) => r.ok)).toHaveLength(4);
  });
  it('run window: D ends at the last finish', () => {
    expect(res.run.endT).toBeCloseTo(5001.05, 9);
    expect(res.run.startT).toBeCloseTo(5001.05 - 1.1, 9);
  });
  it('says what the file lacks and keeps the tool’s aggregates in seconds', () => {
    expect(res.lacks).toEqual(['chunkTokens']);
    expect(res.missing.join(' ')).toMatch(/per-chunk token counts/);
    expect(res.reported.mean_ttft_ms).toEqual({ value: 0.2, unit: 's', written: { value: 200, unit: 'ms' } });
    expect(res.reported.request_throughput.unit).toBe('1/s');
  });
  it('re-exporting reproduces the fixture’s hand-computed aggregates', () => {
    const out = toVllmResult(res.run);
    const fixture = JSON.parse(text('vllm'));
    for (const k of ['mean_ttft_ms', 'median_ttft_ms', 'std_ttft_ms', 'p99_ttft_ms', 'mean_tpot_ms', 'p99_tpot_ms', 'std_tpot_ms', 'mean_itl_ms', 'median_itl_ms', 'std_itl_ms', 'p99_itl_ms', 'mean_e2el_ms', 'median_e2el_ms', 'std_e2el_ms', 'completed', 'total_output_tokens', 'request_throughput', 'output_throughput', 'total_token_throughput']) {
      expect(out[k], k).toBeCloseTo(fixture[k], 6);
    }
  });
  it('an aggregate-only file (no --save-detailed) gives no records and says why', () => {
    const obj = JSON.parse(text('vllm'));
    for (const k of ['start_times', 'ttfts', 'itls', 'input_lens', 'output_lens', 'generated_texts', 'errors']) delete obj[k];
    const r = importResult('agg.json', JSON.stringify(obj));
    expect(r.run.records).toHaveLength(0);
    expect(r.lacks).toContain('records');
    expect(r.missing[0]).toMatch(/--save-detailed/);
  });
});

describe('AIPerf profile_export.jsonl', () => {
  const res = load('aiperf');
  const recs = res.run.records;
  it("keeps every record's chunk times apart, across the buffers they are cut from", () => {
    // 400 records of 1 to 1,500 gaps: several buffers of chunk times, records cut at their ends
    const line = (i: number, gaps: number[]) => JSON.stringify({
      metadata: { x_request_id: `r${i}`, credit_issued_ns: String(1760000000000000000n + BigInt(i) * 1000000n), request_start_ns: String(1760000000000100000n + BigInt(i) * 1000000n), request_end_ns: String(1760000000900000000n + BigInt(i) * 1000000n), benchmark_phase: 'profiling', was_cancelled: false },
      metrics: { time_to_first_token: { value: 10 + (i % 7), unit: 'ms' }, request_latency: { value: 800, unit: 'ms' }, inter_chunk_latency: { value: gaps, unit: 'ms' }, output_sequence_length: { value: gaps.length + 1, unit: 'tokens' } },
      error: null,
    }).replace(/"(\d{19})"/g, '$1');
    const gapsOf = (i: number) => Array.from({ length: 1 + ((i * 613) % 1500) }, (_, k) => 0.25 + ((i + k) % 11) / 100);
    const text = Array.from({ length: 400 }, (_, i) => line(i, gapsOf(i))).join('\n') + '\n';
    const big = importResult('profile_export.jsonl', text).run.records;
    expect(big).toHaveLength(400);
    expect(big.reduce((n, r) => n + r.chunkTimes!.length, 0)).toBeGreaterThan(2 * (1 << 17));
    big.forEach((r, i) => {
      const want = [r.firstT!];
      for (const g of gapsOf(i)) want.push(want[want.length - 1] + g * 1e-3); // as the reader converts ms
      expect(Array.from(r.chunkTimes!), `record ${i}`).toEqual(want);
    });
  });
  it('drops the warmup record and rebases epoch ns to the earliest credit', () => {
    expect(recs).toHaveLength(4);
    expect(res.notes.join(' ')).toMatch(/1 record\(s\) of phase "warmup" dropped/);
    expect(res.clock).toContain('1760000000000000000');
  });
  it('converts ms metrics and ns metadata exactly', () => {
    const r1 = recs[1];
    expect(r1.dueT).toBeCloseTo(0.2, 12);
    expect(r1.sendT).toBeCloseTo(0.20015, 12);
    expect(r1.firstT).toBeCloseTo(0.20015 + 0.13, 12);
    expect(Array.from(r1.chunkTimes!, (t) => +t.toFixed(9))).toEqual([0.33015, 0.34115, 0.35215, 0.36315]);
    expect(r1.finishT).toBeCloseTo(0.36315, 12); // start + request_latency (last content chunk)
    expect(r1.inputTokens).toBe(256);
    expect(r1.outputTokens).toBe(4);
  });
  it('marks the errored record not ok; run window = first send to last finish', () => {
    expect(recs[3].ok).toBe(false);
    expect(recs[3].firstT).toBeNull();
    expect(res.run.startT).toBeCloseTo(0.0001, 12);
    expect(res.run.endT).toBeCloseTo(0.6501, 12);
    expect(res.lacks).toEqual(expect.arrayContaining(['chunkTokens', 'serverTokenCounts', 'runWindow']));
    expect(res.lacks).not.toContain('chunkTimes');
  });
});

describe('GuideLLM benchmarks.json', () => {
  const res = load('guidellm');
  const recs = res.run.records;
  it('reads timings relative to the benchmark start, in send order', () => {
    expect(recs).toHaveLength(4);
    expect(recs.map((r) => r.ok)).toEqual([true, true, true, false]);
    const q0 = recs[0];
    // a concurrent profile has no per-request schedule: targeted_start is not a due time
    expect(q0.dueT).toBeNull();
    expect(q0.sendT).toBeCloseTo(0.002, 6);
    expect(q0.firstT).toBeCloseTo(0.202, 6);
    expect(q0.finishT).toBeCloseTo(1.004, 6);
    expect(res.lastTokenT![0]).toBeCloseTo(1.002, 6);
    expect(q0.chunkTimes).toBeNull();
    expect(q0.outputTokens).toBe(5);
    expect(q0.inputTokens).toBe(512);
    expect(res.lacks).toContain('schedule');
  });
  it('the request schema tells the version: info.timings is 0.4 on, even without metadata', () => {
    const doc = JSON.parse(text('guidellm'));
    delete doc.metadata;
    expect(importResult('benchmarks.json', JSON.stringify(doc)).version).toMatch(/^GuideLLM 0\.4 or later/);
    expect(res.version).toMatch(/^GuideLLM 0\.4\.0\.dev/);
  });
  it('a rate profile keeps targeted_start as the due time', () => {
    const doc = JSON.parse(text('guidellm'));
    doc.benchmarks[0].config.strategy = { type_: 'poisson', rate: 2 };
    const recs2 = importResult('benchmarks.json', JSON.stringify(doc)).run.records;
    expect(recs2[0].dueT).toBeCloseTo(0, 6);
    expect(recs2[2].dueT).toBeCloseTo(1.004, 6);
  });
  it('GuideLLM’s own TPOT recomputes from the records + lastTokenT', () => {
    // time_per_output_token_ms = 1000·(last − request_start)/output_tokens: q1 → 210 ms
    const q1 = recs[1];
    expect((1000 * (res.lastTokenT![1]! - q1.sendT)) / q1.outputTokens!).toBeCloseTo(210, 3); // epoch-second floats: ~0.2 µs steps
  });
  it('strategy → max concurrency; window; lacks chunk times', () => {
    expect(res.run.maxConcurrency).toBe(2);
    expect(res.run.startT).toBe(0);
    expect(res.run.endT).toBeCloseTo(2.5, 6);
    expect(res.lacks).toContain('chunkTimes');
    expect(res.missing[0]).toMatch(/ITL/);
    expect(res.reported['time_to_first_token_ms.mean']).toEqual({ value: 0.2, unit: 's' });
  });
  it('a sweep lists its benchmarks side by side; --entry picks one, and only readable ones are offered', () => {
    const doc = JSON.parse(text('guidellm'));
    doc.benchmarks.push(doc.benchmarks[0], { start_time: 'soon' });
    const all = importResult('sweep.json', JSON.stringify(doc));
    expect(all.run.records).toHaveLength(0);
    expect(all.runs!.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(all.runs![2].unreadable).toMatch(/start_time should be a number/);
    expect(all.runs![0].reported['time_to_first_token_ms.mean'].value).toBe(0.2);
    expect(all.missing[0]).toMatch(/--entry N \(N = 0, 1\)$/);
    expect(importResult('sweep.json', JSON.stringify(doc), { entry: 1 }).run.records).toHaveLength(4);
    expect(userError(() => importResult('sweep.json', JSON.stringify(doc), { entry: 3 })).message).toBe('sweep.json: --entry 3 is out of range: the file holds 3 benchmarks (a sweep), numbered 0 to 2');
    expect(userError(() => importResult('one.json', text('guidellm'), { entry: 1 })).message).toBe('one.json: --entry 1: the file holds one run; leave --entry out');
  });
});

describe('LLMPerf individual responses', () => {
  const res = load('llmperf');
  it('places each request on its own clock and says so', () => {
    const recs = res.run.records;
    expect(recs).toHaveLength(4);
    expect(recs[1]).toMatchObject({ sendT: 0, firstT: 0.25, finishT: 2.5, outputTokens: 120, inputTokens: 500, dueT: null, chunkTimes: null, ok: true });
    expect(recs[3].ok).toBe(false);
    expect(res.lacks).toEqual(expect.arrayContaining(['timeline', 'schedule', 'chunkTimes', 'serverTokenCounts']));
    expect(res.missing[0]).toMatch(/no timestamps/);
    expect(res.reported['ttft_s.mean'].value).toBeCloseTo(0.21, 12);
  });
});

describe('SGLang bench_serving jsonl', () => {
  const res = load('sglang');
  it('rebuilds chunk times from ttfts + itls on per-request clocks', () => {
    const recs = res.run.records;
    expect(recs).toHaveLength(4);
    expect(Array.from(recs[2].chunkTimes!, (t) => +t.toFixed(9))).toEqual([0.04, 0.055, 0.065, 0.075, 0.085]);
    expect(recs[2].finishT).toBeCloseTo(0.085, 12);
    expect(recs[2].outputTokens).toBe(5);
    expect(recs[3]).toMatchObject({ ok: false, firstT: null });
    expect(res.run.maxConcurrency).toBe(4);
    expect(res.run.requestRate).toBe(Infinity);
    expect(res.lacks).toContain('timeline');
    expect(res.reported.concurrency).toEqual({ value: 0.492, unit: 'requests' });
  });
});

describe('MLPerf LoadGen', () => {
  it('detail log: aggregates only, ns → s', () => {
    const res = load('mlperf-detail');
    expect(res.run.records).toHaveLength(0);
    expect(res.lacks).toContain('records');
    expect(res.run.requestRate).toBe(6);
    expect(res.reported.result_mean_latency_ns).toEqual({ value: 10.172, unit: 's', written: { value: 10172000000, unit: 'ns' } });
    expect(res.reported['result_first_token_99.00_percentile_latency_ns'].value).toBeCloseTo(0.0533, 12);
    expect(res.reported.result_completed_samples_per_sec).toEqual({ value: 5.98, unit: 'samples/s' });
    expect(res.notes[0]).toContain('VALID');
  });
  it('trace: per-sample schedule, issue, first token and completion', () => {
    const res = load('mlperf-trace');
    const recs = res.run.records;
    expect(recs).toHaveLength(3);
    expect(recs[0].dueT).toBeCloseTo(0.001, 12);
    expect(recs[0].sendT).toBeCloseTo(0.00105, 12);
    expect(recs[0].firstT).toBeCloseTo(0.201, 12);
    expect(recs[0].finishT).toBeCloseTo(2.001, 12);
    expect(recs[1].dueT).toBeCloseTo(0.5, 12);
    expect(recs[1].firstT).toBeCloseTo(0.65, 12);
    expect(recs[2].finishT).toBeCloseTo(2.1, 12);
    expect(res.lacks).toEqual(expect.arrayContaining(['outputTokens', 'chunkTimes']));
    expect(res.lacks).not.toContain('firstToken');
  });
});

describe('malformed files → one-line UserError naming file and problem', () => {
  it('truncated JSON', () => {
    const t = text('vllm');
    const e = userError(() => importResult('run.json', t.slice(0, t.length / 2), { format: 'vllm' }));
    expect(e.message).toMatch(/^run\.json: invalid JSON \(the text ends early: truncated\?\)/);
  });
  it('truncated JSON, format from the file name', () => {
    const t = text('guidellm');
    const e = userError(() => importResult('out/benchmarks.json', t.slice(0, 400)));
    expect(e.message).toMatch(/^out\/benchmarks\.json: invalid JSON \(the text ends early: truncated\?\)/);
  });
  it('truncated JSON lines name the line', () => {
    const t = text('aiperf');
    const e = userError(() => importResult('profile_export.jsonl', t.slice(0, t.length - 200)));
    expect(e.message).toMatch(/^profile_export\.jsonl: invalid JSON on line 5 \(the text ends early: truncated\?\)/);
  });
  it('AIPerf nanosecond stamps keep every digit, whether the line is read as written or rewritten first', () => {
    const t = text('aiperf');
    const plain = importResult('p.jsonl', t).run.records;
    // the same key a second time in the line (in a metric's name) sends it through the rewrite
    const twice = importResult('p.jsonl', t.replaceAll('"request_latency":{', '"x":{"request_start_ns":1},"request_latency":{')).run.records;
    expect(twice).toStrictEqual(plain);
    expect(plain[1].sendT - plain[0].sendT).not.toBe(0);
    // a stamp written as a float is refused as it always was
    const e = userError(() => importResult('p.jsonl', t.replace('"request_start_ns":1760000000000100000', '"request_start_ns":1.76e18')));
    expect(e.message).toMatch(/^p\.jsonl: invalid JSON on line 2/);
  });
  it('wrong units: a ttft in ms where seconds are documented', () => {
    const obj = JSON.parse(text('vllm'));
    obj.ttfts[3] = 40000;
    const e = userError(() => importResult('run.json', JSON.stringify(obj)));
    expect(e.message).toMatch(/^run\.json: ttfts\[3\] = 40000 s is implausible for one request/);
    expect(e.message).toMatch(/seconds/);
  });
  it('wrong units: ttfts in ms under the hour limit still disagree with latencies', () => {
    const obj = JSON.parse(text('vllm'));
    obj.ttfts = obj.ttfts.map((x: number) => x * 1000);
    const e = userError(() => importResult('run.json', JSON.stringify(obj)));
    expect(e.message).toMatch(/^run\.json: latencies\[0\] = 0\.5 s ends before ttfts\[0\] = 200 s/);
  });
  it('wrong units: SGLang ttfts ×1000 vs its own mean_ttft_ms', () => {
    const obj = JSON.parse(text('sglang'));
    obj.ttfts = obj.ttfts.map((x: number) => x * 1000);
    const e = userError(() => importResult('s.jsonl', JSON.stringify(obj)));
    expect(e.message).toMatch(/^s\.jsonl: ttfts average 50\.00 but mean_ttft_ms = 50: off by 1\.00e\+3×/);
  });
  it('wrong units: LLMPerf latency in ms', () => {
    const arr = JSON.parse(text('llmperf'));
    arr[1].end_to_end_latency_s = 2500;
    const e = userError(() => importResult('ir.json', JSON.stringify(arr)));
    expect(e.message).toMatch(/^ir\.json: \[1\]: request_output_throughput_token_per_s × end_to_end_latency_s = 1\.200e\+5, not number_output_tokens = 120 \(nor a message count at most that\)/);
  });
  it('wrong units: AIPerf metric with an unknown unit', () => {
    const t = text('aiperf').replace('"time_to_first_token":{"value":130.0,"unit":"ms"}', '"time_to_first_token":{"value":130.0,"unit":"tokens"}');
    const e = userError(() => importResult('p.jsonl', t));
    expect(e.message).toMatch(/^p\.jsonl: line 3: metrics\.time_to_first_token\.unit = "tokens"; expected a time unit/);
  });
  it('wrong units: MLPerf trace complete_ns disagreeing with the end event', () => {
    const t = text('mlperf-trace').replace('"complete_ns":1500000000', '"complete_ns":1500000');
    const e = userError(() => importResult('trace.json', t));
    expect(e.message).toMatch(/^trace\.json: Sample 2: complete_ns \(1500000 ns after the schedule\) disagrees with its end event/);
  });
  it('negative times', () => {
    const obj = JSON.parse(text('vllm'));
    obj.itls[1][2] = -0.1;
    expect(userError(() => importResult('run.json', JSON.stringify(obj))).message).toBe('run.json: itls[1][2] = -0.1 is negative; times must be ≥ 0');
    const t = text('mlperf-trace').replace('"issue_start_ns":80000', '"issue_start_ns":-80000');
    expect(userError(() => importResult('trace.json', t)).message).toMatch(/^trace\.json: Sample 2\.args\.issue_start_ns = -80000 is negative/);
  });
  it('finish before send', () => {
    const t = text('aiperf').replace('"request_end_ns":1760000000364150000', '"request_end_ns":1760000000100000000');
    expect(userError(() => importResult('p.jsonl', t)).message).toMatch(/^p\.jsonl: line 3: request_end_ns is before request_start_ns by 0\.10015 s: the request finishes before it was sent/);
    const doc = JSON.parse(text('guidellm'));
    doc.benchmarks[0].requests.successful[1].info.timings.request_end = 1760000000.001;
    expect(userError(() => importResult('b.json', JSON.stringify(doc))).message).toMatch(
      /^b\.json: benchmarks\[0\]\.requests\.successful\[1\]: request_end is 0\.00200 s before request_start: the request finishes before it was sent/,
    );
    const arr = JSON.parse(text('llmperf'));
    arr[0].ttft_s = 3;
    expect(userError(() => importResult('ir.json', JSON.stringify(arr))).message).toMatch(/^ir\.json: \[0\]\.ttft_s = 3 s is after end_to_end_latency_s = 2 s/);
  });
  it('another tool’s file under an explicit --format', () => {
    const e = userError(() => importResult('benchmarks.json', text('guidellm'), { format: 'vllm' }));
    expect(e.message).toBe('benchmarks.json: not a vLLM benchmark result (--format vllm); it looks like a GuideLLM report: use --format guidellm, or leave --format out');
    const cases: [Format, Format][] = [
      ['aiperf', 'vllm'],
      ['guidellm', 'llmperf'],
      ['llmperf', 'sglang'],
      ['sglang', 'vllm'],
      ['vllm', 'sglang'],
      ['mlperf-detail', 'aiperf'],
      ['mlperf-trace', 'guidellm'],
      ['aiperf', 'mlperf-detail'],
      ['vllm', 'mlperf-trace'],
    ];
    for (const [asFormat, fileOf] of cases) {
      const err = userError(() => importResult(FIX[fileOf], text(fileOf), { format: asFormat }));
      expect(err.message, `${fileOf} as ${asFormat}`).toMatch(new RegExp(`^${FIX[fileOf].replace('.', '\\.')}: `));
      expect(err.message, `${fileOf} as ${asFormat}`).toMatch(new RegExp(`: not an? .*\\(--format ${asFormat}\\); it looks like an? .*: use --format ${fileOf}, or leave --format out$`));
      expect(err.message).not.toMatch(/invalid JSON|truncated/);
    }
  });
});

/* ---------------------------------------------------------------------- */
/* Round trip: records → vLLM JSON → import → same records.                */
/* ---------------------------------------------------------------------- */

/** A small run shaped like the simulator's: capped client, one token per chunk. */
function syntheticRun(): BenchmarkRun {
  const records: RequestRecord[] = [];
  let t = 0;
  for (let i = 0; i < 6; i++) {
    const dueT = i * 0.37;
    const sendT = dueT + (i % 3) * 0.11;
    const firstT = sendT + 0.0913 + i * 0.0071;
    const n = 5 + i;
    // gaps of 17.3 ms, every fourth one a 61 ms stall (a prefill step)
    const chunkTimes = [firstT];
    for (let k = 1; k < n; k++) chunkTimes.push(chunkTimes[k - 1] + 0.0173 + (k % 4 === 3 ? 0.061 : 0));
    records.push({
      dueT,
      sendT,
      chunkTimes: Float64Array.from(chunkTimes),
      chunkTokens: chunkTimes.map(() => 1),
      firstT,
      finishT: chunkTimes[n - 1],
      inputTokens: 1000 + 17 * i,
      outputTokens: n,
      ok: true,
      preemptions: 0,
    });
    t = Math.max(t, chunkTimes[n - 1]);
  }
  return { records, source: 'simulator', maxConcurrency: 2, requestRate: 2.7, startT: 0, endT: t };
}

describe('toVllmResult round trip', () => {
  it('records → vLLM JSON → import gives the same records within float tolerance', () => {
    const run = syntheticRun();
    const json = JSON.stringify(toVllmResult(run, { model: 'meta-llama/Llama-3.1-8B-Instruct' }));
    const back = importResult('sim.json', json);
    expect(back.format).toBe('vllm');
    expect(back.run.maxConcurrency).toBe(2);
    expect(back.run.requestRate).toBe(2.7);
    expect(back.run.startT).toBeCloseTo(run.startT, 9);
    expect(back.run.endT).toBeCloseTo(run.endT, 9);
    expect(back.run.records).toHaveLength(run.records.length);
    run.records.forEach((a, i) => {
      const b = back.run.records[i];
      expect(b.ok).toBe(a.ok);
      expect(b.dueT!).toBeCloseTo(a.dueT!, 9);
      expect(b.sendT).toBeCloseTo(a.sendT, 9);
      expect(b.firstT!).toBeCloseTo(a.firstT!, 9);
      expect(b.finishT).toBeCloseTo(a.finishT, 9);
      expect(b.chunkTimes!.length).toBe(a.chunkTimes!.length);
      b.chunkTimes!.forEach((x, k) => expect(x).toBeCloseTo(a.chunkTimes![k], 9));
      expect(b.inputTokens).toBe(a.inputTokens);
      expect(b.outputTokens).toBe(a.outputTokens);
      // what vLLM's format cannot carry
      expect(b.chunkTokens).toBeNull();
      expect(b.preemptions).toBeNull();
    });
  });
  it('aggregates follow vLLM’s formulas (TPOT per request, ITL pooled)', () => {
    const run = syntheticRun();
    const out = toVllmResult(run);
    const tpots = run.records.map((r) => (r.finishT - r.firstT!) / (r.outputTokens! - 1));
    expect(out.mean_tpot_ms).toBeCloseTo((1000 * tpots.reduce((s, x) => s + x, 0)) / tpots.length, 9);
    expect(out.completed).toBe(6);
    expect(out.request_throughput).toBeCloseTo(6 / run.endT, 12);
  });
});

describe('reading the JSON the tools write', async () => {
  const { parseJsonExact, parsePythonJson, repairLoadgenQuotes } = await import('../src/tools/base/json-text.ts');
  it('Python’s NaN, Infinity and -Infinity outside strings, nothing else', () => {
    expect(parsePythonJson('{"a": Infinity, "b": -Infinity, "c": [NaN, 1e-3], "s": "NaN Infinity"}')).toEqual({ a: Infinity, b: -Infinity, c: [NaN, 0.001], s: 'NaN Infinity' });
    expect(() => parsePythonJson('{"a": inf}')).toThrow();
    expect(() => parsePythonJson('{"a": Infinit}')).toThrow();
  });
  it('LoadGen’s ""text"" args and only that pattern', () => {
    const fixed = repairLoadgenQuotes('{"args":{"key":""loadgen_version""}},{"args":{"message":""SUT name : ""}}');
    expect(fixed.repaired).toBe(2);
    expect(JSON.parse(`[${fixed.text}]`)).toEqual([{ args: { key: 'loadgen_version' } }, { args: { message: 'SUT name : ' } }]);
    expect(repairLoadgenQuotes('{"a": 1,, "b": 2}').repaired).toBe(0);
    const trace = text('mlperf-trace').replace('"traceEvents"', '"traceEvents" [');
    expect(userError(() => importResult('t.json', trace, { format: 'mlperf-trace' })).message).toMatch(/^t\.json: invalid JSON/);
  });
  it('integers beyond 2^53 kept as their digits, others as numbers', () => {
    expect(parseJsonExact('{"seed": 14276810075590677512, "n": 9007199254740991, "x": 1.12345678901234567, "s": "12345678901234567890"}')).toEqual({
      seed: { bigint: '14276810075590677512' },
      n: 9007199254740991,
      x: 1.1234567890123457,
      s: '12345678901234567890',
    });
  });
  it('a byte-order mark is read', () => {
    expect(importResult('bom.json', `\uFEFF${text('vllm')}`).format).toBe('vllm');
    expect(importResult('bom.txt', `\uFEFF${text('mlperf-detail')}`).format).toBe('mlperf-detail');
  });
  it('the LoadGen summary: typed values, a 64-bit seed kept exact', () => {
    const res = load('mlperf-summary');
    expect(res.reported.mean_latency_ns).toEqual({ value: 2, unit: 's', written: { value: 2e9, unit: 'ns' } });
    // results.cc LogSummary: (sample_count − 1) / final_query_all_samples_done_time
    expect(res.reported.completed_samples_per_second).toEqual({ value: 4, unit: 'samples/s' });
    expect(res.reported.min_query_count).toEqual({ value: 100, unit: 'queries' });
    expect(res.reported.qsl_rng_seed.exact).toBe('14276810075590677512');
  });
});

describe('GuideLLM files that keep a sample of the requests', () => {
  it('say so, and the agreement gives that as the reason', () => {
    const doc = JSON.parse(text('guidellm'));
    doc.benchmarks[0].metrics.request_totals = { successful: 30, errored: 1, incomplete: 0, total: 31 };
    const res = importResult('sampled.json', JSON.stringify(doc));
    expect(res.sampledFrom).toBe(30);
    expect(res.notes.join(' ')).toMatch(/keeps 3 of the 30 successful requests/);
    const totals = res.agreement.find((a) => a.key === 'request_totals.successful')!;
    expect(totals.reason).toMatch(/sample of the requests/);
  });
  it('a NaN where a time is needed is named as such', () => {
    const obj = JSON.parse(text('vllm'));
    const t = JSON.stringify(obj).replace('"ttfts":[', '"ttfts":[NaN,').replace(/"ttfts":\[NaN,([^,\]]+),/, '"ttfts":[NaN,');
    expect(userError(() => importResult('nan.json', t)).message).toBe('nan.json: ttfts[0] = NaN: a finite number is needed here');
  });
});

describe('AIPerf aggregate export, both layouts', () => {
  const agg = (top: boolean) => {
    const metrics = { request_latency: { unit: 'ms', avg: 900, p50: 880, p99: 1500 }, request_throughput: { unit: 'requests/sec', avg: 9.5 } };
    return JSON.stringify(top ? { ...metrics, input_config: {}, error_summary: [{ error_details: { code: 499 }, count: 2 }] } : { records: metrics, input_config: {} });
  };
  it.each([[false], [true]])('metrics at the top level: %s', (top) => {
    const res = importResult('profile_export_aiperf.json', agg(top));
    expect(res.format).toBe('aiperf');
    expect(res.run.records).toHaveLength(0);
    expect(res.reported['request_latency.avg']).toEqual({ value: 0.9, unit: 's', written: { value: 900, unit: 'ms' } });
    expect(res.reported['request_throughput.avg']).toEqual({ value: 9.5, unit: '1/s' });
    if (top) expect(res.failures).toEqual({ 'cancelled (499)': 2 });
  });
});
