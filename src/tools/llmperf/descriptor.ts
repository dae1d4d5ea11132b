/**
 * LLMPerf: everything the project knows about it, for the registry.
 */
import { defineTool } from '../base/descriptor.ts';
import { isObject, type Json, type JsonObject } from '../base/reading.ts';
import { llmperfAgreement } from './agreement.ts';
import { LLMPERF_VERSION_LABELS } from './definitions.ts';
import { importLlmperf } from './reader.ts';
import { llmperfReport, llmperfSpeeds } from './report.ts';

/** Keys of one request in *_individual_responses.json. */
const LLMPERF_KEYS = ['end_to_end_latency_s', 'ttft_s', 'inter_token_latency_s', 'number_output_tokens'];
const hasKeys = (o: JsonObject): boolean => LLMPERF_KEYS.some((k) => k in o);

/** A list of requests ranks first; a summary's flat results_* keys next; one request object last (its keys are common words). */
function sniffLlmperf(v: Json): number | null {
  if (Array.isArray(v)) {
    const first = v.find((e) => isObject(e));
    return first !== undefined && hasKeys(first as JsonObject) ? 10 : null;
  }
  if (!isObject(v)) return null;
  if (Object.keys(v).some((k) => /^results_(ttft_s|end_to_end_latency_s|inter_token_latency_s)_/.test(k))) return 24;
  return hasKeys(v) ? 27 : null;
}

export const llmperf = defineTool({
  id: 'llmperf',
  name: 'LLMPerf',
  source: {
    repository: 'ray-project/llmperf',
    files: [
      { path: 'token_benchmark_ray.py' },
      { path: 'src/llmperf/ray_clients/openai_chat_completions_client.py' },
      { path: 'src/llmperf/utils.py' },
      { path: 'src/llmperf/common_metrics.py' },
    ],
  },
  table1: {
    clockStart: 'just before requests.post',
    firstToken: 'first non-empty delta.content',
    end: 'after the stream closes',
    perToken: 'inter_token_latency_s = (last content − start)/N_messages (SSE data messages, role chunk included)',
    perTokenArticle: '(last content − start)/L, L = Llama-2 token count + 1 (the start-of-sequence token)',
    percentile: 'pandas quantile (linear); std ddof 1',
    version: 'f1d6bed (2024-12-08), the article\u2019s commit',
    implementation: 'src/tools/llmperf/definitions.ts llmperfInterTokenLatency (code), llmperfInterTokenLatencyArticle (article)',
  },
  table2: {
    arrivals: 'none',
    clock: 'none',
    window: 'none',
    percentileQuality: 'none',
    tokens: 'Llama-2 tokenizer, always, start-of-sequence token included',
  },
  report: llmperfReport,
  speeds: llmperfSpeeds,
  formats: [
    {
      id: 'llmperf',
      description: 'LLMPerf *_individual_responses.json (before and after commit afd137a) and *_summary.json',
      nameInSentence: 'an LLMPerf result',
      sniff: { json: sniffLlmperf, fileName: (name) => (name.includes('individual_responses') ? 4 : null) },
      read: importLlmperf,
      aggregates: true,
      agreement: llmperfAgreement,
    },
  ],
  versions: [LLMPERF_VERSION_LABELS['before-afd137a'], LLMPERF_VERSION_LABELS.afd137a, LLMPERF_VERSION_LABELS.f1d6bed],
});
