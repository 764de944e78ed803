/**
 * The live class in a learner's commands (issue 24): joining and leaving,
 * the queue sent at the start of every command and after every entry the
 * class looks at, the one line when it cannot be sent, and whether a lab is
 * held (its prediction locked and sent, its run waiting for the instructor's
 * reveal). The files and the sending are src/learn/class-link.ts.
 *
 * One process is one command: the ClassLink kept here per learner is what
 * gives a command one SEND_TIMEOUT_MS in all and one "kept locally" line.
 * Nothing here ever fails a command because of the network: a class that is
 * down, hangs or refuses costs at most that second and that line, and the
 * command goes on exactly as it would without a class.
 */
import { join } from 'node:path';
import { t } from '../core/messages/index.js';
import type { Lang } from '../core/lang.js';
import { UserError } from '../core/user-error.js';
import { ClassLink, forgetLink, newDevice, readLink, writeLink, type Failure } from './class-link.js';
import { CorruptJournalError, Journal } from './journal.js';
import { learnerDir } from './learner.js';

const out = (text = '') => process.stdout.write(`${text}\n`);

interface Session {
  link: ClassLink;
  /** The "kept locally" line was printed in this command. */
  told: boolean;
}

const sessions = new Map<string, Session>();
const key = (root: string, name: string) => `${root}\0${name}`;

function sessionOf(root: string, name: string): Session | undefined {
  let session = sessions.get(key(root, name));
  if (!session) {
    const file = readLink(root, name);
    if (!file) return undefined;
    session = { link: new ClassLink(file, name, (link) => writeLink(root, name, link)), told: false };
    sessions.set(key(root, name), session);
  }
  return session;
}

/** The address of the class this learner is in, for the "who" line; undefined when not in one. */
export function classOf(root: string, name: string): string | undefined {
  return readLink(root, name)?.url;
}

function reason(failure: Failure, lang: Lang, budgetMs: number): string {
  if (failure.kind === 'timeout') return t('learn.class.reasonTimeout', lang, { ms: budgetMs });
  if (failure.kind === 'garbled') return t('learn.class.reasonGarbled', lang);
  if (failure.kind === 'down') return t('learn.class.reasonDown', lang, { detail: failure.detail });
  return t('learn.class.reasonRefused', lang, { status: failure.status, error: failure.error });
}

/**
 * `--join URL --code CODE`: asks the class (POST /api/join) and remembers it
 * in learners/<name>/class.json. A wrong code, or a server that is not a
 * class (a 4xx, or a 200 that is not JSON), is one line (exit 2) and nothing is remembered; a class that does
 * not answer (down, too slow, busy) is remembered all the same, with a line
 * saying so: the entries go once it answers.
 */
export async function joinClass(root: string, name: string, url: string, code: string, lang: Lang): Promise<void> {
  const before = readLink(root, name);
  // The device is made once and kept (the class keeps one folder per laptop); a rejoin of the same class keeps what is waiting since the first join.
  const file = { url, code, device: before?.device ?? newDevice(), ...(before?.secret !== undefined ? { secret: before.secret } : {}), joinedAt: before?.url === url ? before.joinedAt : new Date().toISOString() };
  const link = new ClassLink(file, name, (kept) => writeLink(root, name, kept));
  const answer = await link.join();
  if (!answer.ok) {
    const { failure } = answer;
    if (failure.kind === 'refused' && failure.status === 403) throw new UserError(t('learn.class.wrongCode', lang, { url, code }));
    if (failure.kind === 'garbled' || (failure.kind === 'refused' && failure.status < 500 && failure.status !== 429)) throw new UserError(t('learn.class.refusedJoin', lang, { url, reason: reason(failure, lang, link.budgetMs) }));
  }
  // What the class answered (the device's secret) goes with it.
  writeLink(root, name, link.link);
  sessions.set(key(root, name), { link, told: false });
  if (answer.ok) out(t('learn.class.joined', lang, { class: String(answer.body.class), url }));
  else out(t('learn.class.joinedUnreachable', lang, { url, reason: reason(answer.failure, lang, link.budgetMs) }));
}

/** `--leave`: the class is forgotten; the notes stay as they are. */
export function leaveClass(root: string, name: string, lang: Lang): void {
  const url = readLink(root, name)?.url;
  sessions.delete(key(root, name));
  out(forgetLink(root, name) && url ? t('learn.class.left', lang, { url }) : t('learn.class.notJoined', lang));
}

/**
 * Sends what is waiting, if this learner is in a class: at the start of a
 * command and after each entry of SENT_KINDS. A failure is said once per
 * command, with how many entries wait; the command goes on.
 */
export async function sendWaiting(root: string, name: string | undefined, lang: Lang): Promise<void> {
  const session = name === undefined ? undefined : sessionOf(root, name);
  if (!session || name === undefined) return;
  let entries;
  try {
    entries = new Journal(join(learnerDir(root, name), 'notes')).read();
  } catch (error) {
    // A damaged journal is the command's to report (it reads the journal itself); nothing is sent from it.
    if (error instanceof CorruptJournalError) return;
    throw error;
  }
  const result = await session.link.send(root, entries);
  if (result.failure && !session.told) {
    session.told = true;
    process.stderr.write(`${t('learn.class.keptLocally', lang, { count: result.waiting, reason: reason(result.failure, lang, session.link.budgetMs) })}\n`);
    // 403: the class no longer takes this code (the instructor started it again on another folder): only a new join delivers these.
    if (result.failure.kind === 'refused' && result.failure.status === 403) process.stderr.write(`${t('learn.class.rejoin', lang, { url: session.link.link.url })}\n`);
  }
}

/** Whether a lab's run waits for the instructor; when held because the class did not answer, the line that says so. */
export type Hold = { held: false } | { held: true; unreachable?: string };

/**
 * Whether the lab's run waits for the instructor: the learner is in a class
 * and the class has not revealed the lab, or cannot be reached to say
 * whether it has (issue 35: a class that does not answer must not let the
 * measurement be seen before the reveal; `--unheld` runs it deliberately).
 */
export async function classHold(root: string, name: string | undefined, lab: string, command: string, lang: Lang): Promise<Hold> {
  const session = name === undefined ? undefined : sessionOf(root, name);
  if (!session) return { held: false };
  // The queue's answer (at the start of the command) already said what is revealed; else ask, with what is left of the second.
  if (session.link.revealed === undefined) {
    const answer = await session.link.join();
    if (!answer.ok) return { held: true, unreachable: t('learn.class.heldUnreachable', lang, { url: session.link.link.url, reason: reason(answer.failure, lang, session.link.budgetMs), command }) };
  }
  return (session.link.revealed ?? []).includes(lab) ? { held: false } : { held: true };
}
