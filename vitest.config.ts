import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build-server.ts'],
    reporters: ['default', './test/setup/summary-reporter.ts'],
    // Most of a test's time is spent waiting on the processes it starts (servers, commands), so one
    // worker per core keeps both cores of the build machine busy; vitest's default is one fewer.
    maxWorkers: availableParallelism(),
    // Test files share a worker's modules instead of loading the SDK, zod and ajv again for each
    // file: the tests keep no module state between files (their servers and folders are their own).
    isolate: false,
    // Tests start real server processes; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
