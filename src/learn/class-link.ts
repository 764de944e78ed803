/**
 * The learner's side of the live class (issue 24), below what it prints:
 * what a laptop remembers of the class it joined, which journal entries are
 * still to be sent, and the sending itself. The wire format is
 * src/learn/class-wire.ts; the flow that uses this (and says things) is
 * src/learn/live.ts.
 *
 * Files, all beside the learner's notes and each written atomically
 * (src/learn/atomic.ts), so that a kill leaves the old file or the new one:
 *
 *  - learners/<name>/class.json (ClassLinkFile): the class's address, the join
 *    code, this laptop's device id (random, made once and kept on a rejoin, so
 *    that the class keeps one folder per laptop), the secret the class issued
 *    to that device at its first answered join (issue 35, D2: every later
 *    request carries it) and when the learner joined.
 *  - learners/<name>/notes/.sent.json: `{ "ids": [...] }`, the ids of the
 *    entries the class acknowledged (`stored` or `already`). Only ids the class
 *    named are added, so an entry it did not answer for is sent again next time.
 *
 * The journal stays the source of truth: the queue is computed from it every
 * time (entries of SENT_KINDS written at or after joinedAt whose ids are not in
 * .sent.json), never kept apart. Two commands of one learner at once may both
 * send an entry, and one may overwrite the other's .sent.json: both only cost a
 * resend, which the class acknowledges as `already` (sending is idempotent by id).
 *
 * The time bound: a ClassLink is made once per command and counts the time
 * its requests took; each request gets only what is left of SEND_TIMEOUT_MS
 * (AbortSignal.timeout), so a class that hangs costs a command one second in
 * all, however many times the command sends. The requests go through
 * node:http, not fetch: the second counts this process's own work too, and
 * fetch's first request loads undici first (one POST to a class on 127.0.0.1,
 * on the kit's 2-core build machine while it was busy: fetch 73 to 90 ms,
 * node:http 17 to 23 ms), which left a loaded machine's learner less of the
 * second for the class itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, join } from 'node:path';
import { replaceFile } from './atomic.js';
import { learnerDir } from './learner.js';
import type { JournalEntry } from './journal.js';
import { CODE_PATTERN, DEVICE_PATTERN, LIMITS, SECRET_PATTERN, SEND_TIMEOUT_MS, SENT_KINDS, type ClassLinkFile, type EntriesReply, type EntriesRequest, type ErrorReply, type JoinReply, type JoinRequest } from './class-wire.js';

export const LINK_FILE = 'class.json';
export const SENT_FILE = '.sent.json';

export const linkFile = (root: string, name: string) => join(learnerDir(root, name), LINK_FILE);
export const sentFile = (root: string, name: string) => join(learnerDir(root, name), 'notes', SENT_FILE);

/** A new laptop id: 8 random bytes as 16 hex digits (DEVICE_PATTERN). */
export const newDevice = () => randomBytes(8).toString('hex');

/** The class's address as typed, made the base every route is added to (no trailing '/'), or undefined if it is not http(s). */
export function classUrl(typed: string): string | undefined {
  let url: URL;
  try {
    url = new URL(typed.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The join code as typed (read off a projector: lower case and spaces forgiven), or undefined if it cannot be one. */
export function joinCode(typed: string): string | undefined {
  const code = typed.replace(/\s+/g, '').toUpperCase();
  return CODE_PATTERN.test(code) ? code : undefined;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  replaceFile(file, [Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8')]);
}

/** The class this learner joined, or undefined (none, or a file that is not one: then the learner is not in a class). */
export function readLink(root: string, name: string): ClassLinkFile | undefined {
  const value = readJson(linkFile(root, name)) as Partial<ClassLinkFile> | undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { url, code, device, secret, joinedAt } = value;
  if (typeof url !== 'string' || classUrl(url) !== url) return undefined;
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return undefined;
  if (typeof device !== 'string' || !DEVICE_PATTERN.test(device)) return undefined;
  if (typeof joinedAt !== 'string' || Number.isNaN(Date.parse(joinedAt))) return undefined;
  // A secret that is not one is forgotten: the next answered join brings the class's.
  return { url, code, device, ...(typeof secret === 'string' && SECRET_PATTERN.test(secret) ? { secret } : {}), joinedAt };
}

export function writeLink(root: string, name: string, link: ClassLinkFile): void {
  writeJson(linkFile(root, name), link);
}

/** Forgets the class; true if there was one. The sent ids stay: they are facts about entries, harmless to keep. */
export function forgetLink(root: string, name: string): boolean {
  const file = linkFile(root, name);
  const had = readJson(file) !== undefined;
  rmSync(file, { force: true });
  return had;
}

/** Ids the class has acknowledged. */
export function readSent(root: string, name: string): Set<string> {
  const value = readJson(sentFile(root, name)) as { ids?: unknown } | undefined;
  return new Set(Array.isArray(value?.ids) ? value.ids.filter((id): id is string => typeof id === 'string') : []);
}

function rememberSent(root: string, name: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  // Read again just before writing: another command of this learner may have added some meanwhile.
  const all = readSent(root, name);
  for (const id of ids) all.add(id);
  writeJson(sentFile(root, name), { ids: [...all] });
}

/** The queue: entries the class should have and has not acknowledged, oldest first. */
export function waiting(entries: readonly JournalEntry[], link: ClassLinkFile, sent: ReadonlySet<string>): JournalEntry[] {
  const since = Date.parse(link.joinedAt);
  return entries.filter((e) => (SENT_KINDS as readonly string[]).includes(e.kind) && Date.parse(e.at) >= since && !sent.has(e.id));
}

/** The queue cut into requests: at most LIMITS.entriesPerRequest entries each, and a body under LIMITS.bodyBytes. */
export function batches(entries: readonly JournalEntry[]): JournalEntry[][] {
  const room = LIMITS.bodyBytes - 1024; // the request's other fields
  const out: JournalEntry[][] = [];
  let batch: JournalEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (batch.length > 0 && (batch.length >= LIMITS.entriesPerRequest || bytes + size > room)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(entry);
    bytes += size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/** One POST of a JSON body: the status, its reason phrase and the body as text. Rejects as fetch does: AbortError, or the socket's error (with its code). */
function postJson(url: string, body: string, signal: AbortSignal): Promise<{ status: number; statusText: string; text: string }> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const request = send(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Why a request did not get a class's 200: no answer in time, no connection, a refusal (its status and one-line error), or a 200 that is not JSON (another server at that address). */
export type Failure = { kind: 'timeout' } | { kind: 'down'; detail: string } | { kind: 'refused'; status: number; error: string } | { kind: 'garbled' };

export type Answer<T> = { ok: true; body: T } | { ok: false; failure: Failure };

export interface SendResult {
  /** Ids acknowledged by this send. */
  acknowledged: string[];
  /** Entries still waiting after it. */
  waiting: number;
  failure?: Failure;
}

/** One command's connection to the class: its requests share one SEND_TIMEOUT_MS. */
export class ClassLink {
  private spentMs = 0;
  /** The labs revealed, as the class's last answer in this command said; undefined before any answer. */
  revealed: string[] | undefined;

  constructor(
    public link: ClassLinkFile,
    readonly learner: string,
    /** Keeps the link file when a join brought a secret it did not have (joinClass writes it itself). */
    private readonly keep: (link: ClassLinkFile) => void = () => undefined,
    readonly budgetMs = SEND_TIMEOUT_MS,
  ) {}

  /** What is left of this command's time for the class. */
  get leftMs(): number {
    return Math.max(0, this.budgetMs - this.spentMs);
  }

  async post<T>(route: string, body: unknown): Promise<Answer<T>> {
    const left = this.leftMs;
    if (left <= 0) return { ok: false, failure: { kind: 'timeout' } };
    const started = performance.now();
    try {
      // AbortSignal.timeout takes whole milliseconds (a fraction throws RangeError).
      const response = await postJson(`${this.link.url}${route}`, JSON.stringify(body), AbortSignal.timeout(Math.max(1, Math.floor(left))));
      const text = response.text;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (response.status !== 200) {
        const error = typeof (parsed as ErrorReply | undefined)?.error === 'string' ? (parsed as ErrorReply).error : response.statusText;
        return { ok: false, failure: { kind: 'refused', status: response.status, error: error.split('\n')[0]!.slice(0, 200) } };
      }
      // A 200 that is no JSON object is not the class answering (a web page, a proxy's portal): nothing is counted as delivered.
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, failure: { kind: 'garbled' } };
      const revealed = (parsed as { revealed?: unknown }).revealed;
      if (Array.isArray(revealed)) this.revealed = revealed.filter((lab): lab is string => typeof lab === 'string');
      return { ok: true, body: parsed as T };
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, failure: { kind: 'timeout' } };
      return { ok: false, failure: { kind: 'down', detail: (error as NodeJS.ErrnoException).code ?? (error as Error).message } };
    } finally {
      this.spentMs += performance.now() - started;
    }
  }

  /** Asks the class (POST /api/join) with the device's secret when it has one, and keeps the secret the class answers with. */
  async join(): Promise<Answer<JoinReply>> {
    const request: JoinRequest = { code: this.link.code, learner: this.learner, device: this.link.device, ...(this.link.secret !== undefined ? { secret: this.link.secret } : {}) };
    const answer = await this.post<JoinReply>('/api/join', request);
    const secret = answer.ok ? answer.body.secret : undefined;
    if (typeof secret === 'string' && SECRET_PATTERN.test(secret) && secret !== this.link.secret) {
      this.link = { ...this.link, secret };
      this.keep(this.link);
    }
    return answer;
  }

  /**
   * Sends the queue of this learner's journal in batches, and remembers the
   * ids the class acknowledged after each batch (so that a failure in a
   * later batch keeps what the earlier ones delivered).
   */
  async send(root: string, entries: readonly JournalEntry[]): Promise<SendResult> {
    const queue = waiting(entries, this.link, readSent(root, this.learner));
    const acknowledged: string[] = [];
    // A laptop that joined while the class did not answer has no secret yet: a join first brings it.
    if (queue.length > 0 && this.link.secret === undefined) {
      const joined = await this.join();
      if (!joined.ok) return { acknowledged, waiting: queue.length, failure: joined.failure };
      if (this.link.secret === undefined) return { acknowledged, waiting: queue.length, failure: { kind: 'garbled' } };
    }
    for (const batch of batches(queue)) {
      const request: EntriesRequest = { code: this.link.code, learner: this.learner, device: this.link.device, secret: this.link.secret!, entries: batch };
      const answer = await this.post<EntriesReply>('/api/entries', request);
      if (!answer.ok) return { acknowledged, waiting: queue.length - acknowledged.length, failure: answer.failure };
      // Only the ids of this batch that the class named: an id it did not mention is sent again.
      const ids = (list: unknown) => (Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : []);
      const named = new Set([...ids(answer.body?.stored), ...ids(answer.body?.already)]);
      const taken = batch.map((e) => e.id).filter((id) => named.has(id));
      rememberSent(root, this.learner, taken);
      acknowledged.push(...taken);
    }
    return { acknowledged, waiting: queue.length - acknowledged.length };
  }
}
