/**
 * The registry: the paper's experiments in paper order (docs/experiments.md),
 * one module path per line, relative to the project root. Results, numbers.json
 * and figures merge in this order.
 *
 * To add an experiment, add its line under its section's comment.
 * Each module: `export default defineExperiment({...})` (src/pipeline/types.ts).
 * Its figures live apart, in experiments/figures/<same file name>, outside every
 * job key (src/pipeline/README.md).
 */
export const experiments: string[] = [
  // §1 Definitions (Figure 1, Table 1)
  'experiments/definitions.ts',

  // §2 First wave (Figure 2)
  'experiments/first-wave.ts',

  // §3 Mean TTFT by request count (Figure 3)
  'experiments/request-count.ts',

  // §4 All at once
  'experiments/all-at-once.ts',

  // §5 Timeline and echo (Figure 4)
  'experiments/timeline.ts',

  // §6 Metronome (Figure 5) and range ratio
  'experiments/metronome.ts',

  // §7 Open vs closed (Figure 6)
  'experiments/open-closed.ts',

  // §8 The cliff (Figure 7)
  'experiments/cliff.ts',

  // §9 Coordinated omission (Figure 8)
  'experiments/omission.ts',

  // §10 Order statistics
  'experiments/order-statistics.ts',

  // §11 Correlated samples (Figure 9, left)

  // §12 Long runs (Figure 9, right) and cost
  'experiments/long-runs.ts',

  // §13 Sensitivity (Figure 10)
  'experiments/sensitivity.ts',

  // §14 Tokens (Figure 11)
  'experiments/tokens.ts',

  // §15 Small derivations (MoE coverage, roofline envelope, Little's law, Figure 12)
  'experiments/derivations.ts',

  // §16 Tables (Table 4: the constants)
  'experiments/constants.ts',
];
