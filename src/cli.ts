/**
 * `stopwatches` command line: one file per command in src/commands/, each
 * exporting `register(program)`. Heavy modules are imported inside each
 * command's action so `stopwatches --help` stays instant.
 *
 * Failures the user can act on end as one line on stderr, never a stack trace:
 * `main` turns UserError-like errors, file-system errors and failed allocations
 * into `stopwatches: <line>` and an exit status; `guardStandardStreams` does the
 * same for errors that reach stdout/stderr after a command has returned
 * (a closed pipe, a full disk).
 */
import { Command, CommanderError } from 'commander';
import { describeFailure, fsErrorLine } from './errors.ts';
import { terminalText } from './format/text.ts';
import { register as simulate } from './commands/simulate.ts';
import { register as metrics } from './commands/metrics.ts';
import { register as audit } from './commands/audit.ts';
import { register as check } from './commands/check.ts';
import { register as run } from './commands/run.ts';
import { register as cache } from './commands/cache.ts';
import { register as claims } from './commands/claims.ts';
import { register as diff } from './commands/diff.ts';
import { register as snapshot } from './commands/snapshot.ts';

export function buildProgram(): Command {
  const program = new Command('stopwatches')
    .description('LLM Inference Benchmarks: Seven Stopwatches, One Server')
    .exitOverride()
    .showHelpAfterError();
  for (const register of [simulate, metrics, audit, check, run, claims, diff, snapshot, cache]) register(program);
  return program;
}

/**
 * Runs the CLI and returns the exit status: 0 ok, 1 a finding (`check`) or a bug,
 * 2 the input or the environment must change (bad flag or file, permission, full disk).
 */
export async function main(argv: string[]): Promise<number> {
  try {
    const program = buildProgram();
    await program.parseAsync(helpAsFlag(program, argv), { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its message (unknown option, --help, --version)
      return err.exitCode === 0 ? 0 : 2;
    }
    if (isBrokenPipe(err)) return 0;
    const failure = describeFailure(err);
    if (failure) {
      writeStderr(`stopwatches: ${terminalText(failure.line)}\n`);
      return failure.exitCode;
    }
    throw err; // a bug: its stack is what a report needs
  }
}

/**
 * `help <command>` read as `<command> --help`, the same help by commander's own rule, so that it
 * passes the command's preSubcommand hook too (where `metrics` loads the formats its help lists).
 */
function helpAsFlag(program: Command, argv: string[]): string[] {
  const [first, name, ...rest] = argv;
  return first === 'help' && rest.length === 0 && program.commands.some((c) => c.name() === name) ? [name!, '--help'] : argv;
}

/** The reader of our output went away (`… | head`): nothing more to say, and nobody to say it to. */
function isBrokenPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

function writeStderr(text: string): void {
  try {
    process.stderr.write(text);
  } catch {
    // stderr itself is gone; the exit status still says what happened.
  }
}

/**
 * Errors that stdout and stderr emit asynchronously, after the command's own code has
 * returned: EPIPE when the reader closed the pipe exits quietly (the reader took what it
 * wanted, as with `head`: status 0, or the one the command had set); anything else (ENOSPC on `> /dev/full`) is one line and
 * status 2. Call once per process, from the entry point.
 */
export function guardStandardStreams(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // A command that already chose its status (`check` found an inconsistency: 1) keeps it.
    if (isBrokenPipe(err)) process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    writeStderr(`stopwatches: ${fsErrorLine(err, 'standard output') ?? `standard output: ${err.message}`}\n`);
    process.exit(2);
  });
  process.stderr.on('error', () => {
    // Nowhere left to report to; end with the status the command chose.
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 2);
  });
}
