/**
 * The claim registry behind the confidence dossier (Table 3): every claim the
 * site makes that is not simply an output of our own pipeline, with a grade
 * and a source (grades in ./types.ts). One file per topic; add a claim to the
 * file of its topic when prose states something new.
 */
import { CONSTANT_CLAIMS } from './constants.ts';
import { INSTRUMENT_CLAIMS } from './instrument.ts';
import { MEASURED_CLAIMS } from './measured.ts';
import { RELATED_WORK_CLAIMS } from './related-work.ts';
import { TOOL_CLAIMS } from './tools.ts';
import type { Claim } from './types.ts';

export { GRADE_MEANING, type Claim, type ClaimGrade } from './types.ts';

/** Every claim, in the dossier's order: the instrument, the tools, others' work, then our measurements. */
export const CLAIMS: Claim[] = [...CONSTANT_CLAIMS, ...INSTRUMENT_CLAIMS, ...TOOL_CLAIMS, ...RELATED_WORK_CLAIMS, ...MEASURED_CLAIMS];

/** Fails loudly on duplicate ids (a claim's id is its anchor) and on ids that are not plain anchors. */
export function checkClaims(claims: Claim[] = CLAIMS): void {
  const seen = new Set<string>();
  for (const c of claims) {
    if (seen.has(c.id)) throw new Error(`duplicate claim id: ${c.id}`);
    seen.add(c.id);
    if (!/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/.test(c.id)) throw new Error(`claim id is not a plain anchor (letters, digits, hyphens): ${c.id}`);
    if (!/^[ABCDM]$/.test(c.grade)) throw new Error(`invalid grade for claim ${c.id}: ${c.grade}`);
  }
}
