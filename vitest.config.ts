import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Vitest's default for a run is one worker fewer than the cores: on a 2-core machine (this
    // project's CI and dev boxes) that is one, and every file waits for the one before it. Most
    // files spend their time waiting on child processes (the CLI, git, nginx, Chromium), so one
    // worker per core keeps both cores busy without oversubscribing them. One more worker was
    // measured to cost more than it gains: each worker imports the module graph again (whole
    // suite, same machine: 255 s of CPU with 3 workers, 235 s with 2, and a longer wall time).
    maxWorkers: availableParallelism(),
    // A worker keeps its module graph from one file to the next instead of starting a fresh
    // process and re-transforming src/ for each of the ~60 files: about a fifth of the suite's CPU.
    // Test files therefore must not leave module state or process state (env, cwd, exitCode,
    // patched streams) changed; the ones that touch it restore it in afterEach/finally
    // (test/helpers/cli.ts does it for every in-process CLI run).
    isolate: false,
    server: {
      deps: {
        // A build's job bundles (<root>/.cache/bundles/*.mjs) are esbuild's output, already plain
        // JavaScript: imported as Node imports them, not transformed again (and cached) per fixture
        // build, of which the suite makes about a hundred.
        external: [/\/\.cache\/bundles\//],
      },
    },
    experimental: {
      // The transformed modules are kept in node_modules/.experimental-vitest-cache, keyed by
      // each file's content (and the config): a run after the first transforms only what changed.
      fsModuleCache: true,
    },
  },
});
