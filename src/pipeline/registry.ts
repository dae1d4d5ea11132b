/**
 * The registry (experiments/index.ts) is a list of module paths in paper order,
 * not of imported modules: listing is free, the runner bundles and imports each
 * module itself (the bundle is both the cache key and the code that runs).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UserError } from '../errors.ts';

/** A module path relative to the project root, or one that may not exist yet. */
export type RegistryEntry = string | { path: string; optional: true };

/**
 * An experiment that is being written: skipped (with a plan line saying so)
 * while its file does not exist. Replace with the bare path once it has landed.
 */
export function ifPresent(path: string): RegistryEntry {
  return { path, optional: true };
}

export interface ResolvedEntry {
  /** Root-relative path as written in the registry. */
  path: string;
  /** Absolute path. */
  file: string;
}

/** Resolves entries against the root; missing optional entries are returned apart, missing required ones are an error. */
export function resolveRegistry(root: string, entries: RegistryEntry[]): { present: ResolvedEntry[]; absent: string[] } {
  const present: ResolvedEntry[] = [];
  const absent: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const path = typeof entry === 'string' ? entry : entry.path;
    const file = isAbsolute(path) ? path : resolve(root, path);
    if (seen.has(file)) throw new UserError(`experiments/index.ts: ${path} is listed twice`);
    seen.add(file);
    if (!existsSync(file)) {
      if (typeof entry !== 'string' && entry.optional) absent.push(path);
      else throw new UserError(`experiments/index.ts: ${path} does not exist (mark it ifPresent(...) while it is being written)`);
      continue;
    }
    present.push({ path, file });
  }
  return { present, absent };
}
