/**
 * `stopwatches metrics FILE [--format F] [--json]`: every tool's definition
 * applied to the same run, side by side, with units and sample sizes. FILE is
 * the output of `stopwatches simulate CASE.json --tokens` or a real tool's
 * result file (format detected, or named with --format); definitions the file
 * cannot support are listed with the reason instead of a number.
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
    .argument('<file>', 'a result file: `stopwatches simulate --tokens` output, or vLLM, AIPerf, GuideLLM, LLMPerf, SGLang or MLPerf results')
    .option('--format <name>', 'stopwatches, vllm, aiperf, guidellm, llmperf, sglang, mlperf-detail or mlperf-trace (default: detected)')
    .option('--entry <n>', 'which run of a file that holds several (0-based)')
    .option('--json', 'print JSON rows instead of a table')
    .option('--llama2-inflation <ratio>', 'Llama-2 ÷ model tokens for LLMPerf\u2019s counts (measured by the tokens experiment)', positive('--llama2-inflation'))
    .option('--llmperf-extra-messages <k>', 'SSE messages per request LLMPerf counts that carry no content (default 1: the role chunk)')
    .option('--ttft-deadline <s>', 'Etalon TTFT deadline, seconds', positive('--ttft-deadline'))
    .option('--tbt-deadline <s>', 'Etalon time-between-tokens deadline, seconds', positive('--tbt-deadline'))
    .action(async (file: string, opts: { format?: string; entry?: string; json?: boolean; llama2Inflation?: number; llmperfExtraMessages?: string; ttftDeadline?: number; tbtDeadline?: number }) => {
      const { loadMetricsInput, markUnsupported } = await import('../importers/for-metrics.ts');
      const { metricsReport, formatReport } = await import('../metrics/report.ts');
      let entry: number | undefined;
      if (opts.entry !== undefined) {
        entry = Number(opts.entry);
        if (!Number.isInteger(entry) || entry < 0) throw new UserError(`--entry must be a whole number ≥ 0, got "${opts.entry}"`);
      }
      const input = await loadMetricsInput(file, { format: opts.format, entry });
      const run = input.run;
      if (run.records.length > 0 && run.records.every((r) => !r.ok)) throw new UserError(`${file}: no request produced a token`);
      let extra: number | undefined;
      if (opts.llmperfExtraMessages !== undefined) {
        extra = Number(opts.llmperfExtraMessages);
        if (!Number.isInteger(extra) || extra < 0) throw new UserError(`--llmperf-extra-messages must be a whole number ≥ 0, got "${opts.llmperfExtraMessages}"`);
      }
      if ((opts.ttftDeadline === undefined) !== (opts.tbtDeadline === undefined)) {
        throw new UserError('give both --ttft-deadline and --tbt-deadline for Etalon\u2019s fluidity index');
      }
      const rows = run.records.length === 0 ? [] : markUnsupported(metricsReport(run, {
        llama2Inflation: opts.llama2Inflation ?? null,
        llmperfNonContentMessages: extra,
        etalon: opts.ttftDeadline !== undefined && opts.tbtDeadline !== undefined ? { ttftS: opts.ttftDeadline, tbtS: opts.tbtDeadline } : null,
      }), input);
      if (opts.json) {
        const { format, missing, notes, reported } = input;
        process.stdout.write(JSON.stringify({ source: run.source, format, requests: run.records.length, missing, notes, reported, rows }, null, 1) + '\n');
      } else {
        let out = `${run.source} (${input.format}): ${run.records.length} requests\n`;
        if (rows.length) out += formatReport(rows);
        if (input.reported && Object.keys(input.reported).length) {
          out += '\nWhat the tool itself reported:\n';
          for (const [k, v] of Object.entries(input.reported)) out += `  ${k.padEnd(40)} ${String(+v.value.toPrecision(6)).padStart(12)} ${v.unit}\n`;
        }
        for (const m of input.missing) out += `cannot compute: ${m}\n`;
        for (const n of input.notes) out += `note: ${n}\n`;
        process.stdout.write(out);
      }
    });
}
