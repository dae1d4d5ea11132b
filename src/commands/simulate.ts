import type { Command } from 'commander';
import { UserError } from '../errors.ts';

/** `stopwatches simulate`: not built yet. */
export function register(program: Command): void {
  program
    .command('simulate')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('simulate is not built yet');
    });
}
