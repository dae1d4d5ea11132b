/**
 * `stopwatches metrics FILE --to br-v0.2.1 OUT`: the I/O around the llm-d
 * report writer (src/tools/llm-d/writer.ts), with the audit's findings in its
 * profiling metadata. The report is built and checked
 * against the schema's rules before anything is written; OUT is replaced
 * atomically (temp file, fsync, rename), and only if it is a regular file or
 * does not exist yet, never the input itself.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fsErrorLine, UserError } from '../errors.ts';
import { writeFileAtomicSync } from '../fs/atomic.ts';
import { sha256File } from '../fs/hash.ts';
import type { MetricsInput } from '../importers/metrics-input.ts';
import { auditRun } from '../audit/index.ts';
import { benchmarkReport, serializeReport } from '../tools/llm-d/writer.ts';

/** Writes the report and returns the line to print. */
export function writeBenchmarkReport(file: string, out: string, input: MetricsInput): string {
  const as = /\.ya?ml$/i.test(out) ? 'yaml' : /\.json$/i.test(out) ? 'json' : null;
  if (as === null) throw new UserError(`${out}: name the report .yaml, .yml or .json (the benchmark report is written as YAML or JSON)`);
  if (input.run.records.length === 0) {
    throw new UserError(`${file}: holds no per-request records, so there is nothing to recompute; --to br-v0.2.1 writes a recomputation (give the tool’s per-request file)`);
  }
  let st;
  try {
    st = lstatSync(out);
  } catch {
    st = null;
  }
  if (st && !st.isFile()) throw new UserError(`${out}: is not a regular file (${st.isDirectory() ? 'a directory' : st.isSymbolicLink() ? 'a symbolic link' : 'a device, pipe or socket'}); give the path of a file to write`);
  if (st && realpathSync(out) === realpathSync(resolve(file))) throw new UserError(`${out}: is the input file; give another path for the report`);
  const report = benchmarkReport(input, { name: file, sha256: sha256File(file) }, auditRun(file, input.format, input.imported));
  try {
    writeFileAtomicSync(out, serializeReport(report, as), { ...(st ? { mode: st.mode } : {}), syncDir: true });
  } catch (err) {
    throw new UserError(`cannot write the report: ${fsErrorLine(err, out) ?? `${out}: ${(err as Error).message}`}`);
  }
  const n = input.run.records.length;
  return `wrote ${out}: llm-d Benchmark Report v0.2.1 of ${n} request${n === 1 ? '' : 's'} (${report.run.description})`;
}
