// npm run pack-lint runs this first (scripts/pack-lint.mjs): the lint
// command as one plain JavaScript file, dist/schema-breaks.mjs, with every
// dependency inside, so the packed package runs on a machine that has only
// Node (no tsx, no TypeScript, nothing else to install for it to work).
// Usage: node scripts/build-bin.mjs [outfile]
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, hostInstalled, hostsDir, PROFILE_PACKAGES } from '../src/core/bundler.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = process.argv[2] ?? join(root, 'dist', 'schema-breaks.mjs');
// The packed linter carries every host the matrix runs, the host frameworks included (installed apart, in hosts/).
const missing = PROFILE_PACKAGES.filter((p) => !hostInstalled(root, p));
if (missing.length > 0) {
  console.error(`build-bin: the host frameworks are not installed (${missing.join(', ')}): in ${root} run npm ci --prefix hosts, then try again`);
  process.exit(2);
}
mkdirSync(dirname(outfile), { recursive: true });
// Not cached: a package is built once, from a clean tree. The frameworks resolve from hosts/node_modules.
await bundle(join(root, 'src', 'lint', 'bin.ts'), outfile, { shebang: true, logLevel: 'warning', legalComments: 'eof', nodePaths: [join(hostsDir(root), 'node_modules')] });
chmodSync(outfile, 0o755);
console.error(`built ${outfile}`);
