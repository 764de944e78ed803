/**
 * Where the user typed the command. `npm run` moves to the package root
 * before it starts a script and keeps the folder it was typed in as INIT_CWD
 * (npm docs, "npm run-script": "the original working directory is available
 * as INIT_CWD"), so a path a learner or an author types is read from there,
 * never from the package root.
 */
import { isAbsolute, relative, resolve } from 'node:path';

/** The folder the command was typed in. */
export function typedIn(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

/** A path the user typed, made absolute against the folder they typed it in. */
export function fromUser(path: string): string {
  return isAbsolute(path) ? path : resolve(typedIn(), path);
}

/** A path as the user would type it from where they are: relative when it is under that folder, absolute otherwise. */
export function forUser(path: string): string {
  const rel = relative(typedIn(), path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
