import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { UserError } from '../errors.ts';

/**
 * `stopwatches simulate CASE.json [--out RESULT.json] [--tokens] [--steps]`: replay a case
 * file (the golden schema: config, client, workload; `expected` is ignored) and write the
 * result in the shape of `expected`. Output goes to a temp file renamed into place, so a
 * failure never leaves a partial file.
 */
export function register(program: Command): void {
  program
    .command('simulate')
    .description('simulate one benchmark run described by a case file (golden-case schema)')
    .argument('<case>', 'case file: {config, client, workload} as in test/fixtures/golden')
    .option('--out <file>', 'write the result here instead of stdout')
    .option('--tokens', 'add requests.token_times: every output token time per request')
    .option('--steps', 'add step_trace: one row per engine step')
    .action(async (file: string, opts: { out?: string; tokens?: boolean; steps?: boolean }) => {
      const { caseFromJson, resultToJson } = await import('../sim/case.ts');
      const { runEngine, SimulationError } = await import('../sim/engine.ts');

      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UserError(`${file}: ${readProblem(err)}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw new UserError(`${file}: not valid JSON (${(err as Error).message.split('\n')[0]})`);
      }
      const c = caseFromJson(json, file); // validates everything runEngine assumes
      let result;
      try {
        result = runEngine(c.cfg, c.workload, c.client, { recordTokens: !!opts.tokens, recordSteps: !!opts.steps });
      } catch (err) {
        if (err instanceof SimulationError) throw new UserError(`${file}: ${err.message}`);
        throw err;
      }
      const body = JSON.stringify(resultToJson(result, { tokens: opts.tokens, steps: opts.steps })) + '\n';
      if (opts.out) writeAtomic(opts.out, body);
      else process.stdout.write(body);
    });
}

function readProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file; check the path';
  if (code === 'EISDIR') return 'is a directory; give a case file';
  if (code === 'EACCES') return 'cannot be read (permission denied)';
  return `cannot be read (${(err as Error).message})`;
}

/** Write to a temp file beside the target, then rename: readers never see a partial file. */
function writeAtomic(target: string, body: string): void {
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, body);
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new UserError(`${target}: cannot write the result (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the --out path`);
  }
}
