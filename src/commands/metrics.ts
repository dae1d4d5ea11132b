import type { Command } from 'commander';
import { UserError } from '../errors.ts';

/** `stopwatches metrics`: not built yet. */
export function register(program: Command): void {
  program
    .command('metrics')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('metrics is not built yet');
    });
}
