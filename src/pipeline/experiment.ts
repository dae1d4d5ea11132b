import type { ExperimentDefinition } from './types.ts';

/** Declares an experiment (identity at run time; gives the definition its types). */
export function defineExperiment<C, P, J, D>(def: ExperimentDefinition<C, P, J, D>): ExperimentDefinition<C, P, J, D> {
  return def;
}
