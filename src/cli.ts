/**
 * `stopwatches` command line: one file per command in src/commands/, each
 * exporting `register(program)`. Heavy modules are imported inside each
 * command's action so `stopwatches --help` stays instant.
 */
import { Command, CommanderError } from 'commander';
import { UserError } from './errors.ts';
import { register as simulate } from './commands/simulate.ts';
import { register as metrics } from './commands/metrics.ts';
import { register as check } from './commands/check.ts';
import { register as run } from './commands/run.ts';
import { register as diff } from './commands/diff.ts';
import { register as snapshot } from './commands/snapshot.ts';

export function buildProgram(): Command {
  const program = new Command('stopwatches')
    .description('LLM Inference Benchmarks: Seven Stopwatches, One Server')
    .exitOverride()
    .showHelpAfterError();
  for (const register of [simulate, metrics, check, run, diff, snapshot]) register(program);
  return program;
}

/** Runs the CLI and returns the exit status (0 ok, 2 user error, 1 bug). */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof UserError) {
      process.stderr.write(`stopwatches: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof CommanderError) {
      // commander already printed its message (unknown option, --help, --version)
      return err.exitCode === 0 ? 0 : 2;
    }
    throw err;
  }
}
