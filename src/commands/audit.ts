/**
 * `stopwatches audit FILE… [--format F] [--entry N] [--json] [--html OUT]`: the paper's
 * pitfalls judged on the user's own result files (src/audit/). Each file is
 * read once and recognised once, as `stopwatches metrics` reads it; a file
 * holding several runs is audited run by run (each entry read again: the
 * file is streamed, not held). The exit status is 0 whatever
 * the audit finds; a file that cannot be read is one line and status 2.
 * --html writes the findings, the clauses and the figures as one
 * self-contained page (src/audit/html.ts), atomically.
 */
import type { Command } from 'commander';
import { fsErrorLine, UserError } from '../errors.ts';
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
    .option('--html <out.html>', 'also write one self-contained page (no network, opens from file://) with the findings, the clauses and the figures; a section per run')
    .addHelpText('after', HELP_AFTER)
    .action(async (files: string[], opts: { format?: string; entry?: number; json?: boolean; html?: string }) => {
      const { loadImported } = await import('../importers/load.ts');
      const { formatAudit } = await import('../audit/index.ts');
      const { auditFile } = await import('../audit/file.ts');
      const audited = [];
      const { readingProgress } = await import('./reading-progress.ts');
      for (const file of files) {
        const progress = readingProgress('audit', file);
        audited.push(...(await auditFile(file, (entry) => loadImported(file, { format: opts.format, entry: entry ?? opts.entry }, progress), opts.entry)));
      }
      const reports = audited.map((a) => a.report);
      if (opts.html !== undefined) {
        const { auditPage } = await import('../audit/html.ts');
        const { writeFileAtomic } = await import('../fs/atomic.ts');
        const { parseHTML } = await import('linkedom');
        const { document } = parseHTML('<!doctype html><html><body></body></html>');
        const page = auditPage(audited, document as unknown as Document);
        try {
          await writeFileAtomic(opts.html, page);
        } catch (err) {
          throw new UserError(`cannot write the page: ${fsErrorLine(err, opts.html) ?? `${opts.html}: ${(err as Error).message}`}`);
        }
      }
      if (opts.json) {
        process.stdout.write(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 1) + '\n');
        return;
      }
      process.stdout.write(reports.map(formatAudit).join('\n'));
    });
}
