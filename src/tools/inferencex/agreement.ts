/**
 * An InferenceX result checked against the per-request records of the same
 * run (`stopwatches metrics RESULT.json --with RECORDS`). InferenceX's agentic
 * lane does not measure: it copies AIPerf's aggregates of the run
 * (gg_agentic/extract_agg_bmk.py: `mean_ttft` ← time_to_first_token.avg ÷ 1000,
 * `*_itl` and `*_tpot` ← inter_token_latency, `*_intvty` ←
 * output_token_throughput_per_user, `*_e2el` ← request_latency, totals and
 * throughputs ← total_isl, total_osl, benchmark_duration), so its definitions
 * are AIPerf's, recomputed here from AIPerf's records with AIPerf's
 * statistics (numpy-linear percentiles, population std).
 */
import { agreement, numpyStat, values } from '../base/agreement.ts';
import { none, some, successful, type Maybe } from '../base/definitions.ts';
import type { BenchmarkRun, RequestRecord } from '../base/records.ts';
import type { Agreement, Reported } from '../base/result.ts';
import { aiperfDuration, aiperfItl, aiperfOsl, aiperfPerUserThroughput, aiperfRequestLatency, aiperfTtft } from '../aiperf/definitions.ts';

const PER_REQUEST: Record<string, (r: RequestRecord) => Maybe> = {
  ttft: aiperfTtft,
  e2el: aiperfRequestLatency,
  itl: (r) => aiperfItl(r),
  tpot: (r) => aiperfItl(r),
  intvty: (r) => aiperfPerUserThroughput(r),
  input_tokens: (r) => (Number.isFinite(r.inputTokens) ? some(r.inputTokens) : none('prompt length unknown')),
  output_tokens_actual: (r) => {
    const n = aiperfOsl(r);
    return n === null ? none('output length unknown') : some(n);
  },
};

/** Which formats' records this check reads: AIPerf's, whose aggregates the agentic lane copies. */
export const INFERENCEX_RECORD_FORMATS = ['aiperf'];

export function inferencexAgreementWith(reported: Record<string, Reported>, records: BenchmarkRun): Agreement[] {
  const recs = successful(records);
  const D = aiperfDuration(records);
  let isl = 0;
  let osl = 0;
  for (const r of recs) {
    isl += Number.isFinite(r.inputTokens) ? r.inputTokens : 0;
    osl += aiperfOsl(r) ?? 0;
  }
  const totals: Record<string, number> = {
    num_requests_successful: recs.length,
    total_requests_completed: recs.length,
    total_prompt_tokens: isl,
    total_generation_tokens: osl,
    duration_seconds: D,
    mean_qps: recs.length / D,
    input_tput_tps: isl / D,
    output_tput_tps: osl / D,
    total_tput_tps: (isl + osl) / D,
  };
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(reported)) {
    if (key in totals) {
      out.push(agreement(key, rep.value, rep.unit, { value: totals[key], why: 'InferenceX took this from another source than AIPerf’s records of the run (or the records are of another run)' }));
      continue;
    }
    const m = /^(mean|median|std|p\d+(?:\.\d+)?)_(.+)$/.exec(key);
    if (!m) continue;
    if (m[2] === 'qps') {
      out.push(agreement(key, rep.value, rep.unit, { value: null, reason: 'a statistic of per-second request counts: the records give no such series to recompute it from' }));
      continue;
    }
    const f = PER_REQUEST[m[2]];
    if (!f) continue;
    out.push(agreement(key, rep.value, rep.unit, { value: numpyStat(values(recs, f), m[1]), why: 'InferenceX’s value is not AIPerf’s statistic of these records' }));
  }
  return out;
}
