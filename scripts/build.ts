/**
 * npm run build: bundles the baseline server into dist/server.cjs, for starting
 * it by hand or from another client (docs/learning.md: MCP Inspector).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../src/lab/paths.js';
import { buildServer } from '../src/lab/variants.js';

const out = join(REPO, 'dist', 'server.cjs');
mkdirSync(join(REPO, 'dist'), { recursive: true });
copyFileSync(await buildServer(), out);
console.log(`built ${out}`);
