/**
 * `tokens`: a token is not one unit across tools. LLMPerf counts every
 * model's output with the Llama-2 tokenizer; AIPerf counts with a client
 * tokenizer unless told to use the server's usage; some files count
 * reasoning tokens as output and some do not (the site's section "What a
 * token is"; docs/definitions.md, token counts). The finding says whose
 * count the file's tokens/s rest on, and sets server and client counts side
 * by side where the file has both. Counts that differ by more than
 * TOKEN_COUNT_TOLERANCE are a warning: every per-token number moves with them.
 */
import type { RunData } from '../run-data.ts';
import type { AuditNumber, Finding } from '../types.ts';
import { formatMessage, pctText, unknown } from './common.ts';

/** Two counts of the same tokens agree when within 1%: the agreement check's threshold (`stopwatches metrics`). */
export const TOKEN_COUNT_TOLERANCE = 0.01;

/** Formats whose printed token totals are the server's usage counts (vLLM and SGLang bench clients read the usage field). */
const SERVER_COUNTED: readonly string[] = ['vllm', 'sglang'];

function reported(d: RunData, key: string): number | null {
  const v = d.imported.reported[key];
  return v && Number.isFinite(v.value) ? v.value : null;
}

export function tokens(d: RunData): Finding {
  const id = 'tokens';
  const numbers: Record<string, AuditNumber> = {};
  const lacks = d.imported.lacks;
  if (d.format === 'llmperf') {
    return { id, verdict: 'warn', message: 'LLMPerf counts every model’s tokens with the Llama-2 tokenizer: its tokens/s and per-token latencies are in Llama-2 tokens, not the served model’s (ratio measured per language by the tokens experiment)', numbers };
  }
  // Server against client counts, where the file keeps both.
  const server = reported(d, 'total_output_tokens');
  const client = reported(d, 'total_output_tokens_retokenized');
  if (server !== null && client !== null) {
    numbers.server_output_tokens = { value: server, unit: 'tokens' };
    numbers.client_output_tokens = { value: client, unit: 'tokens', note: 'retokenized by the client' };
    const rel = Math.abs(server - client) / Math.max(server, client);
    numbers.relative_difference = { value: rel, unit: '1' };
    if (rel > TOKEN_COUNT_TOLERANCE) return { id, verdict: 'warn', message: `the server counted ${formatMessage(server)} output tokens, the client's tokenizer ${formatMessage(client)} (${pctText(rel)} apart): per-token numbers depend on which`, numbers };
    return { id, verdict: 'ok', message: `the server counted ${formatMessage(server)} output tokens and the client's tokenizer ${formatMessage(client)}, within ${pctText(TOKEN_COUNT_TOLERANCE)}; no reasoning tokens recorded`, numbers };
  }
  const reasoning = reported(d, 'reasoning_token_count.avg') ?? reported(d, 'total_reasoning_tokens.avg');
  const osl = reported(d, 'output_sequence_length.avg');
  const visible = reported(d, 'output_token_count.avg');
  if (reasoning !== null && reasoning > 0) {
    numbers.reasoning_tokens_mean = { value: reported(d, 'reasoning_token_count.avg') ?? reasoning, unit: 'tokens' };
    if (osl !== null) numbers.output_sequence_length_mean = { value: osl, unit: 'tokens' };
    if (visible !== null) numbers.visible_output_tokens_mean = { value: visible, unit: 'tokens' };
    const included = osl !== null && visible !== null && osl > visible * (1 + TOKEN_COUNT_TOLERANCE);
    return { id, verdict: 'warn', message: `the run produced reasoning tokens${included ? ` and counts them as output (${formatMessage(osl!)} per request, of which ${formatMessage(visible!)} visible)` : ''}: its tokens/s ${included ? 'include' : 'may include'} tokens the user never sees`, numbers };
  }
  if (d.format.startsWith('aiperf') && (lacks.includes('serverTokenCounts') || !d.perRequest)) {
    return { id, verdict: 'warn', message: 'output tokens are AIPerf’s own count (a client tokenizer unless the run used --use-server-token-count): the file does not say which, so its tokens/s may not be the server’s tokens', numbers };
  }
  const printsTokens = Object.values(d.imported.reported).some((v) => v.unit === 'tokens' || v.unit === 'tokens/s');
  if (d.perRequest ? lacks.includes('outputTokens') : !printsTokens) return unknown(id, 'the file keeps no output token counts', numbers);
  if (d.format === 'stopwatches') return { id, verdict: 'ok', message: 'the simulator counts the tokens it served: one unit throughout', numbers };
  if (d.format.startsWith('mlperf')) return { id, verdict: 'ok', message: 'token counts are the ones the system under test reported to LoadGen for each query', numbers };
  if (!d.perRequest && !SERVER_COUNTED.includes(d.format)) return unknown(id, 'the file prints token totals but not whose tokenizer counted them', numbers);
  const sourceWords = lacks.includes('serverTokenCounts') ? 'the client’s count' : 'the server’s usage counts';
  return { id, verdict: 'ok', message: `output tokens are ${sourceWords}; no reasoning tokens recorded`, numbers };
}
