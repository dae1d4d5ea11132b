/**
 * §15 Small derivations: MoE expert coverage under uniform routing, the
 * roofline bounds (batch-one decode speed, the compute-bound knee) and the
 * roofline envelope of per-user speed against total throughput (Figure 12),
 * with simulated closed-loop runs plotted inside it.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, inferencexLengths, simulate, type ServerConfig } from '../src/sim/index.ts';
import { closedLoopLittle, num, steadyWindow } from './lib/measure.ts';
import { stepTimeBound } from '../src/published-row/roofline.ts';
import { StepLog } from './lib/step-log.ts';
import type { DataOf, NumberValue } from '../src/pipeline/types.ts';

const config = {
  moe: { experts: 256, perToken: 8, batches: [1, 8, 32, 64, 128, 256] },
  /** Context length at which the envelope is drawn, tokens (≈ mid-answer of a 1k/1k request). */
  envelopeContext: 1380,
  envelopeBatches: [1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 256, 384, 512],
  /** Closed-loop runs plotted inside the envelope. */
  runs: { slots: [1, 4, 16, 64, 128, 256], multiplier: 10, isl: 1024, osl: 1024, rangeRatio: 0.8, seed: 1 },
};
type Params = { slots: number };

/** Decode-only step of `batch` requests each attending over `ctx` tokens, on the ideal roofline (no efficiency, no overhead). */
function idealDecode(cfg: ServerConfig, batch: number, ctx: number): { perUser: number; total: number } {
  const m = cfg.model;
  const t = stepTimeBound(
    { weightBytes: m.streamedWeightBytes, hbmBw: cfg.hw.hbmBw, peakFlops: cfg.hw.peakFlops, flopParams: m.bodyParams + m.lmHeadParams, kvBytesPerToken: m.kvBytesPerToken, context: ctx, layers: m.layers, dModel: m.dModel },
    batch,
  );
  return { perUser: 1 / t, total: batch / t };
}

const experiment = defineExperiment({
  id: 'derivations',
  title: 'Small derivations',
  config,
  jobs: (c) => c.runs.slots.map((slots) => ({ id: `closed-${slots}`, params: { slots } })),
  runJob(c, p: Params, ctx) {
    const n = p.slots * c.runs.multiplier;
    const rng = ctx.rng.fork(`seed${c.runs.seed}`);
    const isl = inferencexLengths(rng.fork('isl'), n, c.runs.isl, c.runs.rangeRatio);
    const osl = inferencexLengths(rng.fork('osl'), n, c.runs.osl, c.runs.rangeRatio);
    const log = new StepLog();
    const r = simulate(defaultServerConfig(), { isl, osl }, { kind: 'closed', slots: p.slots }, { onStep: log.onStep });
    ctx.progress(1, 1, n);
    // Per-user speed: mean over requests of (output tokens − 1) / (finish − first token), after the first wave.
    let s = 0;
    let k = 0;
    for (let i = p.slots; i < n; i++) {
      if (r.osl[i] > 1) {
        s += (r.osl[i] - 1) / (r.finishT[i] - r.firstT[i]);
        k++;
      }
    }
    const little = closedLoopLittle(r, (a, b) => log.tokensIn(a, b), p.slots);
    // Total output throughput in the steady window.
    const w = steadyWindow(r);
    const total = log.tokensIn(w.start, w.end) / (w.end - w.start);
    return { slots: p.slots, perUser: s / k, total, little };
  },
  combine(c, runs) {
    const cfg = defaultServerConfig();
    const m = cfg.model;
    const numbers: Record<string, NumberValue> = {};
    for (const b of c.moe.batches) {
      numbers[`moe.coverage.b${b}_pct`] = num(100 * (1 - Math.pow(1 - c.moe.perToken / c.moe.experts, b)), '%');
    }
    numbers['moe.experts'] = num(c.moe.experts, 'experts');
    numbers['moe.per_token'] = num(c.moe.perToken, 'experts');
    for (const b of c.moe.batches) numbers[`moe.b${b}.batch_tokens`] = num(b, 'tokens');
    numbers['roofline.weights_gb'] = num(m.streamedWeightBytes / 1e9, 'GB');
    numbers['roofline.batch1_bound_tok_per_s'] = num(cfg.hw.hbmBw / m.streamedWeightBytes, 'tok/s');
    // Weights turn compute-bound when 2 FLOP per parameter per token outrun 2 bytes per parameter per step.
    numbers['roofline.knee_tokens'] = num(cfg.hw.peakFlops / cfg.hw.hbmBw, 'tokens/step');
    numbers['roofline.envelope_context_tokens'] = num(c.envelopeContext, 'tokens');
    const envelope = c.envelopeBatches.map((b) => ({ batch: b, ...idealDecode(cfg, b, c.envelopeContext) }));
    const little = runs.map((r) => r.little);
    for (const r of runs) {
      numbers[`closed${r.slots}.little_in_flight`] = num(r.little.inFlight, 'requests');
      numbers[`closed${r.slots}.rate_req_per_s`] = num(r.little.rate, 'req/s');
      numbers[`closed${r.slots}.mean_e2e_s`] = num(r.little.meanE2E, 's');
    }
    numbers['little.max_deviation_pct'] = num(100 * Math.max(...little.map((l) => Math.abs(l.ratio - 1))), '%', little.length);
    // Inside the envelope: how many runs lie at or below it, and the closest run's per-user speed as a share of the bound at the same total throughput.
    const shares = runs.map((r) => shareOfEnvelope(envelope, r.total, r.perUser));
    numbers['runs.count'] = num(runs.length, 'runs');
    numbers['runs.inside_envelope'] = num(shares.filter((x) => x <= 1).length, 'runs', runs.length);
    numbers['runs.max_share_of_envelope_pct'] = num(100 * Math.max(...shares), '%', runs.length);
    return {
      data: { envelope, runs: runs.map((r) => ({ slots: r.slots, perUser: r.perUser, total: r.total })), context: c.envelopeContext },
      numbers,
    };
  },
  clauses: {
    arrivals: 'closed loops of 1–256 slots, 10× prompts (for the dots)',
    clock: 'server step ends',
    window: 'per-user speed after the first wave; throughput in the steady window',
    definitions: 'per-user speed = mean over requests of (output tokens − 1) ÷ (finish − first token); envelope = ideal roofline, no efficiency factors, no overhead',
    tokens: 'server token counts',
    prompts: 'InferenceX random lengths in [819, 1,024] in and out',
  },
});
export default experiment;

/** The combined data: what experiments/figures/derivations.ts draws. */
export type DerivationsData = DataOf<typeof experiment>;

/**
 * A point's per-user speed over the envelope's at the same total throughput (interpolated in log total): at most 1
 * inside it. A total beyond the envelope's last point is outside whatever its speed (Infinity).
 */
function shareOfEnvelope(env: { total: number; perUser: number }[], total: number, perUser: number): number {
  for (let i = 1; i < env.length; i++) {
    if (total <= env[i].total) {
      const a = env[i - 1];
      const b = env[i];
      const f = (Math.log(total) - Math.log(a.total)) / (Math.log(b.total) - Math.log(a.total));
      return perUser / (a.perUser + Math.max(0, f) * (b.perUser - a.perUser));
    }
  }
  return Infinity;
}
