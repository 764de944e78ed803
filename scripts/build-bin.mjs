// npm pack and npm publish run this first (package.json "prepack"): the lint
// command as one plain JavaScript file, dist/schema-breaks.mjs, with every
// dependency inside, so the packed package runs on a machine that has only
// Node (no tsx, no TypeScript, nothing else to install for it to work).
// Usage: node scripts/build-bin.mjs [outfile]
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = process.argv[2] ?? join(root, 'dist', 'schema-breaks.mjs');
mkdirSync(dirname(outfile), { recursive: true });
await build({
  entryPoints: [join(root, 'src', 'lint', 'bin.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'eof',
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __kitRequire } from 'node:module'; const require = __kitRequire(import.meta.url);" },
});
chmodSync(outfile, 0o755);
console.error(`built ${outfile}`);
