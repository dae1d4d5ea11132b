/**
 * `stopwatches audit FILE… [--format F] [--entry N] [--json]`: the paper's
 * pitfalls judged on the user's own result files (src/audit/). Each file is
 * read once and recognised once, as `stopwatches metrics` reads it; a file
 * holding several runs is audited run by run (each entry read again: the
 * file is streamed, not held). The exit status is 0 whatever
 * the audit finds; a file that cannot be read is one line and status 2.
 */
import type { Command } from 'commander';
import { numberOption } from './options.ts';

const HELP_AFTER = `
Findings (each warn, ok, or unknown with the reason the file cannot tell):
  first-wave    requests sent together at the start, and how much they move each printed TTFT percentile
  client-queue  waits in the client before the clock starts (a cap with a rate), from the due times where the file has them
  sample-size   each printed percentile's n, its 95% order-statistic interval, and n after correlation
  window        whole-run throughput against the steady window (first completion to last send)
  steady-state  a queue growing through the run (TTFT or in-flight count, first half against second)
  metronome     fixed lengths in a closed loop: cohorts that phase-lock the run
  littles-law   requests in flight from the file against the concurrency the run claims
  tokens        whose tokenizer counted, server against client counts, reasoning tokens
  errors        failed or cancelled requests left out of the percentiles, and how far they could move them
Then the clauses to write next to every number from the run.
--json prints { file, format, findings: [{ id, verdict, message, numbers }], clauses } for one run, an array for several.`;

export function register(program: Command): void {
  program
    .command('audit')
    .description('check a benchmark result file for the paper\u2019s pitfalls (first wave, client queue, sample size, windows, …)')
    .argument('<files...>', 'result files: anything `stopwatches metrics` reads')
    .option('--format <name>', 'read every file as this format (default: detected per file)')
    .option('--entry <n>', 'which run of a file that holds several (0-based; without it, every readable run)', numberOption('--entry', { min: 0, max: 1e6, integer: true }))
    .option('--json', 'print the findings and clauses as JSON')
    .addHelpText('after', HELP_AFTER)
    .action(async (files: string[], opts: { format?: string; entry?: number; json?: boolean }) => {
      const { loadImported } = await import('../importers/load.ts');
      const { auditRun, formatAudit } = await import('../audit/index.ts');
      const reports = [];
      for (const file of files) {
        const res = await loadImported(file, opts);
        if (res.runs && opts.entry === undefined) {
          for (const r of res.runs) {
            if (r.unreadable) continue;
            const one = await loadImported(file, { format: opts.format, entry: r.index });
            reports.push(auditRun(`${file} [--entry ${r.index}]`, one.format, one));
          }
        } else {
          reports.push(auditRun(file, res.format, res));
        }
      }
      if (opts.json) {
        process.stdout.write(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 1) + '\n');
        return;
      }
      process.stdout.write(reports.map(formatAudit).join('\n'));
    });
}
