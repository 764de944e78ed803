/**
 * Variants: the baseline server plus the diff(s) of a break (and its
 * solution), built in a temporary copy (never touching src/) into one bundled
 * file that starts fast. Builds are cached by content: the sources, the
 * patches and the bundler's version.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { promisify } from 'node:util';
import { copyFileSync, cpSync, existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { bundle as bundleFile, cached, sourcesHash, stagedPath } from '../core/bundler.mjs';
import { BREAKS_DIR, REPO, SOLUTIONS_DIR } from './paths.js';
import { UserError } from '../core/user-error.js';
import { forUser } from '../core/cwd.js';
import { detectLang } from '../core/lang.js';
import { t } from '../core/messages/index.js';

export const BASELINE = 'baseline';

/** The folders a server is built from; a patch may touch any of them. */
const SOURCE_DIRS = ['src', 'contract'];

/**
 * One file for Node 20 from a TypeScript entry point, its dependencies
 * resolved from the kit's node_modules wherever the entry lives (the kit's
 * one bundler, src/core/bundler.mjs). The sweep's worker is an ES module; a
 * server is a plain script (`iife`), because a V8 startup snapshot is built
 * from a script.
 */
export async function bundle(entry: string, outfile: string, external: string[] = [], format: 'esm' | 'iife' = 'esm', absWorkingDir?: string): Promise<void> {
  await bundleFile(entry, outfile, { format, external, nodePaths: [join(REPO, 'node_modules')], ...(absWorkingDir ? { absWorkingDir } : {}) });
}

/** Every break in breaks/, by id, in name order. */
export function listBreaks(breaksDir = BREAKS_DIR): string[] {
  if (!existsSync(breaksDir)) return [];
  return readdirSync(breaksDir)
    .filter((f) => f.endsWith('.patch'))
    .map((f) => f.slice(0, -'.patch'.length))
    .sort();
}

export function breakPatch(id: string): string {
  return join(BREAKS_DIR, `${id}.patch`);
}

export function solutionPatch(id: string): string {
  return join(SOLUTIONS_DIR, `${id}.patch`);
}

/**
 * The lab a break builds on: a patch whose first line is "Base: <id> ..."
 * applies on top of that break (git apply skips text before the first diff).
 * Its server with the base applied is the lab's baseline.
 */
export function baseOf(id: string): string | undefined {
  if (id === BASELINE || !existsSync(breakPatch(id))) return undefined;
  return /^Base:\s*([\w-]+)/.exec(readFileSync(breakPatch(id), 'utf8'))?.[1];
}

/** The patches each server of a lab is built from: its baseline, its variant (the break), its solution. */
export function patchChain(id: string): { base: string[]; variant: string[]; solution: string[] } {
  if (id === BASELINE) return { base: [], variant: [], solution: [] };
  const base = baseOf(id);
  const below = base ? patchChain(base).variant : [];
  const variant = [...below, breakPatch(id)];
  return { base: below, variant, solution: [...variant, solutionPatch(id)] };
}

/** The patches of every server the kit itself ships: the baseline, and each break's base, variant and solution. */
export function kitServerPatches(): string[][] {
  const all = new Map<string, string[]>([['[]', []]]);
  for (const id of listBreaks()) {
    const chain = patchChain(id);
    for (const patches of [chain.base, chain.variant, ...(existsSync(solutionPatch(id)) ? [chain.solution] : [])]) all.set(JSON.stringify(patches), patches);
  }
  return [...all.values()];
}

/** What a lab's baseline run is called: 'baseline', or the lab it builds on. */
export function baselineName(id: string): string {
  return baseOf(id) ?? BASELINE;
}

/** A server that does not build: the learner's code to fix, exit 1 (not a usage error). */
export class BuildError extends UserError {
  constructor(message: string, hint?: string) {
    super(message, 1, hint);
  }
}

/**
 * The kit's own server sources (src/, contract/) that differ from the
 * commit they were cloned at: a learner who fixed the kit's src/ in place of
 * the workspace. Undefined where that cannot be told: a copy of the kit
 * without its own .git (a download, a copy inside another repository), or no
 * git at all.
 */
export function changedKitSources(root = REPO): string[] | undefined {
  const git = (args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' });
  try {
    // Only the kit's own repository answers: a copy inside someone else's would name their files.
    if (realpathSync(git(['rev-parse', '--show-toplevel']).trim()) !== realpathSync(root)) return undefined;
    // -z: one path per entry, as it is (no quoting of spaces or accents); untracked files too, they are built as well.
    const entries = git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...SOURCE_DIRS]).split('\0').filter(Boolean);
    // "XY path", or "R  new\0old" for a rename: the entry after a rename is its old name, skipped.
    const files: string[] = [];
    for (let i = 0; i < entries.length; i++) {
      files.push(entries[i]!.slice(3));
      if (entries[i]![0] === 'R' || entries[i]![0] === 'C') i++;
    }
    return files;
  } catch {
    return undefined;
  }
}

/** Why a break does not apply to the kit's src/, and how to get back: the changed files named, or (no git) where edits belong. */
function doesNotApply(patch: string, stderr: string): BuildError {
  const lang = detectLang();
  const changed = changedKitSources();
  if (changed === undefined || changed.length === 0) {
    return new BuildError(`${relative(REPO, patch)} does not apply to the baseline: ${stderr.replace(/\s*\n\s*/g, '; ')}`, t('learn.kitSourcesMaybeChanged', lang));
  }
  const files = changed.map((file) => forUser(join(REPO, file))).map((file) => (/[\s'"]/.test(file) ? `"${file}"` : file)).join(' ');
  return new BuildError(t('learn.kitSourcesChanged', lang, { patch: relative(REPO, patch), files }), t('learn.kitSourcesRestore', lang, { files }));
}

/**
 * A built server named by its bytes, hashed once a process (a built file
 * never changes: its folder is named by its sources). The same sources
 * bundle to the same bytes wherever they were copied (`absWorkingDir`), so
 * two servers with one digest serve every request alike.
 */
export function bundleDigest(serverJs: string): string {
  let digest = digests.get(serverJs);
  if (digest === undefined) {
    digest = createHash('sha256').update(readFileSync(serverJs)).digest('hex');
    digests.set(serverJs, digest);
  }
  return digest;
}
const digests = new Map<string, string>();

/** The contract document a built server was built with (contract/tutor-api.json of its sources). */
export function contractOf(serverJs: string): string {
  return join(dirname(serverJs), 'contract', 'tutor-api.json');
}

/** sourcesKey(root, { dirs: SOURCE_DIRS, extra: [BUNDLE_FORM, ...patches] }), from the sources' hash when the caller has it (buildServers). */
function contentKey(root: string, patches: string[], sources?: Hash): string {
  const hash = sources?.copy() ?? sourcesHash(root, { dirs: SOURCE_DIRS });
  for (const part of [BUNDLE_FORM, ...patches.map((patch) => readFileSync(patch))]) hash.update(part);
  return hash.digest('hex').slice(0, 20);
}

/** Changes when the way a server is bundled changes, so that no server bundled the old way is taken from the cache. */
const BUNDLE_FORM = 'iife, file names relative to the copy';

/**
 * A fresh copy of the sources of `root` (src/, contract/) in a temporary
 * folder outside any repository, with `patches` applied in order. The caller
 * removes it.
 */
export function prepareSources(patches: string[], root = REPO): string {
  const work = mkdtempSync(join(tmpdir(), 'schema-breaks-variant-'));
  try {
    for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) cpSync(join(root, dir), join(work, dir), { recursive: true });
    for (const patch of patches) {
      try {
        // GIT_CEILING_DIRECTORIES keeps git from finding an enclosing repository:
        // the patch applies to the copy, relative to its root, as at the repo root.
        execFileSync('git', ['apply', '--whitespace=nowarn', patch], {
          cwd: work,
          env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(work) },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
      } catch (error) {
        const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
        // The kit's own sources: most likely a learner edited src/ in place of the workspace; say which files, and how to put them back.
        if (root === REPO) throw doesNotApply(patch, stderr ?? String(error));
        throw new BuildError(`${relative(REPO, patch)} does not apply to ${root}: ${stderr ?? error}`);
      }
    }
    return work;
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The bundled server for `root` (a checkout, or a learner's workspace) with
 * `patches` applied in order. Returns the path of a .js file to run with node.
 */
export async function buildServer(patches: string[] = [], root = REPO, sources?: Hash): Promise<string> {
  for (const patch of patches) if (!existsSync(patch)) throw new BuildError(`no such patch: ${patch}`);
  const built = await cached(REPO, 'servers', contentKey(root, patches, sources), 'server.cjs', async (staged, final) => {
    const work = prepareSources(patches, root);
    try {
      try {
        // File names relative to the copy: the same sources give the same bytes, whichever copy they were built in.
        await bundle(join(work, 'src/minimcp/server.ts'), staged, [], 'iife', work);
      } catch (error) {
        // Name the learner's own files, not the temporary copy.
        throw new BuildError(`the server does not build: ${(error as Error).message.replaceAll(work, root)}`);
      }
      // The contract travels with the server it was patched with (a break may change it).
      cpSync(join(work, 'contract'), join(dirname(staged), 'contract'), { recursive: true });
      // The kit's own servers (baseline, breaks, solutions) start hundreds of times; a learner's workspace changes with
      // every edit and starts a few times per check, less than the 0.4 s a snapshot takes to build. The snapshot is made
      // before the script is renamed into place: a build interrupted half-way is never taken from the cache.
      if (root === REPO && !sameServerSnapshot(staged, snapshotOf(final))) await buildSnapshot(staged, snapshotOf(final));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  if (built.built) pruneServers(dirname(built.path));
  else markUsed(dirname(built.path));
  // A learner's copy of the kit's own sources (the baseline, copied back) has the same key, and may have been
  // built first, without a snapshot: the kit's server gets its snapshot now.
  if (root === REPO && !existsSync(snapshotOf(built.path)) && !existsSync(`${snapshotOf(built.path)}.failed`)) await buildSnapshot(built.path, snapshotOf(built.path));
  return built.path;
}

/**
 * The servers for several patch chains on the same sources (the class sweep's
 * every break and fix), in order: the sources are read and hashed once, not
 * once a chain (some 17 ms each: a quarter of a second of a sweep whose runs
 * all come from its cache).
 */
export async function buildServers(chains: string[][], root = REPO): Promise<string[]> {
  const sources = sourcesHash(root, { dirs: SOURCE_DIRS });
  return Promise.all(chains.map((patches) => buildServer(patches, root, sources)));
}

const execFileAsync = promisify(execFile);

/** Where a built server's startup snapshot is (src/minimcp/server.ts runs main() from it). */
function snapshotOf(serverJs: string): string {
  return serverJs.replace(/\.cjs$/, '.blob');
}

/**
 * A V8 startup snapshot of the server with its modules loaded (node
 * --build-snapshot): a server started from it skips compiling and running
 * about a megabyte of zod and the SDK, which is most of its start-up. A
 * server whose modules throw, or hang, gets none and starts from its script,
 * where the learner sees the error as before.
 */
async function buildSnapshot(script: string, blob: string): Promise<void> {
  const staged = stagedPath(blob);
  try {
    // Not execFileSync: several servers build at once (the sweep, the tests' setup), each its own process.
    await execFileAsync(process.execPath, ['--snapshot-blob', staged, '--build-snapshot', script], { timeout: 20_000 });
    renameSync(staged, blob);
  } catch {
    rmSync(staged, { force: true });
    // Not tried again for this build: it starts from its script.
    writeFileSync(`${blob}.failed`, '');
  }
}

/**
 * Takes the snapshot of a server built before with the very same bytes, if
 * there is one. A server's key is read from all of src/ before anything is
 * bundled, so an edit that leaves the server's code as it was (the runner, a
 * profile, a page) gives every server a new key and the same file; its
 * snapshot, made from the script alone, is the same too, and taking it is a
 * link where building it is 0.4 to 1 s of CPU (several servers a lab). Only
 * scripts of the same size are read to be compared.
 */
function sameServerSnapshot(script: string, blob: string): boolean {
  const servers = dirname(dirname(blob));
  const size = statSync(script).size;
  let bytes: Buffer | undefined;
  for (const dir of readdirSync(servers)) {
    const other = join(servers, dir, 'server.cjs');
    const otherBlob = snapshotOf(other);
    if (otherBlob === blob || statSync(other, { throwIfNoEntry: false })?.size !== size || !existsSync(otherBlob)) continue;
    const staged = stagedPath(blob);
    try {
      bytes ??= readFileSync(script);
      if (!readFileSync(other).equals(bytes)) continue;
      try {
        linkSync(otherBlob, staged);
      } catch {
        copyFileSync(otherBlob, staged);
      }
      renameSync(staged, blob);
      return true;
    } catch {
      // Pruned by another process meanwhile: look on, or build it.
      rmSync(staged, { force: true });
    }
  }
  return false;
}

/**
 * How to start a built server with `args`: from its startup snapshot when it
 * has one (node's arguments end at `--`, the server's follow), else its script.
 */
export function serverCommand(serverJs: string, args: string[] = []): { command: string; args: string[] } {
  const blob = snapshotOf(serverJs);
  if (serverJs.endsWith('.cjs') && existsSync(blob)) return { command: process.execPath, args: ['--snapshot-blob', blob, '--', ...args] };
  return { command: process.execPath, args: [serverJs, ...args] };
}

/** Servers kept in the cache: every test workspace and each edit of a learner's is a build of its own. */
const KEEP_SERVERS = 120;

function markUsed(dir: string): void {
  const now = new Date();
  try {
    utimesSync(dir, now, now);
  } catch {
    // Another process pruned it a moment ago; the caller's existsSync already passed, and a rebuild comes next time.
  }
}

/** Removes the least recently used builds beyond KEEP_SERVERS (never `keep`, the one just built). */
function pruneServers(keep: string): void {
  const root = dirname(keep);
  const dirs = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(root, d.name))
    .filter((d) => d !== keep)
    .map((d) => ({ d, used: statSync(d, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.used - a.used);
  for (const { d } of dirs.slice(KEEP_SERVERS - 1)) rmSync(d, { recursive: true, force: true });
}
