/**
 * A copy of the kit as a clone has it: the files git tracks (and new ones not yet committed), nothing else (no
 * node_modules, no learners/, no cache), in a temporary folder. What a
 * learner gets before installing; the tests of the install and of
 * `npm run doctor` work on it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO } from './server.js';

const copies: string[] = [];

/** The tracked files of the kit (as they are in the working tree) copied into a new temporary folder. */
export function kitCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-copy-'));
  copies.push(dir);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(REPO, file))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(REPO, file), join(dir, file));
  }
  return dir;
}

/**
 * The checkout's node_modules (the full install `npm ci` made) put into `copy`
 * as hard links: a second of disk work where `npm ci` in the copy unpacks
 * some 800 MB again (27 CPU-s on the build machine). Left out: the kit's own
 * bundle cache (a clone has none) and vite's, and npm's hidden lockfile is
 * copied, not linked, so that nothing npm writes in the copy reaches the
 * checkout. A file is copied where it cannot be linked.
 */
export function linkInstall(copy: string): void {
  const from = join(REPO, 'node_modules');
  if (!existsSync(from)) throw new Error(`no ${from}: run npm ci first`);
  const skip = new Set(['.cache', '.vite', '.vite-temp', '.package-lock.json'].map((name) => join(from, name)));
  const walk = (src: string, dst: string) => {
    mkdirSync(dst, { recursive: true });
    for (const entry of readdirSync(src, { withFileTypes: true })) {
      const s = join(src, entry.name);
      const d = join(dst, entry.name);
      if (skip.has(s)) continue;
      if (entry.isDirectory()) walk(s, d);
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(s), d);
      else {
        try {
          linkSync(s, d);
        } catch (error) {
          // Another disk (EXDEV), or a file system without hard links: a copy is the same tree, only slower.
          if (!['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
          copyFileSync(s, d);
        }
      }
    }
  };
  walk(from, join(copy, 'node_modules'));
  if (existsSync(join(from, '.package-lock.json'))) copyFileSync(join(from, '.package-lock.json'), join(copy, 'node_modules', '.package-lock.json'));
}

/**
 * The checkout's host frameworks (hosts/: its package.json and lockfile, its node_modules linked) put into a copy
 * of the kit, for a test whose copy runs a framework host (the linter's default hosts, the sweep's every-host
 * columns); a copy without them is a learner's install.
 */
export function linkHosts(copy: string): void {
  mkdirSync(join(copy, 'hosts'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(REPO, 'hosts', file), join(copy, 'hosts', file));
  if (existsSync(join(REPO, 'hosts', 'node_modules'))) symlinkSync(join(REPO, 'hosts', 'node_modules'), join(copy, 'hosts', 'node_modules'), 'dir');
}

export function removeKitCopies(): void {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * `npm run <script> -- <args>` in `root`, as a learner types it there: the
 * environment without the npm_* variables and INIT_CWD of the npm that
 * started the tests (they would say the command was typed elsewhere).
 */
export function npmRun(root: string, script: string, args: string[], env: NodeJS.ProcessEnv = {}, timeout = 120_000) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], { cwd: root, encoding: 'utf8', env: personEnv(env), timeout, shell: process.platform === 'win32' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The environment a person's shell has: none of the npm_* variables and INIT_CWD of the npm that started the tests; no colour. */
export function personEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
  return { ...clean, NO_COLOR: '1', ...extra };
}

/** Bytes of the files under `dir` (links not followed), the folders named in `skip` left out. */
export function bytesUnder(dir: string, skip: readonly string[] = []): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !skip.includes(entry.name)) total += bytesUnder(path, skip);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}
