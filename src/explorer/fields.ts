/**
 * The explorer's form, as data: the page renders it at build time and the
 * script reads the same list, so a field's id, label and group are written once.
 */
import type { Key } from './params.ts';

export interface FieldDef {
  key: Key;
  label: string;
  unit?: string;
  kind: 'number' | 'text' | 'select';
  options?: [string, string][];
  /** inputmode for number-like text fields */
  mode?: 'numeric' | 'decimal';
  hint?: string;
}

export interface FieldGroup {
  id: string;
  legend: string;
  fields: FieldDef[];
}

export const GROUPS: FieldGroup[] = [
  {
    id: 'client',
    legend: 'Client',
    fields: [
      {
        key: 'client', label: 'Arrivals', kind: 'select',
        options: [['closed', 'closed loop (N slots)'], ['open', 'open (Poisson at a rate)'], ['capped', 'rate behind a cap']],
      },
      { key: 'slots', label: 'Slots', kind: 'number', mode: 'numeric', unit: 'in flight' },
      { key: 'rate', label: 'Rate', kind: 'number', mode: 'decimal', unit: 'req/s', hint: 'inf sends every request at once' },
      { key: 'cap', label: 'Cap', kind: 'number', mode: 'numeric', unit: 'in flight' },
    ],
  },
  {
    id: 'lengths',
    legend: 'Lengths',
    fields: [
      {
        key: 'lengths', label: 'Draw', kind: 'select',
        options: [['fixed', 'fixed'], ['vllm', 'upstream vLLM range ratio'], ['inferencex', 'InferenceX range ratio']],
      },
      { key: 'isl', label: 'Input length', kind: 'number', mode: 'numeric', unit: 'tokens' },
      { key: 'osl', label: 'Output length', kind: 'number', mode: 'numeric', unit: 'tokens' },
      { key: 'ratio', label: 'Range ratio', kind: 'number', mode: 'decimal' },
    ],
  },
  {
    id: 'run',
    legend: 'Run',
    fields: [
      { key: 'requests', label: 'Requests', kind: 'number', mode: 'numeric' },
      { key: 'warmup', label: 'Warmup', kind: 'number', mode: 'numeric', unit: 'requests', hint: 'the first ones, left out of the statistics' },
      { key: 'cooldown', label: 'Cooldown', kind: 'number', mode: 'numeric', unit: 'requests', hint: 'the last ones, left out of the statistics' },
      { key: 'seed', label: 'Seed', kind: 'number', mode: 'numeric' },
      { key: 'stream', label: 'Stream label', kind: 'text', hint: 'empty, or the label an experiment forks its draws from' },
    ],
  },
  {
    id: 'server',
    legend: 'Server',
    fields: [
      { key: 'tokenBudget', label: 'Token budget', kind: 'number', mode: 'numeric', unit: 'tokens/step' },
      { key: 'kvCapacityTokens', label: 'KV pool', kind: 'number', mode: 'numeric', unit: 'tokens' },
      { key: 'maxNumSeqs', label: 'Max sequences', kind: 'number', mode: 'numeric' },
      { key: 'etaCompute', label: 'Compute efficiency', kind: 'number', mode: 'decimal', unit: 'of peak' },
      { key: 'etaMemory', label: 'Bandwidth efficiency', kind: 'number', mode: 'decimal', unit: 'of peak' },
      { key: 'stepOverheadMs', label: 'Step overhead', kind: 'number', mode: 'decimal', unit: 'ms' },
    ],
  },
  {
    id: 'definitions',
    legend: 'Definitions',
    fields: [{ key: 'inflation', label: 'LLMPerf Llama 2 factor', kind: 'number', mode: 'decimal', unit: '×', hint: 'Llama 2 tokens per model token' }],
  },
];

export const FIELDS: FieldDef[] = GROUPS.flatMap((g) => g.fields);
