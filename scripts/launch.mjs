// Starts a command-line entry point from a bundle, rebuilt only when the
// sources change: `npx tsx` would add about a second to every lab command
// (npm run bench measures it). Usage: node scripts/launch.mjs scripts/lab.ts [args...]
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandBundle } from '../src/core/bundler.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/launch.mjs <entry.ts> [args...]');
  process.exit(2);
}

const outfile = await commandBundle(root, entry);
process.env.SCHEMA_BREAKS_ROOT = root;
// `npm run lab -- --read | head` closes the pipe early: the reader has what it wanted, which is no error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
process.argv.splice(1, 2, outfile);
await import(pathToFileURL(outfile).href);
