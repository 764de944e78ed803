/**
 * Where the kit lives. The command-line entry points run from a bundle in
 * node_modules/.cache, so the launcher passes the repository root in
 * SCHEMA_BREAKS_ROOT; run from source (tests, tsx), it is found from here.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../core/bundler.mjs';

export const REPO = process.env.SCHEMA_BREAKS_ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
export const BREAKS_DIR = join(REPO, 'breaks');
export const SOLUTIONS_DIR = join(REPO, 'solutions');
/** The kit's one cache (src/core/bundler.mjs): bundles, servers, type-check scratch. */
export const CACHE_DIR = cacheDir(REPO);
