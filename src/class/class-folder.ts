/**
 * The class folder that `npm run class -- serve` keeps (default `class/` at
 * the repository's root):
 *
 *   class.json                                   {name, code, token, revealed: {lab: at}}
 *   <device>/device.json                         {secretSha256}: the laptop's secret, hashed (issue 35, D2)
 *   <device>/learners/<learner>/notes/breaks.jsonl   every entry a learner sent, as their laptop wrote it
 *   measured/<lab>.json                          the server's own measurement of a revealed lab (src/class/measure.ts)
 *
 * The journals are the kit's own (src/learn/journal.ts): `append` keeps the
 * entry's id and time, fsyncs and renames, so an entry acknowledged after it
 * returned survives a kill -9, and `npm run class -- report <folder>` reads the
 * folder unchanged (src/class/discover.ts names the origin, the <device>, only
 * when two journals share a learner's name).
 *
 * Nothing outside the folder: a path is built only from parts the server has
 * validated (the device against DEVICE_PATTERN, the learner through
 * learnerDir, which refuses anything but one ordinary path segment and links
 * leading out), and the result is checked once more to resolve inside the
 * folder, its real path included.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { replaceFile } from '../learn/atomic.js';
import { CODE_ALPHABET, CODE_LENGTH, CODE_PATTERN, DEVICE_PATTERN } from '../learn/class-wire.js';
import { Journal, type JournalEntry } from '../learn/journal.js';
import { learnerDir } from '../learn/learner.js';
import { UserError } from '../core/user-error.js';

export const CLASS_FILE = 'class.json';
export const DEVICE_FILE = 'device.json';

const sha256 = (text: string) => createHash('sha256').update(text).digest();
export const MEASURED_DIR = 'measured';

export interface ClassFile {
  /** The class's name as the instructor gave it (or the folder's name). */
  name: string;
  /** The join code learners type. */
  code: string;
  /** The instructor's token: the projector page and the reveal. */
  token: string;
  /** Labs whose measurement is revealed, with when. */
  revealed: Record<string, string>;
}

/** The class folder cannot be used (class.json damaged, a folder not writable): one line, exit 2. */
export class ClassFolderError extends UserError {}

/** A join code from CODE_ALPHABET, by crypto.randomInt (uniform, no modulo bias). */
export function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function isClassFile(value: unknown): value is ClassFile {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    typeof v.code === 'string' &&
    CODE_PATTERN.test(v.code) &&
    typeof v.token === 'string' &&
    v.token.length >= 32 &&
    v.revealed !== null &&
    typeof v.revealed === 'object' &&
    Object.values(v.revealed).every((at) => typeof at === 'string')
  );
}

export class ClassFolder {
  readonly folder: string;
  private file: ClassFile;
  /** Journals by "<device>/<learner>", each with the ids it holds: the server is the folder's only writer, so the set stays true. */
  private readonly journals = new Map<string, { journal: Journal; ids: Set<string> }>();
  /** The hash of each known device's secret, by device id. */
  private readonly secrets = new Map<string, Buffer>();

  private constructor(folder: string, file: ClassFile) {
    this.folder = folder;
    this.file = file;
  }

  /**
   * Opens (or starts) a class in `folder`: a restart on the same folder keeps
   * its code, token and reveals; `name` renames the class when given.
   */
  static open(folder: string, name?: string): ClassFolder {
    const dir = resolve(folder);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new ClassFolderError(`cannot make the class folder ${dir}: ${(error as Error).message}`);
    }
    const path = join(dir, CLASS_FILE);
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ClassFolderError(`cannot read ${path}: ${(error as Error).message}`);
    }
    let file: ClassFile;
    if (text === undefined) {
      file = { name: name ?? basename(dir), code: newCode(), token: randomBytes(24).toString('base64url'), revealed: {} };
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!isClassFile(parsed)) throw new ClassFolderError(`${path} is not a class file this kit wrote (name, code, token, revealed); move it away to start a new class there`);
      file = { ...parsed, ...(name !== undefined ? { name } : {}) };
    }
    const opened = new ClassFolder(dir, file);
    opened.save();
    return opened;
  }

  get name(): string {
    return this.file.name;
  }
  get code(): string {
    return this.file.code;
  }
  get token(): string {
    return this.file.token;
  }
  /** Revealed labs and when. */
  get revealed(): Readonly<Record<string, string>> {
    return this.file.revealed;
  }

  /** Reveals a lab's measurement, or hides it again; written before it returns. */
  setRevealed(lab: string, revealed: boolean): void {
    const next = { ...this.file.revealed };
    if (revealed) next[lab] ??= new Date().toISOString();
    else delete next[lab];
    this.file = { ...this.file, revealed: next };
    this.save();
  }

  private save(): void {
    replaceFile(join(this.folder, CLASS_FILE), [Buffer.from(`${JSON.stringify(this.file, null, 2)}\n`)]);
  }

  /** The journal a learner's entries from one device go to, checked to lie inside the folder. */
  private journalFor(device: string, learner: string): { journal: Journal; ids: Set<string> } {
    const key = `${device}/${learner}`;
    const known = this.journals.get(key);
    if (known) return known;
    if (!DEVICE_PATTERN.test(device)) throw new Error(`not a device id: ${JSON.stringify(device)}`);
    const deviceDir = join(this.folder, device);
    const dir = join(learnerDir(deviceDir, learner), 'notes');
    mkdirSync(dir, { recursive: true });
    if (!inside(realpathSync(this.folder), realpathSync(dir))) throw new Error(`${dir} resolves outside the class folder`);
    // breaks.jsonl only: what class report reads; the learner's readable breaks.md stays on their laptop, and each entry costs one durable write, not two.
    // lockTimeoutMs 0: a lock held by another process is never waited for on the server's one thread (issue 35, D3: a 15 s sleepSync stalled every request); the learner is told to retry (503).
    const journal = new Journal(dir, { markdown: false, lockTimeoutMs: 0 });
    const opened = { journal, ids: new Set(journal.read().map((e) => e.id)) };
    this.journals.set(key, opened);
    return opened;
  }

  /**
   * Keeps a learner's entries, each once: an id the journal already holds is
   * `already`, the others are appended together (in the order sent) and
   * `stored`. It returns only after the append returned, so what it answers
   * is on disk.
   */
  keep(device: string, learner: string, entries: readonly JournalEntry[]): { stored: string[]; already: string[] } {
    const { journal, ids } = this.journalFor(device, learner);
    const already: string[] = [];
    const fresh: JournalEntry[] = [];
    for (const entry of entries) {
      // A resend, or the same id twice in one batch: kept once.
      if (ids.has(entry.id) || fresh.some((e) => e.id === entry.id)) already.push(entry.id);
      else fresh.push(entry);
    }
    // One append for the batch: one lock, one fsync and rename per file, all of it or none.
    if (fresh.length > 0) journal.appendAll(fresh.map((e) => ({ id: e.id, at: e.at, kind: e.kind, lab: e.lab, data: e.data })));
    for (const entry of fresh) ids.add(entry.id);
    const stored = fresh.map((e) => e.id);
    return { stored, already };
  }

  /**
   * Admits a laptop at a join: the secret to send back, or undefined when the
   * device is known and `given` is not its secret (someone else's id). A
   * device the class has never seen gets a new secret, whatever it sent: a
   * laptop that was in another class at this address (a new class folder)
   * joins this one as new. Only the secret's hash is kept, so the folder
   * (a copied class report, a backup) gives no secret away.
   */
  admit(device: string, given: string | undefined): string | undefined {
    const known = this.secretHash(device);
    if (known !== undefined) return given !== undefined && timingSafeEqual(sha256(given), known) ? given : undefined;
    const secret = randomBytes(32).toString('base64url');
    const dir = this.deviceDir(device);
    replaceFile(join(dir, DEVICE_FILE), [Buffer.from(`${JSON.stringify({ secretSha256: sha256(secret).toString('hex') })}\n`)]);
    this.secrets.set(device, sha256(secret));
    return secret;
  }

  /** Whether `given` is the secret the class issued to `device` (false for a device that never joined). */
  verify(device: string, given: string): boolean {
    const known = this.secretHash(device);
    return known !== undefined && timingSafeEqual(sha256(given), known);
  }

  /** The hash of a device's secret, from memory or its device.json; undefined for a device that never joined. */
  private secretHash(device: string): Buffer | undefined {
    const cached = this.secrets.get(device);
    if (cached) return cached;
    if (!DEVICE_PATTERN.test(device)) return undefined;
    let text: string;
    try {
      text = readFileSync(join(this.folder, device, DEVICE_FILE), 'utf8');
    } catch {
      return undefined;
    }
    const hex = (JSON.parse(text) as { secretSha256?: unknown }).secretSha256;
    if (typeof hex !== 'string' || !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${join(this.folder, device, DEVICE_FILE)} is damaged`);
    const hash = Buffer.from(hex, 'hex');
    this.secrets.set(device, hash);
    return hash;
  }

  /** A device's folder, made, and checked to lie inside the class folder. */
  private deviceDir(device: string): string {
    if (!DEVICE_PATTERN.test(device)) throw new Error(`not a device id: ${JSON.stringify(device)}`);
    const dir = join(this.folder, device);
    mkdirSync(dir, { recursive: true });
    if (!inside(realpathSync(this.folder), realpathSync(dir))) throw new Error(`${dir} resolves outside the class folder`);
    return dir;
  }

  measuredFile(lab: string): string {
    const file = join(this.folder, MEASURED_DIR, `${lab}.json`);
    if (!inside(this.folder, file)) throw new Error(`${file} is outside the class folder`);
    return file;
  }
}
