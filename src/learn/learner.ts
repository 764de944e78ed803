/**
 * Learner names, the folder each learner's notes live in, and the remembered
 * ("current") learner.
 *
 * A learner name becomes a folder name: `learners/<name>/`. So the name is the
 * one piece of user input that reaches the file system as a path, and it is
 * checked before anything else touches it:
 *
 * - `validateLearnerName` accepts only 1 to 40 Unicode letters (with their
 *   combining marks) and decimal digits, space, '-', '_' and '.', starting with
 *   a letter or digit, with no '..' anywhere. That set contains no path
 *   separator ('/' or '\\'), no NUL, no control character and no drive colon,
 *   and a name can neither be '.' nor '..' nor start with '.', so a valid name
 *   is always exactly one ordinary path segment. Windows device names (CON,
 *   NUL, COM1...) are refused as well, because a folder with that name cannot
 *   be created there. The name is NFC-normalised and trimmed, so 'José' typed
 *   on a Mac (decomposed) and on Linux (composed) is the same learner.
 * - `learnerDir` does not trust that argument alone: it resolves the folder
 *   and checks that the result is a direct child of `<root>/learners`, and, if
 *   the folder already exists, that its real path (symlinks followed) is still
 *   inside the real `learners` folder.
 * - `rememberLearner` writes `learners/.current` atomically (temp file in the
 *   same folder, fsync, rename), so an interrupted run leaves either the old
 *   name or the new one, never half a name. `rememberedLearner` re-validates
 *   what it reads and answers `undefined` for anything missing or invalid.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceFile } from './atomic.js';
import { UserError } from '../core/user-error.js';
import { isLang, type Lang } from '../core/lang.js';

export class LearnerNameError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'LearnerNameError';
  }
}

export const MAX_LEARNER_NAME_LENGTH = 40;

const ALLOWED =
  "Use 1 to 40 letters or digits; spaces, '-', '_' and '.' are fine too, as long as the name starts with a letter or digit (for example 'Ana', 'José María' or 'ana-2').";

const CONTROL_NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x09: 'tab',
  0x0a: 'line break',
  0x0d: 'carriage return',
  0x1b: 'escape',
  0x7f: 'delete',
};

function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\p{Cc}/u.test(ch)) return `the control character ${hex}${CONTROL_NAMES[cp] ? ` (${CONTROL_NAMES[cp]})` : ''}`;
  if (/[\p{Z}\p{Cf}]/u.test(ch)) return `the invisible character ${hex}`;
  return `'${ch}' (${hex})`;
}

function refuse(name: string, problem: string): never {
  const shown = JSON.stringify(name);
  throw new LearnerNameError(`The learner name ${shown} is not allowed: ${problem} ${ALLOWED}`);
}

const ALLOWED_CHAR = /^[\p{L}\p{M}\p{Nd} ._-]$/u;
const FIRST_CHAR = /^[\p{L}\p{Nd}]$/u;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/iu;

/**
 * Checks a learner name and returns it normalised (NFC, trimmed). Throws
 * LearnerNameError with a message that says what is wrong and what is allowed.
 */
export function validateLearnerName(raw: string): string {
  if (typeof raw !== 'string') throw new LearnerNameError(`A learner name must be text. ${ALLOWED}`);
  // NUL first, before anything else looks at the string.
  if (raw.includes('\0')) refuse(raw, "it contains the NUL character (U+0000), which can never be part of a file name.");
  const name = raw.normalize('NFC').trim();
  if (name === '') {
    throw new LearnerNameError(`A learner name cannot be empty${raw === '' ? '' : ' (it was only spaces)'}. ${ALLOWED}`);
  }
  const chars = [...name];
  const control = chars.find((c) => /\p{Cc}/u.test(c));
  if (control !== undefined) refuse(name, `it contains ${describeChar(control)}.`);
  if (name.includes('..')) refuse(name, "it contains '..', which means 'the folder above' in a path.");
  if (name.includes('/')) refuse(name, "the character '/' separates folders in a path, so it cannot be in a name.");
  if (name.includes('\\')) refuse(name, "the character '\\' separates folders in a path on Windows, so it cannot be in a name.");
  if (name.startsWith('.')) refuse(name, "it starts with '.', which would make a hidden folder.");
  const bad = chars.find((c) => !ALLOWED_CHAR.test(c));
  if (bad !== undefined) refuse(name, `the character ${describeChar(bad)} is not allowed.`);
  if (!FIRST_CHAR.test(chars[0] ?? '')) refuse(name, `it starts with ${describeChar(chars[0] ?? '')}; it must start with a letter or digit.`);
  if (chars.length > MAX_LEARNER_NAME_LENGTH) {
    refuse(name, `it is ${chars.length} characters long; the limit is ${MAX_LEARNER_NAME_LENGTH}.`);
  }
  if (WINDOWS_DEVICE.test(name)) refuse(name, `'${name.split('.')[0]}' is a reserved device name on Windows, so no folder can have it.`);
  return name;
}

function isDirectChild(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '.' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel) && !rel.includes(path.sep) && !rel.includes('/');
}

/** `<root>/learners/<name>` for a valid name; refuses anything that would land outside `<root>/learners`. */
export function learnerDir(root: string, name: string): string {
  const valid = validateLearnerName(name);
  const base = path.resolve(root, 'learners');
  const dir = path.resolve(base, valid);
  if (!isDirectChild(base, dir)) {
    throw new LearnerNameError(`The learner name ${JSON.stringify(valid)} would point outside the learners folder (${base}). ${ALLOWED}`);
  }
  // If the folder exists, make sure no symlink carries it out of learners/.
  let realDir: string | undefined;
  try {
    realDir = fs.realpathSync(dir);
  } catch {
    realDir = undefined; // does not exist yet: nothing to follow
  }
  if (realDir !== undefined) {
    const realBase = fs.realpathSync(base);
    if (!isDirectChild(realBase, realDir)) {
      throw new LearnerNameError(
        `The folder for learner ${JSON.stringify(valid)} (${dir}) is a link to ${realDir}, outside the learners folder; it will not be used. Rename or remove that link.`,
      );
    }
  }
  return dir;
}

function currentFile(root: string): string {
  return path.join(path.resolve(root, 'learners'), '.current');
}


/** Remembers `name` as the current learner in `<root>/learners/.current` (atomic: temp file + rename). */
export function rememberLearner(root: string, name: string): void {
  const valid = validateLearnerName(name);
  const file = currentFile(root);
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  replaceFile(file, [Buffer.from(`${valid}\n`, 'utf8')]);
}

/** The remembered learner, or undefined if none was remembered or the file does not hold a valid name. */
export function rememberedLearner(root: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(currentFile(root), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return validateLearnerName(text);
  } catch {
    return undefined;
  }
}

/**
 * The learners of this copy: every folder of `<root>/learners` whose name is a
 * valid learner name (dot-folders, .current and .lang are the kit's own), in
 * alphabetical order.
 */
export function listLearners(root: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.resolve(root, 'learners'), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .filter((name) => {
      try {
        return validateLearnerName(name) === name;
      } catch {
        return false;
      }
    })
    .sort((a, b) => a.localeCompare(b));
}

/** The language last asked for with --lang (learners/.lang), so that a learner who chose Spanish keeps it. */
export function rememberedLang(root: string): Lang | undefined {
  try {
    const text = fs.readFileSync(path.join(path.resolve(root, 'learners'), '.lang'), 'utf8').trim();
    return isLang(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

export function rememberLang(root: string, lang: Lang): void {
  const file = path.join(path.resolve(root, 'learners'), '.lang');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  replaceFile(file, [Buffer.from(`${lang}\n`, 'utf8')]);
}

