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
  },
});
