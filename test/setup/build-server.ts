/**
 * Builds, once for the whole test run and before any test starts, what the
 * tests start over and over: every server the kit ships (cached by content,
 * as the runner builds them), the command-line bundles scripts/launch.mjs
 * starts, and the sweep's worker. Built here side by side, none is built
 * twice by tests that need it at the same moment. Hands the baseline's path
 * to the tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { workerBundle } from '../../src/class/sweep-run.js';
import { commandBundle } from '../../src/core/bundler.mjs';
import { REPO } from '../../src/lab/paths.js';
import { buildServer, kitServerPatches } from '../../src/lab/variants.js';

/** The entry points package.json starts through scripts/launch.mjs (`npm run lab`, `npm run check`, ...), but the benchmark, which no test starts. */
function commands(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return Object.entries(scripts).flatMap(([name, line]) => (name === 'bench' ? [] : (/scripts\/launch\.mjs (\S+)/.exec(line)?.[1] ?? [])));
}

export default async function setup(project: TestProject): Promise<void> {
  // A machine behind a TLS-inspecting proxy (this kit's build machine) sets NODE_EXTRA_CA_CERTS, and node then
  // reads and parses that bundle at every start, TLS or not: 36 ms of CPU a start on the build machine (`node -e 0`:
  // 57 ms with it, 21 ms without; perf stat -r 30). No test makes a TLS connection (they run offline), and the
  // workers and every command they start inherit this environment: without it the suite spent 5 to 15 CPU-s less
  // (165-167 against 171-182, ABBA).
  delete process.env.NODE_EXTRA_CA_CERTS;
  // kitServerPatches() starts with the baseline's (no patch).
  const [baseline] = await Promise.all([...kitServerPatches().map((patches) => buildServer(patches)), ...commands().map((entry) => commandBundle(REPO, entry)), workerBundle()]);
  project.provide('serverJs', baseline);
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverJs: string;
  }
}
