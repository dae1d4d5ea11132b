/** Checked claims of src/article/the-instrument.astro, in page order. */
import { every, greater } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

const C = 'constants.check';

export const CHECKS: SectionChecks = [
  {
    id: 'inst-decode-memory',
    says: 'At {constants.check.decode_context_tokens} of context a decode step is limited by memory traffic: its bytes take longer than its arithmetic for one request and for as many requests as the KV cache holds.',
    check: every([
      greater(`${C}.decode_batch1_memory_ms`, `${C}.decode_batch1_compute_ms`),
      greater(`${C}.decode_cache_full_memory_ms`, `${C}.decode_cache_full_compute_ms`),
    ]),
  },
  {
    id: 'inst-prefill-arithmetic',
    says: 'A prefill chunk of {constants.check.prefill_prompt_tokens} is limited by arithmetic: its arithmetic takes longer than its memory traffic.',
    check: greater(`${C}.prefill_1k_compute_ms`, `${C}.prefill_1k_memory_ms`),
  },
];
