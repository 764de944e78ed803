/**
 * npm run lint -- [options] -- <command> [args...]: lint any stdio MCP server (src/lint/cli.ts).
 * In a clone of the kit, --variant ID also lints the kit's own server, built as the labs build it.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../src/core/bundler.mjs';
import { typedIn } from '../src/core/cwd.js';
import { runCommand } from '../src/core/user-error.js';
import { runLint } from '../src/lint/cli.js';
import type { Target } from '../src/lint/targets.js';
import { REPO } from '../src/lab/paths.js';
import { BASELINE, breakPatch, buildServer, listBreaks, patchChain, serverCommand } from '../src/lab/variants.js';

async function variantTarget(id: string): Promise<Target> {
  const { command, args } = serverCommand(await buildServer(patchChain(id).variant));
  const file = id === BASELINE ? join(REPO, 'src', 'minimcp', 'server.ts') : breakPatch(id);
  // SARIF locates it from the folder the command was typed in (src/core/cwd.ts), as every other target.
  const uri = relative(typedIn(), file).split('\\').join('/');
  return { kind: 'spawn', spec: { label: `variant ${id}`, command, args }, shown: { variant: id }, ...(uri.startsWith('..') ? {} : { source: { uri } }) };
}

// npm run lint runs from its bundle, in a folder named by a hash of the kit's sources and lockfile (src/core/bundler.mjs
// commandBundle): the hosts' answers kept beside it were given by this very code (src/lint/verdicts.ts).
const here = fileURLToPath(import.meta.url);
const verdicts = here.startsWith(cacheDir(REPO)) ? join(dirname(here), 'verdicts') : undefined;

process.exitCode = await runCommand('lint', () =>
  runLint(process.argv.slice(2), { invocation: 'npm run lint --', ...(verdicts ? { verdicts } : {}), variant: { ids: [BASELINE, ...listBreaks()], target: variantTarget } }),
);
