/**
 * The shape of an entry in the confidence dossier (Table 3) and what its grade
 * means:
 *
 *   A  checked in the original document by this project (code at a commit, a datasheet, a model config)
 *   B  a credible second-hand source, not checked in the original here
 *   C  computed here from A or B facts
 *   D  assumption
 *   M  measured by this project (simulator or offline tokenizers)
 *
 * Entry text holds no typed numbers: a value comes from `constant` or `numberId`.
 */
import type { ConstantName } from '../../sim/constants.ts';

export type DossierGrade = 'A' | 'B' | 'C' | 'D' | 'M';

export interface DossierEntry {
  /** Stable id, also the anchor on the dossier page. */
  id: string;
  /** What the entry states, in one sentence. */
  statement: string;
  grade: DossierGrade;
  /** Where it was established: file and commit, document, or experiment. */
  source: string;
  /** Topic, for grouping: `tool: vLLM`, `simulator`, `tokens`, … */
  topic: string;
  /** A simulator constant whose value the entry states. */
  constant?: ConstantName;
  /** An id in numbers.json whose value the entry states (grade M). */
  numberId?: string;
  /** Reference numbers in src/site/references.ts. */
  refs?: number[];
}

export const GRADE_MEANING: Record<DossierGrade, string> = {
  A: 'checked in the original document by this project',
  B: 'a credible second-hand source, not checked in the original here',
  C: 'computed here from A or B facts',
  D: 'assumption',
  M: 'measured here (simulator or offline tool)',
};
