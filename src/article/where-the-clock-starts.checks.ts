/** Checked claims of src/article/where-the-clock-starts.astro, in page order. */
import { above, below, every, greater, less, within } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

const sp = (tool: string) => `definitions.speed.${tool}_tok_per_s`;
const VLLM_TPOT = sp('vllm.mean_tpot_ms');
const SLOWEST = [sp('guidellm.time_per_output_token_ms_mean'), sp('aiperf.e2e_output_token_throughput_avg')];
/** The other bars of Figure 1 (LLMPerf in the article's reading, as the figure draws it). */
const OTHERS = [
  VLLM_TPOT,
  sp('vllm.median_itl_ms'),
  sp('sglang.mean_tpot_ms'),
  sp('mlperf.result_time_to_output_token_mean'),
  sp('inferencex.mean_intvty'),
  sp('inferencex.median_intvty'),
  sp('aiperf.output_token_throughput_per_user_avg'),
  sp('llmperf.inter_token_latency_s_article'),
  sp('llmperf.request_output_throughput_token_per_s'),
];

export const CHECKS: SectionChecks = [
  {
    id: 'def-most-decode',
    says: 'Most gaps fall on pure decode steps: under half span a prefill step.',
    check: below('definitions.gaps.on_prefill_steps_pct', 50),
  },
  {
    id: 'def-tpot-slower-than-itl',
    says: 'The mean TPOT is slower than the median ITL, a pure decode step.',
    check: greater('definitions.tpot.mean_ms', 'definitions.itl.median_ms'),
  },
  {
    id: 'def-p99-itl-prefill-step',
    says: 'The p99 ITL is the length of one full prefill step (within 5%).',
    check: within('definitions.itl.p99_ms', 'constants.check.full_step_ms', 0.05),
  },
  {
    id: 'def-near-vllm-tpot',
    says: 'SGLang’s TPOT, MLPerf’s TPOT and InferenceX’s interactivity (mean and median) all sit within 3% of vLLM’s TPOT speed.',
    check: every(
      [sp('sglang.mean_tpot_ms'), sp('mlperf.result_time_to_output_token_mean'), sp('inferencex.mean_intvty'), sp('inferencex.median_intvty')].map((id) => within(id, VLLM_TPOT, 0.03)),
    ),
  },
  {
    id: 'def-slowest',
    says: 'GuideLLM’s and AIPerf’s end-to-end per-user speeds are the slowest bars of the figure.',
    check: every(SLOWEST.flatMap((s) => OTHERS.map((o) => less(s, o)))),
  },
  {
    id: 'def-aiperf-above-tpot',
    says: 'AIPerf’s headline per-user speed lands a little above vLLM’s TPOT speed (within 5%).',
    check: every([greater(sp('aiperf.output_token_throughput_per_user_avg'), VLLM_TPOT), within(sp('aiperf.output_token_throughput_per_user_avg'), VLLM_TPOT, 0.05)]),
  },
  {
    id: 'def-llmperf-article-faster',
    says: 'Read with the Llama 2 count as divisor, LLMPerf reports a speed faster than TPOT, the inflation being above one.',
    check: every([greater(sp('llmperf.inter_token_latency_s_article'), VLLM_TPOT), above('definitions.llmperf.inflation_used_x', 1)]),
  },
  {
    id: 'def-llmperf-coded-slower',
    says: 'As coded, LLMPerf’s inter-token latency comes out slower than TPOT.',
    check: less(sp('llmperf.inter_token_latency_s_as_coded'), VLLM_TPOT),
  },
];
