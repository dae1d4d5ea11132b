/**
 * `stopwatches metrics FILE [--format F] [--entry N] [--json]`: every tool's
 * definition applied to the same run, grouped by quantity with the tools side
 * by side, the file's own aggregates beside our recomputation (agreement), and
 * what the file cannot support folded into one line per reason. FILE is the
 * output of `stopwatches simulate CASE.json --tokens` or a real tool's result
 * file (format detected, or named with --format).
 *
 * One way through: the file's text is read once (importers/load.ts), its
 * format recognised once over the registry, its reader gives the run and the
 * tool's own aggregates, every tool's definitions make the report, and this
 * prints it.
 */
import { Option, type Command } from 'commander';
import { UserError } from '../errors.ts';
import { numberOption } from './options.ts';
import { readingProgress } from './reading-progress.ts';
import { terminalText } from '../format/text.ts';
import type { Reported } from '../tools/base/result.ts';

const fmt = (v: number): string => String(+v.toPrecision(6));

/** Whole numbers (ns latencies, token counts) with every digit; others to 6 significant digits. */
const exactish = (v: number): string => (Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : fmt(v));

/** A reported aggregate as its writer wrote it: the exact digits, or the number in the unit it was computed in. */
function asWritten(v: Reported): { text: string; unit: string } {
  if (v.exact !== undefined) return { text: v.exact, unit: v.unit };
  if (v.written) return { text: exactish(v.written.value), unit: v.written.unit };
  return { text: exactish(v.value), unit: v.unit };
}

/** `= 0.111236 s` beside a number whose written unit is not SI; '' otherwise. */
const siBeside = (v: Reported): string => (v.written && v.exact === undefined ? `  = ${fmt(v.value)} ${v.unit}` : '');

type Formats = (typeof import('../tools/registry.ts'))['FORMATS'];

/** `a, b or c`: every --format value, in the registry's order. */
function formatIds(formats: Formats): string {
  const ids = formats.map((f) => f.id);
  return `${ids.slice(0, -1).join(', ')} or ${ids[ids.length - 1]}`;
}

export function register(program: Command): void {
  const format = new Option('--format <name>');
  let formats: Formats = [];
  const command = program.command('metrics');
  // The formats are the tools registry's (every reader, and zod under them): loaded when `metrics` is
  // dispatched, to run or to show its help (src/cli.ts: `help metrics` too), not at every start of
  // the CLI, where they cost half a second of CPU.
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub !== command) return;
    formats = (await import('../tools/registry.ts')).FORMATS;
    format.description = `${formatIds(formats)} (default: detected)`;
  });
  command
    .description('apply every tool\u2019s metric definitions to one run and print them side by side')
    .argument('<file>', 'a result file: `stopwatches simulate --tokens` output, or a benchmark tool\u2019s results (see --format)')
    .argument('[out]', 'with --to: the file to write (.yaml, .yml or .json)')
    .addOption(format)
    .option('--entry <n>', 'which run of a file that holds several (0-based; without it, all runs side by side)', numberOption('--entry', { min: 0, max: 1e6, integer: true }))
    .option('--json', 'print everything as JSON (rows, agreement, reported aggregates, runs)')
    .option('--with <records>', 'for an aggregate-only file (an InferenceX result): the per-request records of the same run (AIPerf’s profile_export.jsonl), to check its aggregates against')
    .addHelpText('after', () => `\nFormats read (--format; by default the content tells):\n${formats.map((f) => `  ${f.id}: ${f.description}`).join('\n')}\n`)
    .option('--to <format>', 'write the recomputation to OUT instead of printing it: br-v0.2.1 (an llm-d Benchmark Report v0.2.1)')
    .option('--llama2-inflation <ratio>', 'Llama-2 ÷ model tokens for LLMPerf\u2019s counts (measured by the tokens experiment), 0.5 to 3', numberOption('--llama2-inflation', { min: 0.5, max: 3 }))
    .option('--llmperf-extra-messages <k>', 'SSE messages per request LLMPerf counts that carry no content, 0 to 8 (default 1: the role chunk)', numberOption('--llmperf-extra-messages', { min: 0, max: 8, integer: true }))
    .option('--ttft-deadline <s>', 'Etalon TTFT deadline, seconds (up to 600)', numberOption('--ttft-deadline', { min: 0, max: 600, above: true }))
    .option('--tbt-deadline <s>', 'Etalon time-between-tokens deadline, seconds (up to 60)', numberOption('--tbt-deadline', { min: 0, max: 60, above: true }))
    .action(async (file: string, target: string | undefined, opts: { format?: string; entry?: number; json?: boolean; with?: string; to?: string; llama2Inflation?: number; llmperfExtraMessages?: number; ttftDeadline?: number; tbtDeadline?: number }) => {
      const { FORMATS, formatById } = await import('../tools/registry.ts');
      if (opts.to !== undefined && opts.to !== 'br-v0.2.1') throw new UserError(`unknown --to ${JSON.stringify(opts.to)}; supported: br-v0.2.1 (an llm-d Benchmark Report v0.2.1)`);
      if (opts.to !== undefined && target === undefined) throw new UserError('--to br-v0.2.1 needs the file to write: stopwatches metrics FILE --to br-v0.2.1 OUT.yaml');
      if (opts.to === undefined && target !== undefined) throw new UserError(`${target}: a second file is only taken with --to br-v0.2.1 (write an llm-d benchmark report there)`);
      const { loadMetricsInput } = await import('../importers/load.ts');
      const { markUnsupported } = await import('../importers/metrics-input.ts');
      const { metricsReport, formatGrouped } = await import('../metrics/report.ts');
      if ((opts.ttftDeadline === undefined) !== (opts.tbtDeadline === undefined)) {
        throw new UserError('give both --ttft-deadline and --tbt-deadline for Etalon\u2019s fluidity index');
      }
      const input = await loadMetricsInput(file, { format: opts.format, entry: opts.entry }, readingProgress('metrics', file));
      if (opts.with !== undefined) {
        const check = formatById(input.format)!.agreementWith;
        if (!check || !input.reported) throw new UserError(`--with: ${file} (--format ${input.format}) is not checked against another file’s records; --with is for aggregate-only files of: ${FORMATS.filter((f) => f.agreementWith).map((f) => f.id).join(', ')}`);
        const rec = await loadMetricsInput(opts.with, {});
        if (!check.recordFormats.includes(rec.format) || rec.run.records.length === 0) {
          throw new UserError(`${opts.with}: --with needs the per-request records of the same run (${check.recordFormats.join(', ')}); this file is --format ${rec.format}${rec.run.records.length === 0 ? ' without per-request records' : ''}`);
        }
        input.agreement = check.check(input.reported, rec.run);
        input.notes.push(`the agreement table recomputes this file’s aggregates from ${opts.with} (${rec.version}, ${rec.run.records.length} records) with the definitions ${input.format} applies`);
      }
      const run = input.run;
      // counts that are Llama 2 counts already are LLMPerf's own: inflating them again would count twice
      const llama2Counts = input.outputTokenizer === 'llama-2';
      if (llama2Counts && opts.llama2Inflation !== undefined) {
        throw new UserError(`${file}: --llama2-inflation does not apply: the token counts of ${formatById(input.format)!.nameInSentence} are LLMPerf\u2019s own Llama 2 tokenizer counts already, which its numbers use as they are (the option converts a model\u2019s tokens into Llama 2 tokens); leave --llama2-inflation out`);
      }
      const rows = run.records.length === 0 ? [] : markUnsupported(metricsReport(run, {
        llama2Inflation: llama2Counts ? 1 : opts.llama2Inflation ?? null,
        countsAreLlmperfs: llama2Counts,
        llmperfNonContentMessages: opts.llmperfExtraMessages,
        etalon: opts.ttftDeadline !== undefined && opts.tbtDeadline !== undefined ? { ttftS: opts.ttftDeadline, tbtS: opts.tbtDeadline } : null,
        definitions: input.definitions,
        guidellmRequests: input.lacks.includes('timeline') ? 'all' : 'window',
      }), input);
      const ok = run.records.filter((r) => r.ok).length;
      if (opts.to !== undefined && target !== undefined) {
        const { writeBenchmarkReport } = await import('./metrics-to.ts');
        process.stdout.write(writeBenchmarkReport(file, target, input) + '\n');
        return;
      }
      if (opts.json) {
        const { format, version, missing, notes, reported, failures, agreement, runs, completed } = input;
        process.stdout.write(JSON.stringify({ source: run.source, format, version, requests: run.records.length, successful: ok, ...(completed ? { completed } : {}), failures, missing, notes, reported, agreement, ...(runs ? { runs } : {}), rows }, null, 1) + '\n');
        return;
      }
      const failed = Object.entries(input.failures);
      let out = `${file}\n  ${input.version} (--format ${input.format})\n`;
      const count = input.runs ? `${input.runs.length} runs, their own aggregates side by side` : run.records.length === 0 && input.completed
        ? `aggregates only: ${input.completed.value} ${input.completed.unit} completed (the file’s ${input.completed.key})`
        : run.records.length === 0 ? 'aggregates only: no per-request records' : `${run.records.length} requests, ${ok} successful`;
      out += `  ${count}${failed.length ? `; failed: ${failed.map(([k, v]) => `${v} × ${k}`).join(', ')}` : ''}\n\n`;
      if (rows.length) out += formatGrouped(rows) + '\n';
      if (input.agreement.length) {
        out += opts.with !== undefined
          ? `The file’s own aggregates vs recomputed from ${opts.with} (the same run’s records, the file’s definitions):\n`
          : 'The file’s own aggregates vs recomputed from its per-request data (same definition, same version):\n';
        const w = Math.max(...input.agreement.map((a) => a.key.length));
        out += `  ${'key'.padEnd(w)}  ${'file'.padStart(12)}  ${'recomputed'.padStart(12)}  ${'unit'.padEnd(8)} ${'diff'.padStart(7)}\n`;
        for (const a of input.agreement) {
          // times in ms, as the tools print them (--json keeps seconds)
          const k = a.unit === 's' ? 1000 : 1;
          const rec = a.recomputed === null ? '—' : fmt(a.recomputed * k);
          const rd = a.relDiff === null ? '' : `${(a.relDiff * 100).toFixed(2)}%`;
          out += `  ${a.key.padEnd(w)}  ${fmt(a.reported * k).padStart(12)}  ${rec.padStart(12)}  ${(a.unit === 's' ? 'ms' : a.unit).padEnd(8)} ${rd.padStart(7)}${a.reason ? `  ${a.reason}` : ''}\n`;
        }
        out += '\n';
      }
      if (input.runs) {
        out += `Runs in this file (own aggregates; --entry N recomputes one):\n`;
        const keys = [...new Set(input.runs.flatMap((r) => Object.keys(r.reported)))];
        for (const r of input.runs) out += `  [${r.index}] ${r.label}${r.unreadable ? ` — cannot be read: ${r.unreadable}` : ''}\n`;
        const w = Math.max(0, ...keys.map((k) => k.length));
        for (const k of keys) {
          const unit = asWritten(input.runs.find((r) => r.reported[k])!.reported[k]).unit;
          out += `  ${k.padEnd(w)}  ${input.runs.map((r) => (r.reported[k] ? asWritten(r.reported[k]).text : '—').padStart(12)).join('')}  ${unit}\n`;
        }
        out += '\n';
      } else if (run.records.length === 0 && input.reported && Object.keys(input.reported).length) {
        out += 'What the tool itself reported (as written, in the unit its writer computed it in; SI beside where that differs):\n';
        const w = Math.max(...Object.keys(input.reported).map((k) => k.length));
        for (const [k, v] of Object.entries(input.reported)) {
          const { text, unit } = asWritten(v);
          out += `  ${k.padEnd(w)}  ${text.padStart(20)} ${unit}${siBeside(v)}\n`;
        }
        out += '\n';
      }
      for (const m of input.missing) out += `cannot compute: ${m}\n`;
      for (const n of input.notes) out += `note: ${n}\n`;
      process.stdout.write(terminalText(out));
    });
}
