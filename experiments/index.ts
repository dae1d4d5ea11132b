/**
 * The registry: one module path per experiment, in the paper's order as the
 * outline (src/outline.ts) declares it. Results, numbers.json and figures merge
 * in this order. To add an experiment, list its id under its section in the
 * outline; the module is experiments/<id>.ts, exporting
 * `default defineExperiment({...})` (src/pipeline/types.ts), and its figures
 * live apart in experiments/figures/<id>.ts, outside every job key.
 */
import { EXPERIMENT_ORDER } from '../src/outline.ts';

export const experiments: string[] = EXPERIMENT_ORDER.map((id) => `experiments/${id}.ts`);
