import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build-server.ts'],
    reporters: ['default', './test/setup/summary-reporter.ts'],
    // Tests start real server processes; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
