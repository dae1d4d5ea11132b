/**
 * `stopwatches metrics RESULT.json [--json]`: every tool's definition applied
 * to the same run, side by side, with units and sample sizes. RESULT.json is
 * the output of `stopwatches simulate CASE.json --tokens`; the reading step is
 * one function (`readRunFile`) so importers for real tools' files can replace it.
 */
import type { Command } from 'commander';
import { UserError } from '../errors.ts';

function positive(name: string) {
  return (v: string): number => {
    const x = Number(v);
    if (!(x > 0) || !Number.isFinite(x)) throw new UserError(`${name} must be a positive number, got "${v}"`);
    return x;
  };
}

export function register(program: Command): void {
  program
    .command('metrics')
    .description('apply every tool\u2019s metric definitions to one run and print them side by side')
    .argument('<result>', 'output of `stopwatches simulate CASE.json --tokens`')
    .option('--json', 'print JSON rows instead of a table')
    .option('--llama2-inflation <ratio>', 'Llama-2 ÷ model tokens for LLMPerf\u2019s counts (measured by the tokens experiment)', positive('--llama2-inflation'))
    .option('--llmperf-extra-messages <k>', 'SSE messages per request LLMPerf counts that carry no content (default 1: the role chunk)')
    .option('--ttft-deadline <s>', 'Etalon TTFT deadline, seconds', positive('--ttft-deadline'))
    .option('--tbt-deadline <s>', 'Etalon time-between-tokens deadline, seconds', positive('--tbt-deadline'))
    .action(async (file: string, opts: { json?: boolean; llama2Inflation?: number; llmperfExtraMessages?: string; ttftDeadline?: number; tbtDeadline?: number }) => {
      const { readRunFile } = await import('../metrics/read.ts');
      const { metricsReport, formatReport } = await import('../metrics/report.ts');
      const run = readRunFile(file);
      if (run.records.every((r) => !r.ok)) throw new UserError(`${file}: no request produced a token`);
      let extra: number | undefined;
      if (opts.llmperfExtraMessages !== undefined) {
        extra = Number(opts.llmperfExtraMessages);
        if (!Number.isInteger(extra) || extra < 0) throw new UserError(`--llmperf-extra-messages must be a whole number ≥ 0, got "${opts.llmperfExtraMessages}"`);
      }
      if ((opts.ttftDeadline === undefined) !== (opts.tbtDeadline === undefined)) {
        throw new UserError('give both --ttft-deadline and --tbt-deadline for Etalon\u2019s fluidity index');
      }
      const rows = metricsReport(run, {
        llama2Inflation: opts.llama2Inflation ?? null,
        llmperfNonContentMessages: extra,
        etalon: opts.ttftDeadline !== undefined && opts.tbtDeadline !== undefined ? { ttftS: opts.ttftDeadline, tbtS: opts.tbtDeadline } : null,
      });
      if (opts.json) {
        process.stdout.write(JSON.stringify({ source: run.source, requests: run.records.length, rows }, null, 1) + '\n');
      } else {
        process.stdout.write(`${run.source}: ${run.records.length} requests\n` + formatReport(rows));
      }
    });
}
