import type { Command } from 'commander';
import { UserError } from '../errors.ts';

/** `stopwatches check`: not built yet. */
export function register(program: Command): void {
  program
    .command('check')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('check is not built yet');
    });
}
