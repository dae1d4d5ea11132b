/**
 * Random simulator scenarios for the property tests: the draws a scenario's
 * parameters describe, turned into a server, a workload and a client. One
 * builder, so the kernel comparison and the reference comparison test the same
 * kind of scenario.
 */
import { Rng } from '../../src/rng/index.ts';
import { defaultServerConfig, peakBlocks, type ClientSpec, type ServerConfig, type Workload } from '../../src/sim/index.ts';

export interface ScenarioParams {
  n: number;
  seed: number;
  blockSize: number;
  tokenBudget: number;
  maxNumSeqs: number;
  /** KV pool in units of the largest request's peak blocks: near 1 preempts constantly. */
  poolFactor: number;
  kind: 'open' | 'closed' | 'capped';
  /** Slots of a closed client, cap of a capped one. */
  limit: number;
  rate: number;
  maxIsl: number;
  maxOsl: number;
  withCached: boolean;
}

export interface Scenario {
  cfg: ServerConfig;
  workload: Workload;
  client: ClientSpec;
}

export function scenarioFrom(p: ScenarioParams): Scenario {
  const rng = new Rng(p.seed);
  const isl = Array.from({ length: p.n }, () => rng.int(1, p.maxIsl));
  const osl = Array.from({ length: p.n }, () => rng.int(1, p.maxOsl));
  const cached = p.withCached ? isl.map((l) => (rng.random() < 0.5 ? 0 : rng.int(0, l - 1))) : null;
  let peak = 1;
  for (let i = 0; i < p.n; i++) peak = Math.max(peak, peakBlocks(isl[i], osl[i], cached ? cached[i] : 0, p.blockSize));
  const cfg = defaultServerConfig();
  cfg.blockSize = p.blockSize;
  cfg.tokenBudget = p.tokenBudget;
  cfg.maxNumSeqs = p.maxNumSeqs;
  // a pool from just big enough (heavy preemption) to roomy; not always a multiple of the block size
  cfg.kvCapacityTokens = Math.ceil(peak * p.poolFactor) * p.blockSize + rng.int(0, p.blockSize - 1);
  const times: number[] = [];
  let t = 0;
  for (let i = 0; i < p.n; i++) {
    if (rng.random() >= 0.2) t += rng.exponential(p.rate); // 20% ties
    times.push(t);
  }
  const client: ClientSpec =
    p.kind === 'closed' ? { kind: 'closed', slots: p.limit }
    : p.kind === 'open' ? { kind: 'open', times }
    : { kind: 'capped', times, cap: p.limit };
  return { cfg, workload: { isl, osl, cached }, client };
}
