/**
 * inference-perf's own lifecycle aggregates beside the same quantities
 * recomputed from per-request records with its definitions (of the version
 * whose layout the records came in). Only keys the records can give are
 * compared; the schedule delay cannot be (the per-request file keeps no
 * scheduled times).
 */
import { agreement } from '../base/agreement.ts';
import type { Agreement, Imported, Reported } from '../base/result.ts';
import { DEFAULT_VERSION, inferencePerfLifecycle, type InferencePerfVersion } from './definitions.ts';

export function inferencePerfAgreement(res: Imported, reported: Record<string, Reported> = res.reported): Agreement[] {
  const version = (res.definitions?.['inference-perf'] as InferencePerfVersion | undefined) ?? DEFAULT_VERSION;
  const percents = [...new Set(Object.keys(reported).flatMap((k) => {
    const m = /\.p(\d+(?:\.\d+)?)$/.exec(k);
    return m ? [Number(m[1])] : /\.median$/.test(k) ? [50] : [];
  }))];
  const mine = inferencePerfLifecycle(res.run, version, percents);
  const out: Agreement[] = [];
  for (const [key, rep] of Object.entries(reported)) {
    if (!(key in mine)) continue;
    out.push(agreement(key, rep.value, rep.unit, { value: mine[key] }));
  }
  return out;
}
