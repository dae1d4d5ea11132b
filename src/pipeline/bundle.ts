/**
 * Bundles an experiment module with esbuild. The bundle does two jobs:
 * 1. Its import closure is the experiment's code identity: every project file
 *    esbuild loaded, with the sha256 of the exact bytes it bundled, goes into
 *    the cache key (npm packages stay external; the lockfile pins them).
 * 2. It is what runs: the main thread and the worker threads import the same
 *    plain-JS file, so workers need no TypeScript loader and cannot run code
 *    other than the code that was hashed.
 * A bundle on disk is named by the sha256 of its code and verified against it
 * before every use, like a cache entry: an edited or truncated file is rewritten,
 * never imported.
 */
import { build, type Loader, type Plugin } from 'esbuild';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sha256 } from '../fs/hash.ts';
import { writeFileAtomic } from '../fs/atomic.ts';
import { toPosix } from './fsutil.ts';
import { UserError } from '../errors.ts';

export interface ExperimentBundle {
  /** Absolute path of the bundled ES module (exports `experiment`, `createRng`, `hashLabel`, `encodeResult`). */
  file: string;
  /** The import closure: root-relative POSIX path → sha256 of the bytes bundled. Sorted by path. */
  files: Record<string, string>;
  /** Set when the file on disk was not the bundle's bytes (edited, truncated): what was wrong. It has been rewritten. */
  repaired?: string;
}

export interface BundleOptions {
  root: string;
  /** Absolute path of the experiment module. */
  entry: string;
  /** Absolute path of the RNG module the worker seeds jobs with (part of the closure: it shapes every result). */
  rngModule: string;
  /** Absolute path of the result codec the worker encodes with (part of the closure: it shapes the cached text). */
  codecModule: string;
  /** Where bundles are written. */
  outDir: string;
  /** File name stem (the experiment's file name). */
  name: string;
}

const LOADERS: Record<string, Loader> = {
  '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx',
  '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx', '.json': 'json',
};

/** Bundles kept per experiment (older ones are deleted): enough to switch branches back and forth. */
const BUNDLES_KEPT = 4;

/**
 * Loads every file itself so the hash is of the bytes bundled (not of a later
 * re-read), and pins `import.meta.url|dirname|filename` to the source file's own
 * location, so `new URL('../corpora/x', import.meta.url)` means the same in the bundle.
 */
export function hashingLoader(root: string, files: Record<string, string>): Plugin {
  return {
    name: 'stopwatches-hash',
    setup(b) {
      b.onLoad({ filter: /.*/, namespace: 'file' }, async (args) => {
        const bytes = await readFile(args.path);
        files[toPosix(relative(root, args.path))] = sha256(bytes);
        const loader = LOADERS[extname(args.path)] ?? 'default';
        let contents: string | Uint8Array = bytes;
        if (loader !== 'json' && loader !== 'default') {
          const text = bytes.toString('utf8');
          contents = text.includes('import.meta')
            ? text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, p: string) =>
                JSON.stringify(p === 'url' ? pathToFileURL(args.path).href : p === 'dirname' ? dirname(args.path) : args.path),
              )
            : text;
        }
        return { contents, loader, resolveDir: dirname(args.path) };
      });
    },
  };
}

/** What esbuild says when `path` (as the user names it) does not bundle: its first error, where it is. */
export function bundleError(path: string, err: unknown): UserError {
  const first = (err as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors?.[0];
  return new UserError(`${path}: cannot bundle: ${first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : (err as Error).message}`);
}

/**
 * A project module imported from its bundle, held in memory: how `run` reads its
 * registry (experiments/index.ts), so that no command needs a TypeScript loader
 * and every one may start from the command line's bundle (src/cli-bundle.ts).
 * Everything the module imports is bundled in, packages too: a module imported
 * from a data: URL resolves nothing but Node's own modules.
 */
export async function importBundled(root: string, entry: string): Promise<Record<string, unknown>> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [hashingLoader(root, {})],
  });
  const code = Buffer.from(result.outputFiles[0]!.contents).toString('base64');
  return (await import(`data:text/javascript;base64,${code}`)) as Record<string, unknown>;
}

export async function bundleExperiment(opts: BundleOptions): Promise<ExperimentBundle> {
  const entrySource =
    `export { default as experiment } from ${JSON.stringify(opts.entry)};\n` +
    `export { createRng, hashLabel } from ${JSON.stringify(opts.rngModule)};\n` +
    `export { encodeResult } from ${JSON.stringify(opts.codecModule)};\n`;
  return bundleSource(opts.root, entrySource, opts.entry, opts.outDir, opts.name);
}

/**
 * Bundles a figures module (exports `figures`) for the main thread. Its closure
 * is returned but belongs to no job key: figures are drawn from combined data.
 */
export async function bundleFigures(opts: { root: string; entry: string; outDir: string; name: string }): Promise<ExperimentBundle> {
  // `export *`, so a module without `figures` still bundles and the runner can say what is missing.
  return bundleSource(opts.root, `export * from ${JSON.stringify(opts.entry)};\n`, opts.entry, opts.outDir, opts.name);
}

async function bundleSource(rootDir: string, entrySource: string, entry: string, outDir: string, name: string): Promise<ExperimentBundle> {
  const root = resolve(rootDir);
  const loaded: Record<string, string> = {};
  const result = await build({
    stdin: { contents: entrySource, resolveDir: root, sourcefile: 'stopwatches-entry.js', loader: 'js' },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: outDir,
    sourcemap: 'inline',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [hashingLoader(root, loaded)],
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild produced no output for ${entry}`);

  // The metafile says what is in the closure; the loader says what each file's bytes were.
  const files: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    if (input.startsWith('<stdin>') || input === 'stopwatches-entry.js') continue;
    const rel = toPosix(input);
    files[rel] = loaded[rel] ?? sha256(await readFile(resolve(root, input)));
  }

  const code = out.text;
  const hash = sha256(code);
  const file = join(outDir, `${name}-${hash.slice(0, 16)}.mjs`);
  const repaired = await verifyBundle(file, hash);
  if (repaired !== null) {
    await writeFileAtomic(file, code);
    await pruneBundles(outDir, name, file);
  }
  return { file, files, ...(repaired ? { repaired } : {}) };
}

/** null when `file` holds exactly the code of sha256 `hash`; '' when it is absent; else what is wrong with it. */
async function verifyBundle(file: string, hash: string): Promise<string | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    return `unreadable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
  return sha256(bytes) === hash ? null : 'hash mismatch';
}

async function pruneBundles(dir: string, name: string, keep: string): Promise<void> {
  const mine = (await readdir(dir)).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.mjs') && /^[0-9a-f]{16}$/.test(f.slice(name.length + 1, -4)));
  const withTimes = await Promise.all(mine.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
  withTimes.sort((a, b) => b.t - a.t);
  for (const { f } of withTimes.slice(BUNDLES_KEPT)) {
    if (join(dir, f) !== keep) await rm(join(dir, f), { force: true });
  }
}
