/**
 * `expect(actual).toEqual(expected)` and `.toStrictEqual(expected)` for large
 * values (arrays of a run's times, whole imported results), compared first with
 * node:util's isDeepStrictEqual: 3–20 times cheaper than the matchers on
 * 200,000 numbers or 20,000 records, which the suite compares often enough for
 * the matchers to cost seconds. isDeepStrictEqual is the stricter comparison
 * (own keys, prototypes, -0 against 0), so what it finds equal the matchers
 * accept; anything else goes to the matcher, which decides and prints its diff.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

export function expectEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}

export function expectStrictEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toStrictEqual(expected);
}
