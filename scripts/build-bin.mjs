// npm run pack-lint runs this first (scripts/pack-lint.mjs): the lint
// command as one plain JavaScript file, dist/schema-breaks.mjs, with every
// dependency inside, so the packed package runs on a machine that has only
// Node (no tsx, no TypeScript, nothing else to install for it to work).
// Usage: node scripts/build-bin.mjs [outfile]
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from '../src/core/bundler.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = process.argv[2] ?? join(root, 'dist', 'schema-breaks.mjs');
mkdirSync(dirname(outfile), { recursive: true });
// Not cached: a package is built once, from a clean tree.
await bundle(join(root, 'src', 'lint', 'bin.ts'), outfile, { shebang: true, logLevel: 'warning', legalComments: 'eof' });
chmodSync(outfile, 0o755);
console.error(`built ${outfile}`);
