import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Vitest's default for a run is one worker fewer than the cores: on a 2-core machine (this
    // project's CI and dev boxes) that is one, and every file waits for the one before it. Many
    // files spend much of their time waiting (on child processes: the CLI, git, nginx, Chromium;
    // on fsync; on a throttled server), so one worker more than the cores keeps both cores busy
    // while one file waits.
    maxWorkers: availableParallelism() + 1,
    // A worker keeps its module graph from one file to the next instead of starting a fresh
    // process and re-transforming src/ for each of the ~60 files: about a fifth of the suite's CPU.
    // Test files therefore must not leave module state or process state (env, cwd, exitCode,
    // patched streams) changed; the ones that touch it restore it in afterEach/finally
    // (test/helpers/cli.ts does it for every in-process CLI run).
    isolate: false,
    experimental: {
      // The transformed modules are kept in node_modules/.experimental-vitest-cache, keyed by
      // each file's content (and the config): a run after the first transforms only what changed.
      fsModuleCache: true,
    },
  },
});
