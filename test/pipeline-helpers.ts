/** Temp project roots for pipeline tests: fixture experiments copied in, node_modules linked. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { memoryReporter } from '../src/pipeline/progress.ts';
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

export function tempRoot(registry: string[] = ['experiments/alpha.ts', 'experiments/beta.ts']): TempRoot {
  const root = mkdtempSync(join(tmpdir(), 'stopwatches-pipeline-'));
  cpSync(FIXTURES, join(root, 'experiments'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
  writeFileSync(join(root, 'package.json'), '{"type":"module","private":true}\n');
  return {
    root,
    async run(opts = {}) {
      const lines: string[] = [];
      const result = await runPipeline({ root, registry, jobs: 2, ...opts, effects: { reporter: memoryReporter(lines), ...opts.effects } });
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

/** The plan line of one experiment, without the padding. */
export function planOf(lines: string[], id: string): string | undefined {
  const l = lines.find((x) => x.startsWith(`${id} `));
  return l?.slice(id.length).trim();
}

/** Every generated file; run times (wall clock, not results) are left out of the indexes. */
export function generatedOutputs(root: string): Map<string, string> {
  const dir = join(root, 'src', 'generated');
  const out = new Map<string, string>();
  for (const f of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    if (!statSync(join(dir, f)).isFile()) continue;
    const bytes = readFileSync(join(dir, f));
    out.set(f, f.endsWith('.json') ? bytes.toString('utf8').replace(/\s*"runtimeMs": \d+,?/g, '') : bytes.toString('base64'));
  }
  return out;
}

/**
 * The outputs (`generatedOutputs`) of a clean build of `registry`, built once
 * per test worker and shared by the files it runs (isolate: false): the
 * reference a test compares its own build against. Read it, never change it.
 */
export function referenceOutputs(registry?: string[]): Promise<ReadonlyMap<string, string>> {
  const key = JSON.stringify(registry ?? null);
  let built = references.get(key);
  if (!built) {
    built = (async () => {
      const r = tempRoot(registry);
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

/** A factory of temp roots for one test file: every root it made is removed after each test. */
export function tempRoots(): (registry?: string[]) => TempRoot {
  const roots: TempRoot[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) r.cleanup();
  });
  return (registry) => {
    const r = tempRoot(registry);
    roots.push(r);
    return r;
  };
}
