/**
 * Data rows: an experiment's combined data (data/<exp>.json, what its figures
 * draw) flattened into rows by path, so two versions pair row by row and a
 * reviewer sees which points of a figure moved and by how much.
 */

/**
 * Flattens combined data into rows: an object whose fields are all scalars (or
 * short scalar arrays such as an interval) is one row at its path
 * (`rows[3]`); a scalar in an array is a row of its own (`fixed[12]`); deeper
 * structure is walked. Paths are stable for the same shape, so rows pair by path.
 */
export function dataRows(data: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const isScalar = (v: unknown) => v === null || typeof v !== 'object';
  const isLeafish = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.length <= 4 && v.every(isScalar));
  const walk = (v: unknown, p: string) => {
    if (isScalar(v)) {
      out.set(p || '(value)', v);
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${p}[${i}]`));
      if (v.length === 0) out.set(p || '(value)', v);
      return;
    }
    const obj = v as Record<string, unknown>;
    const leaf: Record<string, unknown> = {};
    const nested: string[] = [];
    for (const k of Object.keys(obj)) (isLeafish(obj[k]) ? (leaf[k] = obj[k]) : nested.push(k));
    if (Object.keys(leaf).length || nested.length === 0) out.set(p || '(top)', leaf);
    for (const k of nested) walk(obj[k], p ? `${p}.${k}` : k);
  };
  walk(data, path);
  return out;
}

export interface RowChange {
  path: string;
  kind: 'changed' | 'added' | 'removed';
  old?: unknown;
  new?: unknown;
  /** Fields that differ, for object rows. */
  fields?: string[];
}

export function compareData(base: unknown, cur: unknown): RowChange[] {
  const a = dataRows(base);
  const b = dataRows(cur);
  const out: RowChange[] = [];
  const paths = [...a.keys()];
  for (const p of b.keys()) if (!a.has(p)) paths.push(p);
  for (const p of paths) {
    const inA = a.has(p);
    const inB = b.has(p);
    const x = a.get(p);
    const y = b.get(p);
    if (inA && inB) {
      if (JSON.stringify(x) === JSON.stringify(y)) continue;
      const isObj = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
      const fields = isObj(x) && isObj(y)
        ? [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])].filter(
            (k) => JSON.stringify((x as Record<string, unknown>)[k]) !== JSON.stringify((y as Record<string, unknown>)[k]),
          )
        : undefined;
      out.push({ path: p, kind: 'changed', old: x, new: y, ...(fields ? { fields } : {}) });
    } else if (inA) out.push({ path: p, kind: 'removed', old: x });
    else out.push({ path: p, kind: 'added', new: y });
  }
  return out;
}
