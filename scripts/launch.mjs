// Starts a command-line entry point from a bundle, rebuilt only when the
// sources change: `npx tsx` would add about a second to every lab command
// (npm run bench measures it). Usage: node scripts/launch.mjs scripts/lab.ts [args...]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/launch.mjs <entry.ts> [args...]');
  process.exit(2);
}

function sourceFiles(dir) {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, dir, f))
    .sort();
}

const hash = createHash('sha256');
for (const file of [...sourceFiles('src'), ...sourceFiles('scripts'), join(root, 'package-lock.json')]) {
  hash.update(relative(root, file));
  hash.update(readFileSync(file));
}
const outfile = join(root, 'node_modules', '.cache', 'schema-breaks', 'cli', hash.digest('hex').slice(0, 20), `${entry.replace(/\W+/g, '_')}.mjs`);
if (!existsSync(outfile)) {
  mkdirSync(dirname(outfile), { recursive: true });
  const staged = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(root, entry)],
    outfile: staged,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // esbuild stays a runtime import: the runner bundles variant servers with it.
    external: ['esbuild'],
    banner: { js: "import { createRequire as __kitRequire } from 'node:module'; const require = __kitRequire(import.meta.url);" },
  });
  renameSync(staged, outfile);
}
process.env.SCHEMA_BREAKS_ROOT = root;
process.argv.splice(1, 2, outfile);
await import(pathToFileURL(outfile).href);
