/**
 * Where the kit lives. The command-line entry points run from a bundle in
 * node_modules/.cache, so the launcher passes the repository root in
 * SCHEMA_BREAKS_ROOT; run from source (tests, tsx), it is found from here.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = process.env.SCHEMA_BREAKS_ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
export const BREAKS_DIR = join(REPO, 'breaks');
export const SOLUTIONS_DIR = join(REPO, 'solutions');
export const CACHE_DIR = join(REPO, 'node_modules', '.cache', 'schema-breaks');
