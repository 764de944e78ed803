// The kit's one bundler, with its one cache. Plain JavaScript (with types in
// bundler.d.mts), because scripts/launch.mjs needs it before anything can
// compile TypeScript: it bundles the command-line entry points; the runner
// (src/lab/variants.ts) bundles every variant server; the sweep bundles its
// worker; scripts/build-bin.mjs bundles the packed linter (scripts/pack-lint.mjs).
//
// Everything goes to node_modules/.cache/schema-breaks/<kind>/<key>/, where
// the key is a hash of the sources the bundle is made from and of esbuild's
// version: a change to any of them is a new folder, never a stale bundle.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

// esbuild's version names every cache key; esbuild itself is loaded only when something is built
// (most commands find their bundles and servers built, and loading it costs each start some 20 ms).
const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;

/** Where the bundles of the kit at `root` are cached. */
export function cacheDir(root) {
  return join(root, 'node_modules', '.cache', 'schema-breaks');
}

/** Every file under `dir` (recursively) whose name ends with one of `endings` (all files when none), sorted. */
function filesUnder(dir, endings) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => endings.length === 0 || endings.some((e) => f.endsWith(e)))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

/**
 * A key for what a bundle is made from: esbuild's version, then each file's
 * path (relative to `root`) and content, for every file under `dirs` with one
 * of `endings`, then `files` (missing ones skipped), then `extra` in order.
 */
export function sourcesKey(root, { dirs = [], endings = [], files = [], extra = [] }) {
  const hash = sourcesHash(root, { dirs, endings, files });
  for (const part of extra) hash.update(part);
  return hash.digest('hex').slice(0, 20);
}

/**
 * sourcesKey's hash before its `extra`: a caller that keys many bundles made
 * from the same files and different extras (the sweep's servers: one tree,
 * many patches) reads the files once and finishes a copy() per bundle.
 */
export function sourcesHash(root, { dirs = [], endings = [], files = [] }) {
  const hash = createHash('sha256');
  hash.update(`esbuild ${esbuildVersion}\n`);
  for (const file of [...dirs.flatMap((d) => filesUnder(join(root, d), endings)), ...files.map((f) => join(root, f))]) {
    if (!existsSync(file)) continue;
    hash.update(`${relative(root, file)}\n`);
    hash.update(readFileSync(file));
  }
  return hash;
}

// Some CommonJS dependencies (ajv) call require(): give an ES module one (a script has its own).
const REQUIRE_BANNER = "import { createRequire as __kitRequire } from 'node:module'; const require = __kitRequire(import.meta.url);";

/** esbuild's options for Node 20 that every bundle of the kit shares. */
function nodeOptions(format, banner, logLevel, absWorkingDir) {
  return {
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    logLevel,
    ...(absWorkingDir ? { absWorkingDir } : {}),
    ...(banner ? { banner: { js: banner } } : {}),
  };
}

/**
 * One file for Node 20 from a TypeScript entry point. An ES module by
 * default; a plain script (`iife`) for a server, because a V8 startup
 * snapshot is built from a script. `nodePaths` resolves dependencies from
 * the kit's node_modules for an entry that lives elsewhere (a learner's
 * workspace, a temporary copy). The file names in the bundle's comments are
 * relative to `absWorkingDir` (default: the current folder).
 */
export async function bundle(entry, outfile, { format = 'esm', external = [], nodePaths = [], shebang = false, logLevel = 'silent', legalComments, absWorkingDir, plugins = [] } = {}) {
  const banner = [shebang ? '#!/usr/bin/env node' : '', format === 'esm' ? REQUIRE_BANNER : ''].filter(Boolean).join('\n');
  const { build } = await import('esbuild');
  await build({
    ...nodeOptions(format, banner, logLevel, absWorkingDir),
    entryPoints: [entry],
    outfile,
    nodePaths,
    external,
    plugins,
    ...(legalComments ? { legalComments } : {}),
  });
}

/**
 * ES modules for Node 20 in `outdir`, one `<name>.mjs` for each entry of
 * `entries` (name to what to bundle: a file, or a package as an import
 * names it, resolved from `absWorkingDir`), split: the code two of them
 * share is in one chunk under `chunks/`, so importing both runs it once, as
 * Node runs a package's file once however many packages import it.
 */
export async function splitBundle(entries, outdir, { logLevel = 'silent', absWorkingDir } = {}) {
  const { build } = await import('esbuild');
  await build({
    ...nodeOptions('esm', REQUIRE_BANNER, logLevel, absWorkingDir),
    entryPoints: entries,
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
  });
}

/**
 * The cached file (or folder) `<cache>/<kind>/<key>/<name>`: made by `make(staged, final)` when
 * it is not there yet, into a staged name renamed into place only once
 * complete, so a build that was interrupted, or that two processes ran at
 * once, is never taken half-written. `make` may also write next to it (the
 * folder exists). Returns the path and whether it was built now.
 */
export async function cached(root, kind, key, name, make) {
  const outfile = join(cacheDir(root), kind, key, name);
  if (existsSync(outfile)) return { path: outfile, built: false };
  // The same file asked for twice at once in one process is built once.
  let building = inFlight.get(outfile);
  if (!building) {
    building = makeCached(outfile, make).finally(() => inFlight.delete(outfile));
    inFlight.set(outfile, building);
  }
  return building;
}

/** A name beside `path` for a file written in full before it is renamed to `path`: its own per process and call. */
export function stagedPath(path) {
  return `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
}

/** Builds under way in this process, by the file they make. */
const inFlight = new Map();

async function makeCached(outfile, make) {
  mkdirSync(dirname(outfile), { recursive: true });
  const staged = stagedPath(outfile);
  try {
    await make(staged, outfile);
    try {
      renameSync(staged, outfile);
    } catch (error) {
      // A file is replaced by rename, a folder is not: another process that built the same folder
      // first has put the same content there (same key), which this one takes.
      if (!existsSync(outfile)) throw error;
    }
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
  return { path: outfile, built: true };
}

/**
 * The npm packages of the host frameworks that profiles run (src/lab/profiles/),
 * by their names in hosts/package.json (aliases included), each imported by its
 * profile with import() on first use. (`sdk-1-20` is the kit's own dependency,
 * a server build the labs run; the openai-agents profile reads its types.js,
 * so it is bundled with the hosts and found by walking up from hosts/.)
 */
export const PROFILE_PACKAGES = ['@openai/agents-core', 'sdk-1-20', 'ai-sdk-6', 'ai-sdk-google-3', 'ai-sdk-mcp-1', '@langchain/mcp-adapters', '@langchain/openai', '@langchain/core', 'langchain', 'gemini-cli-core-0-17', '@mastra/core', '@mastra/mcp', '@ai-sdk/google-v5'];

/** An import of one of PROFILE_PACKAGES, or of a file in one (`@langchain/core/tools`). */
const PROFILE_IMPORT = new RegExp(`^(${PROFILE_PACKAGES.map((p) => p.replaceAll('.', '\\.')).join('|')})(/.*)?$`);

/** Whether `specifier` imports a host framework (one of PROFILE_PACKAGES, or a file in one). */
export function isHostImport(specifier) {
  return PROFILE_IMPORT.test(specifier);
}

/**
 * The npm project the host frameworks are installed in, apart from the kit:
 * hosts/, with its own package.json and lockfile, installed by `npm ci
 * --prefix hosts`. Apart, because the learner install (`npm ci --omit=dev`
 * at the root) should neither download them (some 190 MB of the 250 it
 * fetched when they were the kit's dependencies) nor print their peer
 * conflicts: npm ci resolves every package of a lockfile, omitted ones
 * included, and Mastra 0.24's own peers disagree with zod 4. Everything that
 * imports a framework resolves it from here: the bundles below, vitest
 * (vitest.config.ts) and the type-checker (tsconfig.json "paths").
 */
export function hostsDir(root) {
  return join(root, 'hosts');
}

/** The package an import names (`@langchain/core/tools` -> `@langchain/core`). */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/**
 * Whether the package a host import names is installed where its bundle is
 * resolved from: hosts/node_modules, then the kit's own node_modules (Node's
 * and esbuild's resolution walk up from hosts/).
 */
export function hostInstalled(root, specifier) {
  const name = packageOf(specifier);
  return [join(hostsDir(root), 'node_modules'), join(root, 'node_modules')].some((dir) => existsSync(join(dir, name, 'package.json')));
}

/** Which host packages are installed: in the key of every bundle that imports them, so that installing the hosts rebuilds it. */
export function installedHosts(root) {
  return `hosts: ${PROFILE_PACKAGES.filter((p) => hostInstalled(root, p)).join(' ')}\n`;
}

/**
 * What a command's import of a host framework that is not installed becomes:
 * a module that throws as Node does for a package it cannot find
 * (ERR_MODULE_NOT_FOUND), when the profile first imports it. The profile
 * turns that into one line saying what to install (src/lab/profiles/shared.ts
 * onFirstUse); a command on any other host never notices.
 */
function missingHost(specifier) {
  const error = `Cannot find package '${packageOf(specifier)}'`;
  return `throw Object.assign(new Error(${JSON.stringify(error)}), { code: 'ERR_MODULE_NOT_FOUND' });\n`;
}

/**
 * The bundle of a command-line entry point (`scripts/lab.ts`), rebuilt only
 * when the kit's sources change: what scripts/launch.mjs starts. esbuild
 * stays a runtime import, loaded only when a variant server is built (bundle()
 * above). So do the terminal renderer and the prompts, which the kit imports
 * only when it prints a sheet or asks something (src/learn/sheets.ts,
 * src/learn/prompts.ts): a command that does none of these never loads them.
 *
 * The host frameworks that profiles run (PROFILE_PACKAGES) are bundled apart
 * (hostBundles, below): the entry's file is the one it was when they were
 * read from node_modules, with the path of their bundle where a package's
 * name was, so a run on another host never loads them, and they keep their
 * own copies of what they share with the kit (zod, the MCP SDK), as they did
 * from node_modules. A run on their hosts reads a few large files instead of
 * resolving and reading each package's hundreds of small ones (`npm run lint`
 * on a 30-tool server, every lint asking every host: 2.2 -> 1.5 s wall,
 * 2.2 -> 1.4 s of CPU, on the kit's build machine). Bundled, they run as in
 * the packed linter, which bundles them whole (scripts/build-bin.mjs).
 */
export async function commandBundle(root, entry) {
  const key = sourcesKey(root, { dirs: ['src', 'scripts'], endings: ['.ts', '.mjs', '.json'], files: ['package.json', 'package-lock.json', 'hosts/package-lock.json'], extra: [installedHosts(root)] });
  const name = entry.replace(/\W+/g, '_');
  const { path } = await cached(root, 'cli', key, name, (staged) =>
    bundleWithHosts(root, join(root, entry), join(staged, `${name}.mjs`), join(cacheDir(root), 'cli', key, name), ['esbuild', 'marked-terminal', '@inquirer/input', '@inquirer/select', '@inquirer/confirm']),
  );
  return join(path, `${name}.mjs`);
}

/**
 * One ES module of `entry` in `file`, with the host frameworks it imports
 * (PROFILE_PACKAGES) left out, imported from their own bundle (hostBundles)
 * by a path relative to `folder`, where `file` is renamed to once complete.
 * For the commands (above) and the sweep's worker (src/class/sweep-run.ts).
 */
export async function bundleWithHosts(root, entry, file, folder, external = []) {
  const hosts = new Map();
  const toHosts = {
    name: 'host-frameworks',
    setup(build) {
      build.onResolve({ filter: PROFILE_IMPORT }, ({ path: imported }) => {
        if (!hostInstalled(root, imported)) return { path: imported, namespace: MISSING_HOST };
        const name = imported.replace(/\W+/g, '_');
        hosts.set(name, imported);
        return { path: `${HOSTS_MARK}/${name}.mjs`, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: MISSING_HOST }, ({ path: imported }) => ({ contents: missingHost(imported), loader: 'js' }));
    },
  };
  await bundle(entry, file, { external, plugins: [toHosts], logLevel: 'warning' });
  if (hosts.size === 0) return;
  const to = relative(folder, await hostBundles(root, hosts)).split(sep).join('/');
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`"${HOSTS_MARK}/`, `"${to}/`));
}

/** esbuild's namespace for the imports of host frameworks that are not installed (missingHost). */
const MISSING_HOST = 'host-not-installed';

/** What a command's file imports a host framework by until the frameworks' bundle is built: its relative path then. */
const HOSTS_MARK = './__host_frameworks__';

/**
 * The host frameworks a command imports (file name to the import as written),
 * bundled together (splitBundle): the code two of them share is loaded once,
 * as Node gave it them. Made from node_modules alone, so kept under a key of
 * package-lock.json, this bundler and the imports, and shared by every
 * command that imports the same: an edit of the kit's sources rebuilds a
 * command's 1.3 MB, not the frameworks' 8 MB (a second on the build machine,
 * for each command started after the edit).
 */
async function hostBundles(root, hosts) {
  const entries = Object.fromEntries([...hosts].sort(([a], [b]) => (a < b ? -1 : 1)));
  const key = sourcesKey(root, { files: ['package-lock.json', 'hosts/package-lock.json', 'src/core/bundler.mjs'], extra: [JSON.stringify(entries)] });
  // A copy of the kit without hosts/ (a test's) resolves from the kit's own node_modules, as Node would.
  const from = existsSync(hostsDir(root)) ? hostsDir(root) : root;
  const { path } = await cached(root, 'hosts', key, 'hosts', (staged) => splitBundle(entries, staged, { logLevel: 'warning', absWorkingDir: from }));
  return path;
}
