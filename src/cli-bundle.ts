/**
 * The command line as plain JavaScript, for every command (bin/bundled.mjs).
 * Started through tsx, every one of the two hundred modules a `metrics` run
 * loads is resolved and loaded by a round trip to tsx's loader thread: 0.8–0.9 s
 * before the first byte of the file is read, more than half of a small file's
 * whole run (and of an up-to-date `run`). The same modules bundled by esbuild
 * (split where the code imports lazily, so a command still loads only what it
 * uses; npm packages stay external) start in about 0.3 s. No command imports
 * TypeScript at run time: `run` reads its registry through esbuild
 * (src/pipeline/bundle.ts, importBundled), as it does the experiments.
 *
 * The bundle is never trusted for being there: `.cache/cli/current.json`
 * lists every project file it was built from (and the builder, the compiler
 * settings and the lockfile) and every file it consists of, each with its
 * sha256, and bin/bundled.mjs checks all of them before each use; a mismatch
 * (an edited source, a changed bundle) falls back to tsx, which rebuilds it.
 * `import.meta.url` keeps meaning the source file's own location (the loader
 * of src/pipeline/bundle.ts pins it, as for experiments).
 */
import { build } from 'esbuild';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { sha256 } from './fs/hash.ts';
import { writeFileAtomic, writeFileAtomicSync } from './fs/atomic.ts';
import { replaceOwnedFolder } from './fs/folder.ts';
import { hashingLoader } from './pipeline/bundle.ts';
import { toPosix } from './pipeline/fsutil.ts';

/** Where the bundles live, under the package root; `current.json` names the one in use. */
export const CLI_BUNDLE_DIR = join('.cache', 'cli');

/** What `current.json` holds: the bundle's folder and entry, and the sha256 of every input and output file. */
export interface CliBundleManifest {
  /** The folder, relative to CLI_BUNDLE_DIR: named by the hash of the outputs. */
  dir: string;
  /** The entry module in that folder (exports what src/cli.ts exports). */
  entry: string;
  /** Root-relative POSIX path of each project file bundled → its sha256. */
  inputs: Record<string, string>;
  /** Each file of the folder → its sha256. */
  outputs: Record<string, string>;
}

/** Files that make the bundle what it is without being in it; a change to one is a change to the bundle. */
const BUILT_BY = ['src/cli-bundle.ts', 'tsconfig.json', 'package-lock.json'];

/** Folders of other builds younger than this are kept: a process started from one may still import its lazy parts. */
const KEEP_OTHERS_MS = 60 * 60 * 1000;

/**
 * Bundles src/cli.ts into a new folder of `<root>/.cache/cli/`, then names it
 * in `current.json` (written last and atomically: a reader sees the old bundle
 * or the whole new one). Several processes may build at once: a folder that
 * already holds the same files is left as it is.
 */
export async function buildCliBundle(rootDir: string): Promise<CliBundleManifest> {
  const root = resolve(rootDir);
  const base = join(root, CLI_BUNDLE_DIR);
  const loaded: Record<string, string> = {};
  const result = await build({
    entryPoints: { cli: join(root, 'src', 'cli.ts') },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: base,
    entryNames: '[name]',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [hashingLoader(root, loaded)],
  });
  const hashes: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const rel = toPosix(input);
    hashes[rel] = loaded[rel] ?? sha256(await readFile(resolve(root, input)));
  }
  // what shaped the bundle besides its sources: this builder, the compiler settings, the pinned esbuild
  for (const rel of BUILT_BY) {
    const bytes = await readFile(join(root, rel)).catch(() => null);
    if (bytes) hashes[rel] = sha256(bytes);
  }
  const inputs: Record<string, string> = {};
  for (const rel of Object.keys(hashes).sort()) inputs[rel] = hashes[rel]!;
  const files = new Map(result.outputFiles.map((f) => [basename(f.path), f.contents] as const));
  const outputs: Record<string, string> = {};
  for (const name of [...files.keys()].sort()) outputs[name] = sha256(files.get(name)!);
  const dir = sha256(JSON.stringify(outputs)).slice(0, 16);
  const target = join(base, dir);
  // the same bundle may be there already (another process built it): kept when its files are these
  if (!(await holds(target, outputs))) {
    replaceOwnedFolder(target, OWNED, (tmp) => {
      for (const [name, bytes] of files) writeFileAtomicSync(join(tmp, name), bytes);
    }, (problem) => new Error(`${target} ${problem}`));
  }
  const manifest: CliBundleManifest = { dir, entry: 'cli.js', inputs, outputs };
  await writeFileAtomic(join(base, 'current.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  await pruneOthers(base, dir);
  return manifest;
}

/** The mark of a bundle folder (src/fs/folder.ts replaces only folders that carry it). */
const OWNED = { marker: '.stopwatches-cli-bundle', stamp: 'a bundle of src/cli.ts (src/cli-bundle.ts)\n' };

/** Whether `dir` holds exactly `outputs` (name → sha256). */
async function holds(dir: string, outputs: Record<string, string>): Promise<boolean> {
  try {
    const names = (await readdir(dir)).filter((f) => f !== OWNED.marker).sort();
    if (names.join('\n') !== Object.keys(outputs).join('\n')) return false;
    for (const f of names) if (sha256(await readFile(join(dir, f))) !== outputs[f]) return false;
    return true;
  } catch {
    return false;
  }
}

/** Removes the folders of earlier builds, once they are older than KEEP_OTHERS_MS. */
async function pruneOthers(base: string, keep: string): Promise<void> {
  const now = Date.now();
  for (const f of await readdir(base)) {
    if (f === keep || !/^[0-9a-f]{16}$/.test(f)) continue;
    const st = await stat(join(base, f)).catch(() => null);
    if (st && now - st.mtimeMs > KEEP_OTHERS_MS) await rm(join(base, f), { recursive: true, force: true });
  }
}
