/**
 * The audit's verdicts on the real result files in ../shared/real-results/
 * (provenance in its README), pinned per file after reading each one. A file
 * the readers do not accept yet is skipped by rule (its import fails with a
 * one-line UserError: issue 25 adds formats in parallel); a file that reads
 * but has no pin here, or is now read as another format than the one pinned,
 * is still audited and must honour the report's contract. A file of several
 * runs is pinned run by run, as `audit` prints them (`FILE [--entry N]`).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditRun, FINDING_IDS, type AuditReport, type Verdict } from '../src/audit/index.ts';
import { UserError } from '../src/errors.ts';
import { importResultFile } from '../src/importers/load.ts';

const ROOT = join(import.meta.dirname, '..', '..', 'shared', 'real-results');

/** Verdicts in FINDING_IDS order: W warn, o ok, u unknown. */
type Pin = { format: string; verdicts: string };

const PINS: Record<string, Pin> = {
  // 100 records sent within 20 ms, the first finishing after 7.9 s: one wave, no steady window (window W, littles-law and
  // steady-state cannot tell); no rate, cap or credits in the Oct 2025 schema (client-queue u); 89 ok < 299 (sample-size W);
  // 550-token prompts but varying outputs (metronome o); AIPerf's own token count (tokens W); 11 cancelled (499) of 100,
  // above the 1% a p99 can absorb and the 10% a p90 can (errors W)
  'aiperf/aiperf-examples-run1_profile_export.jsonl': { format: 'aiperf', verdicts: 'W u W W u o u W W' },
  // the same run's aggregates: request_count 89 (sample-size W); concurrency 100 for 100 requests is one wave, so L = λW has
  // no window (littles-law u); reasoning_token_count 222 and output_sequence_length 243 against output_token_count 61
  // (tokens W: reasoning counted as output); error_summary 11 cancelled (errors W)
  'aiperf/aiperf-examples-run1_profile_export_aiperf.json': { format: 'aiperf', verdicts: 'u u W u u u u W W' },
  // concurrency 1, 66 turns of an agentic trace, one at a time (first-wave o); credits 1.4 ms before each start on
  // average (client-queue o); 66 < 299 (sample-size W); in flight 1 throughout (steady-state o); inputs 10k–119k tokens
  // (metronome o); AIPerf's count (tokens W); all ok (errors o)
  'aiperf/ajith-kimik25-b200-conc1_profile_export.jsonl': { format: 'aiperf', verdicts: 'o o W o o o o W o' },
  // the same run's aggregates (JSON and CSV): 66 requests (sample-size W); the JSON claims concurrency 1, but
  // request_throughput 0.0386 × mean latency 8.4 s is 0.32 in flight, the agent's pauses between turns (littles-law W, as the
  // per-request file's 0.32); the CSV names no concurrency (littles-law o); AIPerf's count (tokens W)
  'aiperf/ajith-kimik25-b200-conc1_profile_export_aiperf.csv': { format: 'aiperf-csv', verdicts: 'u u W u u u o W o' },
  'aiperf/ajith-kimik25-b200-conc1_profile_export_aiperf.json': { format: 'aiperf', verdicts: 'u u W u u u W W o' },
  // GenAI-Perf CSV: no request count (sample-size, errors u), no concurrency; 10.95 req/s × 91 ms = 1.0 in flight (littles-law o)
  'genai-perf/triton-client-pr635_profile_export_genai_perf.csv': { format: 'genai-perf-csv', verdicts: 'u u u u u u o u u' },
  // GuideLLM throughput profile (rate inf): 4 sends in the first 10 ms but then a flood, in flight 254 → 511 between the
  // halves with median TTFT 41 s → 79 s (steady-state W); TTFT lag-1 ρ 0.99 leaves ~6 independent of 1,000 (sample-size W)
  'guidellm/grazdev-qwen25-7b-throughput_benchmarks.json': { format: 'guidellm', verdicts: 'o o W o W o o o o' },
  // synchronous profile: one request at a time (cap 1, no rate: client-queue o, littles-law o at 1.0); 25 measured
  // requests < 299 (sample-size W); everything else steady
  'guidellm/korat-gpt-oss-20b_benchmarks.json': { format: 'guidellm', verdicts: 'o o W o o o o o o' },
  // inference-perf stages: requested against achieved rate (1.0 vs 1.025 … 92.19 vs 92.22: client-queue o; from stage 4 on
  // 122.6 → 106.5, 153 → 105.6, 183.4 → 106.5 req/s with mean schedule delays of 3.6, 12.3 and 19.9 s: client-queue W);
  // 60 and 1,884 requests cannot bound the printed p99.9 (sample-size W), 3,707 and more can; the token totals do not say
  // whose tokenizer (tokens u); no failures (errors o)
  'inference-perf/kubecon-na-2025-vllm_stage_0_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u o W u u u o u o' },
  'inference-perf/kubecon-na-2025-vllm_stage_1_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u o W u u u o u o' },
  'inference-perf/kubecon-na-2025-vllm_stage_2_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u o o u u u o u o' },
  'inference-perf/kubecon-na-2025-vllm_stage_3_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u o o u u u o u o' },
  'inference-perf/kubecon-na-2025-vllm_stage_4_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u W o u u u o u o' },
  'inference-perf/kubecon-na-2025-vllm_stage_5_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u W o u u u o u o' },
  'inference-perf/kubecon-na-2025-vllm_stage_6_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u W o u u u o u o' },
  // the summary has no rates in its load_summary (client-queue u); 38,717 requests (sample-size o)
  'inference-perf/kubecon-na-2025-vllm_summary_lifecycle_metrics.json': { format: 'inference-perf-lifecycle', verdicts: 'u u o u u u o u o' },
  // the synthetic 6-record case: starts 0 … 10.5 s apart (first-wave o), 5 ok (sample-size W), one HTTP 500 of 6 (errors W)
  'inference-perf/pr705-corpus-clean-two-stage_per_request_lifecycle_metrics.json': { format: 'inference-perf-requests', verdicts: 'o u W o u o o o W' },
  // InferenceX: 66 and 300 requests bound the printed p95 (sample-size o); mean_qps × mean_e2el is 0.32 against conc 1 and
  // 12.7 against conc 16 (littles-law W); token totals of unnamed origin (tokens u)
  'inferencex/ajith-kimik25-b200-conc1-agentic.json': { format: 'inferencex', verdicts: 'u u o u u u W u o' },
  'inferencex/ajith-minimaxm25-agg_bmk.json': { format: 'inferencex', verdicts: 'u u o u u u W u o' },
  // the schema example: no counts, no rates (all u)
  'llm-d/llm-d-benchmark-example_br_v0_2_1_example.yaml': { format: 'br-v0.2.1', verdicts: 'u u u u u u u u u' },
  // 3 requests (sample-size W), achieved 1.5 of 1.0 requested (ahead, not behind: client-queue o)
  'llm-d/llm-d-benchmark-fixture_inference_perf_lifecycle.yaml': { format: 'inference-perf-lifecycle', verdicts: 'u o W u u u o u o' },
  // LLMPerf without a shared clock (each request its own ttft/e2e: first-wave, window, steady-state u); 20 ok (sample-size W);
  // Llama-2 token counts (tokens W); 130 × HTTP 429 of 150 (errors W); fixed 550-token prompts but outputs vary (metronome o)
  'llmperf/leaderboard-lepton_70b_individual_responses.json': { format: 'llmperf', verdicts: 'u u W u u o u W W' },
  'llmperf/leaderboard-lepton_70b_summary.json': { format: 'llmperf', verdicts: 'u u W u u u u W W' },
  // LoadGen detail: 985 queries; p99.9 latency printed needs 2,995 (sample-size W); no failures counted (errors o)
  'mlperf/scc24-server-demo_mlperf_log_detail.txt': { format: 'mlperf-detail', verdicts: 'u u W u u u u u o' },
  // the summary keeps no query count (sample-size, errors u)
  'mlperf/scc24-server-demo_mlperf_log_summary.txt': { format: 'mlperf-summary', verdicts: 'u u u u u u u u u' },
  // the trace: 985 samples at ~100/s, each issued ~75 µs after its scheduled time, which LoadGen's own clock includes
  // (client-queue o); no first tokens (first-wave u) nor lengths (metronome, tokens u); in flight ~0.37 (steady-state o)
  'mlperf/scc24-server-demo_mlperf_log_trace.json': { format: 'mlperf-trace', verdicts: 'u o o o o u o u o' },
  // SingleStream 5,000 queries bound p99.9 (needs 2,995: sample-size o); token rate the SUT reported (tokens o)
  'mlperf/v5.1-intel-b60-llama31-8b-edge-singlestream_mlperf_log_detail.txt': { format: 'mlperf-detail', verdicts: 'u u o u u u u o o' },
  'mlperf/v5.1-intel-b60-llama31-8b-edge-singlestream_mlperf_log_summary.txt': { format: 'mlperf-summary', verdicts: 'u u u u u u u o u' },
  // 3,366,912 queries (sample-size o)
  'mlperf/v6.0-amd-mi355x-llama2-70b-interactive_mlperf_log_detail.txt': { format: 'mlperf-detail', verdicts: 'u u o u u u u o o' },
  // SGLang aggregates: rate inf, cap 8 (client-queue o); 50 completed < 299 (sample-size W); request_throughput 25.37 ×
  // mean E2E 0.307 s = 7.78 against 8 (littles-law o); total_output_tokens 1,401 vs retokenized 1,400 (tokens o)
  'sglang/tonyli-agg_n50_in128_out64_c8.jsonl': { format: 'sglang', verdicts: 'u o W u u u o o o' },
  // rate inf, no cap, 10 prompts: all sent at once, one wave by the settings (first-wave W); no start_times (window,
  // steady-state u); 10 < 299 (sample-size W); prompts 4–399 tokens (metronome o)
  'vllm/lambdalabs-llama3-8b-h100-len2048.json': { format: 'vllm', verdicts: 'W o W u u o o o o' },
  // a sweep of two 8-prompt runs at rate inf, cap 2 (client-queue o): 8 < 299 (sample-size W); request_throughput ×
  // mean_e2el_ms is 1.99 in flight against the cap of 2 (littles-law o); vLLM's usage counts (tokens o); failed 0 (errors o)
  'vllm/er0080-sweep-v0.25.1-summary.json [--entry 0]': { format: 'vllm', verdicts: 'u o W u u u o o o' },
  'vllm/er0080-sweep-v0.25.1-summary.json [--entry 1]': { format: 'vllm', verdicts: 'u o W u u u o o o' },
  // aggregates without completed, duration or token keys: nothing to count (all u)
  'vllm/vllm-ascend-serving_llama8B_tp1_1.json': { format: 'vllm', verdicts: 'u u u u u u u u u' },
};

const LETTER: Record<Verdict, string> = { warn: 'W', ok: 'o', unknown: 'u' };

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

const files = walk(ROOT).filter((p) => !p.endsWith('README.md'));

/** Each file as the command reads it (opened once; a file of several runs audited entry by entry), or why it cannot be read. */
async function read(path: string): Promise<AuditReport[] | string> {
  let res;
  try {
    res = await importResultFile(path);
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
  if (res.runs) {
    const out: AuditReport[] = [];
    for (const r of res.runs.filter((x) => !x.unreadable)) {
      const one = await importResultFile(path, { entry: r.index });
      out.push(auditRun(path, one.format, one));
    }
    return out;
  }
  return [auditRun(path, res.format, res)];
}

const audited = new Map<string, AuditReport[] | string>();
for (const path of files) audited.set(path, await read(path));

describe('audit of the real result files', () => {
  it('finds the files', () => expect(files.length).toBeGreaterThan(10));
  for (const path of files) {
    const name = relative(ROOT, path);
    const reports = audited.get(path)!;
    if (typeof reports === 'string') {
      it.skip(`${name}: not read yet (${reports.slice(reports.indexOf(':') + 2, 120)})`, () => {});
      continue;
    }
    it(`${name}: every finding has a verdict, and unknown says why`, () => {
      for (const r of reports) {
        expect(r.findings.map((f) => f.id)).toEqual(FINDING_IDS);
        for (const f of r.findings) {
          expect(f.message.length).toBeGreaterThan(10);
          for (const n of Object.values(f.numbers)) expect(Number.isFinite(n.value), `${f.id} ${JSON.stringify(n)}`).toBe(true);
        }
      }
    });
    reports.forEach((r, i) => {
      const key = reports.length === 1 ? name : `${name} [--entry ${i}]`;
      const pin = PINS[key];
      if (!pin || r.format !== pin.format) return;
      it(`${key}: verdicts as checked by reading the file`, () => {
        expect(r.findings.map((f) => LETTER[f.verdict]).join(' ')).toBe(pin.verdicts);
      });
    });
  }
});
