/**
 * §0 / Table 4: the simulator's constants as numbers the prose can cite, and
 * the roofline's sanity checks (batch-one decode, a 1k prefill, a full step
 * of eight 1k prompts), with the two sides of the roofline for a decode step
 * and a prefill chunk, which say which side limits each.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { CONSTANTS_TABLE, defaultServerConfig, roofline, stepTime, stepTimeOf } from '../src/sim/index.ts';
import type { ServerConfig } from '../src/sim/index.ts';
import { num } from './lib/measure.ts';
import type { NumberValue } from '../src/pipeline/types.ts';

const config = { decodeContext: 1024, prompt: 1024, promptsPerStep: 8 };

const snake = (s: string) => s.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);

/**
 * The arithmetic time and the memory time of one step (s), without the fixed
 * overhead: the model's own step time with the other side made free, so the
 * formula stays in one place (src/sim/roofline.ts).
 */
function sides(cfg: ServerConfig, ...step: [number, number, number, number, number]): { compute: number; memory: number } {
  const r = roofline(cfg);
  return {
    compute: stepTimeOf({ ...r, overhead: 0, byteRate: Infinity }, ...step),
    memory: stepTimeOf({ ...r, overhead: 0, flopRate: Infinity }, ...step),
  };
}

export default defineExperiment({
  id: 'constants',
  title: 'The simulated server',
  config,
  runJob: () => ({}),
  combine(c) {
    const cfg = defaultServerConfig();
    const numbers: Record<string, NumberValue> = {};
    for (const row of CONSTANTS_TABLE) numbers[`${snake(row.name)}`] = num(row.value, row.unit);
    const L = c.prompt;
    const decode = stepTime(cfg, 1, 1, c.decodeContext + 1, 0, c.decodeContext);
    const prefill = stepTime(cfg, L, 1, 0, (L * (L + 1)) / 2, 0);
    const k = c.promptsPerStep;
    const full = stepTime(cfg, k * L, k, 0, (k * L * (L + 1)) / 2, 0);
    numbers['check.prefill_prompt_tokens'] = num(L, 'tokens');
    numbers['check.prompts_per_step'] = num(k, 'prompts');
    numbers['check.decode_context_tokens'] = num(c.decodeContext, 'tokens');
    numbers['check.decode_batch1_ms'] = num(1000 * decode, 'ms');
    numbers['check.decode_batch1_tok_per_s'] = num(1 / decode, 'tok/s');
    numbers['check.prefill_1k_ms'] = num(1000 * prefill, 'ms');
    numbers['check.full_step_ms'] = num(1000 * full, 'ms');
    numbers['check.full_step_tok_per_s'] = num((k * L) / full, 'tok/s');
    // Which side of the roofline limits a step: a decode of one request and of as many as the KV cache holds at the same context, and the 1k prefill.
    const ctx = c.decodeContext;
    const blocks = Math.floor(cfg.kvCapacityTokens / cfg.blockSize);
    const n = Math.min(cfg.maxNumSeqs, Math.floor(blocks / Math.ceil((ctx + 1) / cfg.blockSize)));
    const decodeOne = sides(cfg, 1, 1, ctx + 1, 0, ctx);
    const decodeFull = sides(cfg, n, n, n * (ctx + 1), 0, n * ctx);
    const prefillSides = sides(cfg, L, 1, 0, (L * (L + 1)) / 2, 0);
    numbers['check.decode_batch1_compute_ms'] = num(1000 * decodeOne.compute, 'ms');
    numbers['check.decode_batch1_memory_ms'] = num(1000 * decodeOne.memory, 'ms');
    numbers['check.decode_cache_full_batch'] = num(n, 'requests');
    numbers['check.decode_cache_full_compute_ms'] = num(1000 * decodeFull.compute, 'ms');
    numbers['check.decode_cache_full_memory_ms'] = num(1000 * decodeFull.memory, 'ms');
    numbers['check.prefill_1k_compute_ms'] = num(1000 * prefillSides.compute, 'ms');
    numbers['check.prefill_1k_memory_ms'] = num(1000 * prefillSides.memory, 'ms');
    numbers['kv_per_token_kib'] = num(cfg.model.kvBytesPerToken / 1024, 'KiB');
    numbers['weights_streamed_gb'] = num(cfg.model.streamedWeightBytes / 1e9, 'GB');
    numbers['peak_tflops'] = num(cfg.hw.peakFlops / 1e12, 'TFLOP/s');
    numbers['hbm_tb_per_s'] = num(cfg.hw.hbmBw / 1e12, 'TB/s');
    return { data: { rows: CONSTANTS_TABLE }, numbers };
  },
  clauses: {
    arrivals: 'not applicable',
    clock: 'not applicable',
    window: 'one engine step',
    definitions: 'roofline step time: overhead + max(FLOPs ÷ (η_c · peak), bytes ÷ (η_m · HBM bandwidth))',
    tokens: 'not applicable',
    prompts: 'decode at 1,024 tokens of context; 1,024-token prompts',
  },
});
