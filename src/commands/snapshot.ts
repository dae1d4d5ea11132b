/**
 * `stopwatches snapshot [--from DIR]`: accepts the build (or a CI artifact's
 * outputs) as the new baseline in test/snapshots/ (src/pipeline/snapshot.ts).
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('snapshot')
    .description('accept the build as the new baseline: copy numbers, figures and data to test/snapshots/')
    .option('--from <dir>', "accept a downloaded CI artifact's outputs (its build/ folder) instead of src/generated/")
    .action(async (flags: { from?: string }) => {
      const { acceptSnapshot } = await import('../pipeline/snapshot.ts');
      acceptSnapshot({ root: process.cwd(), ...(flags.from !== undefined ? { from: flags.from } : {}) });
    });
}
