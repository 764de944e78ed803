/**
 * The TypeScript compiler `npm run check` runs on a workspace: TypeScript 7's
 * native `tsc`, from the package built for this platform.
 *
 * Why not the `typescript` package itself: in TypeScript 7 it is a launcher of
 * a few kilobytes (lib/tsc.js, lib/getExePath.js at 7.0.2) that finds
 * `@typescript/typescript-<platform>-<arch>` and runs its `lib/tsc`; the
 * compiler and the standard `lib.*.d.ts` files are all in that platform
 * package. package.json lists the platform packages as optionalDependencies,
 * as `typescript` does (npm installs the one whose `os` and `cpu` match), so
 * the learner install leaves out `typescript` (a devDependency, for the kit's
 * own `npm run typecheck`) and, with it, the ten megabytes of registry
 * metadata npm fetches to install it. The lookup below is getExePath's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { REPO } from '../lab/paths.js';

/** The platform package's name, as typescript 7.0.2's getExePath builds it. */
export const COMPILER_PACKAGE = `@typescript/typescript-${process.platform}-${process.arch}`;

/** The platform package's folder, or undefined when it is not installed (an unsupported platform, or no install). */
function compilerDir(): string | undefined {
  try {
    return dirname(createRequire(join(REPO, 'package.json')).resolve(`${COMPILER_PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
}

/** The native `tsc` to run, or undefined when this platform has none installed. */
export function compilerPath(): string | undefined {
  const dir = compilerDir();
  const exe = dir && join(dir, 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
  return exe && existsSync(exe) ? exe : undefined;
}

/** The compiler's version (its package's): part of the key of a kept answer. */
export function compilerVersion(): string {
  const dir = compilerDir();
  return dir ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version : 'none';
}
