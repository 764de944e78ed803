/**
 * Finding the class's journals: every `breaks.jsonl` under a folder, at any
 * depth, as an instructor gets them by copying each laptop's `learners/`
 * folder into one place (`room/laptop-3/learners/Ana/notes/breaks.jsonl`).
 *
 * Each is read with the journal's own reader (`Journal.read()`, which checks
 * every line and never writes). One that cannot be read is kept aside with
 * the reason; it does not stop the others from counting.
 *
 * Names: the learner is the folder above `notes/`; where the journal came from
 * (its origin) is the path from the folder given to the learner's folder,
 * without a final `learners` segment (`room/laptop-3`). Two journals with the
 * same name are different people (or the same person on two laptops): they
 * are never merged, and are shown as "Ana (room/laptop-3)".
 */
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CorruptJournalError, Journal, JSONL_FILE, type JournalEntry } from '../learn/journal.js';
import { UserError } from '../core/user-error.js';
import { DEVICE_PATTERN } from '../learn/class-wire.js';

/** A path inside a class folder with its laptop's device id left out (a page never shows one: issue 35, D2). */
export const withoutDevice = (path: string) => path.replace(/(^|\/)[0-9a-f]{16}(?=\/)/g, '$1…');

export interface JournalSource {
  /** The learner's name: the folder above notes/ (as found on disk: untrusted text). */
  learner: string;
  /** Where it came from, relative to the folder given ("room/laptop-3"), or "." */
  origin: string;
  /** The journal file, relative to the folder given, with '/' separators. */
  path: string;
  /** How the report names it: the learner, plus the origin when another journal has the same name. */
  display: string;
}

export interface ReadJournal extends JournalSource {
  entries: JournalEntry[];
}

export interface UnreadableJournal extends JournalSource {
  reason: string;
  /** The line the reader stopped at, for a damaged journal. */
  line: number | null;
}

export interface Discovery {
  journals: ReadJournal[];
  unreadable: UnreadableJournal[];
  /** Names that more than one journal carries, with those journals' display names. */
  duplicateNames: { name: string; journals: string[] }[];
}

/** The folder given is not a folder we can read. */
export class FolderError extends UserError {}

/** Folders never worth walking into. */
const SKIP = new Set(['node_modules', '.git']);

const slashes = (p: string) => p.split(sep).join('/');

/**
 * Every file under `folder` whose name `wanted` takes, sorted by path, and
 * the folders below it that cannot be listed. Symbolic links are not
 * followed (a copied folder may hold loops). Throws FolderError when
 * `folder` itself is not a readable folder.
 */
export function filesUnder(folder: string, wanted: (name: string) => boolean): { files: string[]; problems: { path: string; reason: string }[] } {
  let stat;
  try {
    stat = lstatSync(folder);
  } catch (error) {
    throw new FolderError(`cannot read the folder ${folder}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}`);
  }
  if (!stat.isDirectory()) throw new FolderError(`${folder} is not a folder`);
  const files: string[] = [];
  const problems: { path: string; reason: string }[] = [];
  const walk = (dir: string) => {
    let items: Dirent[];
    try {
      items = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === folder) throw new FolderError(`cannot read the folder ${folder}: ${(error as Error).message}`);
      problems.push({ path: slashes(relative(folder, dir)) || '.', reason: `the folder cannot be listed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
      return;
    }
    for (const item of items) {
      const full = join(dir, item.name);
      if (item.isDirectory() && !SKIP.has(item.name)) walk(full);
      else if (item.isFile() && wanted(item.name)) files.push(full);
    }
  };
  walk(folder);
  files.sort((a, b) => (slashes(relative(folder, a)) < slashes(relative(folder, b)) ? -1 : 1));
  return { files, problems };
}

/** Every breaks.jsonl under `folder`, sorted by path. */
export function findJournalFiles(folder: string): { files: string[]; problems: { path: string; reason: string }[] } {
  return filesUnder(folder, (name) => name === JSONL_FILE);
}

/** The learner and origin of a journal file found under `folder`. */
export function sourceOf(folder: string, file: string): Omit<JournalSource, 'display'> {
  const notes = dirname(file);
  const learnerDir = basename(notes) === 'notes' && notes !== folder ? dirname(notes) : notes;
  // NFC: a name copied from a Mac (decomposed) and from Linux (composed) is the same name.
  const learner = (learnerDir === folder ? basename(folder) || '.' : basename(learnerDir)).normalize('NFC');
  let parent = learnerDir === folder ? '' : slashes(relative(folder, dirname(learnerDir)));
  parent = parent === 'learners' ? '' : parent.replace(/\/learners$/, '');
  return { learner, origin: parent === '' ? '.' : parent, path: slashes(relative(folder, file)) };
}

/** Finds and reads every journal under `folder`. Throws FolderError if `folder` is not a readable folder. */
export function discover(folder: string): Discovery {
  const { files, problems } = findJournalFiles(folder);
  const journals: ReadJournal[] = [];
  const unreadable: UnreadableJournal[] = [];
  for (const file of files) {
    const source = { ...sourceOf(folder, file), display: '' };
    try {
      journals.push({ ...source, entries: new Journal(dirname(file)).read() });
    } catch (error) {
      if (error instanceof CorruptJournalError) unreadable.push({ ...source, reason: `line ${error.line}: ${error.reason}`, line: error.line });
      else unreadable.push({ ...source, reason: (error as NodeJS.ErrnoException).code ? `it cannot be read (${(error as NodeJS.ErrnoException).code})` : (error as Error).message, line: null });
    }
  }
  for (const problem of problems) unreadable.push({ learner: '', origin: problem.path, path: problem.path, display: problem.path, reason: problem.reason, line: null });

  // Names shared by journals that count: shown with their origin, never merged.
  const byName = new Map<string, ReadJournal[]>();
  for (const journal of journals) byName.set(journal.learner, [...(byName.get(journal.learner) ?? []), journal]);
  const duplicateNames: Discovery['duplicateNames'] = [];
  for (const [name, group] of byName) {
    // A class folder's origin is a laptop's device id (src/class/class-folder.ts): never shown (issue 35, D2), numbered instead, in the order of the ids.
    const laptops = group.map((j) => j.origin).filter((o) => DEVICE_PATTERN.test(o)).sort();
    const origin = (j: ReadJournal) => (DEVICE_PATTERN.test(j.origin) ? `#${laptops.indexOf(j.origin) + 1}` : j.origin === '.' ? j.path : j.origin);
    for (const journal of group) journal.display = group.length > 1 ? `${name} (${origin(journal)})` : name;
    if (new Set(group.map((j) => j.display)).size < group.length) for (const journal of group) journal.display = `${name} (${journal.path})`;
    if (group.length > 1) duplicateNames.push({ name, journals: group.map((j) => j.display) });
  }
  for (const journal of unreadable) if (journal.display === '') journal.display = journal.origin === '.' || DEVICE_PATTERN.test(journal.origin) ? journal.learner : `${journal.learner} (${journal.origin})`;
  return { journals, unreadable, duplicateNames };
}
