/**
 * A plain NumberValue (a count, a derived constant, a ratio): no sample
 * statistics. Apart from measure.ts so an experiment that needs only this
 * (tokens) does not carry the statistics modules in its job keys.
 */
import type { NumberValue } from '../../src/pipeline/types.ts';

export function num(value: number, unit: string, n: number | null = null): NumberValue {
  return { value, unit, n, interval: null };
}
