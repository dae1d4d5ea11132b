/** Checked claims of src/article/two-checks.astro, in page order. */
import { below, every, within } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

export const CHECKS: SectionChecks = [
  {
    id: 'tc-little-small',
    basis: 'identity',
    says: 'Rate times mean latency gives back the slot count: within 2% at {open-closed.slots64.slots} of the sweep, and in each closed-loop run of the envelope figure the miss stays under 2%.',
    check: every([within('open-closed.slots64.closed.little_in_flight', 'open-closed.slots64.slots', 0.02), below('derivations.little.max_deviation_pct', 2)]),
  },
  {
    id: 'tc-inside-envelope',
    says: 'Every simulated closed-loop run of the figure lies inside the roofline envelope, the closest at under four-fifths of the per-user speed it allows.',
    check: every([within('derivations.runs.inside_envelope', 'derivations.runs.count', 0), below('derivations.runs.max_share_of_envelope_pct', 80)]),
  },
];
