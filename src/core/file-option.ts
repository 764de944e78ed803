/**
 * Where a file option writes: one rule for every command (issue 32), so that a
 * learner who learnt it on one command is never surprised by another.
 *
 * - A path you give is read from the folder you typed the command in
 *   (src/core/cwd.ts: INIT_CWD under npm) and written exactly there: a bare
 *   name, a `./` name and a `sub/folder/` name alike. Nothing is moved under
 *   out/ behind your back (`--html report.html` once wrote out/report.html
 *   while `--html ./r.html` wrote ./r.html).
 * - No path: the command's default goes into the kit's own out/ folder,
 *   which git ignores, whatever folder the command was typed in.
 * - Every file written is named in one line, as forUser() shows it.
 *
 * `RULE` is the sentence each command's --help says it with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { forUser, fromUser } from './cwd.js';
import { UserError } from './user-error.js';
import type { Lang } from './lang.js';
import { t } from './messages/index.js';

/** The kit's folder for what its commands write by default (ignored by git: .gitignore). */
export const OUT_DIR = 'out';

/** A path given to a file option: from the folder the command was typed in, as typed (no out/ for a bare name). */
export function namedFile(given: string): string {
  return fromUser(given);
}

/**
 * The file a file option names: `given` (namedFile), else `fallback` under the kit's out/ (`root` is the kit's
 * folder: the core does not know it, src/lab/paths.ts does).
 */
export function outputFile(given: string | undefined, root: string, ...fallback: string[]): string {
  return given === undefined ? join(root, OUT_DIR, ...fallback) : namedFile(given);
}

/** The line a command prints for each file it wrote: "wrote out/run.html". */
export function wroteLine(file: string, lang: Lang): string {
  return t('common.wrote', lang, { file: forUser(file) });
}

/**
 * Writes `text` to `file`, its folder made first (`--out reports/today/page.html`); a file that cannot be written
 * (a folder of that name, no permission) is one line, exit 2, not a stack trace.
 */
export function writeOutput(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    throw new UserError(`cannot write ${forUser(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The rule as each command's --help says it, in the language of the help. */
export function fileRule(lang: Lang): string {
  return t('common.fileRule', lang);
}
