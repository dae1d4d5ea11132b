/**
 * Reads a corpus named in corpora/manifest.json and verifies it before anyone counts it.
 *
 * The corpus hash is the sha256 of the concatenation of its files' raw bytes,
 * files in code-unit order of their paths (JavaScript's default string order,
 * never a locale's), nothing between files. The file list must equal the
 * manifest's exactly, so a missing or extra file is reported by name.
 * Equivalent shell: `cat $(ls files | LC_ALL=C sort) | sha256sum` for ASCII paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { UserError } from '../errors.ts';
import { sha256 } from '../fs/hash.ts';
import { codePoints, codeUnitSort } from './hash.ts';
import { packageDir, type CorpusEntry, type CorpusFile } from './manifest.ts';

export interface CorpusText {
  path: string;
  text: string;
  bytes: number;
  characters: number;
}

export interface LoadedCorpus {
  id: string;
  files: CorpusText[];
  characters: number;
  bytes: number;
  sha256: string;
}

export interface CorpusOptions {
  root?: string;
  /** Directory of the installed package (npm corpora); tests point it at a temp copy. */
  dir?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Turns a path glob (`*` within a folder, `**` any number of folders) into an anchored RegExp. */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` = zero or more whole folders
      if (pattern[i + 2] === '/') {
        re += '(?:[^/]+/)*';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function walk(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...walk(dir, p));
    else if (d.isFile()) out.push(p);
  }
  return out;
}

/** The fixed folder a glob starts from (`docs/runtime/**\/*.mdx` → `docs/runtime`). */
function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?]/.test(p)) break;
    fixed.push(p);
  }
  return fixed.join('/');
}

function decode(corpus: string, path: string, bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UserError(`corpus ${corpus}: ${path} is not valid UTF-8`);
  }
}

/** Raw files of a corpus, as found (path → bytes), before verification. */
function readRaw(entry: CorpusEntry, root: string, dir?: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  if (entry.kind === 'project') {
    for (const f of entry.files) {
      try {
        files.set(f.path, readFileSync(join(root, f.path)));
      } catch {
        throw new UserError(`corpus ${entry.id}: cannot read ${f.path}`);
      }
    }
    return files;
  }
  const pkgDir = dir ?? join(root, packageDir(entry.package));
  let version: string | undefined;
  try {
    version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  } catch {
    throw new UserError(`corpus ${entry.id}: package ${entry.package} is not installed at ${pkgDir}; run npm ci`);
  }
  if (version !== entry.version) {
    throw new UserError(`corpus ${entry.id}: ${entry.package} is ${version}, the manifest pins ${entry.version}; run npm ci`);
  }
  const re = globToRegExp(entry.pattern);
  if (entry.kind === 'npm-files') {
    const base = globBase(entry.pattern);
    let found: string[];
    try {
      found = walk(pkgDir, base);
    } catch {
      throw new UserError(`corpus ${entry.id}: ${join(pkgDir, base)} is missing; run npm ci`);
    }
    for (const p of found) if (re.test(p)) files.set(p, readFileSync(join(pkgDir, p)));
    return files;
  }
  // npm-zip: the archive is not hashed as a whole (a re-compressed zip with the same
  // files is the same corpus); its entries are, through the concatenation hash below.
  let zip: Uint8Array;
  try {
    zip = readFileSync(join(pkgDir, entry.archive.path));
  } catch {
    throw new UserError(`corpus ${entry.id}: cannot read ${join(pkgDir, entry.archive.path)}; run npm ci`);
  }
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, { filter: (f) => re.test(f.name) });
  } catch (e) {
    throw new UserError(`corpus ${entry.id}: ${join(pkgDir, entry.archive.path)} is not a readable zip (${(e as Error).message})`);
  }
  for (const [name, bytes] of Object.entries(entries)) files.set(name, bytes);
  return files;
}

/** Hash and sizes of a set of files, in the manifest's concatenation order. */
export function describeFiles(corpus: string, raw: Map<string, Uint8Array>): { files: CorpusFile[]; texts: CorpusText[]; sha256: string; bytes: number; characters: number } {
  const paths = codeUnitSort([...raw.keys()]);
  const parts: Uint8Array[] = [];
  const files: CorpusFile[] = [];
  const texts: CorpusText[] = [];
  let bytes = 0;
  let characters = 0;
  for (const path of paths) {
    const b = raw.get(path)!;
    const text = decode(corpus, path, b);
    const chars = codePoints(text);
    parts.push(b);
    files.push({ path, sha256: sha256(b), bytes: b.length, characters: chars });
    texts.push({ path, text, bytes: b.length, characters: chars });
    bytes += b.length;
    characters += chars;
  }
  return { files, texts, sha256: sha256(Buffer.concat(parts)), bytes, characters };
}

/** Reads what is installed now, without comparing to the manifest (for the manifest tool). */
export function scanCorpus(entry: CorpusEntry, opts: CorpusOptions = {}) {
  return describeFiles(entry.id, readRaw(entry, opts.root ?? process.cwd(), opts.dir));
}

/** Reads and verifies a corpus; throws a UserError naming the corpus, expected and actual hash on any mismatch. */
export function loadCorpus(entry: CorpusEntry, opts: CorpusOptions = {}): LoadedCorpus {
  const root = opts.root ?? process.cwd();
  const raw = readRaw(entry, root, opts.dir);
  const got = describeFiles(entry.id, raw);
  if (got.sha256 !== entry.sha256) {
    const expected = new Map(entry.files.map((f) => [f.path, f.sha256]));
    const missing = entry.files.filter((f) => !raw.has(f.path)).map((f) => f.path);
    const extra = got.files.filter((f) => !expected.has(f.path)).map((f) => f.path);
    const changed = got.files.filter((f) => expected.has(f.path) && expected.get(f.path) !== f.sha256).map((f) => f.path);
    const detail = [
      missing.length ? `missing ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}` : '',
      extra.length ? `unexpected ${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ` and ${extra.length - 3} more` : ''}` : '',
      changed.length ? `changed ${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    throw new UserError(
      `corpus ${entry.id}: sha256 of the concatenation expected ${entry.sha256}, actual ${got.sha256}` +
        `${detail ? ` (${detail})` : ''}; reinstall with npm ci, or update corpora/manifest.json if the change is intended`,
    );
  }
  return { id: entry.id, files: got.texts, characters: got.characters, bytes: got.bytes, sha256: got.sha256 };
}
