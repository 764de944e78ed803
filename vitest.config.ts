import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/setup/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build-server.ts'],
    reporters: ['default', './test/setup/summary-reporter.ts'],
    // Most of a test's time is spent waiting on the processes it starts (servers, commands, a
    // browser), so one worker more than there are cores keeps the cores busy (vitest's default is
    // one fewer: on the 2-core build machine, 1 worker took 287 s, 2 took 141 s, 3 took 122 s).
    maxWorkers: availableParallelism() + 1,
    // Test files share a worker's modules instead of loading the SDK, zod and ajv again for each
    // file: the tests keep no module state between files (their servers and folders are their own).
    isolate: false,
    // The slowest files start first, on a clean clone too (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Tests start real server processes; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
