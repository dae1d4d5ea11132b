/**
 * The article's two checks for a published table row ("Two checks anyone can
 * run"): Little's law and the roofline envelope. Pure functions of numbers;
 * the CLI (src/commands/check.ts) parses flags into a CheckInput.
 */
import { UserError } from '../errors.ts';
import { littlesLaw, type LittleInput } from './littles-law.ts';
import { rooflinePerUser, rooflineTotal, type RooflineInput } from './roofline.ts';
import type { CheckOutcome } from './types.ts';

export { littlesLaw, LITTLE_TOLERANCE } from './littles-law.ts';
export { perUserBound, rooflinePerUser, rooflineTotal, totalBound } from './roofline.ts';
export { GPUS, MODELS, gpuPreset, modelPreset } from './presets.ts';
export type { CheckOutcome } from './types.ts';
export type { LittleInput } from './littles-law.ts';
export type { RooflineInput } from './roofline.ts';

export interface CheckInput {
  little?: LittleInput;
  roofline?: RooflineInput;
}

export function runChecks(input: CheckInput): CheckOutcome[] {
  const out: CheckOutcome[] = [];
  if (input.little) out.push(littlesLaw(input.little));
  const r = input.roofline;
  if (r) {
    if (r.perUserTps === undefined && r.totalTps === undefined) {
      throw new UserError('the roofline check needs --per-user-tps and/or --total-tps');
    }
    if (r.perUserTps !== undefined) out.push(rooflinePerUser(r));
    if (r.totalTps !== undefined) out.push(rooflineTotal(r));
  }
  for (const o of out) assertFinite(o);
  if (out.length === 0) {
    throw new UserError(
      'nothing to check: give --concurrency, --rate and --latency (Little’s law), and/or --per-user-tps / --total-tps with --model and --gpu (roofline)',
    );
  }
  return out;
}

/**
 * A check whose numbers overflow or vanish says nothing: extreme inputs (a bandwidth of 1e300 TB/s,
 * weights of 1e-300 B) would print `Infinity tok/s` as if it were a finding. Refuse them instead,
 * naming the quantity. A skipped check carries no numbers to trust and is let through.
 */
function assertFinite(o: CheckOutcome): void {
  if (o.status === 'skipped') return;
  const bad = Object.entries(o.values).find(([, v]) => !Number.isFinite(v)) ?? (o.ratio !== null && !Number.isFinite(o.ratio) ? ['ratio', o.ratio] : null);
  if (!bad) return;
  const name = { 'littles-law': "Little's law", 'roofline-per-user': 'the per-user roofline', 'roofline-total': 'the total roofline' }[o.check];
  throw new UserError(`${name}: ${bad[0]} comes out as ${bad[1]}; the inputs are out of any real range, check their values and units`);
}

/** 0 when every check that ran passed, 1 when any found an inconsistency. */
export function exitStatus(outcomes: CheckOutcome[]): 0 | 1 {
  return outcomes.some((o) => o.status === 'fail') ? 1 : 0;
}

export function formatOutcomes(outcomes: CheckOutcome[]): string {
  const tag = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP' } as const;
  return outcomes.map((o) => `${tag[o.status]}  ${o.message}`).join('\n') + '\n';
}
