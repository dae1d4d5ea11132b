/**
 * §1 Definitions (Figure 1, Table 1). One closed-loop run — 64 users, vLLM's
 * default lengths (1,024 in / 128 out, 1,000 prompts, range ratio 0) — and
 * every tool's per-token definition applied to the same timestamps.
 *
 * LLMPerf counts output tokens with the Llama 2 tokenizer whatever the model:
 * its inflation factor is not assumed here but read from the tokens
 * experiment (Llama 2 ÷ Llama 3 count on English technical docs).
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, fixedLengths, simulate, type ServerConfig, type SimResult, type StepView } from '../src/sim/index.ts';
import { fromSimResult, LLMPERF_BOS, perUserSpeeds, speedRange, TABLE1, type BenchmarkRun, type SpeedRow } from '../src/metrics/index.ts';
import { num, pctNum, configNumbers } from './lib/measure.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

export const config = {
  users: 64,
  prompts: 1000,
  isl: 1024,
  osl: 128,
  /** A gap longer than this is a stall (share of gaps reported). */
  stallMs: 100,
  /** The tokens experiment's number that sets LLMPerf's count. */
  llmperfInflationId: 'tokens.llmperf_inflation.english_docs_x',
};


/** The run, with every step's end: the tools' pooled chunk gaps are then counted per step, not sorted (src/tools/sim/step-gaps.ts). */
export function definitionsSimulation(c: typeof config, cfg: ServerConfig = defaultServerConfig(), watch?: (v: StepView) => void): { r: SimResult; stepEnds: Float64Array } {
  const ends: number[] = [];
  const onStep = (v: StepView) => {
    ends.push(v.t + v.dt);
    watch?.(v);
  };
  const r = simulate(
    cfg,
    { isl: fixedLengths(c.prompts, c.isl), osl: fixedLengths(c.prompts, c.osl) },
    { kind: 'closed', slots: c.users },
    { recordTokens: true, onStep },
  );
  return { r, stepEnds: Float64Array.from(ends) };
}

/** The run as every tool reads it: its records, and its pooled gaps counted on the step clock. */
export function benchmarkRunOf(c: typeof config, sim: { r: SimResult; stepEnds: Float64Array }): BenchmarkRun {
  return fromSimResult(sim.r, { client: { kind: 'closed', slots: c.users }, stepEnds: sim.stepEnds });
}

/** The run and every definition on it, with LLMPerf's Llama 2 count taken as the model's own (inflation 1). */
export function definitionsRun(c: typeof config, cfg: ServerConfig = defaultServerConfig(), watch?: (v: StepView) => void): { rows: SpeedRow[]; numbers: Record<string, NumberValue> } {
  const sim = definitionsSimulation(c, cfg, watch);
  const { r } = sim;
  const tt = r.tokenTimes!;
  const gaps: number[] = [];
  for (let i = 0; i < r.n; i++) {
    for (let k = tt.offsets[i] + 1; k < tt.offsets[i + 1]; k++) gaps.push((tt.times[k] - tt.times[k - 1]) * 1000);
  }
  const run = benchmarkRunOf(c, sim);
  // withInflation's rescaling holds for one output length only
  if (run.records.some((x) => x.ok && x.outputTokens !== c.osl)) throw new Error(`definitions: a request did not stream exactly ${c.osl} tokens`);
  const rows = perUserSpeeds(run, { llama2Inflation: 1 });
  const numbers: Record<string, NumberValue> = {};
  numbers['itl.median_ms'] = pctNum(gaps, 0.5, 'ms');
  numbers['itl.p99_ms'] = pctNum(gaps, 0.99, 'ms');
  const stalls = gaps.filter((g) => g > c.stallMs).length;
  numbers['gaps.over_100ms_pct'] = num((100 * stalls) / gaps.length, '%', gaps.length);
  // Gaps that span a step where someone else's prompt is prefilled: longer than twice the median.
  const med = numbers['itl.median_ms'].value;
  const slow = gaps.filter((g) => g > 2 * med).length;
  numbers['gaps.on_prefill_steps_pct'] = num((100 * slow) / gaps.length, '%', gaps.length);
  numbers['gaps.one_in'] = num(gaps.length / slow, 'gaps', gaps.length);
  return { rows, numbers };
}

/**
 * LLMPerf's rows that count tokens with Llama 2 scale linearly with its count
 * L = f·n + 1 (the + 1 is the start-of-sequence token, LLMPERF_BOS) when every
 * request has the same output length n, as in definitionsRun (which checks it):
 * speed(f) = speed(1) · (f·n + 1)/(n + 1). So the run is measured once and the
 * factor applied after, when the tokens experiment has measured it.
 */
export function withInflation(rows: SpeedRow[], f: number, n: number = config.osl): SpeedRow[] {
  const k = (f * n + LLMPERF_BOS) / (n + LLMPERF_BOS);
  return rows.map((r) =>
    r.tool === 'llmperf' && r.metric !== 'inter_token_latency_s (as coded)' && r.tokPerS !== null
      ? { ...r, tokPerS: r.tokPerS * k, formula: r.formula.replace(/\b1·/, `${f}·`) }
      : r,
  );
}

const experiment = defineExperiment({
  id: 'definitions',
  title: 'Seven definitions, one run',
  config,
  needs: ['tokens'],
  runJob(c, _p: Record<string, never>, ctx) {
    const out = definitionsRun(c);
    ctx.progress(1, 1, c.prompts);
    return out;
  },
  combine(c, [job], deps) {
    const inflation = deps.number(c.llmperfInflationId).value;
    const rows = withInflation(job.rows, inflation);
    const numbers: Record<string, NumberValue> = { ...job.numbers };
    const primary = rows.filter((r) => r.primary && r.tokPerS !== null);
    for (const r of rows) {
      if (r.tokPerS === null) continue;
      const key = `${r.tool}.${r.metric.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '').toLowerCase()}`;
      numbers[`speed.${key}_tok_per_s`] = num(r.tokPerS, 'tok/s', r.n);
    }
    const [lo, hi] = speedRange(rows)!;
    numbers['speed.min_tok_per_s'] = num(lo, 'tok/s', primary.length);
    numbers['speed.max_tok_per_s'] = num(hi, 'tok/s', primary.length);
    numbers['speed.spread_x'] = num(hi / lo, '×', primary.length);
    const tpot = rows.find((r) => r.tool === 'vllm' && r.metric === 'mean_tpot_ms')!;
    numbers['tpot.mean_ms'] = num(1000 / tpot.tokPerS!, 'ms', tpot.n);
    Object.assign(numbers, configNumbers(c, { users: 'users', prompts: 'prompts', isl: 'tokens', osl: 'tokens', stallMs: 'ms' }));
    numbers['llmperf.inflation_used_x'] = num(inflation, '×');
    const bars = primary.map((r) => ({
      tool: TABLE1.find((t) => t.tool === r.tool)?.name ?? r.tool,
      metric: r.metric,
      tokPerS: r.tokPerS!,
    }));
    bars.sort((a, b) => b.tokPerS - a.tokPerS);
    return { data: { bars, rows }, numbers };
  },
  clauses: {
    arrivals: 'closed loop, 64 slots opened at t = 0, 1,000 requests',
    clock: 'each tool’s own (send, or scheduled time for MLPerf — equal here)',
    window: 'whole run',
    definitions: 'each tool’s headline per-token metric, as read from its source (Table 1)',
    tokens: 'server counts; LLMPerf with the Llama 2 tokenizer (factor from the tokens experiment)',
    prompts: 'vLLM random dataset defaults: 1,024 in, 128 out, range ratio 0',
  },
});
export default experiment;

/** The combined data: what experiments/figures/definitions.ts draws. */
export type DefinitionsData = DataOf<typeof experiment>;
