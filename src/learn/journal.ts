/**
 * The learner's break journal: `learners/<name>/notes/breaks.jsonl` (one JSON
 * entry per line, the source of truth) and `breaks.md` (the same entries as
 * readable markdown, which the learner may also edit by hand).
 *
 * How an append works (all of it synchronous, under a lock file):
 *
 *  1. Take the lock `.breaks.lock` (created with O_EXCL; see "Two processes").
 *  2. Remove temp files left by a run that was killed (only possible while we
 *     hold the lock, so they cannot belong to a live writer).
 *  3. Read breaks.jsonl as bytes and check ALL of it: valid UTF-8, every line a
 *     complete JSON entry, the file ending in '\n', ids unique. If anything is
 *     wrong, throw CorruptJournalError (file, line, reason) having written
 *     nothing at all.
 *  4. Build the new line with JSON.stringify (one line: JSON escapes newlines)
 *     and render the markdown blocks, before touching any file, so a bad entry
 *     or a throwing renderer writes nothing.
 *  5. Replace breaks.jsonl by `old bytes + new line`: write that to a temp file
 *     in the same folder, fsync it, rename it over breaks.jsonl, fsync the
 *     folder.
 *  6. Same for breaks.md: `old bytes (or a header if there is no file) +
 *     blocks`, where the blocks are the new entry's plus those of any entries
 *     that breaks.jsonl has but breaks.md lacks (see "Recovery").
 *  7. Release the lock.
 *
 * Why the guarantees hold:
 *
 *  - Nothing overwrites or truncates earlier entries. The only write to either
 *    file is step 5/6, whose content starts with the previous bytes copied
 *    verbatim from the buffer just read (never parsed and re-serialised), so
 *    the old file is always a byte prefix of the new one. Nothing else in this
 *    module opens the journal files for writing.
 *  - An interruption leaves the journal as it was or with one more complete
 *    entry. The files are never written in place: all writing goes to a temp
 *    file, and rename(2) replaces the name atomically (POSIX; NTFS with
 *    MoveFileEx REPLACE_EXISTING, which Node uses). A reader or the next run
 *    therefore sees either the old file or the complete new one. A kill before
 *    the jsonl rename leaves the journal unchanged (plus an ignored temp file);
 *    a kill after it leaves one more complete entry. fsync of the temp file
 *    before the rename (and of the folder after) makes the same true after a
 *    power cut, not just after a process kill. Ctrl+C cannot split an append:
 *    the append is one synchronous call, so a JS SIGINT handler only runs after
 *    it returns, and without a handler the process dies like a kill (above).
 *  - breaks.md may lag behind by the entries whose md rename did not happen
 *    (kill between the two renames). Recovery: each md block starts with the
 *    line `<!-- entry <id> -->`; the next append finds the last jsonl entry
 *    whose marker is in breaks.md and appends blocks for all later jsonl
 *    entries before the new one, still after the existing bytes. If breaks.md
 *    is missing it is recreated from breaks.jsonl. `recover()` does this
 *    without adding an entry. `read()` never writes. (Only entries after the
 *    last marker present count as missing, so a block the learner deleted by
 *    hand is not re-added at the end.) If breaks.md cannot be written at all
 *    after breaks.jsonl was, append still returns the entry (it is saved) and
 *    emits a process warning; breaks.md catches up on the next append.
 *  - A corrupt journal is reported, never rewritten: step 3 runs before any
 *    write, and read() runs the same check. A partial last line (no final
 *    '\n') is reported as corrupt too: this module can never produce one (see
 *    above), so one means the file was damaged from outside, and silently
 *    dropping or "repairing" it could lose the learner's words.
 *
 * Two processes: appends are serialised by `.breaks.lock`, created with the
 * O_EXCL flag ('wx'), holding {pid, host, token, time}. A lock whose process
 * is gone (same host, `kill(pid, 0)` fails), that is empty a second after its
 * creation, or that is very old (10 min same host, 1 min other host) is stale:
 * it is renamed aside to `.breaks.lock.stale.<pid>.<random>`, checked to be the
 * very lock that was judged stale (else put back), removed, and the lock is
 * tried again. Without the lock, two read-modify-rename cycles could
 * interleave and the later rename would drop the other's entry (the test with
 * three concurrent child processes fails without it). Remaining limitations: breaking a stale lock is not
 * perfectly atomic (three processes racing within microseconds on the same
 * stale lock could still let two writers in), and a learner editing breaks.md
 * in an editor at the very moment of an append may lose that edit or the new
 * block, depending on which save lands last (the entry itself stays in
 * breaks.jsonl and is recovered into breaks.md). read() takes no lock; it needs
 * none, because files are only ever replaced whole.
 *
 * Each guarantee is exercised by test/journal.test.ts, including a child
 * process killed with SIGKILL at random moments while appending 200 KB entries.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, replaceFile } from './atomic.js';
import { FileLock } from './journal-lock.js';
import { UserError } from '../core/user-error.js';

export type JournalEntry = {
  id: string;
  kind: 'prediction' | 'revision' | 'run' | 'reflection' | 'fixed' | 'reset';
  lab: string;
  at: string;
  data: Record<string, unknown>;
};

export type NewJournalEntry = Omit<JournalEntry, 'id' | 'at'> & Partial<Pick<JournalEntry, 'id' | 'at'>>;

export const ENTRY_KINDS: readonly JournalEntry['kind'][] = ['prediction', 'revision', 'run', 'reflection', 'fixed', 'reset'];

export const JSONL_FILE = 'breaks.jsonl';
export const MARKDOWN_FILE = 'breaks.md';
export const LOCK_FILE = '.breaks.lock';

/** The journal file is damaged; it was not changed. */
export class CorruptJournalError extends UserError {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  constructor(file: string, line: number, reason: string) {
    super(
      `The journal ${file} is damaged at line ${line}: ${reason}. ` +
        `The file was left untouched and nothing was added. Fix or remove that line by hand (or move the file away), then try again.`,
    );
    this.name = 'CorruptJournalError';
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

export { JournalBusyError } from './journal-lock.js';

export type JournalOptions = {
  /** Markdown for one entry in breaks.md. The `<!-- entry <id> -->` marker line is added by the journal, before it. */
  render?: (entry: JournalEntry) => string;
  /** First line of a new breaks.md, without '# '. Default: "<name>'s break notes" when dir is learners/<name>/notes, else "Break notes". */
  title?: string;
  /** How long append waits for another process's lock before JournalBusyError. Default 15 s. */
  lockTimeoutMs?: number;
  /**
   * false: breaks.jsonl only, no breaks.md. For a journal nobody reads by
   * hand (the live class's copy of a learner's entries): each append then
   * costs one durable replace instead of two.
   */
  markdown?: boolean;
};

/** What an entry id may be: it travels to the class (src/learn/class-wire.ts), whose server checks it with this same pattern. */
export const ID_PATTERN = /^[A-Za-z0-9._:+-]{1,128}$/;
const MARKER_LINE = /^<!-- entry ([A-Za-z0-9._:+-]{1,128}) -->$/gm;
const TEMP_FILE = /^\.breaks\.(jsonl|md)\.\d+\.[0-9a-f]+\.tmp$/;

// ---------------------------------------------------------------- rendering

function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function fenced(text: string, lang = ''): string {
  const fence = fenceFor(text);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** The default markdown block: a heading, short values as a bullet list, long text and structures as fenced blocks. */
export function defaultRender(entry: JournalEntry): string {
  const bullets: string[] = [];
  const sections: string[] = [];
  for (const [key, value] of Object.entries(entry.data)) {
    if (value === undefined) continue;
    if (typeof value === 'string' && !value.includes('\n') && value.length <= 200) {
      bullets.push(`- **${key}**: ${value}`);
    } else if (value === null || typeof value === 'number' || typeof value === 'boolean') {
      bullets.push(`- **${key}**: ${String(value)}`);
    } else if (typeof value === 'string') {
      sections.push(`**${key}**:\n\n${fenced(value, 'text')}`);
    } else {
      sections.push(`**${key}**:\n\n${fenced(JSON.stringify(value, null, 2) ?? String(value), 'json')}`);
    }
  }
  const parts = [`## ${entry.lab} · ${entry.kind} · ${entry.at}`];
  if (bullets.length > 0) parts.push(bullets.join('\n'));
  parts.push(...sections);
  if (bullets.length === 0 && sections.length === 0) parts.push('_(no details)_');
  return parts.join('\n\n');
}

// ---------------------------------------------------------------- file helpers

function readIfExists(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}



// ---------------------------------------------------------------- parsing

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why `value` is not a journal entry, or undefined if it is one. */
export function entryProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return `it is ${Array.isArray(value) ? 'a JSON array' : `JSON ${value === null ? 'null' : typeof value}`}, not an entry object`;
  if (typeof value.id !== 'string' || !ID_PATTERN.test(value.id)) return "its 'id' is missing or not a valid id";
  if (typeof value.kind !== 'string' || !(ENTRY_KINDS as readonly string[]).includes(value.kind)) {
    return `its 'kind' is ${JSON.stringify(value.kind) ?? 'missing'}, not one of ${ENTRY_KINDS.join(', ')}`;
  }
  if (typeof value.lab !== 'string' || value.lab === '') return "its 'lab' is missing or not text";
  if (typeof value.at !== 'string' || Number.isNaN(Date.parse(value.at))) return "its 'at' is missing or not a date-time";
  if (!isPlainObject(value.data)) return "its 'data' is missing or not an object";
  return undefined;
}

/** Parses the whole of breaks.jsonl; throws CorruptJournalError at the first problem. */
function parseJournal(file: string, bytes: Buffer | undefined): JournalEntry[] {
  if (bytes === undefined || bytes.length === 0) return [];
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    // Find the line of the first invalid byte sequence, for the message.
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          utf8.decode(bytes.subarray(start, i));
        } catch {
          throw new CorruptJournalError(file, line, 'it is not valid UTF-8 text');
        }
        line++;
        start = i + 1;
      }
    }
    throw new CorruptJournalError(file, line, 'it is not valid UTF-8 text');
  }
  const lines = text.split('\n');
  const last = lines.pop(); // text after the final '\n': must be empty
  const entries: JournalEntry[] = [];
  const ids = new Set<string>();
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line.trim() === '') throw new CorruptJournalError(file, n, 'the line is empty');
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new CorruptJournalError(file, n, `it is not valid JSON (${(err as Error).message})`);
    }
    const problem = entryProblem(value);
    if (problem !== undefined) throw new CorruptJournalError(file, n, problem);
    const entry = value as JournalEntry;
    if (ids.has(entry.id)) throw new CorruptJournalError(file, n, `the id ${entry.id} was already used by an earlier line`);
    ids.add(entry.id);
    entries.push(entry);
  });
  if (last !== undefined && last !== '') {
    throw new CorruptJournalError(
      file,
      lines.length + 1,
      'the last line is incomplete (the file does not end with a line break, so that entry may be cut off)',
    );
  }
  return entries;
}

function markersIn(md: Buffer): Set<string> {
  // Ids are ASCII, so decoding as latin1 finds them even if the learner's text is not valid UTF-8.
  const ids = new Set<string>();
  for (const m of md.toString('latin1').matchAll(MARKER_LINE)) if (m[1] !== undefined) ids.add(m[1]);
  return ids;
}

// ---------------------------------------------------------------- the journal

export class Journal {
  readonly dir: string;
  readonly jsonlPath: string;
  readonly markdownPath: string;
  readonly lockPath: string;
  private readonly render: (entry: JournalEntry) => string;
  private readonly markdown: boolean;
  private readonly title: string;
  private readonly fileLock: FileLock;

  constructor(dir: string, options: JournalOptions = {}) {
    this.dir = path.resolve(dir);
    this.jsonlPath = path.join(this.dir, JSONL_FILE);
    this.markdownPath = path.join(this.dir, MARKDOWN_FILE);
    this.lockPath = path.join(this.dir, LOCK_FILE);
    this.render = options.render ?? defaultRender;
    this.markdown = options.markdown ?? true;
    this.fileLock = new FileLock(this.lockPath, options.lockTimeoutMs ?? 15_000);
    if (options.title !== undefined) {
      this.title = options.title;
    } else {
      const owner = path.dirname(this.dir);
      const isLearnerNotes = path.basename(this.dir) === 'notes' && path.basename(path.dirname(owner)) === 'learners';
      this.title = isLearnerNotes ? `${path.basename(owner)}'s break notes` : 'Break notes';
    }
  }

  /** All entries, from breaks.jsonl (empty if there is none yet). Throws CorruptJournalError if any line is damaged. Never writes. */
  read(): JournalEntry[] {
    return parseJournal(this.jsonlPath, readIfExists(this.jsonlPath));
  }

  /**
   * Appends one entry to breaks.jsonl and breaks.md, durably, and returns it
   * as stored (id and at filled in). Throws CorruptJournalError, writing
   * nothing, if breaks.jsonl is damaged; TypeError, writing nothing, if the
   * entry is not valid.
   */
  append(entry: NewJournalEntry): JournalEntry {
    return this.appendAll([entry])[0]!;
  }

  /**
   * Appends several entries at once, in order, with one lock and one rename
   * of each file: all of them or (on any error, or a kill) none. The class
   * server (src/class/class-folder.ts) keeps a learner's batch this way, so
   * that a batch costs one fsync cycle instead of one per entry.
   */
  appendAll(batch: readonly NewJournalEntry[]): JournalEntry[] {
    this.ensureDir();
    const release = this.fileLock.acquire();
    try {
      this.removeLeftovers();
      const oldJsonl = readIfExists(this.jsonlPath);
      const entries = parseJournal(this.jsonlPath, oldJsonl);
      const stored: JournalEntry[] = [];
      for (const entry of batch) stored.push(this.prepare(entry, [...entries, ...stored]));
      const lines = Buffer.from(stored.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
      const md = this.markdown ? this.markdownUpdate([...entries, ...stored]) : undefined; // rendered before any write
      replaceFile(this.jsonlPath, oldJsonl === undefined ? [lines] : [oldJsonl, lines]);
      try {
        if (md !== undefined) replaceFile(this.markdownPath, md);
      } catch (err) {
        // The entries are safe in breaks.jsonl; breaks.md catches up on the next append.
        process.emitWarning(`The entry was saved in ${this.jsonlPath}, but ${this.markdownPath} could not be updated (${(err as Error).message}); it will be caught up next time.`);
      }
      return stored;
    } finally {
      release();
    }
  }

  /**
   * Appends to breaks.md the blocks of entries that breaks.jsonl has but
   * breaks.md lacks (after an interrupted append). Returns how many blocks were
   * added. Never changes existing bytes of either file.
   */
  recover(): number {
    if (!this.markdown || readIfExists(this.jsonlPath) === undefined) return 0;
    this.ensureDir();
    const release = this.fileLock.acquire();
    try {
      this.removeLeftovers();
      const entries = this.read();
      const before = this.missingFromMarkdown(entries).length;
      const md = this.markdownUpdate(entries);
      if (md !== undefined && before > 0) replaceFile(this.markdownPath, md);
      return md === undefined ? 0 : before;
    } finally {
      release();
    }
  }

  // ------------------------------------------------------------ internals

  private ensureDir(): void {
    const created = fs.mkdirSync(this.dir, { recursive: true });
    if (created !== undefined) {
      // Make the new folders themselves durable: fsync each new folder's parent.
      let d = this.dir;
      const stop = path.dirname(created);
      while (d !== stop && d !== path.dirname(d)) {
        fsyncDir(path.dirname(d));
        d = path.dirname(d);
      }
    }
  }

  private prepare(entry: NewJournalEntry, existing: JournalEntry[]): JournalEntry {
    if (!isPlainObject(entry)) throw new TypeError('A journal entry must be an object.');
    if (entry.at !== undefined && (typeof entry.at !== 'string' || Number.isNaN(Date.parse(entry.at)))) {
      throw new TypeError(`A journal entry's 'at' must be an ISO date-time; got ${JSON.stringify(entry.at)}.`);
    }
    const at = entry.at ?? new Date().toISOString();
    const id = entry.id ?? `${at.replace(/[^A-Za-z0-9._:+-]/g, '')}-${randomBytes(4).toString('hex')}`;
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      throw new TypeError(`A journal entry id must be 1 to 128 characters of A-Z a-z 0-9 . _ : + -; got ${JSON.stringify(id)}.`);
    }
    if (existing.some((e) => e.id === id)) throw new TypeError(`The journal already has an entry with id ${id}.`);
    if (typeof entry.lab !== 'string' || entry.lab.trim() === '' || /\p{Cc}/u.test(entry.lab)) {
      throw new TypeError(`A journal entry needs a lab name on one line; got ${JSON.stringify(entry.lab)}.`);
    }
    let line: string | undefined;
    try {
      line = JSON.stringify({ id, kind: entry.kind, lab: entry.lab, at, data: entry.data });
    } catch (err) {
      throw new TypeError(`The entry's data cannot be saved as JSON: ${(err as Error).message}`);
    }
    // Store exactly what will be read back (JSON drops undefined, turns Dates into strings...).
    const stored: unknown = JSON.parse(line);
    const problem = entryProblem(stored);
    if (problem !== undefined) throw new TypeError(`Not a valid journal entry: ${problem}.`);
    return stored as JournalEntry;
  }

  private missingFromMarkdown(entries: JournalEntry[], md = readIfExists(this.markdownPath)): JournalEntry[] {
    if (md === undefined) return entries;
    const present = markersIn(md);
    let lastPresent = -1;
    entries.forEach((e, i) => {
      if (present.has(e.id)) lastPresent = i;
    });
    return entries.slice(lastPresent + 1);
  }

  /** New breaks.md content (as parts) holding blocks for every entry after the last one it shows, or undefined if none is missing. */
  private markdownUpdate(entries: JournalEntry[]): Buffer[] | undefined {
    const md = readIfExists(this.markdownPath);
    const missing = this.missingFromMarkdown(entries, md);
    if (missing.length === 0) return undefined;
    const blocks = missing.map((e) => `\n<!-- entry ${e.id} -->\n${this.render(e).replace(/\s+$/u, '')}\n`).join('');
    if (md === undefined) return [Buffer.from(`# ${this.title}\n${blocks}`, 'utf8')];
    const sep = md.length > 0 && md[md.length - 1] !== 0x0a ? '\n' : '';
    return [md, Buffer.from(sep + blocks, 'utf8')];
  }

  private removeLeftovers(): void {
    // Called only while holding the lock: any temp file here is from a writer that died.
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(this.dir, name);
      if (TEMP_FILE.test(name)) fs.rmSync(file, { force: true });
      else this.fileLock.removeIfAbandoned(name);
    }
  }
}
