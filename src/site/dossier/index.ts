/**
 * The confidence dossier (Table 3): an entry for every statement the
 * site makes that is not simply an output of our own pipeline, with a grade
 * and a source (grades in ./types.ts). One file per topic; add an entry to the
 * file of its topic when prose states something new.
 */
import { CONSTANT_ENTRIES } from './constants.ts';
import { INSTRUMENT_ENTRIES } from './instrument.ts';
import { MEASURED_ENTRIES } from './measured.ts';
import { RELATED_WORK_ENTRIES } from './related-work.ts';
import { TOOL_ENTRIES } from './tools.ts';
import type { DossierEntry } from './types.ts';

export { GRADE_MEANING, type DossierEntry, type DossierGrade } from './types.ts';

/** Every entry, in the dossier's order: the instrument, the tools, others' work, then our measurements. */
export const DOSSIER: DossierEntry[] = [...CONSTANT_ENTRIES, ...INSTRUMENT_ENTRIES, ...TOOL_ENTRIES, ...RELATED_WORK_ENTRIES, ...MEASURED_ENTRIES];

/** Fails loudly on duplicate ids (an entry's id is its anchor) and on ids that are not plain anchors. */
export function checkDossier(entries: DossierEntry[] = DOSSIER): void {
  const seen = new Set<string>();
  for (const c of entries) {
    if (seen.has(c.id)) throw new Error(`duplicate claim id: ${c.id}`);
    seen.add(c.id);
    if (!/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/.test(c.id)) throw new Error(`claim id is not a plain anchor (letters, digits, hyphens): ${c.id}`);
    if (!/^[ABCDM]$/.test(c.grade)) throw new Error(`invalid grade for claim ${c.id}: ${c.grade}`);
  }
}
