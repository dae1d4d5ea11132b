/**
 * The agreement table: each aggregate the tool wrote into the file beside the
 * same quantity recomputed from the file's own per-request data with that
 * tool's definition (of the version that wrote the file). Close agreement is
 * what lets a reader trust the rest of the metrics table; a difference above
 * {@link AGREEMENT_TOLERANCE} carries the reason we know for it.
 */
import { aiperfItl, aiperfPerUserThroughput, aiperfRequestLatency, aiperfTtft } from '../metrics/aiperf.ts';
import { collect, summarize, successful, type Maybe } from '../metrics/common.ts';
import { guidellmConcurrency, guidellmMetrics, guidellmRequestsPerSecond } from '../metrics/guidellm.ts';
import { llmperfInterTokenLatencyPerToken } from '../metrics/llmperf.ts';
import type { RequestRecord } from '../metrics/records.ts';
import { sglangE2e, sglangTpot, sglangTtft } from '../metrics/sglang.ts';
import { vllmE2el, vllmItls, vllmOutputTokens, vllmTpot, vllmTtft } from '../metrics/vllm.ts';
import { mean } from '../stats/percentile.ts';
import type { Agreement, Imported } from './types.ts';

/** Differences up to 1% are rounding, float noise or percentile interpolation; above it a reason is given. */
export const AGREEMENT_TOLERANCE = 0.01;

type Recompute = { value: number | null; reason?: string; why?: string };

function agreement(key: string, reported: number, unit: string, r: Recompute): Agreement {
  const relDiff = r.value === null || reported === 0 ? null : Math.abs(r.value - reported) / Math.abs(reported);
  const a: Agreement = { key, reported, recomputed: r.value, unit, relDiff };
  if (r.value === null) a.reason = r.reason ?? 'cannot be recomputed from this file';
  else if (relDiff !== null && relDiff > AGREEMENT_TOLERANCE) a.reason = r.why ?? 'no known difference of definition or window explains it';
  return a;
}

const values = (recs: RequestRecord[], f: (r: RequestRecord) => Maybe): number[] => collect(recs, f).values;

/** A numpy-style statistic (`mean`, `median`, `std`, `p99` …) of values in seconds. */
function numpyStat(xs: number[], stat: string, method: 'numpy-linear' = 'numpy-linear'): number | null {
  if (xs.length === 0) return null;
  const p = /^p(\d+(?:\.\d+)?)$/.exec(stat);
  const s = summarize(xs, { percents: p ? [Number(p[1])] : [], method, ddof: 0 });
  if (stat === 'mean') return s.mean;
  if (stat === 'median') return s.median;
  if (stat === 'std') return s.std;
  return p ? s.percentiles[String(Number(p[1]))] : null;
}

/** vLLM and SGLang `{stat}_{metric}_ms` keys and the totals. */
function vllmLike(res: Imported, tool: 'vllm' | 'sglang'): Agreement[] {
  const run = res.run;
  const recs = successful(run);
  const D = run.endT - run.startT;
  const perRequest: Record<string, number[]> = {
    ttft: values(recs, tool === 'vllm' ? vllmTtft : sglangTtft),
    tpot: values(recs, tool === 'vllm' ? vllmTpot : sglangTpot),
    itl: recs.flatMap(vllmItls),
    e2el: values(recs, vllmE2el),
    latency: values(recs, vllmE2el),
    e2e_latency: values(recs, tool === 'vllm' ? vllmE2el : sglangE2e),
  };
  // benchmark_serving.py without a latencies list ended latency after the stream closed; the last chunk stands in
  const noLatencies = res.notes.some((n) => /no latencies list/.test(n));
  const outTokens = recs.reduce((s, r) => s + (vllmOutputTokens(r) ?? 0), 0);
  const inTokens = recs.reduce((s, r) => s + r.inputTokens, 0);
  const totals: Record<string, () => Recompute> = {
    completed: () => ({ value: recs.length }),
    total_input_tokens: () => ({ value: inTokens }),
    total_output_tokens: () => ({ value: outTokens }),
    request_throughput: () => (res.lacks.includes('runWindow') ? { value: null, reason: 'no duration in the file' } : { value: recs.length / D }),
    output_throughput: () => (res.lacks.includes('runWindow') ? { value: null, reason: 'no duration in the file' } : { value: outTokens / D }),
    input_throughput: () => (res.lacks.includes('runWindow') ? { value: null, reason: 'no duration in the file' } : { value: inTokens / D }),
    total_token_throughput: () => (res.lacks.includes('runWindow') ? { value: null, reason: 'no duration in the file' } : { value: (inTokens + outTokens) / D }),
  };
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    const m = /^(mean|median|std|p\d+(?:\.\d+)?)_(ttft|tpot|itl|e2el|latency|e2e_latency)_ms$/.exec(key);
    if (m) {
      const xs = perRequest[m[2]];
      const why =
        m[2] === 'tpot' && tool === 'sglang'
          ? 'SGLang’s TPOT ends at the [DONE] line, which the file does not keep; the last chunk stands in'
          : m[2] === 'e2e_latency'
            ? 'SGLang’s E2E ends at the [DONE] line, which the file does not keep; the last chunk stands in'
            : noLatencies && /^(tpot|e2el|latency)$/.test(m[2])
              ? 'this vLLM version ends latency after the stream closes; the file keeps no latencies, so TTFT + Σ ITL (the last chunk) stands in'
              : undefined;
      out.push(agreement(key, rep.value, rep.unit, { value: numpyStat(xs, m[1]), why, reason: xs.length === 0 ? 'no per-request values of this kind in the file' : undefined }));
    } else if (totals[key]) out.push(agreement(key, rep.value, rep.unit, totals[key]()));
  }
  return out;
}

function guidellmAgreement(res: Imported): Agreement[] {
  const pre03 = res.definitions !== undefined && 'guidellm' in res.definitions && res.definitions.guidellm === 'up-to-0.3';
  const g = guidellmMetrics(res.run, { version: pre03 ? 'up-to-0.3' : '0.4+' });
  const pick = (key: string): Recompute | null => {
    const [name, stat] = key.split('.');
    const summary =
      name === 'time_to_first_token_ms' ? g.timeToFirstTokenMs : name === 'time_per_output_token_ms' ? g.timePerOutputTokenMs : name === 'inter_token_latency_ms' ? g.interTokenLatencyMs : name === 'request_latency' ? g.requestLatencyS : null;
    const scale = name.endsWith('_ms') ? 1e-3 : 1;
    if (summary) {
      const v = stat === 'mean' ? summary.mean : stat === 'median' ? summary.median : stat === 'p99' ? summary.percentiles['99'] : null;
      return { value: v === null ? null : v * scale };
    }
    if (key === 'request_totals.successful') return { value: successful(res.run).length };
    if (key === 'request_concurrency.mean') return { value: guidellmConcurrency(res.run) };
    if (key === 'requests_per_second.mean') {
      return pre03
        ? { value: null, reason: 'up to 0.3 GuideLLM averaged a series of per-interval rates, which the file does not keep' }
        : { value: guidellmRequestsPerSecond(res.run) };
    }
    return null;
  };
  const sample = res.sampledFrom === undefined ? undefined : `the file keeps a sample of the requests (sample_requests); GuideLLM’s own figure covers all ${res.sampledFrom}`;
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    const r = pick(key);
    if (r) out.push(agreement(key, rep.value, rep.unit, { ...r, why: r.why ?? sample }));
  }
  return out;
}

function llmperfAgreement(res: Imported): Agreement[] {
  const recs = successful(res.run);
  const v = res.definitions !== undefined && 'llmperf' in res.definitions ? res.definitions.llmperf : 'afd137a-or-later';
  const before = v === 'before-afd137a';
  const f1d6bed = v === 'f1d6bed';
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    let r: Recompute | null = null;
    if (key === 'ttft_s.mean') r = { value: mean(recs.map((x) => (x.firstT ?? x.sendT) - x.sendT)) };
    else if (key === 'end_to_end_latency_s.mean') r = { value: mean(recs.map((x) => x.finishT - x.sendT)) };
    else if (key === 'request_output_throughput_token_per_s.mean') {
      r = before
        ? { value: null, reason: 'before afd137a this is SSE messages / e2e, and the file keeps no message count' }
        : { value: mean(recs.filter((x) => x.outputTokens !== null && x.finishT > x.sendT).map((x) => x.outputTokens! / (x.finishT - x.sendT))) };
    } else if (key === 'inter_token_latency_s.mean') {
      r = f1d6bed
        ? { value: null, reason: 'from f1d6bed this divides by the SSE message count, which the file does not keep' }
        : {
            value: mean(values(recs, llmperfInterTokenLatencyPerToken)),
            why: before
              ? 'the file keeps no last-chunk time: the end of the stream stands in'
              : 'recomputed as afd137a–03872a4 did (÷ tokens, the stream end standing in for the last chunk); from f1d6bed LLMPerf divides by the SSE message count, which the file does not keep',
          };
    }
    if (r) out.push(agreement(key, rep.value, rep.unit, r));
  }
  return out;
}

function aiperfAgreement(res: Imported): Agreement[] {
  const recs = successful(res.run);
  const own: Record<string, (r: RequestRecord) => Maybe> = {
    'inter_token_latency.avg': aiperfItl,
    'output_token_throughput_per_user.avg': (r) => aiperfPerUserThroughput(r),
    'ttft.avg': aiperfTtft,
    'time_to_first_token.avg': aiperfTtft,
    'request_latency.avg': aiperfRequestLatency,
  };
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(res.reported)) {
    const f = own[key];
    if (!f) continue;
    const xs = values(recs, f);
    out.push(agreement(key, rep.value, rep.unit, { value: xs.length ? mean(xs) : null }));
  }
  return out;
}

/** The agreement list of one imported file: empty when it has no own aggregates or no per-request data. */
export function computeAgreement(res: Imported): Agreement[] {
  if (res.run.records.length === 0 || Object.keys(res.reported).length === 0) return [];
  switch (res.format) {
    case 'vllm':
      return vllmLike(res, 'vllm');
    case 'sglang':
      return vllmLike(res, 'sglang');
    case 'guidellm':
      return guidellmAgreement(res);
    case 'llmperf':
      return llmperfAgreement(res);
    case 'aiperf':
      return aiperfAgreement(res);
    default:
      return [];
  }
}
