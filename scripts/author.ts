/**
 * npm run author -- <command> <id> [options]: an instructor makes a lab of an incident (src/author/cli.ts,
 * docs/authoring.md). The linter's host verdicts for `check` are handed over from here: nothing in src/ imports
 * the linter (.dependency-cruiser.cjs).
 */
import { runCommand } from '../src/core/user-error.js';
import { main } from '../src/author/cli.js';
import { buildServer, serverCommand } from '../src/lab/variants.js';
import { worseVerdicts } from '../src/lint/hold.js';
import { readServer } from '../src/lint/server.js';
import type { ListedTool } from '../src/lint/types.js';

/** The tools a server built from `patches` publishes, as the linter reads them. */
async function toolsOf(patches: string[]): Promise<ListedTool[]> {
  const { command, args } = serverCommand(await buildServer(patches));
  return (await readServer({ label: patches.at(-1) ?? 'baseline', command, args }, 20_000)).tools as ListedTool[];
}

process.exitCode = await runCommand('author', () =>
  main(process.argv.slice(2), async (baseline, fixed, profiles) => {
    const [before, after] = await Promise.all([toolsOf(baseline), toolsOf(fixed)]);
    return worseVerdicts(before, after, profiles);
  }),
);
