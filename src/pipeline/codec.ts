/**
 * Job results as JSON text, without JSON's silent losses: NaN and ±Infinity
 * (which JSON.stringify turns into null) and typed arrays (which it turns into
 * `{"0": …, "1": …}`) are written as tagged objects and revived exactly. A
 * fresh result and a cached one therefore reach `combine` as the same values.
 * Map and Set have no faithful JSON form: they are an error naming the key.
 *
 * Bundled into every experiment bundle, so the worker encodes with the very
 * code whose hash is in the cache key.
 */
const TAG = '$sw';

const TYPED: Record<string, new (xs: number[]) => ArrayLike<number>> = {
  Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array, Uint8ClampedArray,
};

export function encodeResult(value: unknown, what: string): string {
  const text = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    if (typeof v === 'number') return Number.isFinite(v) ? v : { [TAG]: String(v) };
    if (typeof v === 'bigint') throw new TypeError(`${what}: the value at key "${key}" is a bigint; JSON cannot hold it`);
    if (v && typeof v === 'object') {
      if (ArrayBuffer.isView(v)) {
        const name = v.constructor.name;
        if (!(name in TYPED)) throw new TypeError(`${what}: the value at key "${key}" is a ${name}; use a plain array`);
        return { [TAG]: name, data: Array.from(v as unknown as ArrayLike<number>) };
      }
      if (v instanceof Map || v instanceof Set) {
        throw new TypeError(`${what}: the value at key "${key}" is a ${v.constructor.name}; return arrays or plain objects`);
      }
    }
    return v;
  });
  if (text === undefined) throw new TypeError(`${what} is undefined; it must be JSON data`);
  return text;
}

export function decodeResult(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && TAG in v) {
      const tag = (v as Record<string, unknown>)[TAG];
      if (tag === 'NaN') return Number.NaN;
      if (tag === 'Infinity') return Number.POSITIVE_INFINITY;
      if (tag === '-Infinity') return Number.NEGATIVE_INFINITY;
      const Ctor = typeof tag === 'string' ? TYPED[tag] : undefined;
      if (Ctor) return new Ctor((v as unknown as { data: number[] }).data);
    }
    return v;
  });
}
