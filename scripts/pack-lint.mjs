// The linter as an npm package of its own: `npm run pack-lint [-- DIR]` writes
// schema-breaks-<version>.tgz into DIR (default: the folder the command was
// typed in) and prints `npm pack --json`'s answer. The tarball holds one
// plain JavaScript file (scripts/build-bin.mjs bundles every dependency into
// it), the README, the license and a package.json with no dependency, so it
// runs on a machine that has only Node.
//
// Why not `npm pack` in the kit's folder: the kit's package.json lists what
// its lab commands load as `dependencies` (so that `npm ci --omit=dev` gives a
// learner every lab command), and npm packs package.json as it is: installing
// that tarball would fetch them all. npm has no pack-time manifest of its own,
// so the package is staged in a folder of its own, with the kit's manifest
// minus what only the kit uses (its dependencies, scripts, overrides).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// package.json's "prepack": `npm pack` or `npm publish` in the kit's folder would ship the kit's dependencies.
if (process.argv[2] === '--instead') {
  console.error("npm pack here would put the lab commands' dependencies in the package: `npm run pack-lint` makes the linter's (scripts/pack-lint.mjs).");
  process.exit(1);
}
const destination = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? '.');
const stage = mkdtempSync(join(tmpdir(), 'schema-breaks-pack-lint-'));
try {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-bin.mjs'), join(stage, 'dist', 'schema-breaks.mjs')], { stdio: 'pipe' });
  for (const file of ['README.md', 'LICENSE']) copyFileSync(join(root, file), join(stage, file));
  const { dependencies: _d, devDependencies: _dd, scripts: _s, allowScripts: _a, overrides: _o, ...manifest } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  process.stdout.write(execFileSync(npm, ['pack', '--json', '--pack-destination', destination, stage], { encoding: 'utf8', shell: process.platform === 'win32' }));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
