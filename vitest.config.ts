import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { hostsDir, isHostImport } from './src/core/bundler.mjs';
import LongestFirst from './test/setup/sequencer.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The host frameworks are installed apart, in hosts/ (`npm ci --prefix hosts`; src/core/bundler.mjs hostsDir):
 * an import of one, from a profile or a test, is resolved from there, as the kit's bundles resolve it.
 */
const hostFrameworks: Plugin = {
  name: 'host-frameworks',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!isHostImport(source) || importer?.startsWith(hostsDir(root))) return null;
    return this.resolve(source, join(hostsDir(root), 'package.json'), { ...options, skipSelf: true });
  },
};

export default defineConfig({
  plugins: [hostFrameworks],
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
