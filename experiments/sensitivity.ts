/**
 * §13 Sensitivity (Figure 10). Eleven versions of the simulated server — the
 * baseline and one constant changed at a time — and four effects measured on
 * each: the first wave's p99 inflation (§2), coordinated omission at 90% load
 * (§9), the spread of the seven definitions (§1) and the metronome (§6). Each
 * effect reuses its experiment's own function, so the baseline row equals the
 * numbers of those experiments.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { withOverrides, type ServerOverrides, type StepView } from '../src/sim/index.ts';
import { createRng } from '../src/rng/index.ts';
import { linearPercentile } from '../src/stats/index.ts';
import { speedRange } from '../src/metrics/index.ts';
import { num, overSeeds, seedList } from './lib/measure.ts';
import { closedPoint } from './lib/sweep.ts';
import { config as waveConfig, runOne as firstWaveRun } from './first-wave.ts';
import { cappedRun } from './omission.ts';
import { config as defsConfig, definitionsRun, withInflation } from './definitions.ts';
import { config as metroConfig, metronomeRun } from './metronome.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  variants: [
    { id: 'baseline', label: 'baseline', overrides: {} },
    { id: 'eta_compute_0.60', label: 'compute efficiency 0.60', overrides: { etaCompute: 0.6 } },
    { id: 'eta_compute_0.90', label: 'compute efficiency 0.90', overrides: { etaCompute: 0.9 } },
    { id: 'eta_memory_0.75', label: 'bandwidth efficiency 0.75', overrides: { etaMemory: 0.75 } },
    { id: 'eta_memory_0.95', label: 'bandwidth efficiency 0.95', overrides: { etaMemory: 0.95 } },
    { id: 'overhead_0.5ms', label: 'overhead 0.5 ms', overrides: { stepOverheadS: 0.0005 } },
    { id: 'overhead_2ms', label: 'overhead 2 ms', overrides: { stepOverheadS: 0.002 } },
    { id: 'kv_300k', label: 'KV pool 300k', overrides: { kvCapacityTokens: 300_000 } },
    { id: 'kv_600k', label: 'KV pool 600k', overrides: { kvCapacityTokens: 600_000 } },
    { id: 'budget_2048', label: 'token budget 2,048', overrides: { tokenBudget: 2048 } },
    { id: 'budget_16384', label: 'token budget 16,384', overrides: { tokenBudget: 16384 } },
  ] as { id: string; label: string; overrides: ServerOverrides }[],
  omission: { cap: 64, requests: 4000, loadPct: 90, lowPct: 50, highPct: 125 },
  /** Seeds per variant for the three effects that depend on random draws (first wave, omission, metronome); the definitions run draws nothing. */
  seeds: seedList(20),
  llmperfInflationId: 'tokens.llmperf_inflation.english_docs_x',
};
type Params = { id: string; overrides: ServerOverrides; seed: number };

const experiment = defineExperiment({
  id: 'sensitivity',
  title: 'How much of this is the model',
  config,
  needs: ['tokens'],
  jobs: (c) => c.variants.flatMap((v) => c.seeds.map((seed) => ({ id: `${v.id}-s${seed}`, params: { id: v.id, overrides: v.overrides, seed } }))),
  runJob(c, p: Params, ctx) {
    const cfg = withOverrides(p.overrides);
    const seed = p.seed;
    // The KV pool's fullest step over the runs below (in blocks): how close these effects come to needing the pool's size.
    let peakBlocks = 0;
    const watch = (v: StepView) => {
      if (v.usedBlocks > peakBlocks) peakBlocks = v.usedBlocks;
    };
    // 1. First wave: p99 of the whole run ÷ p99 without the wave.
    const w = firstWaveRun(waveConfig, { slots: 64, multiplier: waveConfig.multiplier, seed }, createRng(seed), cfg, watch);
    // 2. Coordinated omission behind a cap of 64 at this server's own 64-slot capacity.
    const o = c.omission;
    const capacity = closedPoint(o.cap, cfg).rate;
    const p99 = (load: number) => {
      const run = cappedRun((capacity * load) / 100, o.cap, o.requests, seed, cfg, watch);
      return { send: linearPercentile(run.ttftSendMs, 0.99), due: linearPercentile(run.ttftDueMs, 0.99) };
    };
    const at = p99(o.loadPct);
    const low = p99(o.lowPct);
    const high = p99(o.highPct);
    // 3. Definitions (no random draws: once per variant; LLMPerf's factor applied in combine). 4. Metronome.
    const defs = seed === c.seeds[0] ? definitionsRun(defsConfig, cfg, watch).rows : null;
    const fixed = metronomeRun(metroConfig, { lengths: 'fixed', seed }, createRng(seed), cfg, watch);
    const ranged = metronomeRun(metroConfig, { lengths: 'ranged', seed }, createRng(seed), cfg, watch);
    ctx.progress(1, 1);
    return {
      id: p.id,
      seed,
      waveInflation: w.p99AllMs / w.p99AfterMs,
      omissionX: at.due / at.send,
      printedChangePct: 100 * (high.send / low.send - 1),
      defsRows: defs,
      metronomeX: fixed.medianMs / ranged.medianMs,
      capacity,
      peakKvTokens: peakBlocks * cfg.blockSize,
    };
  },
  combine(c, results, deps) {
    const f = deps.number(c.llmperfInflationId).value;
    const n: Record<string, NumberValue> = {};
    const rows = c.variants.map((variant) => {
      const g = results.filter((r) => r.id === variant.id);
      const [lo, hi] = speedRange(withInflation(g.find((r) => r.defsRows)!.defsRows!, f))!;
      const over = (k: 'waveInflation' | 'omissionX' | 'printedChangePct' | 'metronomeX', unit: string) => overSeeds(g.map((r) => r[k]), unit);
      const nv = {
        wave: over('waveInflation', '×'),
        omission: over('omissionX', '×'),
        printed: over('printedChangePct', '%'),
        metronome: over('metronomeX', '×'),
      };
      n[`${variant.id}.first_wave_x`] = nv.wave;
      n[`${variant.id}.omission_x`] = nv.omission;
      n[`${variant.id}.printed_p99_change_pct`] = nv.printed;
      n[`${variant.id}.definitions_spread_x`] = num(hi / lo, '×');
      n[`${variant.id}.metronome_x`] = nv.metronome;
      n[`${variant.id}.capacity64_req_per_s`] = num(g[0]!.capacity, 'req/s');
      n[`${variant.id}.peak_kv_tokens`] = overSeeds(g.map((r) => r.peakKvTokens), 'tokens');
      return {
        id: variant.id,
        label: variant.label,
        wave: nv.wave.value,
        omission: nv.omission.value,
        printed: nv.printed.value,
        definitions: hi / lo,
        metronome: nv.metronome.value,
      };
    });
    // Ranges over the variants of each variant's median over seeds.
    for (const k of ['wave', 'omission', 'printed', 'definitions', 'metronome'] as const) {
      const vals = rows.map((r) => r[k]);
      const unit = k === 'printed' ? '%' : '×';
      const name = { wave: 'first_wave_x', omission: 'omission_x', printed: 'printed_p99_change_pct', definitions: 'definitions_spread_x', metronome: 'metronome_x' }[k];
      n[`range.${name.replace(/_(x|pct)$/, '')}.min_${unit === '%' ? 'pct' : 'x'}`] = num(Math.min(...vals), unit, rows.length);
      n[`range.${name.replace(/_(x|pct)$/, '')}.max_${unit === '%' ? 'pct' : 'x'}`] = num(Math.max(...vals), unit, rows.length);
    }
    // The same ranges over single runs: every seed of every variant. A variant's median hides how far one run can land.
    const perRun = { first_wave: 'waveInflation', omission: 'omissionX', printed_p99_change: 'printedChangePct', metronome: 'metronomeX' } as const;
    for (const [name, k] of Object.entries(perRun)) {
      const vals = results.map((r) => r[k]);
      const unit = k === 'printedChangePct' ? '%' : '×';
      const suffix = unit === '%' ? 'pct' : 'x';
      n[`range.${name}.seeds_min_${suffix}`] = num(Math.min(...vals), unit, vals.length);
      n[`range.${name}.seeds_max_${suffix}`] = num(Math.max(...vals), unit, vals.length);
    }
    n['variants'] = num(rows.length, 'variants');
    n['config.seeds'] = num(c.seeds.length, 'seeds');
    n['config.omission_cap'] = num(c.omission.cap, 'requests');
    n['config.omission_load_pct'] = num(c.omission.loadPct, '%');
    n['config.printed_low_pct'] = num(c.omission.lowPct, '%');
    n['config.printed_high_pct'] = num(c.omission.highPct, '%');
    // Each variant's changed setting, so prose can name it by id.
    const UNITS: Record<string, [string, number]> = { etaCompute: ['%', 100], etaMemory: ['%', 100], stepOverheadS: ['ms', 1000], kvCapacityTokens: ['tokens', 1], tokenBudget: ['tokens', 1], maxNumSeqs: ['sequences', 1] };
    for (const v of c.variants) {
      for (const [k, val] of Object.entries(v.overrides)) n[`${v.id}.setting`] = num((val as number) * UNITS[k][1], UNITS[k][0]);
    }
    return { data: { rows }, numbers: n };
  },
  clauses: {
    arrivals: 'as in §2 (closed, 64 slots, 10×), §9 (Poisson behind a cap of 64, 90% of that server’s own 64-slot capacity), §1 (closed, 64 users) and §6 (closed, 64 slots, 20×)',
    clock: 'as in each effect’s own section',
    window: 'as in each effect’s own section',
    definitions: `first wave = whole-run p99 ÷ p99 without the wave; omission = due p99 ÷ send p99; printed change = send p99 at 125% ÷ at 50% − 1; definitions = max ÷ min of the seven headline speeds; metronome = fixed ÷ ranged steady median TTFT; each the median over ${config.seeds.length} seeds per variant`,
    tokens: 'server counts; LLMPerf with the Llama 2 factor from the tokens experiment',
    prompts: 'as in each effect’s own section',
  },
});
export default experiment;

/** The combined data: what experiments/figures/sensitivity.ts draws. */
export type SensitivityData = DataOf<typeof experiment>;
