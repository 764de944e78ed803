// Starts a command-line entry point from a bundle, rebuilt only when the
// sources change: `npx tsx` would add about a second to every lab command
// (npm run bench measures it). Usage: node scripts/launch.mjs scripts/lab.ts [args...]
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundle, cached, sourcesKey } from '../src/core/bundler.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/launch.mjs <entry.ts> [args...]');
  process.exit(2);
}

const key = sourcesKey(root, { dirs: ['src', 'scripts'], endings: ['.ts', '.mjs', '.json'], files: ['package.json', 'package-lock.json'] });
const { path: outfile } = await cached(root, 'cli', key, `${entry.replace(/\W+/g, '_')}.mjs`, (staged) =>
  // esbuild stays a runtime import: the runner bundles variant servers with it.
  bundle(`${root}/${entry}`, staged, { external: ['esbuild'], logLevel: 'warning' }),
);
process.env.SCHEMA_BREAKS_ROOT = root;
process.argv.splice(1, 2, outfile);
await import(pathToFileURL(outfile).href);
