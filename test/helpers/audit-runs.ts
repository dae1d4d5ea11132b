/**
 * Simulated runs with known truth for the audit's tests: a case (the golden
 * schema, with the server of test/fixtures/golden/closed_ranged.json) is run
 * by `stopwatches simulate --as vllm|aiperf`, so the audit reads the file
 * exactly as a user's tool would have written it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditRun, type AuditReport, type FindingId, type Verdict } from '../../src/audit/index.ts';
import { importResult } from '../../src/importers/index.ts';
import { createRng } from '../../src/rng/index.ts';
import { fixedLengths, inferencexLengths, poissonTimes } from '../../src/sim/workloads.ts';
import { runCli } from './cli.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CONFIG = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/golden/closed_ranged.json'), 'utf8')).config;

export interface Scenario {
  /** closed: N slots all sent at t = 0; ramp: N slots opened one every `rampGapS`; open / capped: Poisson at `rate`; burst: every request at t = 0, no cap. */
  client: 'closed' | 'ramp' | 'open' | 'capped' | 'burst';
  n: number;
  slots?: number;
  rate?: number;
  rampGapS?: number;
  /** Fixed lengths (isl, osl), else InferenceX-style ranged lengths in [0.8 L, L]. */
  fixed?: boolean;
  isl?: number;
  osl?: number;
  seed?: number;
}

export function caseJson(s: Scenario): object {
  const rng = createRng(s.seed ?? 1);
  const L = { isl: s.isl ?? 1024, osl: s.osl ?? 128 };
  const isl = s.fixed ? fixedLengths(s.n, L.isl) : inferencexLengths(rng.fork('isl'), s.n, L.isl, 0.8);
  const osl = s.fixed ? fixedLengths(s.n, L.osl) : inferencexLengths(rng.fork('osl'), s.n, L.osl, 0.8);
  let client: object;
  if (s.client === 'closed') client = { kind: 'closed', n_slots: s.slots };
  else if (s.client === 'burst') client = { kind: 'open', times: new Array<number>(s.n).fill(0) };
  else if (s.client === 'ramp') {
    // A closed loop whose slots open one by one: a cap of N over a schedule that releases slot k at k·gap and every later request at once.
    const gap = s.rampGapS!;
    const times = Array.from({ length: s.n }, (_, i) => Math.min(i, s.slots! - 1) * gap);
    client = { kind: 'capped', cap: s.slots, times };
  } else {
    const times = Array.from(poissonTimes(rng.fork('arrivals'), s.n, s.rate!));
    client = s.client === 'open' ? { kind: 'open', times } : { kind: 'capped', cap: s.slots, times };
  }
  return { config: CONFIG, client, workload: { n: s.n, isl: Array.from(isl), osl: Array.from(osl) } };
}

let dir: string | undefined;
let serial = 0;
/** The folder the runs are written to, made on first use. */
const folder = (): string => (dir ??= mkdtempSync(join(tmpdir(), 'audit-')));

/** Removes the files written so far (a test file's afterAll); the texts stay known, so a later file writes them again without simulating. */
export function removeSimulatedFiles(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

/** The file `simulate --as` writes for a scenario, its text edited by `edit` (to stand for another version of the tool). */
const simulated = new Map<string, string>();

export async function simulatedFile(s: Scenario, as: 'vllm' | 'aiperf', edit?: (text: string) => string): Promise<{ path: string; text: string }> {
  const id = serial++;
  const key = JSON.stringify([s, as]);
  const done = simulated.get(key);
  if (done !== undefined) {
    // the same scenario simulated before in this file: reuse its text (simulations are deterministic)
    const path = join(folder(), `run-${id}.${as === 'vllm' ? 'json' : 'jsonl'}`);
    const text = edit ? edit(done) : done;
    writeFileSync(path, text);
    return { path, text };
  }
  const casePath = join(folder(), `case-${id}.json`);
  writeFileSync(casePath, JSON.stringify(caseJson(s)));
  const out = join(folder(), `run-${id}.${as === 'vllm' ? 'json' : 'jsonl'}`);
  const r = await runCli(['simulate', casePath, '--as', as, '--out', out]);
  if (r.code !== 0) throw new Error(`simulate failed: ${r.err}`);
  const written = readFileSync(out, 'utf8');
  const text = s.client === 'ramp' ? asConcurrencyRamp(written, as) : written;
  simulated.set(key, text);
  const edited = edit ? edit(text) : text;
  if (edited !== written) writeFileSync(out, edited);
  return { path: out, text: edited };
}

/**
 * A ramped closed loop as the tools record it: vLLM's rate is inf (its
 * client has no schedule), AIPerf issues each credit when a slot opens, at
 * the send.
 */
function asConcurrencyRamp(text: string, as: 'vllm' | 'aiperf'): string {
  if (as === 'vllm') {
    const o = JSON.parse(text);
    o.request_rate = 'inf';
    return JSON.stringify(o);
  }
  return text.replace(/"credit_issued_ns":(\d+),"request_start_ns":(\d+)/g, '"credit_issued_ns":$2,"request_start_ns":$2');
}

export function audit(path: string, text: string): AuditReport {
  const res = importResult(path, text);
  return auditRun(path, res.format, res);
}

export function verdicts(r: AuditReport): Record<FindingId, Verdict> {
  return Object.fromEntries(r.findings.map((f) => [f.id, f.verdict])) as Record<FindingId, Verdict>;
}

export function finding(r: AuditReport, id: FindingId) {
  return r.findings.find((f) => f.id === id)!;
}
