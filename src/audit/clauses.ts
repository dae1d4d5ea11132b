/**
 * The clauses that should stand next to every number (the site's section
 * "What I write next to a number"): how requests arrived, where the clock
 * starts, which window the numbers cover, whose definitions, whose tokens,
 * which prompts, which versions, each filled in from the file or "not in
 * this file".
 */
import { formatMessage } from '../format/text.ts';
import type { RunData } from './run-data.ts';
import { isClosedLoop } from './findings/metronome.ts';
import { NOT_IN_FILE, type ClauseId } from './types.ts';

function arrivals(d: RunData): string {
  const { requestRate: rate, maxConcurrency: cap } = d.run;
  const wave = d.wave && d.wave.size >= 2 ? `; ${d.wave.size} sent together at the start` : '';
  if (rate === Infinity) return cap !== null ? `closed loop: rate inf, at most ${cap} in flight${wave}` : `all at once: rate inf, no cap${wave}`;
  if (rate !== null) return `scheduled at ${formatMessage(rate)} req/s${cap !== null ? `, at most ${cap} in flight` : ', no cap'}${wave}`;
  if (cap !== null) return `at most ${cap} in flight (no rate in the file)${wave}`;
  if (d.timeline) {
    const loop = isClosedLoop(d);
    if (loop.closed) return `closed loop of ${loop.slots} (from the send times; the file names no rate or cap)${wave}`;
    return d.sendRate === null ? `no rate or cap in the file${wave}` : `no rate or cap in the file; ${formatMessage(d.sendRate)} sends per second on average${wave}`;
  }
  return NOT_IN_FILE;
}

function clock(d: RunData): string {
  if (!d.perRequest) return NOT_IN_FILE;
  const start = d.imported.lacks.includes('schedule') ? 'latency starts at the send (no due times in the file)' : 'latency starts at the send; due times kept beside it';
  return `${d.imported.clock}; ${start}`;
}

function windowClause(d: RunData): string {
  const dur = d.run.endT - d.run.startT;
  const notes = d.imported.notes.filter((n) => /warmup|cooldown|window/i.test(n));
  if (!d.perRequest) {
    const v = d.imported.reported.duration ?? d.imported.reported['benchmark_duration.avg'];
    return v ? `the whole run, ${formatMessage(v.value)} s` : NOT_IN_FILE;
  }
  if (d.imported.lacks.includes('runWindow') && !d.timeline) return NOT_IN_FILE;
  return `the whole run, ${formatMessage(dur)} s${notes.length ? ` (${notes.join('; ')})` : ', ramp and drain included'}`;
}

function tokensClause(d: RunData): string {
  if (d.format === 'llmperf') return 'Llama-2 tokenizer (LLMPerf), whatever the model';
  const l = d.imported.lacks;
  if (l.includes('outputTokens') && d.perRequest) return NOT_IN_FILE;
  if (d.format === 'stopwatches') return 'the simulator’s own tokens';
  if (d.format === 'aiperf') return 'AIPerf’s count (client tokenizer unless --use-server-token-count)';
  return l.includes('serverTokenCounts') ? 'the client’s count' : 'the server’s usage counts';
}

function prompts(d: RunData): string {
  if (!d.perRequest || d.imported.lacks.includes('inputTokens')) {
    const v = d.imported.reported['input_sequence_length.avg'] ?? d.imported.reported.total_input_tokens;
    if (v && d.imported.reported['input_sequence_length.avg']) return `mean ${formatMessage(v.value)} tokens (the file's aggregate)`;
    return NOT_IN_FILE;
  }
  const xs = d.run.records.map((r) => r.inputTokens).filter((x) => Number.isFinite(x));
  if (xs.length === 0) return NOT_IN_FILE;
  let lo = Infinity;
  let hi = -Infinity;
  let sum = 0;
  for (const x of xs) {
    lo = Math.min(lo, x);
    hi = Math.max(hi, x);
    sum += x;
  }
  if (lo === hi) return `${formatMessage(lo)} tokens each (fixed)`;
  return `${formatMessage(lo)}–${formatMessage(hi)} tokens (mean ${formatMessage(sum / xs.length)})`;
}

export function clauses(d: RunData): Record<ClauseId, string> {
  const defs = d.imported.definitions ? Object.entries(d.imported.definitions).map(([t, v]) => `${t} ${v}`).join(', ') : '';
  return {
    arrivals: arrivals(d),
    clock: clock(d),
    window: windowClause(d),
    definitions: d.format === 'stopwatches' ? 'every tool’s, recomputed by `stopwatches metrics`' : `${d.imported.version}${defs ? ` (${defs})` : ''}; failed requests left out`,
    tokens: tokensClause(d),
    prompts: prompts(d),
    versions: d.imported.version || NOT_IN_FILE,
  };
}
