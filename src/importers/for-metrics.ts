/**
 * The reading step of `stopwatches metrics`: a simulator result (the output
 * of `stopwatches simulate --tokens`) or any real tool's result file, and
 * which of the report's rows the file cannot support.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.ts';
import { readRunFile } from '../metrics/read.ts';
import type { ReportRow } from '../metrics/report.ts';
import type { BenchmarkRun } from '../metrics/records.ts';
import { importResultFile, parseFormat } from './index.ts';
import type { Capability, Reported } from './types.ts';

export interface MetricsInput {
  run: BenchmarkRun;
  format: string;
  missing: string[];
  lacks: Capability[];
  notes: string[];
  reported: Record<string, Reported> | null;
}

/** Format name of the simulator's own result files. */
export const SIMULATOR_FORMAT = 'stopwatches';

function looksLikeSimulatorResult(path: string): boolean {
  try {
    const head = readFileSync(path, 'utf8').slice(0, 4096);
    return /^\s*\{/.test(head) && /"send_t"\s*:/.test(readFileSync(path, 'utf8'));
  } catch {
    return false; // the importer reports unreadable files with its own message
  }
}

export async function loadMetricsInput(path: string, opts: { format?: string; entry?: number }): Promise<MetricsInput> {
  if (opts.format === SIMULATOR_FORMAT || (opts.format === undefined && looksLikeSimulatorResult(path))) {
    return { run: readRunFile(path), format: SIMULATOR_FORMAT, missing: [], lacks: [], notes: [], reported: null };
  }
  const format = opts.format === undefined ? undefined : opts.format === SIMULATOR_FORMAT ? undefined : parseFormat(opts.format);
  let res;
  try {
    res = await importResultFile(path, { format, entry: opts.entry });
  } catch (err) {
    if (err instanceof UserError && /cannot tell which tool/.test(err.message)) throw new UserError(undetectedMessage(path, err.message));
    throw err;
  }
  return { run: res.run, format: res.format, missing: res.missing, lacks: res.lacks, notes: res.notes, reported: (res.reported as Record<string, Reported>) ?? null };
}

/** A clearer line for a file no importer recognised: broken JSON is named as such; the simulator's format is listed too. */
function undetectedMessage(path: string, message: string): string {
  let text = '';
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    return message;
  }
  const lines = text.split('\n').filter((l) => l.trim());
  const parses = (s: string) => {
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  };
  if (/^[[{]/.test(text) && !parses(text) && !lines.every(parses)) {
    try {
      JSON.parse(text);
    } catch (err) {
      return `${path}: not valid JSON (${(err as Error).message.split('\n')[0]}); is the file truncated?`;
    }
  }
  return message.replace('supported formats: ', `supported formats: ${SIMULATOR_FORMAT} (\`stopwatches simulate --tokens\` output), `);
}

/** Which report rows each missing capability rules out (matched on tool and metric name). */
const RULED_OUT: Record<Capability, RegExp> = {
  records: /./,
  timeline: /(^|[._ ])(request_throughput|output_throughput|total_token_throughput|goodput|concurrency|duration|request_rate)|completed_tokens|samples_per_sec/,
  runWindow: /(^|[._ ])(request_throughput|output_throughput|total_token_throughput|goodput|duration|request_rate)/,
  schedule: /queue|scheduled|effective_latency|mlperf/,
  chunkTimes: /itl|inter_token|fluidity|tbt/,
  chunkTokens: /aiperf.*itl/,
  firstToken: /ttft|tpot|itl|inter_token|ttst|fluidity/,
  inputTokens: /input|total_token/,
  outputTokens: /tpot|token|itl|intvty|speed/,
  serverTokenCounts: /$^/,
};

/** How each capability is worded in the importers' `missing` sentences. */
const SAID_AS: Record<Capability, RegExp> = {
  records: /record|aggregate/,
  timeline: /timestamp|clock/,
  runWindow: /duration|window/,
  schedule: /schedul/,
  chunkTimes: /per-chunk|chunk times/,
  chunkTokens: /tokens per chunk|chunk token/,
  firstToken: /first token|first-token/,
  inputTokens: /prompt|input/,
  outputTokens: /token count/,
  serverTokenCounts: /server token/,
};

/**
 * Rows the file cannot support get value null and the file's own reason.
 * (A definition computed from a stand-in — e.g. finish time for the last
 * chunk — would print a number the file never measured.)
 */
export function markUnsupported(rows: ReportRow[], input: MetricsInput): ReportRow[] {
  if (input.lacks.length === 0) return rows;
  return rows.map((row) => {
    const key = `${row.tool}.${row.metric}`.toLowerCase();
    const lack = input.lacks.find((c) => RULED_OUT[c].test(key));
    if (!lack) return row;
    const why = input.missing.find((m) => SAID_AS[lack].test(m.toLowerCase())) ?? `the file has no ${lack}`;
    return { ...row, value: null, note: `cannot be computed: ${why}` };
  });
}
