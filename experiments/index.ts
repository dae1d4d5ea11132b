/**
 * The registry: the paper's experiments in paper order (../shared/paper/EXPERIMENTS.md),
 * one module path per line, relative to the project root. Results, numbers.json
 * and figures merge in this order.
 *
 * To add an experiment, add its line under its section's comment. The comments
 * keep each section's lines apart, so helpers adding experiments in parallel
 * merge without conflicts. `ifPresent(path)` marks a module still being written
 * (skipped with a note until the file exists); use the bare path once it lands.
 * Each module: `export default defineExperiment({...})` (src/pipeline/types.ts).
 */
import { ifPresent, type RegistryEntry } from '../src/pipeline/registry.ts';

export const experiments: RegistryEntry[] = [
  // §1 Definitions (Figure 1, Table 1)

  // §2 First wave (Figure 2)

  // §3 Mean TTFT by request count (Figure 3)

  // §4 All at once

  // §5 Timeline and echo (Figure 4)

  // §6 Metronome (Figure 5) and range ratio

  // §7 Open vs closed (Figure 6)

  // §8 The cliff (Figure 7)

  // §9 Coordinated omission (Figure 8)

  // §10 Order statistics

  // §11 Correlated samples (Figure 9, left)

  // §12 Long runs (Figure 9, right) and cost

  // §13 Sensitivity (Figure 10)

  // §14 Tokens (Figure 11)
  ifPresent('experiments/tokens.ts'),

  // §15 Small derivations (MoE coverage, roofline envelope, Little's law, Figure 12)

  // §16 Tables (Table 4: the constants)
];
