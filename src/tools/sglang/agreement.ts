/**
 * SGLang's own aggregates beside the same quantities recomputed from the file's
 * per-request data with SGLang's definitions (of the version that wrote the file).
 */
import type { Agreement, Imported } from '../base/result.ts';
import { vllmStyleAgreement } from '../vllm/agreement.ts';
import { sglangE2e, sglangTpot, sglangTtft } from './definitions.ts';

/** bench_serving writes vLLM's keys; its TPOT and E2E end at the [DONE] line. */
export function sglangAgreement(res: Imported): Agreement[] {
  return vllmStyleAgreement(res, { ttft: sglangTtft, tpot: sglangTpot, e2eLatency: sglangE2e, tpotWhy: 'SGLang’s TPOT ends at the [DONE] line, which the file does not keep; the last chunk stands in' });
}
