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
    // worker per core keeps both cores busy without oversubscribing them.
    maxWorkers: availableParallelism(),
    // A worker keeps its module graph from one file to the next instead of starting a fresh
    // process and re-transforming src/ for each of the ~45 files: about a fifth of the suite's CPU.
    // Test files therefore must not leave module state or process state (env, exitCode,
    // patched streams) changed; the ones that touch it restore it in afterEach/finally.
    isolate: false,
  },
});
