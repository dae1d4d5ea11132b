/**
 * The whole diff of two sides: numbers, figures, data rows, grouped by the
 * experiment that produced them, each experiment with the inputs that changed
 * (why.ts). Pure: reading the sides and writing the reports happen elsewhere.
 */
import { compareData } from './data.ts';
import { compareFigures, type FigureDiff } from './figures.ts';
import { numberRows, EMPTY_CONTEXT, type NumberContext, type NumberRow } from './numbers.ts';
import { figureKeyOf } from '../outputs.ts';
import type { Side } from './sides.ts';
import type { InputChange, WhyMap } from './why.ts';

/**
 * A checked claim whose status differs between the sides (the dossier's
 * claims, once they are checked by the build). Listed before everything else:
 * a claim that stops holding matters more than any number.
 */
export interface ClaimChange {
  id: string;
  claim: string;
  /** `status`: it flipped (holds → fails, …); `margin`: same status, another margin; or added, removed. */
  change: 'status' | 'margin' | 'added' | 'removed';
  /** Status (e.g. `holds`, `fails`) and margin on each side, null when the claim is absent there. */
  old: ClaimState | null;
  new: ClaimState | null;
}

export interface ClaimState {
  status: string;
  margin: string;
}

/** What the command layer hands the diff besides the two sides. */
export interface DiffContext extends NumberContext {
  /** Claims whose checked status changed; absent until the build checks claims. */
  claimChanges?(base: Side, cur: Side): ClaimChange[];
}

/** One experiment whose outputs moved, and why. */
export interface ExperimentChange {
  id: string;
  /** Numbers changed, added or removed. */
  numbers: number;
  /** Keys of its figures that changed, were added or removed (rendering-only differences excluded). */
  figures: string[];
  /** Changed rows of its data. */
  dataRows: number;
  /** The inputs that differ from the baseline's commit; null when that commit is unknown. */
  inputs: InputChange[] | null;
}

export interface DiffResult {
  base: string;
  current: string;
  /** The commit the current outputs were built from (HEAD of the checkout), null outside git. */
  headCommit: string | null;
  /** The commit the baseline's outputs belong to; null when unknown (a folder without source.json, no git). */
  baseCommit: string | null;
  /** Why the inputs were not compared, when they were not. */
  whyNote: string | null;
  claims: ClaimChange[];
  numbers: NumberRow[];
  figures: FigureDiff[];
  /** Figures present on both sides and identical. */
  sameFigures: number;
  /** Experiments whose data changed though none of their figures did. */
  dataOnly: { experiment: string; rows: number }[];
  /** Experiments whose outputs moved, in id order. */
  experiments: ExperimentChange[];
  /** Experiments whose inputs changed while every output stayed the same (a refactoring, a comment). */
  unmoved: { experiment: string; inputs: InputChange[] }[];
  totalNumbers: number;
  /** The published neighbourhood's half-width, relative (NumberContext.farOff). */
  farOff: number;
}

/** `why`: the input changes per experiment (why.ts), or the reason they could not be compared. */
export function computeDiff(base: Side, cur: Side, ctx: DiffContext = EMPTY_CONTEXT, why: WhyMap | string = 'no baseline commit given'): DiffResult {
  const whyMap = typeof why === 'string' ? null : why;
  const numbers = numberRows(base.numbers, cur.numbers, ctx);
  const figures = compareFigures(base, cur);
  const allKeys = new Set([...cur.figures.keys()].map(figureKeyOf));
  const dataRows = new Map<string, number>();
  if (base.data && cur.data) {
    for (const [exp, d] of cur.data) if (base.data.has(exp)) dataRows.set(exp, compareData(base.data.get(exp), d).length);
  }
  const withFigure = new Set(figures.filter((f) => !f.renderOnly).map((f) => f.experiment));
  const dataOnly = [...dataRows].filter(([exp, rows]) => rows > 0 && !withFigure.has(exp)).map(([experiment, rows]) => ({ experiment, rows }));

  const ids = new Set<string>([...numbers.map((n) => n.experiment), ...withFigure, ...dataOnly.map((d) => d.experiment)]);
  const experiments: ExperimentChange[] = [...ids].sort().map((id) => ({
    id,
    numbers: numbers.filter((n) => n.experiment === id).length,
    figures: figures.filter((f) => f.experiment === id && !f.renderOnly).map((f) => f.key),
    dataRows: dataRows.get(id) ?? 0,
    inputs: whyMap ? (whyMap.get(id) ?? []) : null,
  }));
  const unmoved = whyMap ? [...whyMap].filter(([id, inputs]) => inputs.length > 0 && !ids.has(id)).map(([experiment, inputs]) => ({ experiment, inputs })) : [];
  return {
    base: base.label,
    current: cur.label,
    headCommit: cur.commit,
    baseCommit: base.commit,
    whyNote: typeof why === 'string' ? why : null,
    claims: ctx.claimChanges?.(base, cur) ?? [],
    numbers,
    figures,
    sameFigures: [...allKeys].filter((k) => !figures.some((f) => f.key === k && !f.renderOnly)).length,
    dataOnly,
    experiments,
    unmoved,
    totalNumbers: Object.keys(cur.numbers).length,
    farOff: ctx.farOff,
  };
}

export const figureChanged = (f: FigureDiff) => !f.renderOnly;
export const hasChanges = (r: DiffResult) => r.numbers.length > 0 || r.figures.some(figureChanged) || r.claims.length > 0;
