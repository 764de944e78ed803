/**
 * The class folder that `npm run class -- serve` keeps (default `class/` at
 * the repository's root):
 *
 *   class.json                                   {name, code, token, revealed: {lab: at}}
 *   <device>/device.json                         {secretSha256}: the laptop's secret, hashed (issue 35, D2)
 *   <device>/learners/<learner>/notes/breaks.jsonl   every entry a learner sent, as their laptop wrote it
 *   measured/<lab>.json                          the server's own measurement of a revealed lab (src/class/measure.ts)
 *
 * The journals are in the kit's own format, written by true appends
 * (src/class/class-journal.ts): each keeps the entry's id and time and is
 * fsynced before the server answers, so an entry acknowledged survives a
 * kill -9, and `npm run class -- report <folder>` reads the folder unchanged
 * (src/class/discover.ts numbers the origins, never showing a device id,
 * only when two journals share a learner's name).
 *
 * Quotas (issue 35, D4), so that one laptop cannot fill the instructor's
 * memory or disk: new devices per address and per class, learner names per
 * device, bytes per journal (QUOTAS); at most OPEN_JOURNALS journals' ids are
 * kept in memory, the least recently used let go.
 *
 * Nothing outside the folder: a path is built only from parts the server has
 * validated (the device against DEVICE_PATTERN, the learner through
 * learnerDir, which refuses anything but one ordinary path segment and links
 * leading out), and the result is checked once more to resolve inside the
 * folder, its real path included.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { replaceFile } from '../learn/atomic.js';
import { CODE_ALPHABET, CODE_LENGTH, CODE_PATTERN, DEVICE_PATTERN } from '../learn/class-wire.js';
import { JSONL_FILE, type JournalEntry } from '../learn/journal.js';
import { ClassJournal } from './class-journal.js';
import { learnerDir } from '../learn/learner.js';
import { UserError } from '../core/user-error.js';

export const CLASS_FILE = 'class.json';
export const DEVICE_FILE = 'device.json';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** What one address, device or learner may bring to a class; past it, a refusal (429) naming which. */
export const QUOTAS = {
  /** New devices from one address: a room behind one NAT is 30 laptops, a few with two learners. */
  devicesPerAddress: 100,
  /** Devices in one class. */
  devicesPerClass: 1000,
  /** Learner names on one device. */
  learnersPerDevice: 10,
  /** One learner's journal in the class: a day of labs is under 100 KB. */
  journalBytes: 4 * 1024 * 1024,
} as const;

/** Journals whose ids are kept in memory at once; a learner's batch after that reads its journal again (a few ms). */
export const OPEN_JOURNALS = 64;

/** A quota is reached: which one. */
export class QuotaReached extends Error {
  constructor(readonly quota: keyof typeof QUOTAS) {
    super(`quota reached: ${quota}`);
  }
}
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
  /** Open journals by "<device>/<learner>", least recently used first (a Map keeps its order of insertion). */
  private readonly journals = new Map<string, ClassJournal>();
  /** The hash of each known device's secret, by device id (at most QUOTAS.devicesPerClass). */
  private readonly secrets = new Map<string, Buffer>();
  /** Devices in the class, counted once when it opens. */
  private devices = -1;
  /** New devices admitted in this run, by the address they came from. */
  private readonly devicesFrom = new Map<string, number>();
  /** Bumped by every change a projector would show (an entry kept, a reveal): its state is built again only then. */
  version = 0;

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
    this.version++;
  }

  private save(): void {
    replaceFile(join(this.folder, CLASS_FILE), [Buffer.from(`${JSON.stringify(this.file, null, 2)}\n`)]);
  }

  /** The journal a learner's entries from one device go to, checked to lie inside the folder. */
  private journalFor(device: string, learner: string): ClassJournal {
    const key = `${device}/${learner}`;
    const known = this.journals.get(key);
    if (known) {
      // Most recently used: to the end.
      this.journals.delete(key);
      this.journals.set(key, known);
      return known;
    }
    const deviceDir = this.deviceDir(device);
    const dir = join(learnerDir(deviceDir, learner), 'notes');
    if (!existsSync(join(dir, JSONL_FILE)) && existsSync(join(deviceDir, 'learners')) && readdirSync(join(deviceDir, 'learners')).length >= QUOTAS.learnersPerDevice) throw new QuotaReached('learnersPerDevice');
    mkdirSync(dir, { recursive: true });
    if (!inside(realpathSync(this.folder), realpathSync(dir))) throw new Error(`${dir} resolves outside the class folder`);
    // breaks.jsonl only: what class report reads; the learner's readable breaks.md stays on their laptop.
    const opened = new ClassJournal(dir);
    this.journals.set(key, opened);
    if (this.journals.size > OPEN_JOURNALS) this.journals.delete(this.journals.keys().next().value!);
    return opened;
  }

  /**
   * Keeps a learner's entries, each once: an id the journal already holds is
   * `already`, the others are appended together (in the order sent) and
   * `stored`. It returns only after the append returned, so what it answers
   * is on disk.
   */
  keep(device: string, learner: string, entries: readonly JournalEntry[]): { stored: string[]; already: string[] } {
    const journal = this.journalFor(device, learner);
    const already: string[] = [];
    const fresh: JournalEntry[] = [];
    for (const entry of entries) {
      // A resend, or the same id twice in one batch: kept once.
      if (journal.ids.has(entry.id) || fresh.some((e) => e.id === entry.id)) already.push(entry.id);
      else fresh.push(entry);
    }
    if (fresh.length > 0) {
      if (journal.bytes + fresh.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)) + 1, 0) > QUOTAS.journalBytes) throw new QuotaReached('journalBytes');
      // One append for the batch: one lock, one write and one fsync.
      journal.append(fresh);
      this.version++;
    }
    return { stored: fresh.map((e) => e.id), already };
  }

  /**
   * Admits a laptop at a join: the secret to send back, or undefined when the
   * device is known and `given` is not its secret (someone else's id). A
   * device the class has never seen gets a new secret, whatever it sent: a
   * laptop that was in another class at this address (a new class folder)
   * joins this one as new. Only the secret's hash is kept, so the folder
   * (a copied class report, a backup) gives no secret away.
   */
  admit(device: string, given: string | undefined, address = ''): string | undefined {
    if (this.secretHash(device) !== undefined) return given !== undefined && this.verify(device, given) ? given : undefined;
    if (this.devices < 0) this.devices = readdirSync(this.folder).filter((name) => DEVICE_PATTERN.test(name) && existsSync(join(this.folder, name, DEVICE_FILE))).length;
    if (this.devices >= QUOTAS.devicesPerClass) throw new QuotaReached('devicesPerClass');
    const from = this.devicesFrom.get(address) ?? 0;
    if (from >= QUOTAS.devicesPerAddress) throw new QuotaReached('devicesPerAddress');
    this.devicesFrom.set(address, from + 1);
    this.devices++;
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
