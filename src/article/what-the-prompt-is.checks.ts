/** Checked claims of src/article/what-the-prompt-is.astro, in page order. */
import { above, every, monotone } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

export const CHECKS: SectionChecks = [
  {
    id: 'moe-nearly-every',
    basis: 'mathematics',
    says: 'Under uniform routing the share of experts a step touches rises with the batch and passes 95% by the larger example batch.',
    check: every([monotone(['b1', 'b32', 'b128'].map((b) => `derivations.moe.coverage.${b}_pct`), 'rising'), above('derivations.moe.coverage.b128_pct', 95)]),
  },
];
