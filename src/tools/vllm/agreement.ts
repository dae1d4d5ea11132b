/**
 * vLLM's own aggregates beside the same quantities recomputed from the file's
 * per-request data with vLLM's definitions (of the version that wrote the file).
 */
import { agreement, numpyStat, values, type Recompute } from '../base/agreement.ts';
import { successful, type Maybe } from '../base/definitions.ts';
import type { RequestRecord } from '../base/records.ts';
import type { Agreement, Imported } from '../base/result.ts';
import { pooledChunkGaps } from '../base/series.ts';
import { vllmE2el, vllmOutputTokens, vllmTpot, vllmTtft } from './definitions.ts';

/** How a vLLM-style file's per-request quantities are recomputed (SGLang's bench_serving keeps vLLM's keys with its own definitions). */
export interface VllmStyle {
  ttft: (r: RequestRecord) => Maybe;
  tpot: (r: RequestRecord) => Maybe;
  e2eLatency: (r: RequestRecord) => Maybe;
  /** Why this tool's TPOT cannot agree with the file's, when it cannot. */
  tpotWhy?: string;
}

/** vLLM and SGLang `{stat}_{metric}_ms` keys and the totals. */
export function vllmStyleAgreement(res: Imported, own: VllmStyle): Agreement[] {
  const run = res.run;
  const recs = successful(run);
  const D = run.endT - run.startT;
  // each series made when a key first asks for it (a file keeps some of these keys only), once
  const once = (f: () => ArrayLike<number>) => {
    let v: ArrayLike<number> | undefined;
    return () => (v ??= f());
  };
  const e2el = once(() => values(recs, vllmE2el));
  const perRequest: Record<string, () => ArrayLike<number>> = {
    ttft: once(() => values(recs, own.ttft)),
    tpot: once(() => values(recs, own.tpot)),
    itl: () => pooledChunkGaps(run), // vllmItls of every successful request, the run's one sorted copy
    e2el,
    latency: e2el,
    e2e_latency: once(() => values(recs, own.e2eLatency)),
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
      const xs = perRequest[m[2]]();
      const why =
        m[2] === 'tpot' && own.tpotWhy !== undefined
          ? own.tpotWhy
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

/** A vLLM result file's check. */
export function vllmAgreement(res: Imported): Agreement[] {
  return vllmStyleAgreement(res, { ttft: vllmTtft, tpot: vllmTpot, e2eLatency: vllmE2el });
}
