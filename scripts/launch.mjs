// Starts a command-line entry point from a bundle, rebuilt only when the
// sources change: `npx tsx` would add about a second to every lab command
// (npm run bench measures it). Usage: node scripts/launch.mjs scripts/lab.ts [args...]
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The bundler needs esbuild: before `npm ci`, no command can start, `npm run doctor` included.
// Say what to do, in both of the kit's languages (the catalogues are TypeScript, not loaded yet).
let commandBundle;
try {
  ({ commandBundle } = await import('../src/core/bundler.mjs'));
} catch (error) {
  if (error?.code !== 'MODULE_NOT_FOUND' && error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error(`The kit's packages are not installed. In ${root} run: npm ci --omit=dev, then: npm run doctor`);
  console.error(`Los paquetes del kit no están instalados. En ${root} ejecuta: npm ci --omit=dev, y después: npm run doctor`);
  process.exit(1);
}
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
