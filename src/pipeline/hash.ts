/**
 * Canonical JSON, which with sha256 (src/fs/hash.ts) makes the content-addressed
 * cache's keys. Canonical JSON sorts object keys by code unit (never a locale),
 * so two configs that differ only in key order get the same key.
 */

/**
 * JSON with object keys sorted at every depth. Rejects what JSON cannot hold
 * faithfully (NaN, ±Infinity, undefined inside arrays, functions, bigint), naming
 * the path, so a config can never hash two different values the same.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}; JSON cannot hold it`);
      return JSON.stringify(value);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value.map((v, i) => canonicalJson(v, `${path}[${i}]`)).join(',')}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`${path} is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}; only JSON values are allowed`);
  }
}

/** Freezes an object graph so a job cannot mutate the shared config (which would leak between jobs of one worker). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
