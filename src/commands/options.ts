/**
 * Number-valued command-line options: one parser for every command, so a typo
 * gets the same one-line answer whichever flag it is in (`--jobs must be a
 * whole number ≥ 1, got "x"`) and no flag accepts '', Infinity or 1e999.
 */
import { UserError } from '../errors.ts';

export interface NumberRange {
  /** Lowest value allowed (or the bound it must exceed, with `above`). */
  min: number;
  /** Highest value allowed; none when a real run can need any size. */
  max?: number;
  integer?: boolean;
  /** The value must be greater than `min`, not equal to it. */
  above?: boolean;
}

/** A commander argument parser for a number within `range`; anything else is a UserError naming the flag. */
export function numberOption(flag: string, range: NumberRange): (v: string) => number {
  const kind = range.integer ? 'a whole number' : 'a number';
  const bounds = `${range.above ? '>' : '≥'} ${range.min}${range.max !== undefined ? ` and ≤ ${range.max}` : ''}`;
  return (v: string): number => {
    const x = Number(v);
    const ok =
      v.trim() !== '' &&
      Number.isFinite(x) &&
      (!range.integer || Number.isInteger(x)) &&
      (range.above ? x > range.min : x >= range.min) &&
      (range.max === undefined || x <= range.max);
    if (!ok) throw new UserError(`${flag} must be ${kind} ${bounds}, got "${v}"`);
    return x;
  };
}
