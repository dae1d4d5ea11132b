/**
 * A checked claim: a sentence of the article that compares numbers, declared
 * as a predicate over number ids next to the section's prose
 * (src/article/<section>.checks.ts) and rendered with <Claim id="…">, so the
 * sentence and its check cannot drift apart.
 */
import type { Predicate } from './predicates.ts';
import type { ClaimBasis } from '../pipeline/outputs.ts';

export type { ClaimBasis };

export interface CheckedClaim {
  /** Unique within the site; the anchor on the dossier page is `check-<id>`. */
  id: string;
  /** The words the check justifies, in brief: what the sentence asserts. */
  says: string;
  check: Predicate;
  /**
   * What the check rests on, when it is not evidence: a claim whose numbers are
   * only settings (`setting`), one that holds by definition (`identity`), or one
   * that is pure mathematics on settings (`mathematics`) cannot fail on a change
   * of the simulator. It is kept, marked so in the dossier and the diff, and not
   * counted as evidence. Absent: `evidence`, a claim about simulated results.
   */
  basis?: Exclude<ClaimBasis, 'evidence'>;
  /**
   * Set for a statement the original article made that this build's numbers
   * do not bear out: the page prints it beside the sentence instead of the
   * build failing. `article` is how the article put it (in our words).
   */
  contradicts?: {
    article: string;
    /** Why our numbers may come out differently, where a known difference of set-up explains part of it (shown on the reproduction page). */
    why?: string;
  };
}

/** A section's claims, in the order its page renders them. */
export type SectionChecks = readonly CheckedClaim[];
