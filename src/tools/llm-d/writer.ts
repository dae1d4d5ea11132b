/**
 * Our recomputation of a run, as an llm-d Benchmark Report v0.2.1, so that
 * users of llm-d's tools get recomputed, checked numbers in the format they
 * already read. The report's latency fields carry inference-perf's names
 * (time_to_first_token, normalized_time_per_output_token, …), so they are
 * filled with inference-perf's definitions (src/tools/inference-perf/), of the
 * version the reader found where the file is inference-perf's own; throughput
 * divides by inference-perf's total time (last end − first start). Which file,
 * which definitions and how the file's own aggregates agreed go into the
 * report's free-form `results.profiling` under `stopwatches`.
 *
 * Pure: the command layer reads the file, hashes it, writes the result.
 */
import { stringify } from 'yaml';
import { successful } from '../base/definitions.ts';
import type { Agreement, Capability, ImportResult } from '../base/result.ts';
import {
  DEFAULT_PERCENTS,
  DEFAULT_VERSION,
  inferencePerfItls,
  inferencePerfNtpot,
  inferencePerfRequestLatency,
  inferencePerfSummarize,
  inferencePerfTotalTime,
  inferencePerfTpot,
  inferencePerfTtft,
  type InferencePerfVersion,
} from '../inference-perf/definitions.ts';
import { brProblem, type BenchmarkReportV021, type BrStatistics, type BrUnit } from './schema.ts';

/**
 * The audit's findings on the run (src/audit, `stopwatches audit`), placed in
 * the report's free-form profiling metadata beside our numbers, so a reader of
 * the report sees the pitfalls with the recomputation. Typed loosely here: the
 * audit sits above the tools, and the report only carries what it is given.
 */
export interface AuditFindings {
  findings: readonly { id: string; verdict: string; message: string; numbers: Readonly<Record<string, unknown>> }[];
  clauses: Readonly<Record<string, string>>;
}

export interface ReportSource {
  /** The file's name as given (its base name goes into the report: no machine paths). */
  name: string;
  sha256: string;
}

/** `summarize` keys → Statistics keys (`p0.1` → `p0p1`, `median` → `p50`). */
function toStatistics(s: Record<string, number> | null, units: BrUnit): BrStatistics | undefined {
  if (!s) return undefined;
  const out: Record<string, number | string> = { units };
  for (const [k, v] of Object.entries(s)) out[k === 'median' ? 'p50' : k.replace('.', 'p')] = v;
  return out as BrStatistics;
}

const rate = (mean: number, units: BrUnit): BrStatistics => ({ units, mean });

function agreementLines(a: readonly Agreement[]) {
  return a.map((x) => ({ key: x.key, file: x.reported, recomputed: x.recomputed, unit: x.unit, rel_diff: x.relDiff, ...(x.reason ? { reason: x.reason } : {}) }));
}

/** What the writer reads of an imported file (ImportResult and the metrics command's input both have it). */
export type ReportInput = Pick<ImportResult, 'run' | 'format' | 'version' | 'definitions' | 'missing' | 'notes' | 'lacks'> & { agreement: readonly Agreement[] };

/**
 * What each field of the report reads from a run (as the metrics report's
 * rows declare it): a field the file cannot support is left out and listed
 * under `profiling.stopwatches.not_written`, never filled with a stand-in.
 */
const NEEDS: Record<string, Capability[]> = {
  'requests.input_length': ['records', 'inputTokens'],
  'requests.output_length': ['records', 'outputTokens'],
  'latency.time_to_first_token': ['records', 'firstToken', 'chunkTimes'],
  'latency.normalized_time_per_output_token': ['records', 'outputTokens'],
  'latency.time_per_output_token': ['records', 'firstToken', 'lastToken', 'chunkTimes', 'outputTokens'],
  'latency.inter_token_latency': ['records', 'chunkTimes'],
  'latency.request_latency': ['records'],
  // inference-perf divides by last end − first start, which needs every request on one clock
  throughput: ['records', 'timeline', 'runWindow'],
};

export function benchmarkReport(res: ReportInput, source: ReportSource, audit: AuditFindings): BenchmarkReportV021 {
  const run = res.run;
  const ok = successful(run);
  const fromInferencePerf = res.definitions?.['inference-perf'] as InferencePerfVersion | undefined;
  const version = fromInferencePerf ?? DEFAULT_VERSION;
  const vals = (xs: { value: number | null }[]) => xs.flatMap((m) => (m.value === null ? [] : [m.value]));
  const sum = (xs: number[]) => inferencePerfSummarize(xs, DEFAULT_PERCENTS);
  const T = inferencePerfTotalTime(run);
  const inTok = ok.reduce((a, r) => a + r.inputTokens, 0);
  const outTok = ok.reduce((a, r) => a + (r.outputTokens ?? 0), 0);
  // a rate is written only from counts the file has for every request
  const hasIn = Number.isFinite(inTok);
  const hasOut = ok.every((r) => r.outputTokens !== null);
  const throughput = T !== null && T > 0
    ? {
        ...(hasIn ? { input_token_rate: rate(inTok / T, 'tokens/s') } : {}),
        ...(hasOut ? { output_token_rate: rate(outTok / T, 'tokens/s') } : {}),
        ...(hasIn && hasOut ? { total_token_rate: rate((inTok + outTok) / T, 'tokens/s') } : {}),
        request_rate: rate(ok.length / T, 'queries/s'),
      }
    : undefined;
  const base = source.name.split(/[\\/]/).pop()!;
  const report: BenchmarkReportV021 = {
    version: '0.2.1',
    run: {
      uid: source.sha256.slice(0, 32),
      description: `stopwatches' recomputation of ${base} (${res.version})`,
      keywords: ['stopwatches', 'recomputed', res.format],
    },
    results: {
      request_performance: {
        aggregate: {
          requests: {
            total: run.records.length,
            failures: run.records.length - ok.length,
            input_length: toStatistics(sum(ok.map((r) => r.inputTokens).filter(Number.isFinite)), 'count'),
            output_length: toStatistics(sum(ok.flatMap((r) => (r.outputTokens === null ? [] : [r.outputTokens]))), 'count'),
          },
          latency: {
            time_to_first_token: toStatistics(sum(vals(ok.map(inferencePerfTtft))), 's'),
            normalized_time_per_output_token: toStatistics(sum(vals(ok.map(inferencePerfNtpot))), 's/token'),
            time_per_output_token: toStatistics(sum(vals(ok.map((r) => inferencePerfTpot(r, version)))), 's/token'),
            inter_token_latency: toStatistics(sum(ok.flatMap(inferencePerfItls)), 's/token'),
            request_latency: toStatistics(sum(vals(ok.map(inferencePerfRequestLatency))), 's'),
          },
          ...(throughput ? { throughput } : {}),
        },
      },
      profiling: {
        stopwatches: {
          source: { file: base, sha256: source.sha256, format: res.format, version: res.version },
          definitions: `inference-perf reportgen/base.py summarize_requests, ${version === 'chunks' ? 'chunk-based TPOT (to v0.4.0)' : 'token-based TPOT (v0.5.0 on)'}${fromInferencePerf ? ', the version that wrote the file' : ''}`,
          agreement: agreementLines(res.agreement),
          missing: res.missing,
          notes: res.notes,
          audit: { findings: audit.findings, clauses: audit.clauses },
        },
      },
    },
  };
  const notWritten: Record<string, string> = {};
  const agg = report.results.request_performance!.aggregate! as Record<string, Record<string, unknown> | undefined>;
  for (const [field, needs] of Object.entries(NEEDS)) {
    const lack = needs.find((c) => res.lacks.includes(c));
    if (!lack) continue;
    const [part, key] = field.split('.');
    if (key === undefined) delete agg[part];
    else if (agg[part]) delete agg[part]![key];
    notWritten[field] = `the file lacks ${lack}`;
  }
  (report.results.profiling as { stopwatches: Record<string, unknown> }).stopwatches.not_written = notWritten;
  dropUndefined(report);
  const problem = brProblem(report);
  // our own output breaking the schema is a defect here, not the user's input
  if (problem) throw new Error(`the benchmark report stopwatches built breaks the v0.2.1 schema at ${problem}`);
  return report;
}

function dropUndefined(o: unknown): void {
  if (typeof o !== 'object' || o === null) return;
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) delete (o as Record<string, unknown>)[k];
    else dropUndefined(v);
  }
}

/** The report as YAML (`.yaml`/`.yml`) or JSON (anything else ending in `.json`). */
export function serializeReport(report: BenchmarkReportV021, as: 'yaml' | 'json'): string {
  return as === 'json' ? `${JSON.stringify(report, null, 2)}\n` : stringify(report, { lineWidth: 0 });
}
