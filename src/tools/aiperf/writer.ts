/**
 * A BenchmarkRun written as AIPerf writes `profile_export.jsonl` (the
 * request_start_ns schema its reader documents, ./reader.ts): one record per
 * line, in the order requests completed (AIPerf's record processors export
 * each as it finishes), timestamps in integer nanoseconds since the epoch,
 * times in ms, lengths in tokens. `stopwatches simulate --as aiperf` uses it,
 * so a simulated run can be audited and measured as an AIPerf file.
 *
 * The credit: AIPerf issues one when a request may go. Under a schedule
 * (a request rate) that is the request's due time; in a closed loop
 * (rate inf) it is when a slot frees, i.e. the send itself, so a closed loop
 * shows no client-side wait.
 */
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';

/** The epoch the simulated clock is placed at: 2023-11-14 22:13:20 UTC, in ns. */
export const SIM_EPOCH_NS = 1_700_000_000_000_000_000n;

const ns = (t: number): string => (SIM_EPOCH_NS + BigInt(Math.round(t * 1e9))).toString();
const msv = (s: number): number => s * 1e3;

export function toAiperfJsonl(run: BenchmarkRun): string {
  const closed = run.requestRate === Infinity;
  const idx = run.records.map((_, i) => i).sort((a, b) => run.records[a].finishT - run.records[b].finishT || a - b);
  const lines: string[] = [];
  for (const i of idx) lines.push(record(run.records[i], i, closed));
  return lines.join('\n');
}

function record(r: RequestRecord, i: number, closed: boolean): string {
  const credit = closed || r.dueT === null ? r.sendT : r.dueT;
  const meta = `{"x_request_id":"sim-${i}","conversation_id":"sim-${i}","turn_index":0,"credit_issued_ns":${ns(credit)},"request_start_ns":${ns(r.sendT)},"request_end_ns":${ns(r.finishT)},"worker_id":"sim","benchmark_phase":"profiling","was_cancelled":false}`;
  if (!r.ok || r.firstT === null) {
    return `{"metadata":${meta},"metrics":{"error_request_count":{"value":1,"unit":"requests"}},"error":{"code":500,"type":"RequestError","message":"request failed"}}`;
  }
  const metrics: Record<string, { value: number | number[]; unit: string }> = {
    request_latency: { value: msv(r.finishT - r.sendT), unit: 'ms' },
    time_to_first_token: { value: msv(r.firstT - r.sendT), unit: 'ms' },
  };
  const c = r.chunkTimes;
  if (c && c.length > 1) metrics.inter_chunk_latency = { value: Array.from(c.subarray(1), (t, k) => msv(t - c[k])), unit: 'ms' };
  if (Number.isFinite(r.inputTokens)) metrics.input_sequence_length = { value: r.inputTokens, unit: 'tokens' };
  const osl = r.outputTokens ?? c?.length ?? null;
  if (osl !== null) {
    metrics.output_sequence_length = { value: osl, unit: 'tokens' };
    metrics.output_token_count = { value: osl, unit: 'tokens' };
  }
  return `{"metadata":${meta},"metrics":${JSON.stringify(metrics)},"error":null}`;
}
