/**
 * The seven stopwatches (and Etalon's eighth) side by side: Table 1 and
 * Table 2 of the paper as data and {@link perUserSpeeds}, which applies every
 * tool's per-token definition to the same run (Figure 1). Each row comes from
 * its tool's descriptor (src/tools/<tool>/descriptor.ts); this module only
 * puts them in the registry's order. The tools' definitions are re-exported
 * so experiments and the explorer import them from one place.
 */
import type { BenchmarkRun } from '../tools/base/records.ts';
import { citeFile, type Table1Entry, type Table2Entry } from '../tools/base/descriptor.ts';
import type { PerUserSpeedOptions, SpeedRow } from '../tools/base/report-rows.ts';
import { TOOLS } from '../tools/registry.ts';

export type { BenchmarkRun, RequestRecord } from '../tools/base/records.ts';
export type { PerUserSpeedOptions, SpeedRow } from '../tools/base/report-rows.ts';
export * from '../tools/base/definitions.ts';
export * from '../tools/vllm/definitions.ts';
export * from '../tools/sglang/definitions.ts';
export * from '../tools/inferencex/definitions.ts';
export * from '../tools/aiperf/definitions.ts';
export * from '../tools/guidellm/definitions.ts';
export * from '../tools/llmperf/definitions.ts';
export * from '../tools/mlperf/definitions.ts';
export * from '../tools/etalon/definitions.ts';
export { sloAttainment, distserveGoodput } from './goodput.ts';
export { fromSimResult, buildRun, type FromSimOptions } from '../tools/sim/from-sim.ts';

/** A tool of Table 1 (its descriptor's id). */
export type ToolId = string;

/** Table 1: one row per tool, as read from each tool's source (`sourceFiles`, at the commits given there). */
export interface Table1Row extends Table1Entry {
  tool: ToolId;
  name: string;
  sourceFiles: string[];
}

export const TABLE1: readonly Table1Row[] = TOOLS.flatMap((t) =>
  t.table1 === null ? [] : [{ tool: t.id, name: t.name, ...t.table1, sourceFiles: (t.source?.files ?? []).map(citeFile) }],
);

/** Table 2: the non-default settings that make a tool's numbers carry each clause (read from each tool's CLI and source, as in Table 1). */
export interface Table2Row extends Table2Entry {
  tool: ToolId;
}

export const TABLE2: readonly Table2Row[] = TOOLS.flatMap((t) => (t.table2 === null ? [] : [{ tool: t.id, ...t.table2 }]));

/**
 * Figure 1: every tool's per-token definition applied to the same run,
 * converted to tokens/s per user. The seven `primary` rows are one headline
 * per tool (which headline stands for InferenceX, AIPerf and LLMPerf is
 * **chosen**, the article does not name them); the others are
 * variants a reader may meet under the same names.
 */
export function perUserSpeeds(run: BenchmarkRun, opts: PerUserSpeedOptions): SpeedRow[] {
  return TOOLS.flatMap((t) => (t.speeds ? t.speeds.rows(run, opts) : []));
}

/** The spread of the seven primary speeds: [min, max] tokens/s. */
export function speedRange(rows: SpeedRow[]): [number, number] | null {
  const v = rows.filter((r) => r.primary && r.tokPerS !== null).map((r) => r.tokPerS as number);
  return v.length ? [Math.min(...v), Math.max(...v)] : null;
}
