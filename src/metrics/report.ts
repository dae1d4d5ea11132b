/**
 * Every definition side by side on one run: the rows `stopwatches metrics`
 * prints (and `--json` emits). Each row: tool, the tool's metric name, value,
 * unit, sample size, and a note (reason when undefined, interval for p99s).
 */
import type { BenchmarkRun } from './records.ts';
import type { Summary } from './common.ts';
import { perUserSpeeds, type PerUserSpeedOptions } from './index.ts';
import { vllmMetrics, vllmItls } from './vllm.ts';
import { sglangMetrics } from './sglang.ts';
import { inferencexMetrics } from './inferencex.ts';
import { aiperfMetrics } from './aiperf.ts';
import { guidellmMetrics } from './guidellm.ts';
import { llmperfMetrics } from './llmperf.ts';
import { mlperfMetrics } from './mlperf.ts';
import { etalonServiceFluidity } from './etalon.ts';
import { successful } from './common.ts';
import { percentileWithInterval } from '../stats/interval.ts';

export interface ReportRow {
  tool: string;
  metric: string;
  value: number | null;
  unit: string;
  n: number;
  note?: string;
}

export interface ReportOptions extends PerUserSpeedOptions {
  /** Etalon deadlines (s); fluidity is reported only when both are given. */
  etalon?: { ttftS: number; tbtS: number } | null;
}

function fromSummary(rows: ReportRow[], tool: string, name: string, s: Summary, keys: ('mean' | 'median')[] = ['mean', 'median']): void {
  for (const k of keys) rows.push({ tool, metric: `${k}_${name}`, value: s[k], unit: s.unit, n: s.n, ...(s.excluded ? { note: `excluded: ${s.excluded}` } : s.n === 0 ? { note: 'no values' } : {}) });
  for (const [p, v] of Object.entries(s.percentiles)) rows.push({ tool, metric: `p${p}_${name}`, value: v, unit: s.unit, n: s.n });
}

function fmtInterval(lo: number, hi: number, scale: number): string {
  const f = (x: number) => (Number.isFinite(x) ? (x * scale).toFixed(2) : x > 0 ? '+∞' : '−∞');
  return `95% order-statistic interval [${f(lo)}, ${f(hi)}]`;
}

export function metricsReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const rows: ReportRow[] = [];
  const recs = successful(run);
  const v = vllmMetrics(run, { percentiles: [50, 90, 99] });
  fromSummary(rows, 'vllm', 'ttft_ms', v.ttft);
  fromSummary(rows, 'vllm', 'tpot_ms', v.tpot);
  fromSummary(rows, 'vllm', 'itl_ms', v.itl);
  fromSummary(rows, 'vllm', 'e2el_ms', v.e2el);
  fromSummary(rows, 'vllm', 'client_queue_time_ms', v.clientQueueTime, ['mean']);
  fromSummary(rows, 'vllm', 'e2el_including_client_queue_ms', v.e2elIncludingClientQueue, ['mean']);
  // interval on the pooled ITL p99 (the site's rule: every percentile with its interval)
  const itls: number[] = [];
  for (const r of recs) for (const g of vllmItls(r)) itls.push(g);
  if (itls.length) {
    const pi = percentileWithInterval(itls, 0.99);
    const row = rows.find((r) => r.tool === 'vllm' && r.metric === 'p99_itl_ms');
    if (row) row.note = `${fmtInterval(pi.interval[0], pi.interval[1], 1000)} (i.i.d. assumption; gaps are not independent)`;
    let big = 0;
    for (const g of itls) if (g > 0.1) big++;
    rows.push({ tool: 'vllm', metric: 'share of ITL gaps > 100 ms', value: big / itls.length, unit: '1', n: itls.length });
  }
  rows.push({ tool: 'vllm', metric: 'request_throughput', value: v.requestThroughput, unit: 'req/s', n: v.completed, note: `D = ${v.durationS.toFixed(3)} s` });
  rows.push({ tool: 'vllm', metric: 'output_throughput', value: v.outputThroughput, unit: 'tok/s', n: v.completed });
  rows.push({ tool: 'vllm', metric: 'total_token_throughput', value: v.totalTokenThroughput, unit: 'tok/s', n: v.completed });

  const s = sglangMetrics(run);
  fromSummary(rows, 'sglang', 'tpot_ms', s.tpot, ['mean']);
  fromSummary(rows, 'sglang', 'e2e_latency_ms', s.e2eLatency, ['mean']);
  rows.push({ tool: 'sglang', metric: 'concurrency (Σ e2e / D)', value: s.concurrency, unit: '1', n: s.completed });

  const x = inferencexMetrics(run);
  rows.push({ tool: 'inferencex', metric: 'mean_intvty', value: x.intvty.mean, unit: 'tok/s', n: x.tpot.n });
  rows.push({ tool: 'inferencex', metric: 'median_intvty', value: x.intvty.median, unit: 'tok/s', n: x.tpot.n });
  rows.push({ tool: 'inferencex', metric: 'p99_intvty', value: x.intvty.p99, unit: 'tok/s', n: x.tpot.n, note: '1000 / p99 TPOT: the slow tail, inverted' });

  const a = aiperfMetrics(run);
  fromSummary(rows, 'aiperf', 'inter_token_latency', a.interTokenLatency, ['mean']);
  rows.push({ tool: 'aiperf', metric: 'avg_output_token_throughput_per_user', value: a.outputTokenThroughputPerUser.mean, unit: 'tok/s', n: a.outputTokenThroughputPerUser.n });
  rows.push({ tool: 'aiperf', metric: 'avg_e2e_output_token_throughput', value: a.e2eOutputTokenThroughput.mean, unit: 'tok/s', n: a.e2eOutputTokenThroughput.n });
  rows.push({ tool: 'aiperf', metric: 'avg_effective_latency', value: a.effectiveLatency.mean, unit: 'ms', n: a.effectiveLatency.n, ...(a.effectiveLatency.excluded ? { note: a.effectiveLatency.excluded } : {}) });
  rows.push({ tool: 'aiperf', metric: 'request_throughput', value: a.requestThroughput, unit: 'req/s', n: a.requestCount, note: `D = max(end) − min(start) = ${a.durationS.toFixed(3)} s` });

  const g = guidellmMetrics(run);
  rows.push({ tool: 'guidellm', metric: 'time_per_output_token_ms (token-weighted mean)', value: g.timePerOutputTokenMs.mean, unit: 'ms', n: g.timePerOutputTokenMs.n });
  rows.push({ tool: 'guidellm', metric: 'inter_token_latency_ms (token-weighted mean)', value: g.interTokenLatencyMs.mean, unit: 'ms', n: g.interTokenLatencyMs.n });
  rows.push({ tool: 'guidellm', metric: 'p99 time_to_first_token_ms (inverse CDF)', value: g.timeToFirstTokenMs.percentiles['99'], unit: 'ms', n: g.timeToFirstTokenMs.n });

  if (opts.llama2Inflation !== null) {
    const l = llmperfMetrics(run, { llama2Inflation: opts.llama2Inflation, nonContentMessages: opts.llmperfNonContentMessages });
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (as coded)', value: l.interTokenLatencyS.mean, unit: 's', n: l.interTokenLatencyS.n });
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (article)', value: l.interTokenLatencyArticleS.mean, unit: 's', n: l.interTokenLatencyArticleS.n, note: `Llama-2 inflation ${opts.llama2Inflation}` });
    rows.push({ tool: 'llmperf', metric: 'mean request_output_throughput_token_per_s', value: l.requestOutputThroughputTokenPerS.mean, unit: 'tok/s', n: l.requestOutputThroughputTokenPerS.n });
  } else {
    rows.push({ tool: 'llmperf', metric: 'Llama-2 token counts', value: null, unit: 'tok', n: 0, note: 'give --llama2-inflation RATIO (Llama-2 ÷ model tokens) for LLMPerf\u2019s token-based numbers' });
  }

  const m = mlperfMetrics(run);
  rows.push({ tool: 'mlperf', metric: 'result_first_token_mean_latency_ns', value: m.firstTokenLatency.meanNs, unit: 'ns', n: m.firstTokenLatency.n, note: 'from the scheduled time' });
  rows.push({ tool: 'mlperf', metric: 'result_first_token_99.00_percentile_latency_ns', value: m.firstTokenLatency.percentilesNs['99'], unit: 'ns', n: m.firstTokenLatency.n, note: 'sorted[⌊n·0.99⌋]' });
  rows.push({ tool: 'mlperf', metric: 'result_time_per_output_token_99.00_percentile_ns', value: m.timePerOutputToken.percentilesNs['99'], unit: 'ns', n: m.timePerOutputToken.n });
  rows.push({ tool: 'mlperf', metric: 'result_completed_tokens_per_second', value: m.completedTokensPerSec, unit: 'tok/s', n: recs.length });

  if (opts.etalon) {
    const f = etalonServiceFluidity(run, opts.etalon);
    rows.push({ tool: 'etalon', metric: 'fluidity-index (service level)', value: f.value, unit: '1', n: f.total, note: `deadlines TTFT ${opts.etalon.ttftS} s, TBT ${opts.etalon.tbtS} s; n = token deadlines` });
  } else {
    rows.push({ tool: 'etalon', metric: 'fluidity-index', value: null, unit: '1', n: 0, note: 'give --ttft-deadline and --tbt-deadline (s)' });
  }

  for (const sp of perUserSpeeds(run, opts)) {
    rows.push({ tool: sp.tool, metric: `per-user speed: ${sp.metric}${sp.primary ? ' ★' : ''}`, value: sp.tokPerS, unit: 'tok/s', n: sp.n, note: sp.reason ?? sp.formula });
  }
  return rows;
}

/** Plain-text table: tool | metric | value | unit | n | note. */
export function formatReport(rows: ReportRow[]): string {
  const fmt = (v: number | null) => (v === null || Number.isNaN(v) ? '—' : Math.abs(v) >= 1e5 ? v.toExponential(4) : v.toFixed(v !== 0 && Math.abs(v) < 1 ? 4 : 2));
  const cells = rows.map((r) => [r.tool, r.metric, fmt(r.value), r.unit, String(r.n), r.note ?? '']);
  const head = ['tool', 'metric', 'value', 'unit', 'n', 'note'];
  const w = head.map((h, j) => Math.max(h.length, ...cells.map((c) => c[j].length)));
  const line = (c: string[]) => c.map((x, j) => (j === 2 || j === 4 ? x.padStart(w[j]) : j === 5 ? x : x.padEnd(w[j]))).join('  ').trimEnd();
  return [line(head), line(w.map((k) => '-'.repeat(Math.min(k, 60)))), ...cells.map(line)].join('\n') + '\n';
}
