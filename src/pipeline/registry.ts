/**
 * The registry (experiments/index.ts) is a list of module paths in paper order,
 * not of imported modules: listing is free, the runner bundles and imports each
 * module itself (the bundle is both the cache key and the code that runs).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UserError } from '../errors.ts';

export interface ResolvedEntry {
  /** Root-relative path as written in the registry. */
  path: string;
  /** Absolute path. */
  file: string;
}

/** Resolves module paths against the root; a missing or repeated one is an error naming it. */
export function resolveRegistry(root: string, paths: string[]): ResolvedEntry[] {
  const present: ResolvedEntry[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (typeof path !== 'string') throw new UserError(`experiments/index.ts: ${JSON.stringify(path)} is not a module path`);
    const file = isAbsolute(path) ? path : resolve(root, path);
    if (seen.has(file)) throw new UserError(`experiments/index.ts: ${path} is listed twice`);
    seen.add(file);
    if (!existsSync(file)) throw new UserError(`experiments/index.ts: ${path} does not exist`);
    present.push({ path, file });
  }
  return present;
}
