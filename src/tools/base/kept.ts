/**
 * What is computed once from a list of records and shared by every tool that
 * asks (the successful records, a definition's collected values, GuideLLM's
 * samples), kept on the list itself, under a symbol only this module holds,
 * for as long as the list lives.
 *
 * Not in a WeakMap keyed by the list: V8's young-generation collector keeps a
 * WeakMap's values alive until the next full collection, and these values
 * hold the records (or arrays as long as the run), so every run's records
 * were copied at each minor collection until then. In the build's definitions
 * loop that was most of the collector's time (bench/metrics.bench.ts). A list
 * that cannot take a property (a frozen one) falls back to a WeakMap.
 */
import type { RequestRecord } from './records.ts';

const KEPT = Symbol('kept beside the records');

type Shelf = Map<unknown, { of: number; value: unknown }>;
type Shelved = readonly RequestRecord[] & { [KEPT]?: Shelf };

const frozenLists = new WeakMap<readonly RequestRecord[], Shelf>();

function shelfOf(records: readonly RequestRecord[], create: boolean): Shelf | undefined {
  const own = (records as Shelved)[KEPT];
  if (own || !create) return own ?? frozenLists.get(records);
  if (!Object.isExtensible(records)) {
    let s = frozenLists.get(records);
    if (!s) frozenLists.set(records, (s = new Map()));
    return s;
  }
  const s: Shelf = new Map();
  Object.defineProperty(records, KEPT, { value: s, enumerable: false });
  return s;
}

/** What was kept on `records` under `key`, unless the list has grown since (a value made of fewer records is stale). */
export function keptOn<T>(records: readonly RequestRecord[], key: unknown): T | undefined {
  const e = shelfOf(records, false)?.get(key);
  return e && e.of === records.length ? (e.value as T) : undefined;
}

/** Keep `value` on `records` under `key`, as made of the list as it is now; returns `value`. */
export function keepOn<T>(records: readonly RequestRecord[], key: unknown, value: T): T {
  shelfOf(records, true)!.set(key, { of: records.length, value });
  return value;
}
