/**
 * AIPerf's `profile_export_aiperf.csv` (MetricsCsvExporter,
 * src/aiperf/exporters/metrics_csv_exporter.py @309c4e8), and GenAI-Perf's
 * `profile_export_genai_perf.csv`, AIPerf's predecessor (triton-inference-server
 * client, src/c++/perf_analyzer/genai-perf, 0.0.x), which has the same shape.
 *
 * Blocks separated by blank lines: `Metric,avg,min,max,…` rows (metrics with
 * percentiles), then `Metric,Value` rows (one value each: AIPerf writes the
 * metric's avg), then, in AIPerf 0.8, a GPU-telemetry table. Each metric is
 * named in words with its unit in trailing parentheses (`Time to First Token
 * (ms)`); AIPerf leaves the unit out when it is `count` or `requests`
 * (`_format_metric_name`), and writes every float with two decimals
 * (`_format_number`), so small values lose their digits (0.04 requests/sec).
 * Aggregates only: nothing can be recomputed.
 */
import type { ResultInput } from '../base/input.ts';
import { csvBlocks, nameAndUnit, snakeKey, type CsvBlock } from '../base/csv.ts';
import { Reader, reportedOf, type KeyUnit } from '../base/reading.ts';
import type { ImportOptions, Imported, Recognition, Reported } from '../base/result.ts';
import { AIPERF_SOURCE } from './reader.ts';

/** Units written in the two exporters' metric names, to SI; the written unit is kept. */
const CSV_UNITS: Record<string, KeyUnit> = {
  ms: { scale: 1e-3, unit: 's', written: 'ms' },
  ns: { scale: 1e-9, unit: 's', written: 'ns' },
  us: { scale: 1e-6, unit: 's', written: 'us' },
  sec: { scale: 1, unit: 's' },
  tokens: { scale: 1, unit: 'tokens' },
  'requests/sec': { scale: 1, unit: '1/s' },
  'tokens/sec': { scale: 1, unit: 'tokens/s' },
  'tokens/sec/user': { scale: 1, unit: 'tokens/s per user' },
  ratio: { scale: 1, unit: '1' },
  '%': { scale: 1, unit: '%' },
  KB: { scale: 1, unit: 'KB' },
};

/** A name without a unit: AIPerf dropped `requests` or `count`; which one is told by the metric (chunks are counted, the rest are requests). */
function unitless(name: string): KeyUnit {
  return /chunks/i.test(name) ? { scale: 1, unit: 'count' } : { scale: 1, unit: 'requests' };
}

/** GenAI-Perf's names: `(per sec)` after a throughput, counts of tokens named `Num … Token`. */
function genaiUnit(name: string, unit: string | null): KeyUnit {
  if (unit === 'per sec') return /token/i.test(name) ? { scale: 1, unit: 'tokens/s' } : { scale: 1, unit: '1/s' };
  if (unit === null && /^num .*token/i.test(name)) return { scale: 1, unit: 'tokens' };
  return unit !== null && CSV_UNITS[unit] ? CSV_UNITS[unit] : { scale: 1, unit: unit ?? '' };
}

export function isAiperfCsv(firstLine: string): boolean {
  return /^Metric,avg,min,max(,sum)?,p1,/.test(firstLine);
}

export function isGenaiPerfCsv(firstLine: string): boolean {
  return /^Metric,avg,min,max,p99,p95,p90,p75,p50,p25\s*$/.test(firstLine);
}

/** The statistics columns kept in `reported` (the text report's usual ones; the file has more). */
const KEPT = ['avg', 'p50', 'p90', 'p99'];

function readBlocks(r: Reader, blocks: CsvBlock[], unitOf: (name: string, unit: string | null) => KeyUnit): { reported: Record<string, Reported>; skipped: string[] } {
  const reported: Record<string, Reported> = {};
  const skipped: string[] = [];
  for (const b of blocks) {
    if (b.header[0] !== 'Metric') {
      skipped.push(`the table at line ${b.line} (${b.header.slice(0, 4).join(', ')} …: ${b.rows.length} row(s)) is not read`);
      continue;
    }
    const cols = b.header.slice(1).map((h) => (h === 'Value' ? 'avg' : h));
    for (const row of b.rows) {
      const { name, unit } = nameAndUnit(row.cells[0] ?? '');
      if (name === '') r.fail(`line ${row.line}: a row without a metric name`);
      if (/timestamp/i.test(name)) continue; // epoch timestamps are not quantities
      const how = unitOf(name, unit);
      cols.forEach((stat, j) => {
        if (!KEPT.includes(stat)) return;
        const cell = (row.cells[j + 1] ?? '').trim();
        if (cell === '') return; // AIPerf leaves a statistic it does not have empty
        const v = Number(cell);
        if (!Number.isFinite(v)) r.fail(`line ${row.line}: ${row.cells[0]} ${stat} = "${cell}" is not a number`);
        reported[`${snakeKey(name)}.${stat}`] = reportedOf(v, how);
      });
    }
  }
  return { reported, skipped };
}

const AGGREGATES_ONLY: Pick<Imported, 'lacks' | 'lastTokenT' | 'clock' | 'run'> = {
  lacks: ['records', 'timeline', 'schedule', 'chunkTimes', 'chunkTokens', 'firstToken', 'inputTokens', 'outputTokens', 'runWindow'],
  lastTokenT: null,
  clock: 'none (aggregates only)',
  run: { records: [], source: AIPERF_SOURCE, maxConcurrency: null, requestRate: null, startT: 0, endT: 0 },
};

export function importAiperfCsv(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r = new Reader(file);
  if (opts.entry !== undefined && opts.entry !== 0) r.fail(`--entry ${opts.entry}: an AIPerf CSV export holds one run; leave --entry out`);
  const blocks = csvBlocks(input.text());
  if (blocks.length === 0 || !isAiperfCsv(blocks[0].header.join(','))) r.fail(`not an AIPerf profile_export_aiperf.csv: the first line should be "Metric,avg,min,max,…,p1,…"${seen.looksLike}`);
  const { reported, skipped } = readBlocks(r, blocks, (name, unit) => (unit === null ? unitless(name) : CSV_UNITS[unit] ?? { scale: 1, unit }));
  const withSum = blocks[0].header.includes('sum');
  const count = reported['request_count.avg'];
  return {
    file,
    format: 'aiperf-csv',
    version: withSum ? 'AIPerf profile_export_aiperf.csv with a sum column and a GPU-telemetry table (0.8)' : 'AIPerf profile_export_aiperf.csv without a sum column (Oct 2025)',
    ...AGGREGATES_ONLY,
    missing: ['aggregates only (profile_export_aiperf.csv): no definition can be recomputed; the per-request profile_export.jsonl of the same run can be'],
    notes: ['AIPerf writes every value of this file with two decimals, so small values keep few digits (the same run’s profile_export_aiperf.json has them all)', ...skipped],
    reported,
    failures: reported['error_request_count.avg'] ? { error: reported['error_request_count.avg'].value } : {},
    ...(count ? { completed: { key: 'Request Count', value: count.value, unit: 'requests' } } : {}),
  };
}

export function importGenaiPerfCsv(file: string, input: ResultInput, opts: ImportOptions, seen: Recognition): Imported {
  const r = new Reader(file);
  if (opts.entry !== undefined && opts.entry !== 0) r.fail(`--entry ${opts.entry}: a GenAI-Perf CSV export holds one run; leave --entry out`);
  const blocks = csvBlocks(input.text());
  if (blocks.length === 0 || !isGenaiPerfCsv(blocks[0].header.join(','))) r.fail(`not a GenAI-Perf profile_export_genai_perf.csv: the first line should be "Metric,avg,min,max,p99,p95,p90,p75,p50,p25"${seen.looksLike}`);
  const { reported, skipped } = readBlocks(r, blocks, genaiUnit);
  return {
    file,
    format: 'genai-perf-csv',
    version: 'GenAI-Perf profile_export_genai_perf.csv (0.0.x: percentiles p99 … p25, latencies in ns)',
    ...AGGREGATES_ONLY,
    run: { ...AGGREGATES_ONLY.run, source: 'genai-perf' },
    missing: ['aggregates only (profile_export_genai_perf.csv): no definition can be recomputed, and the file names no request count, model or concurrency; the per-request profile_export.json of the same run can be'],
    notes: skipped,
    reported,
    failures: {},
  };
}
