/**
 * Every definition side by side on one run: the rows `stopwatches metrics`
 * prints (and `--json` emits). Each row: tool, the tool's metric name, value,
 * unit, sample size, and a note (reason when undefined, interval for p99s);
 * the quantity it measures and the statistic (for the grouped table); and
 * what its function reads from the run (`needs`), so a file that lacks one
 * of those refuses the row instead of printing a stand-in.
 */
import type { BenchmarkRun, Capability } from './records.ts';
import type { Summary } from './common.ts';
import { perUserSpeeds, type PerUserSpeedOptions } from './index.ts';
import { vllmMetrics, vllmItls } from './vllm.ts';
import { sglangMetrics } from './sglang.ts';
import { inferencexMetrics } from './inferencex.ts';
import { aiperfMetrics } from './aiperf.ts';
import { guidellmConcurrency, guidellmMetrics, guidellmRequestsPerSecond, type GuidellmVersion } from './guidellm.ts';
import { llmperfInterTokenLatencyPerToken, llmperfMetrics, llmperfRequestOutputThroughputBeforeAfd137a, type LlmperfVersion } from './llmperf.ts';
import { mlperfMetrics } from './mlperf.ts';
import { etalonServiceFluidity } from './etalon.ts';
import { collect, successful } from './common.ts';
import { mean } from '../stats/percentile.ts';
import { percentileWithInterval } from '../stats/interval.ts';

/** What a row measures, for grouping: the table prints one block per quantity. */
export type Quantity = 'TTFT' | 'ITL' | 'TPOT' | 'E2E' | 'throughput' | 'queue' | 'per-user speed' | 'other';

export interface ReportRow {
  tool: string;
  metric: string;
  value: number | null;
  unit: string;
  n: number;
  note?: string;
  quantity: Quantity;
  /** The statistic, as the grouped table labels its line (`mean`, `p99`, `mean, token-weighted` …). */
  stat: string;
  /** What the row's function reads from the run. */
  needs: Capability[];
}

export interface ReportOptions extends PerUserSpeedOptions {
  /** Etalon deadlines (s); fluidity is reported only when both are given. */
  etalon?: { ttftS: number; tbtS: number } | null;
  /** GuideLLM's definitions of the version that wrote the file (default: 0.4 on). */
  guidellmVersion?: GuidellmVersion;
  /** LLMPerf's definitions of the version that wrote the file (default: f1d6bed, the version the paper reads). */
  llmperfVersion?: LlmperfVersion | 'afd137a-or-later';
  /**
   * GuideLLM aggregates the requests that overlap the run window, which needs
   * send times on one clock; 'all' takes every request instead (a file whose
   * requests sit on their own clocks has no window to apply). Default 'window'.
   */
  guidellmRequests?: 'window' | 'all';
}

/** Needs shared by many rows. */
const R: Capability = 'records';
const FIRST: Capability[] = [R, 'firstToken'];
const LAST: Capability[] = [R, 'firstToken', 'lastToken'];
const PER_TOKEN: Capability[] = [R, 'firstToken', 'lastToken', 'outputTokens'];

function fromSummary(rows: ReportRow[], tool: string, name: string, s: Summary, quantity: Quantity, needs: Capability[], keys: ('mean' | 'median')[] = ['mean', 'median']): void {
  for (const k of keys) rows.push({ tool, metric: `${k}_${name}`, value: s[k], unit: s.unit, n: s.n, quantity, stat: k, needs, ...(s.excluded ? { note: `excluded: ${s.excluded}` } : s.n === 0 ? { note: 'no values' } : {}) });
  for (const [p, v] of Object.entries(s.percentiles)) rows.push({ tool, metric: `p${p}_${name}`, value: v, unit: s.unit, n: s.n, quantity, stat: `p${p}`, needs });
}

/** What each per-user speed reads (keyed `tool metric`, as perUserSpeeds names them). */
const SPEED_NEEDS: Record<string, Capability[]> = {
  'vllm median_itl_ms': [R, 'chunkTimes'],
  'vllm mean_tpot_ms': PER_TOKEN,
  'sglang mean_tpot_ms': [R, 'firstToken', 'outputTokens'],
  'inferencex median_intvty': PER_TOKEN,
  'inferencex mean_intvty': PER_TOKEN,
  'aiperf e2e_output_token_throughput (avg)': [R, 'firstToken', 'lastToken', 'outputTokens'],
  'aiperf output_token_throughput_per_user (avg)': PER_TOKEN,
  'aiperf e2e_normalized_interactivity p90': [R, 'firstToken', 'lastToken', 'outputTokens'],
  'guidellm time_per_output_token_ms (mean)': PER_TOKEN,
  'llmperf inter_token_latency_s (as coded)': [R, 'firstToken', 'chunkTimes'],
  'llmperf inter_token_latency_s (article)': PER_TOKEN,
  'llmperf request_output_throughput_token_per_s': [R, 'outputTokens'],
  'mlperf result_time_to_output_token_mean': [R, 'schedule', 'firstToken', 'outputTokens'],
};

function fmtInterval(lo: number, hi: number, scale: number): string {
  const f = (x: number) => (Number.isFinite(x) ? (x * scale).toFixed(2) : x > 0 ? '+∞' : '−∞');
  return `95% order-statistic interval [${f(lo)}, ${f(hi)}]`;
}

export function metricsReport(run: BenchmarkRun, opts: ReportOptions): ReportRow[] {
  const rows: ReportRow[] = [];
  const recs = successful(run);
  const v = vllmMetrics(run, { percentiles: [90, 99] });
  fromSummary(rows, 'vllm', 'ttft_ms', v.ttft, 'TTFT', FIRST);
  fromSummary(rows, 'vllm', 'tpot_ms', v.tpot, 'TPOT', PER_TOKEN);
  fromSummary(rows, 'vllm', 'itl_ms', v.itl, 'ITL', [R, 'chunkTimes']);
  fromSummary(rows, 'vllm', 'e2el_ms', v.e2el, 'E2E', LAST);
  fromSummary(rows, 'vllm', 'client_queue_time_ms', v.clientQueueTime, 'queue', [R, 'schedule'], ['mean']);
  fromSummary(rows, 'vllm', 'e2el_including_client_queue_ms', v.e2elIncludingClientQueue, 'E2E', [...LAST, 'schedule'], ['mean']);
  rows[rows.length - 1].stat = 'mean incl. client queue';
  // interval on the pooled ITL p99 (the site's rule: every percentile with its interval)
  const itls: number[] = [];
  for (const r of recs) for (const g of vllmItls(r)) itls.push(g);
  if (itls.length) {
    const pi = percentileWithInterval(itls, 0.99);
    const row = rows.find((r) => r.tool === 'vllm' && r.metric === 'p99_itl_ms');
    if (row) row.note = `${fmtInterval(pi.interval[0], pi.interval[1], 1000)} (i.i.d. assumption; gaps are not independent)`;
    let big = 0;
    for (const g of itls) if (g > 0.1) big++;
    rows.push({ tool: 'vllm', metric: 'share of ITL gaps > 100 ms', value: big / itls.length, unit: '1', n: itls.length, quantity: 'ITL', stat: 'share of gaps > 100 ms', needs: [R, 'chunkTimes'] });
  }
  const W: Capability[] = [R, 'runWindow'];
  rows.push({ tool: 'vllm', metric: 'request_throughput', value: v.requestThroughput, unit: 'req/s', n: v.completed, note: `D = ${v.durationS.toFixed(3)} s`, quantity: 'throughput', stat: 'requests / duration', needs: W });
  rows.push({ tool: 'vllm', metric: 'output_throughput', value: v.outputThroughput, unit: 'tok/s', n: v.completed, quantity: 'throughput', stat: 'output tokens / duration', needs: [...W, 'outputTokens'] });
  rows.push({ tool: 'vllm', metric: 'total_token_throughput', value: v.totalTokenThroughput, unit: 'tok/s', n: v.completed, quantity: 'throughput', stat: 'all tokens / duration', needs: [...W, 'outputTokens', 'inputTokens'] });

  const s = sglangMetrics(run);
  fromSummary(rows, 'sglang', 'tpot_ms', s.tpot, 'TPOT', [R, 'firstToken', 'outputTokens'], ['mean']);
  fromSummary(rows, 'sglang', 'e2e_latency_ms', s.e2eLatency, 'E2E', FIRST, ['mean']);
  rows.push({ tool: 'sglang', metric: 'concurrency (Σ e2e / D)', value: s.concurrency, unit: '1', n: s.completed, quantity: 'throughput', stat: 'concurrency Σ e2e / D', needs: [...FIRST, 'runWindow'] });

  const x = inferencexMetrics(run);
  const intvty = (metric: string, stat: string, value: number | null, note?: string): void => {
    rows.push({ tool: 'inferencex', metric, value, unit: 'tok/s', n: x.tpot.n, quantity: 'per-user speed', stat, needs: PER_TOKEN, ...(note ? { note } : {}) });
  };
  // mean and median interactivity are among the per-user speeds below
  intvty('p99_intvty', '1000 / p99 TPOT', x.intvty.p99, '1000 / p99 TPOT: the slow tail, inverted');

  const a = aiperfMetrics(run);
  fromSummary(rows, 'aiperf', 'inter_token_latency', a.interTokenLatency, 'TPOT', PER_TOKEN, ['mean']);
  // AIPerf's per-user throughputs are among the per-user speeds below
  rows.push({ tool: 'aiperf', metric: 'avg_effective_latency', value: a.effectiveLatency.mean, unit: 'ms', n: a.effectiveLatency.n, quantity: 'E2E', stat: 'mean from the credit', needs: [...LAST, 'schedule'], ...(a.effectiveLatency.excluded ? { note: a.effectiveLatency.excluded } : {}) });
  rows.push({ tool: 'aiperf', metric: 'request_throughput', value: a.requestThroughput, unit: 'req/s', n: a.requestCount, note: `D = max(end) − min(start) = ${a.durationS.toFixed(3)} s`, quantity: 'throughput', stat: 'requests / (last end − first start)', needs: [R, 'timeline', 'lastToken'] });

  const allRequests = opts.guidellmRequests === 'all';
  const g = guidellmMetrics(run, { version: opts.guidellmVersion, ...(allRequests ? { measureStart: -Infinity, measureEnd: Infinity } : {}) });
  const pre03 = opts.guidellmVersion === 'up-to-0.3';
  const GW: Capability[] = allRequests ? [] : ['timeline', 'runWindow'];
  rows.push({ tool: 'guidellm', metric: `time_per_output_token_ms (${pre03 ? 'mean, up to 0.3' : 'token-weighted mean'})`, value: g.timePerOutputTokenMs.mean, unit: 'ms', n: g.timePerOutputTokenMs.n, quantity: 'TPOT', stat: pre03 ? 'mean (last − first)/n' : 'mean, token-weighted', needs: [...PER_TOKEN, ...GW] });
  rows.push({ tool: 'guidellm', metric: `inter_token_latency_ms (${pre03 ? 'mean, up to 0.3' : 'token-weighted mean'})`, value: g.interTokenLatencyMs.mean, unit: 'ms', n: g.interTokenLatencyMs.n, quantity: 'ITL', stat: pre03 ? 'mean (last − first)/(n − 1)' : 'mean, token-weighted', needs: [...PER_TOKEN, ...GW] });
  rows.push({ tool: 'guidellm', metric: 'p99 time_to_first_token_ms (inverse CDF)', value: g.timeToFirstTokenMs.percentiles['99'], unit: 'ms', n: g.timeToFirstTokenMs.n, quantity: 'TTFT', stat: 'p99', needs: [...FIRST, ...GW] });
  rows.push({ tool: 'guidellm', metric: 'mean time_to_first_token_ms', value: g.timeToFirstTokenMs.mean, unit: 'ms', n: g.timeToFirstTokenMs.n, quantity: 'TTFT', stat: 'mean', needs: [...FIRST, ...GW] });
  rows.push({ tool: 'guidellm', metric: 'mean request_latency', value: g.requestLatencyS.mean, unit: 's', n: g.requestLatencyS.n, quantity: 'E2E', stat: 'mean', needs: [...[R], ...GW] });
  rows.push({ tool: 'guidellm', metric: 'request_concurrency (time-weighted in the window)', value: guidellmConcurrency(run), unit: '1', n: recs.length, quantity: 'throughput', stat: 'concurrency, time in window / D', needs: [R, 'timeline', 'runWindow'] });
  rows.push({ tool: 'guidellm', metric: 'requests_per_second (ended in window / window)', value: guidellmRequestsPerSecond(run), unit: 'req/s', n: recs.length, quantity: 'throughput', stat: 'requests / duration', needs: [R, 'timeline', 'runWindow'] });

  const lv = opts.llmperfVersion ?? 'f1d6bed';
  if (lv === 'before-afd137a') {
    const ro = collect(recs, (r) => llmperfRequestOutputThroughputBeforeAfd137a(r, { nonContentMessages: opts.llmperfNonContentMessages }));
    rows.push({ tool: 'llmperf', metric: 'mean request_output_throughput_token_per_s (before afd137a: messages / e2e)', value: ro.values.length ? mean(ro.values) : null, unit: 'tok/s', n: ro.values.length, quantity: 'per-user speed', stat: 'mean of messages / e2e', needs: [R, 'chunkTimes'] });
  }
  if (lv !== 'f1d6bed') {
    const it = collect(recs, llmperfInterTokenLatencyPerToken);
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (before f1d6bed: ÷ tokens)', value: it.values.length ? mean(it.values) : null, unit: 's', n: it.values.length, quantity: 'TPOT', stat: 'mean (last − start)/tokens', needs: PER_TOKEN });
  }
  if (opts.llama2Inflation !== null) {
    const l = llmperfMetrics(run, { llama2Inflation: opts.llama2Inflation, nonContentMessages: opts.llmperfNonContentMessages });
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (as coded)', value: l.interTokenLatencyS.mean, unit: 's', n: l.interTokenLatencyS.n, quantity: 'TPOT', stat: 'mean (last − start)/messages', needs: [R, 'firstToken', 'chunkTimes'] });
    rows.push({ tool: 'llmperf', metric: 'mean inter_token_latency_s (article)', value: l.interTokenLatencyArticleS.mean, unit: 's', n: l.interTokenLatencyArticleS.n, note: `Llama-2 inflation ${opts.llama2Inflation}`, quantity: 'TPOT', stat: 'mean (last − start)/Llama-2 tokens', needs: PER_TOKEN });
    if (lv !== 'before-afd137a') {
      rows.push({ tool: 'llmperf', metric: 'mean request_output_throughput_token_per_s', value: l.requestOutputThroughputTokenPerS.mean, unit: 'tok/s', n: l.requestOutputThroughputTokenPerS.n, quantity: 'per-user speed', stat: 'mean of tokens / e2e', needs: [R, 'outputTokens'] });
    }
  } else {
    rows.push({ tool: 'llmperf', metric: 'Llama-2 token counts', value: null, unit: 'tok', n: 0, note: 'give --llama2-inflation RATIO (Llama-2 ÷ model tokens) for LLMPerf\u2019s token-based numbers', quantity: 'other', stat: 'Llama-2 token counts', needs: [R] });
  }

  const m = mlperfMetrics(run);
  const SCHED: Capability[] = [R, 'schedule'];
  rows.push({ tool: 'mlperf', metric: 'result_first_token_mean_latency_ns', value: m.firstTokenLatency.meanNs, unit: 'ns', n: m.firstTokenLatency.n, note: 'from the scheduled time', quantity: 'TTFT', stat: 'mean from the schedule', needs: [...SCHED, 'firstToken'] });
  rows.push({ tool: 'mlperf', metric: 'result_first_token_99.00_percentile_latency_ns', value: m.firstTokenLatency.percentilesNs['99'], unit: 'ns', n: m.firstTokenLatency.n, note: 'sorted[⌊n·0.99⌋]', quantity: 'TTFT', stat: 'p99 from the schedule', needs: [...SCHED, 'firstToken'] });
  rows.push({ tool: 'mlperf', metric: 'result_mean_latency_ns', value: m.latency.meanNs, unit: 'ns', n: m.latency.n, note: 'from the scheduled time', quantity: 'E2E', stat: 'mean from the schedule', needs: SCHED });
  rows.push({ tool: 'mlperf', metric: 'result_99.00_percentile_latency_ns', value: m.latency.percentilesNs['99'], unit: 'ns', n: m.latency.n, note: 'sorted[⌊n·0.99⌋]', quantity: 'E2E', stat: 'p99 from the schedule', needs: SCHED });
  rows.push({ tool: 'mlperf', metric: 'result_time_per_output_token_99.00_percentile_ns', value: m.timePerOutputToken.percentilesNs['99'], unit: 'ns', n: m.timePerOutputToken.n, quantity: 'TPOT', stat: 'p99', needs: [...SCHED, 'firstToken', 'outputTokens'] });
  rows.push({ tool: 'mlperf', metric: 'result_completed_samples_per_sec', value: recs.length > 1 ? m.completedSamplesPerSec : null, unit: 'req/s', n: recs.length, quantity: 'throughput', stat: 'requests / duration', needs: [R, 'timeline', 'schedule'] });
  rows.push({ tool: 'mlperf', metric: 'result_completed_tokens_per_second', value: m.completedTokensPerSec, unit: 'tok/s', n: recs.length, quantity: 'throughput', stat: 'output tokens / duration', needs: [R, 'timeline', 'schedule', 'outputTokens'] });
  // LoadGen logs an error per one-token answer and its summary calls such a run erroneous, whatever the numbers.
  if (m.numErrors) rows.push({ tool: 'mlperf', metric: 'num_errors', value: m.numErrors, unit: 'errors', n: recs.length, quantity: 'other', stat: 'LoadGen errors: an erroneous run', needs: [R, 'outputTokens'], note: m.errors.join('; ') });

  if (opts.etalon) {
    const f = etalonServiceFluidity(run, opts.etalon);
    rows.push({ tool: 'etalon', metric: 'fluidity-index (service level)', value: f.value, unit: '1', n: f.total, note: `deadlines TTFT ${opts.etalon.ttftS} s, TBT ${opts.etalon.tbtS} s; n = token deadlines`, quantity: 'other', stat: 'fluidity index', needs: [R, 'firstToken', 'chunkTimes'] });
  } else {
    rows.push({ tool: 'etalon', metric: 'fluidity-index', value: null, unit: '1', n: 0, note: 'give --ttft-deadline and --tbt-deadline (s)', quantity: 'other', stat: 'fluidity index', needs: [R, 'firstToken', 'chunkTimes'] });
  }

  for (const sp of perUserSpeeds(run, opts)) {
    rows.push({
      tool: sp.tool,
      metric: `per-user speed: ${sp.metric}${sp.primary ? ' ★' : ''}`,
      value: sp.tokPerS,
      unit: 'tok/s',
      n: sp.n,
      note: sp.reason ?? sp.formula,
      quantity: 'per-user speed',
      stat: `per-user speed: ${sp.metric}`,
      needs: [...(SPEED_NEEDS[`${sp.tool} ${sp.metric}`] ?? PER_TOKEN), ...(sp.tool === 'guidellm' ? (['timeline', 'runWindow'] as Capability[]) : [])],
    });
  }
  return rows;
}

const QUANTITY_ORDER: Quantity[] = ['TTFT', 'ITL', 'TPOT', 'E2E', 'queue', 'throughput', 'per-user speed', 'other'];

/** Display unit of a quantity and the factor from a row's unit to it. */
function displayScale(row: ReportRow): { unit: string; k: number } {
  switch (row.unit) {
    case 's':
      return { unit: 'ms', k: 1000 };
    case 'ns':
      return { unit: 'ms', k: 1e-6 };
    default:
      return { unit: row.unit, k: 1 };
  }
}

function fmtNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(3);
  return v.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 4);
}

/**
 * The grouped table: one block per quantity, one line per statistic, one
 * column per tool; refused rows are folded into one line per reason.
 */
export function formatGrouped(rows: ReportRow[]): string {
  const out: string[] = [];
  const shown = rows.filter((r) => r.value !== null && !Number.isNaN(r.value));
  for (const q of QUANTITY_ORDER) {
    const block = shown.filter((r) => r.quantity === q);
    if (block.length === 0) continue;
    const n = [...new Set(block.map((r) => r.n))];
    const nText = `n = ${n.length === 1 ? n[0] : `${Math.min(...n)} to ${Math.max(...n)}`}`;
    if (q === 'per-user speed') {
      // one definition per line: every tool's headline and variants, in tokens/s per user
      out.push(`${q} (tok/s per user; ★ = the tool's headline)`);
      const seen = new Set<string>();
      const items: [string, string, string][] = [];
      for (const r of block) {
        const name = r.metric.replace(/^per-user speed: /, '');
        const key = `${r.tool} ${name.replace(/ ★$/, '')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        items.push([r.tool, name, fmtNumber(r.value!)]);
      }
      const order = ['vllm', 'sglang', 'inferencex', 'aiperf', 'guidellm', 'llmperf', 'mlperf', 'etalon'];
      items.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
      const w0 = Math.max(...items.map((i) => i[0].length));
      const w1 = Math.max(...items.map((i) => i[1].length));
      for (const [t, m, v] of items) out.push(`  ${t.padEnd(w0)}  ${m.padEnd(w1)}  ${v.padStart(9)}`);
      out.push(`  ${nText}`, '');
      continue;
    }
    // the text table keeps the usual statistics; --json has every percentile
    const visible = block
      .map((r) => (r.stat === 'p50' ? { ...r, stat: 'median' } : r))
      .filter((r) => !/^p(1|5|10|25|75|95)$/.test(r.stat));
    const tools = [...new Set(visible.map((r) => r.tool))];
    const stats = [...new Set(visible.map((r) => `${r.stat}\u0000${displayScale(r).unit}`))];
    const head = [`${q}`, ...tools];
    const lines = stats.map((key) => {
      const [stat, unit] = key.split('\u0000');
      return [`  ${stat} (${unit})`, ...tools.map((t) => {
        const r = visible.find((x) => x.tool === t && x.stat === stat && displayScale(x).unit === unit);
        return r ? fmtNumber(r.value! * displayScale(r).k) : '';
      })];
    });
    const w = head.map((h, j) => Math.max(h.length, ...lines.map((l) => l[j].length)));
    const line = (c: string[]) => c.map((x, j) => (j === 0 ? x.padEnd(w[j]) : x.padStart(w[j]))).join('  ').trimEnd();
    out.push(line(head), ...lines.map(line), `  ${nText}`, '');
  }
  const refused = new Map<string, ReportRow[]>();
  for (const r of rows) {
    if (r.value !== null && !Number.isNaN(r.value)) continue;
    const why = r.note ?? 'no value';
    refused.set(why, [...(refused.get(why) ?? []), r]);
  }
  if (refused.size) {
    out.push('Not computed:');
    for (const [why, rs] of refused) {
      const names = [...new Set(rs.map((r) => r.tool))];
      out.push(`  ${why} → ${rs.length} definition${rs.length === 1 ? '' : 's'} (${names.join(', ')})`);
    }
  }
  return out.join('\n') + '\n';
}
