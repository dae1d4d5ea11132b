/**
 * Every tool the project knows, one line each: the simulator's own format
 * first (it is recognised before any other), then Table 1's order, which the
 * report, Tables 1 and 2 and the format lists follow. Detection, agreement, the report, Tables 1
 * and 2 and `stopwatches metrics` iterate over this list; a new tool is one
 * folder under src/tools/ and one line here.
 */
import type { ResultFormat, ToolDescriptor } from './base/descriptor.ts';
import { aiperf } from './aiperf/descriptor.ts';
import { etalon } from './etalon/descriptor.ts';
import { evalscope } from './evalscope/descriptor.ts';
import { guidellm } from './guidellm/descriptor.ts';
import { inferencePerf } from './inference-perf/descriptor.ts';
import { inferencex } from './inferencex/descriptor.ts';
import { llmd } from './llm-d/descriptor.ts';
import { llmperf } from './llmperf/descriptor.ts';
import { mlperf } from './mlperf/descriptor.ts';
import { sglang } from './sglang/descriptor.ts';
import { sim } from './sim/descriptor.ts';
import { vllm } from './vllm/descriptor.ts';

export const TOOLS: readonly ToolDescriptor[] = [
  sim,
  vllm,
  sglang,
  inferencex,
  aiperf,
  guidellm,
  llmperf,
  mlperf,
  etalon,
  inferencePerf,
  llmd,
  evalscope,
];

/** Every result format, in the registry's order (ties in detection go to the earlier). */
export const FORMATS: readonly ResultFormat[] = TOOLS.flatMap((t) => t.formats);

/** The descriptor of a tool id, or undefined. */
export function toolById(id: string): ToolDescriptor | undefined {
  return TOOLS.find((t) => t.id === id);
}

/** The format of an id, or undefined. */
export function formatById(id: string): ResultFormat | undefined {
  return FORMATS.find((f) => f.id === id);
}
