/**
 * §4 All at once. `vllm bench serve` with neither a rate nor a concurrency cap
 * sends every prompt at t = 0: 1,000 default prompts (1,024 in / 128 out,
 * range ratio 0) land on an idle server in the same instant.
 */
import { defineExperiment } from '../src/pipeline/experiment.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';
import { num, pctNum, ttftMs, configNumbers } from './lib/measure.ts';

const config = { prompts: 1000, isl: 1024, osl: 128 };

export default defineExperiment({
  id: 'all-at-once',
  title: 'All at once',
  config,
  runJob(c, _p: Record<string, never>, ctx) {
    const r = simulate(
      defaultServerConfig(),
      { isl: fixedLengths(c.prompts, c.isl), osl: fixedLengths(c.prompts, c.osl) },
      { kind: 'open', times: new Float64Array(c.prompts) },
    );
    ctx.progress(1, 1, c.prompts);
    return { ttfts: Array.from(ttftMs(r)), preemptions: r.preemptions, makespan: r.makespan };
  },
  combine(c, [r]) {
    const ttftS = r.ttfts.map((ms: number) => ms / 1000);
    return {
      data: {},
      numbers: {
        'ttft.median_s': pctNum(ttftS, 0.5, 's'),
        'ttft.p99_s': pctNum(ttftS, 0.99, 's'),
        preemptions: num(r.preemptions, 'preemptions', ttftS.length),
        makespan_s: num(r.makespan, 's'),
        ...configNumbers(c, { prompts: 'prompts', isl: 'tokens', osl: 'tokens' }),
      },
    };
  },
  clauses: {
    arrivals: 'open, all 1,000 requests at t = 0 (vllm bench serve run without --request-rate or --max-concurrency)',
    clock: 'from send',
    window: 'whole run',
    definitions: 'TTFT = first token − send; median and p99 by numpy linear interpolation, with 95% order-statistic intervals',
    tokens: 'server token counts',
    prompts: 'vLLM random dataset defaults: 1,024 in, 128 out, range ratio 0; no prefix cache hits',
  },
});
