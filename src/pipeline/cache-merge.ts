/**
 * `stopwatches cache merge DIR…`: brings the entries of other cache folders
 * (the shards of a build, a CI artifact) into this project's cache.
 *
 * Every entry is verified as a read would (header for its key, manifest
 * hashing to the key, result bytes matching size and sha256) before it is
 * copied; an entry that fails is skipped and counted, never copied. Entries
 * already present are left alone (an entry's bytes are fixed by its key, up to
 * the runtime it recorded), and copies are atomic.
 *
 * Where an entry goes is decided by this cache's layout for its verified key
 * and manifest, never by a path from the source: the folder names pass through
 * `jobSlug`, and the destination is checked to lie inside the cache (a folder
 * of the cache that is a link to elsewhere is refused). The source folders are
 * walked without following links, and only regular files are read.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { UserError } from '../errors.ts';
import { JobCache, verifyEntry } from './cache.ts';
import { writeFileAtomic } from '../fs/atomic.ts';
import { walkFiles } from '../fs/walk.ts';
import { cachePaths } from './outputs.ts';

export interface MergeReport {
  copied: number;
  present: number;
  corrupt: string[];
}

/** A shard's cache folder, given as the folder itself, its `.cache`, or the project root that holds it. */
export function resolveCacheFolder(dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`cache merge: ${dir} is not a folder`);
  for (const sub of [cachePaths(dir).experiments, join(dir, 'experiments')]) {
    if (existsSync(sub) && statSync(sub).isDirectory()) return sub;
  }
  return dir;
}

const ENTRY = /^[0-9a-f]{64}\.json$/;

export async function mergeCaches(target: string, sources: string[]): Promise<MergeReport> {
  const report: MergeReport = { copied: 0, present: 0, corrupt: [] };
  const cache = new JobCache(target);
  for (const source of sources.map(resolveCacheFolder)) {
    const files = walkFiles(source).filter((f) => ENTRY.test(f.split(sep).pop()!));
    for (const rel of files) {
      const raw = readFileSync(join(source, rel));
      const key = rel.split(sep).pop()!.slice(0, -'.json'.length);
      const checked = verifyEntry(raw, key);
      if ('error' in checked) {
        report.corrupt.push(`${relative(process.cwd(), join(source, rel))}: ${checked.error}`);
        continue;
      }
      // Placed where a lookup of its (verified) manifest looks, whatever folder it came from.
      const to = cache.entryPath(checked.header.manifest, key);
      if (!insideCache(target, to)) {
        report.corrupt.push(`${relative(process.cwd(), join(source, rel))}: its place in the cache (${relative(target, to)}) leads outside ${relative(process.cwd(), target) || '.'}`);
        continue;
      }
      if (existsSync(to)) {
        report.present++;
        continue;
      }
      await writeFileAtomic(to, raw);
      report.copied++;
    }
  }
  return report;
}

/**
 * `path` lies inside the cache folder `root`, checked on the real file system:
 * its nearest existing folder, links resolved, is `root` or below it, and the
 * entry itself is not a link.
 */
function insideCache(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (!rel || isAbsolute(rel) || rel.split(sep).includes('..')) return false;
  let dir = dirname(path);
  while (!existsSync(dir) && dir !== dirname(dir)) dir = dirname(dir);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return true; // no cache yet: the lexical check holds, everything is created below it
  }
  const realDir = realpathSync(dir);
  if (realDir !== realRoot && !realDir.startsWith(realRoot + sep)) return false;
  try {
    return !lstatSync(path).isSymbolicLink();
  } catch {
    return true;
  }
}
