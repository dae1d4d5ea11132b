/**
 * LLMPerf's rows of `stopwatches metrics` and its per-user speeds (Figure 1),
 * each speed declared with what it reads from a run.
 */
import type { BenchmarkRun } from '../base/records.ts';
import { PER_TOKEN, R, type PerUserSpeedOptions, type ReportOptions, type ReportRow } from '../base/report-rows.ts';
import type { SpeedRowOf, SpeedSpec } from '../base/descriptor.ts';
import { collect, successful, withWholeForm } from '../base/definitions.ts';
import { mean } from '../../stats/percentile.ts';
import {
  llmperfInterTokenLatency, llmperfInterTokenLatencyArticle, llmperfInterTokenLatencyArticleOfAll, llmperfInterTokenLatencyOfAll, llmperfInterTokenLatencyPerToken,
  llmperfMetrics, llmperfRequestOutputThroughput, llmperfRequestOutputThroughputBeforeAfd137a, llmperfRequestOutputThroughputOfAll,
} from './definitions.ts';

export function llmperfReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const rows: ReportRow[] = [];
  const recs = successful(run);
  const lv = opts.definitions?.llmperf ?? 'f1d6bed';
  if (lv === 'before-afd137a') {
    const ro = collect(recs, (r) => llmperfRequestOutputThroughputBeforeAfd137a(r, { nonContentMessages: opts.llmperfNonContentMessages }));
    rows.push({ tool: 'llmperf', metric: 'mean request_output_throughput_token_per_s (before afd137a: messages / e2e)', value: ro.values.length ? mean(ro.values) : null, unit: 'tok/s', n: ro.values.length, quantity: 'per-user speed', stat: 'mean of messages / e2e', needs: [R, 'chunkTimes'] });
  }
  if (lv !== 'f1d6bed') {
    const it = collect(recs, llmperfInterTokenLatencyPerToken);
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (before f1d6bed: ÷ tokens)', value: it.values.length ? mean(it.values) : null, unit: 's', n: it.values.length, quantity: 'TPOT', stat: 'mean (last − start)/tokens', needs: PER_TOKEN });
  }
  if (opts.llama2Inflation !== null) {
    const l = llmperfMetrics(run, { llama2Inflation: opts.llama2Inflation, countsAreLlmperfs: opts.countsAreLlmperfs, nonContentMessages: opts.llmperfNonContentMessages });
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (as coded)', value: l.interTokenLatencyS.mean, unit: 's', n: l.interTokenLatencyS.n, quantity: 'TPOT', stat: 'mean (last − start)/messages', needs: [R, 'firstToken', 'chunkTimes'] });
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (article)', value: l.interTokenLatencyArticleS.mean, unit: 's', n: l.interTokenLatencyArticleS.n, note: `Llama-2 inflation ${opts.llama2Inflation}`, quantity: 'TPOT', stat: 'mean (last − start)/Llama-2 tokens', needs: PER_TOKEN });
    if (lv !== 'before-afd137a') {
      rows.push({ tool: 'llmperf', metric: 'mean request_output_throughput_token_per_s', value: l.requestOutputThroughputTokenPerS.mean, unit: 'tok/s', n: l.requestOutputThroughputTokenPerS.n, quantity: 'per-user speed', stat: 'mean of tokens / e2e', needs: [R, 'outputTokens'] });
    }
  } else {
    rows.push({ tool: 'llmperf', metric: 'Llama-2 token counts', value: null, unit: 'tok', n: 0, note: 'give --llama2-inflation RATIO (Llama-2 ÷ model tokens) for LLMPerf\u2019s token-based numbers', quantity: 'other', stat: 'Llama-2 token counts', needs: [R] });
  }
  return rows;
}

type LlmperfSpeed = 'inter_token_latency_s (as coded)' | 'inter_token_latency_s (article)' | 'request_output_throughput_token_per_s';

export const llmperfSpeeds: SpeedSpec<LlmperfSpeed> = {
  needs: {
    'inter_token_latency_s (as coded)': [R, 'firstToken', 'chunkTimes'],
    'inter_token_latency_s (article)': PER_TOKEN,
    request_output_throughput_token_per_s: [R, 'outputTokens'],
  },
  rows: (run, opts: PerUserSpeedOptions) => {
    const rows: SpeedRowOf<LlmperfSpeed>[] = [];
    const recs = successful(run);
    const nc = opts.llmperfNonContentMessages ?? 1;
    const lc = collect(recs, withWholeForm((r) => llmperfInterTokenLatency(r, { nonContentMessages: nc }), (rs, out) => llmperfInterTokenLatencyOfAll(rs, out, nc)));
    const lcMean = lc.values.length ? mean(lc.values) : null;
    rows.push({ tool: 'llmperf', metric: 'inter_token_latency_s (as coded)', formula: `1 / mean_i[(last − start)/(chunks_i + ${nc})]`, tokPerS: lcMean ? 1 / lcMean : null, n: lc.values.length, primary: opts.llama2Inflation === null });
    if (opts.llama2Inflation === null) {
      const reason = 'needs the Llama-2 token inflation factor (llama2Inflation)';
      rows.push({ tool: 'llmperf', metric: 'inter_token_latency_s (article)', formula: '1 / mean_i[(last − start)/L_i]', tokPerS: null, n: 0, primary: false, reason });
      rows.push({ tool: 'llmperf', metric: 'request_output_throughput_token_per_s', formula: 'mean_i[L_i / e2e_i]', tokPerS: null, n: 0, primary: false, reason });
    } else {
      const f = opts.llama2Inflation;
      const asIs = opts.countsAreLlmperfs ?? false;
      const L = asIs ? 'L_i' : `(${f}·n_i + 1)`; // + 1: the start-of-sequence token LLMPerf counts
      const la = collect(recs, withWholeForm((r) => llmperfInterTokenLatencyArticle(r, f, asIs), (rs, out) => llmperfInterTokenLatencyArticleOfAll(rs, out, f, asIs)));
      const laMean = la.values.length ? mean(la.values) : null;
      rows.push({ tool: 'llmperf', metric: 'inter_token_latency_s (article)', formula: `1 / mean_i[(last − start)/${L}]`, tokPerS: laMean ? 1 / laMean : null, n: la.values.length, primary: true });
      // before afd137a the same name counted SSE messages, not tokens (token_benchmark_ray.py history, see definitions.ts)
      const before = opts.definitions?.llmperf === 'before-afd137a';
      const ro = before
        ? collect(recs, (r) => llmperfRequestOutputThroughputBeforeAfd137a(r, { nonContentMessages: nc }))
        : collect(recs, withWholeForm((r) => llmperfRequestOutputThroughput(r, f, asIs), (rs, out) => llmperfRequestOutputThroughputOfAll(rs, out, f, asIs)));
      rows.push({
        tool: 'llmperf',
        metric: 'request_output_throughput_token_per_s',
        formula: before ? `mean_i[(chunks_i + ${nc}) / e2e_i] (before afd137a)` : `mean_i[${L} / e2e_i]`,
        tokPerS: ro.values.length ? mean(ro.values) : null,
        n: ro.values.length,
        primary: false,
        ...(ro.values.length === 0 && ro.excluded ? { reason: before ? 'before afd137a this is SSE messages / e2e, and the file keeps no message count' : ro.excluded } : {}),
      });
    }
    return rows;
  },
};
