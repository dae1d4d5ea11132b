import type { Command } from 'commander';
import { UserError } from '../errors.ts';

/** `stopwatches run`: not built yet. */
export function register(program: Command): void {
  program
    .command('run')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('run is not built yet');
    });
}
