/**
 * The explorer's fields, one record each: label, group, unit and hint (the form), default,
 * bounds and the message shown beside the field when a value is out of them (validation),
 * text form (inputs and the URL), when the field is read, and which simulator errors concern
 * it. The page renders the form from this list at build time; params.ts derives the defaults,
 * the URL state and the validation from it; the script reads the same list. Adding a field is
 * one record here plus its type in `Params`.
 */
import { defaultServerConfig } from '../sim/index.ts';

export type ClientKind = 'closed' | 'open' | 'capped';
export type LengthKind = 'fixed' | 'vllm' | 'inferencex';

export interface Params {
  client: ClientKind;
  /** Closed loop: requests kept in flight. */
  slots: number;
  /** Open and capped: Poisson rate, req/s; Infinity sends every request at t = 0. */
  rate: number;
  /** Capped: client-side semaphore size. */
  cap: number;
  lengths: LengthKind;
  isl: number;
  osl: number;
  /** Range ratio (vLLM: [L(1−r), L(1+r)]; InferenceX: [rL, L]); unused for fixed lengths. */
  ratio: number;
  requests: number;
  /** Requests at the start excluded from the statistics. */
  warmup: number;
  /** Requests at the end excluded from the statistics. */
  cooldown: number;
  seed: number;
  /**
   * Random stream label. Empty: lengths and arrivals are forked from createRng(seed) as
   * `isl`, `osl`, `arrivals`; otherwise from createRng(seed).fork(stream) (the experiments
   * that share one seed across runs label each run's stream, e.g. `capped-4000`).
   */
  stream: string;
  tokenBudget: number;
  kvCapacityTokens: number;
  maxNumSeqs: number;
  etaCompute: number;
  etaMemory: number;
  stepOverheadMs: number;
  /** LLMPerf's Llama 2 ÷ model token ratio. */
  inflation: number;
}

export type Key = keyof Params;

export const BLOCK_SIZE = defaultServerConfig().blockSize;

/** Requests a run may have at most: more take too long and too much memory in a browser tab. */
export const MAX_REQUESTS = 500_000;

/** The least compute or bandwidth efficiency a run may assume (a share of the peak). */
export const MIN_EFFICIENCY = 0.01;

export const fmtInt = (v: number): string => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

interface FieldBase<K extends Key> {
  key: K;
  label: string;
  group: GroupId;
  unit?: string;
  hint?: string;
  /** The value a new page starts with (`inflation`: the factor the tokens experiment measured). */
  initial: (inflation: number) => Params[K];
  /** Whether a configuration reads this field (the others are hidden and left out of its URL); always when absent. */
  active?: (p: Params) => boolean;
  /** Simulator or draw error messages that concern this field. */
  errors?: RegExp;
}

export interface NumberField<K extends Key = Key> extends FieldBase<K> {
  kind: 'number';
  /** inputmode of the text input */
  mode: 'numeric' | 'decimal';
  /** Inclusive bounds; `integer` fields take whole numbers only. */
  min: number;
  max: number;
  integer?: boolean;
  /** The lower bound excluded (`> min`), for rates and fractions. */
  aboveMin?: boolean;
  /** `inf` (or ∞) is accepted and read as Infinity. */
  infinite?: boolean;
  /** What the field is, for its message: `${what} must be …`. */
  what: string;
  /** The unit its message names, when it has one (`ms`, `requests per second`). */
  messageUnit?: string;
  /** The message for any value out of bounds, when the bounds alone do not say it. */
  message?: string;
  /** The message for a value above `max`, when the reason is not the range itself. */
  aboveMax?: string;
}

export interface ChoiceField<K extends Key = Key> extends FieldBase<K> {
  kind: 'select';
  options: [string, string][];
  /** The message when the value is none of the options. */
  invalid: string;
  mode?: undefined;
}

export interface TextField<K extends Key = Key> extends FieldBase<K> {
  kind: 'text';
  pattern: RegExp;
  invalid: string;
  mode?: undefined;
}

export type FieldDef = NumberField | ChoiceField | TextField;

export type GroupId = 'client' | 'lengths' | 'run' | 'server' | 'definitions';

const cfg = defaultServerConfig();
const open = (p: Params) => p.client !== 'closed';

const LIST = [
  {
    key: 'client', label: 'Arrivals', group: 'client', kind: 'select', initial: () => 'closed',
    options: [['closed', 'closed loop (N slots)'], ['open', 'open (Poisson at a rate)'], ['capped', 'rate behind a cap']],
    invalid: 'choose a closed loop, open arrivals or arrivals behind a cap',
  },
  {
    key: 'slots', label: 'Slots', group: 'client', kind: 'number', mode: 'numeric', unit: 'in flight', initial: () => 64,
    min: 1, max: 4096, integer: true, what: 'slots', active: (p) => p.client === 'closed', errors: /client\.slots/,
  },
  {
    key: 'rate', label: 'Rate', group: 'client', kind: 'number', mode: 'decimal', unit: 'req/s', hint: 'inf sends every request at once',
    initial: () => 10, min: 0, aboveMin: true, max: 100_000, infinite: true, what: 'the rate', messageUnit: 'requests per second',
    active: open, errors: /arrival rate|client\.times/,
  },
  {
    key: 'cap', label: 'Cap', group: 'client', kind: 'number', mode: 'numeric', unit: 'in flight', initial: () => 64,
    min: 1, max: 4096, integer: true, what: 'the cap', active: (p) => p.client === 'capped', errors: /client\.cap/,
  },
  {
    key: 'lengths', label: 'Draw', group: 'lengths', kind: 'select', initial: () => 'inferencex',
    options: [['fixed', 'fixed'], ['vllm', 'upstream vLLM range ratio'], ['inferencex', 'InferenceX range ratio']],
    invalid: 'choose fixed, upstream vLLM range or InferenceX range',
  },
  {
    key: 'isl', label: 'Input length', group: 'lengths', kind: 'number', mode: 'numeric', unit: 'tokens', initial: () => 1024,
    min: 1, max: 131_072, integer: true, what: 'the input length', errors: /workload\.isl|invalid length/,
  },
  {
    key: 'osl', label: 'Output length', group: 'lengths', kind: 'number', mode: 'numeric', unit: 'tokens', initial: () => 1024,
    min: 1, max: 131_072, integer: true, what: 'the output length', errors: /workload\.osl/,
  },
  {
    key: 'ratio', label: 'Range ratio', group: 'lengths', kind: 'number', mode: 'decimal', initial: () => 0.8,
    // The draws' own bounds depend on the kind of draw; validate() asks them (lengthBounds).
    min: -Infinity, max: Infinity, what: 'the range ratio', message: 'the range ratio must be a number', active: (p) => p.lengths !== 'fixed', errors: /range ratio/,
  },
  {
    key: 'requests', label: 'Requests', group: 'run', kind: 'number', mode: 'numeric', initial: () => 640,
    min: 1, max: MAX_REQUESTS, integer: true, what: 'requests',
    aboveMax: `runs above ${fmtInt(MAX_REQUESTS)} requests are refused: they take too long and too much memory in a browser tab`,
  },
  {
    key: 'warmup', label: 'Warmup', group: 'run', kind: 'number', mode: 'numeric', unit: 'requests', hint: 'the first ones, left out of the statistics',
    initial: () => 0, min: 0, max: MAX_REQUESTS - 1, integer: true, what: 'warmup',
  },
  {
    key: 'cooldown', label: 'Cooldown', group: 'run', kind: 'number', mode: 'numeric', unit: 'requests', hint: 'the last ones, left out of the statistics',
    initial: () => 0, min: 0, max: MAX_REQUESTS - 1, integer: true, what: 'cooldown',
  },
  {
    key: 'seed', label: 'Seed', group: 'run', kind: 'number', mode: 'numeric', initial: () => 1,
    min: 0, max: 0xffffffff, integer: true, what: 'the seed', errors: /seed/,
  },
  {
    key: 'stream', label: 'Stream label', group: 'run', kind: 'text', hint: 'empty, or the label an experiment forks its draws from', initial: () => '',
    pattern: /^[A-Za-z0-9._-]{0,64}$/, invalid: 'the stream label may hold letters, digits, dots, dashes and underscores (64 at most)',
  },
  {
    key: 'tokenBudget', label: 'Token budget', group: 'server', kind: 'number', mode: 'numeric', unit: 'tokens/step', initial: () => cfg.tokenBudget,
    min: 1, max: 1_048_576, integer: true, what: 'the token budget', errors: /tokenBudget/,
  },
  {
    key: 'kvCapacityTokens', label: 'KV pool', group: 'server', kind: 'number', mode: 'numeric', unit: 'tokens', initial: () => cfg.kvCapacityTokens,
    min: BLOCK_SIZE, max: 100_000_000, integer: true, what: 'the KV pool', errors: /kvCapacityTokens|KV blocks/,
  },
  {
    key: 'maxNumSeqs', label: 'Max sequences', group: 'server', kind: 'number', mode: 'numeric', initial: () => cfg.maxNumSeqs,
    min: 1, max: 4096, integer: true, what: 'max sequences', errors: /maxNumSeqs/,
  },
  {
    key: 'etaCompute', label: 'Compute efficiency', group: 'server', kind: 'number', mode: 'decimal', unit: 'of peak', initial: () => cfg.hw.etaCompute,
    // Below 1% of peak a step takes a hundred times its roofline time; far below, the times leave what a double holds exactly.
    min: MIN_EFFICIENCY, max: 1, what: 'compute efficiency', errors: /etaCompute/,
  },
  {
    key: 'etaMemory', label: 'Bandwidth efficiency', group: 'server', kind: 'number', mode: 'decimal', unit: 'of peak', initial: () => cfg.hw.etaMemory,
    min: MIN_EFFICIENCY, max: 1, what: 'bandwidth efficiency', errors: /etaMemory/,
  },
  {
    key: 'stepOverheadMs', label: 'Step overhead', group: 'server', kind: 'number', mode: 'decimal', unit: 'ms', initial: () => cfg.hw.stepOverheadS * 1000,
    min: 0, max: 1000, what: 'step overhead', messageUnit: 'ms', errors: /stepOverhead/,
  },
  {
    key: 'inflation', label: 'LLMPerf Llama 2 factor', group: 'definitions', kind: 'number', mode: 'decimal', unit: '×', hint: 'Llama 2 tokens per model token',
    // Tokenizers differ by tens of percent, not by orders of magnitude: a factor outside 0.1–10 is a typo.
    initial: (inflation) => inflation, min: 0.1, max: 10, what: 'the Llama 2 factor',
  },
] satisfies FieldDef[];

/** Every key of Params has its record: a field added to Params without one fails to compile here. */
type Missing = Exclude<Key, (typeof LIST)[number]['key']>;
const everyKeyHasARecord: [Missing] extends [never] ? true : Missing = true;
void everyKeyHasARecord;

/** Every field, in the order the form shows them. */
export const FIELDS: FieldDef[] = LIST;

export const FIELD: { [K in Key]: FieldDef & { key: K } } = Object.fromEntries(FIELDS.map((f) => [f.key, f])) as never;

/** The message a number field shows when its value is outside its bounds, e.g. `slots must be an integer from 1 to 4,096`. */
export function rangeMessage(f: NumberField): string {
  if (f.message) return f.message;
  const n = (x: number) => (Number.isInteger(x) ? fmtInt(x) : String(x));
  const unit = f.messageUnit ? ` ${f.messageUnit}` : '';
  if (f.integer) return `${f.what} must be an integer from ${n(f.min)} to ${n(f.max)}${unit}`;
  if (!f.aboveMin) return `${f.what} must be from ${n(f.min)} to ${n(f.max)}${unit}`;
  const fraction = f.min === 0 && f.max === 1 ? 'a fraction ' : '';
  return `${f.what} must be ${fraction}above ${n(f.min)} and at most ${n(f.max)}${unit}${f.infinite ? ', or inf (every request at once)' : ''}`;
}

/** The problem with one field's own value (its bounds, its options), or null. Cross-field rules live in validate(). */
export function fieldProblem(f: FieldDef, v: unknown): string | null {
  if (f.kind === 'select') return f.options.some(([o]) => o === v) ? null : f.invalid;
  if (f.kind === 'text') return typeof v === 'string' && f.pattern.test(v) ? null : f.invalid;
  const x = v as number;
  if (f.infinite && x === Infinity) return null;
  const ok = Number.isFinite(x) && (!f.integer || Number.isInteger(x)) && (f.aboveMin ? x > f.min : x >= f.min);
  if (!ok) return rangeMessage(f);
  if (x > f.max) return f.aboveMax ?? rangeMessage(f);
  return null;
}

export interface FieldGroup {
  id: GroupId;
  legend: string;
  fields: FieldDef[];
}

const LEGENDS: Record<GroupId, string> = { client: 'Client', lengths: 'Lengths', run: 'Run', server: 'Server', definitions: 'Definitions' };

/** The form's fieldsets, in order, each with its fields. */
export const GROUPS: FieldGroup[] = (Object.keys(LEGENDS) as GroupId[]).map((id) => ({ id, legend: LEGENDS[id], fields: FIELDS.filter((f) => f.group === id) }));
