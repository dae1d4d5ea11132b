/** Temp project roots for pipeline tests: fixture experiments copied in, node_modules linked. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { memoryReporter } from '../src/pipeline/progress.ts';
import { WorkerPool, type JobRunner } from '../src/pipeline/pool.ts';
import { runPipeline, type RunOptions } from '../src/pipeline/runner.ts';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = join(REPO, 'test', 'fixtures', 'pipeline');

export interface TempRoot {
  root: string;
  run(opts?: Partial<RunOptions>): Promise<Awaited<ReturnType<typeof runPipeline>> & { lines: string[] }>;
  read(path: string): Buffer;
  edit(path: string, fn: (text: string) => string): void;
  cacheFiles(): string[];
  cleanup(): void;
}

/**
 * A temp project of the fixture experiments. `defaults` are options every `run` of it gets
 * (a call's own options win): `{ png: false }` for tests of jobs and the cache, where the PNG,
 * drawn from the SVG after every job (about 0.25 s of a 0.4 s fixture build), is not the subject.
 */
export function tempRoot(registry: string[] = ['experiments/alpha.ts', 'experiments/beta.ts'], defaults: Partial<RunOptions> = {}): TempRoot {
  const root = mkdtempSync(join(tmpdir(), 'stopwatches-pipeline-'));
  cpSync(FIXTURES, join(root, 'experiments'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
  writeFileSync(join(root, 'package.json'), '{"type":"module","private":true}\n');
  return {
    root,
    async run(opts = {}) {
      const lines: string[] = [];
      const result = await runPipeline({ root, registry, jobs: 2, ...defaults, ...opts, effects: { reporter: memoryReporter(lines), createRunner: keptPool, ...defaults.effects, ...opts.effects } });
      return { ...result, lines };
    },
    read: (p) => readFileSync(join(root, p)),
    edit(p, fn) {
      writeFileSync(join(root, p), fn(readFileSync(join(root, p), 'utf8')));
    },
    cacheFiles() {
      try {
        return (readdirSync(join(root, '.cache', 'experiments'), { recursive: true }) as string[]).filter((f) => /\.json|\.tmp-/.test(f)).sort();
      } catch {
        return [];
      }
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The job threads of every fixture build this test worker runs (isolate: false), one pool per
 * thread count: the product's WorkerPool, kept from build to build instead of started for each.
 * Starting a thread costs about 40 ms of CPU, and the suite's fixture builds started about 150.
 * A thread still runs one job at a time, imports the bundle of the build it runs (each root has
 * its own), and is replaced when a job is aborted (a timeout, a stop); piscina lets idle threads
 * go after a second and never holds the process open for them. A pool that a job failed on is
 * dropped, so a build after a failure never inherits its state. The command line (`run`) starts its own pool, as always.
 */
const pools = new Map<number, WorkerPool>();
function keptPool(threads: number): JobRunner {
  const kept = pools.get(threads) ?? new WorkerPool(threads);
  pools.set(threads, kept);
  return {
    async run(task, opts) {
      try {
        return await kept.run(task, opts);
      } catch (err) {
        if (pools.get(threads) === kept) pools.delete(threads);
        throw err;
      }
    },
    destroy: async () => {},
  };
}

/** The plan line of one experiment, without the padding. */
export function planOf(lines: string[], id: string): string | undefined {
  const l = lines.find((x) => x.startsWith(`${id} `));
  return l?.slice(id.length).trim();
}

/** Every generated file's exact bytes (JSON as text, the rest as base64), by path under src/generated. */
export function generatedOutputs(root: string): Map<string, string> {
  const dir = join(root, 'src', 'generated');
  const out = new Map<string, string>();
  for (const f of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    if (!statSync(join(dir, f)).isFile()) continue;
    const bytes = readFileSync(join(dir, f));
    out.set(f, bytes.toString(f.endsWith('.json') ? 'utf8' : 'base64'));
  }
  return out;
}

/**
 * The outputs (`generatedOutputs`) of a clean build of `registry` (with `defaults`, as
 * `tempRoot`), built once per test worker and shared by the files it runs (isolate: false):
 * the reference a test compares its own build against. Read it, never change it.
 */
export function referenceOutputs(registry?: string[], defaults: { png?: boolean } = {}): Promise<ReadonlyMap<string, string>> {
  const key = JSON.stringify([registry ?? null, defaults.png ?? true]);
  let built = references.get(key);
  if (!built) {
    built = (async () => {
      const r = tempRoot(registry, defaults);
      try {
        await r.run();
        return generatedOutputs(r.root);
      } finally {
        r.cleanup();
      }
    })();
    references.set(key, built);
  }
  return built;
}
const references = new Map<string, Promise<ReadonlyMap<string, string>>>();

/** A factory of temp roots for one test file (`defaults` as `tempRoot`): every root it made is removed after each test. */
export function tempRoots(defaults: Partial<RunOptions> = {}): (registry?: string[]) => TempRoot {
  const roots: TempRoot[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) r.cleanup();
  });
  return (registry) => {
    const r = tempRoot(registry, defaults);
    roots.push(r);
    return r;
  };
}
