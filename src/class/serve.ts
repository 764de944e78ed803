/**
 * `npm run class -- serve [FOLDER] [--port N] [--lan] [--name TEXT] [--lang en|es]`:
 * the live class, on the instructor's laptop.
 *
 * It opens the class folder (src/class/class-folder.ts: a restart on the same
 * folder keeps the join code, the token and the reveals), starts the HTTP
 * server (src/class/serve-http.ts), and prints what to give the room: the
 * address(es), the join code, the learners' command, and the projector's
 * address with the instructor's token in its fragment (the part after '#'
 * never leaves the browser: it is not sent in the request, RFC 3986 §3.5).
 *
 * Reveal: in a terminal, keys 1..N (the catalogue's order) show or hide a
 * lab's measurement, q quits; the projector's button does the same through
 * POST /api/reveal. At the first reveal of a lab the server measures it
 * (src/class/measure.ts) and keeps the figures in the folder.
 */
import { emitKeypressEvents } from 'node:readline';
import { networkInterfaces } from 'node:os';
import { forUser } from '../core/cwd.js';
import { t, type MessageId, type Values } from '../core/messages/index.js';
import { UserError } from '../core/user-error.js';
import { loadCatalogue, type Lab, type Lang } from '../learn/catalogue.js';
import type { JournalEntry } from '../learn/journal.js';
import { ClassFolder } from './class-folder.js';
import { discover } from './discover.js';
import { measureLab, readMeasurement, writeMeasurement, type LabMeasurement } from './measure.js';
import { createClassServer } from './serve-http.js';

export interface ServeSettings {
  /** The class folder (absolute). */
  folder: string;
  /** 0: any free port. */
  port: number;
  lan: boolean;
  name?: string;
  lang: Lang;
}

const write = (text = '') => process.stdout.write(`${text}\n`);

/** Every non-internal IPv4 address of this laptop: what the room can reach with --lan. */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
}

/** Serves the class until q, Ctrl+C or SIGTERM; resolves with the exit code. */
export async function serve(settings: ServeSettings): Promise<number> {
  const classFolder = ClassFolder.open(settings.folder, settings.name);
  return new LiveClass(classFolder, loadCatalogue(), settings.lang).run(settings.port, settings.lan);
}

/**
 * The key that reveals the i-th lab of the catalogue in the serve terminal: 1 to 9, then a, b, c, ... (a keypress is
 * one character, and the catalogue has more than nine labs; q is never reached before the 25th lab).
 */
export function revealKey(i: number): string {
  return i < 9 ? String(i + 1) : String.fromCharCode('a'.charCodeAt(0) + i - 9);
}

class LiveClass {
  private readonly measured = new Map<string, LabMeasurement>();
  private readonly measuring = new Map<string, Promise<void>>();
  private readonly say: (id: MessageId, values?: Values) => string;
  private readonly log: ClassLog;

  constructor(
    private readonly classFolder: ClassFolder,
    private readonly labs: readonly Lab[],
    private readonly lang: Lang,
  ) {
    this.say = (id, values) => t(id, lang, values);
    for (const lab of labs) {
      const kept = readMeasurement(classFolder.measuredFile(lab.id), lab.id);
      if (kept) this.measured.set(lab.id, kept);
    }
    this.log = new ClassLog(classFolder.folder, this.say);
  }

  async run(port: number, lan: boolean): Promise<number> {
    const server = createClassServer({
      classFolder: this.classFolder,
      labs: this.labs,
      lang: this.lang,
      measured: () => Object.fromEntries(this.measured),
      onReveal: (lab, revealed) => this.reveal(lab, revealed),
      onJoin: (learner) => this.log.joined(learner),
      onKept: (learner, entries) => this.log.kept(learner, entries),
    });
    const host = lan ? '0.0.0.0' : '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') throw new UserError(this.say('class.serve.portBusy', { port }), 2, 'npm run class -- serve --port N');
      throw error;
    });
    const bound = (server.address() as { port: number }).port;
    this.banner(bound, lan);
    // Measurements a previous run started but did not finish: a revealed lab always gets its figures.
    for (const lab of Object.keys(this.classFolder.revealed)) this.measure(lab);

    return new Promise<number>((resolve) => {
      let stopped = false;
      /*
       * The terminal as it was: keys no longer read, and no longer raw. Only once nothing is left to
       * wait for: a key typed before that is read here and dropped, never echoed after "Class stopped"
       * nor left for the shell's prompt.
       */
      const restoreTerminal = () => {
        process.stdin.removeAllListeners('keypress');
        if (process.stdin.isTTY) process.stdin.setRawMode(false);
        process.stdin.pause();
      };
      const quit = () => {
        // q, then Ctrl+C (or a SIGTERM) while it stops: once is enough.
        if (stopped) return;
        stopped = true;
        server.close();
        server.closeAllConnections();
        // A measurement under way is finished and kept (the next start would otherwise measure it again).
        const pending = [...this.measuring.keys()];
        if (pending.length > 0) write(this.say('class.serve.stopping', { labs: pending.join(', ') }));
        void Promise.allSettled([...this.measuring.values()]).then(() => {
          write(this.say('class.serve.stopped', { folder: forUser(this.classFolder.folder) }));
          restoreTerminal();
          resolve(0);
        });
      };
      process.once('SIGINT', quit);
      process.once('SIGTERM', quit);
      if (process.stdin.isTTY) {
        emitKeypressEvents(process.stdin);
        process.stdin.setRawMode(true);
        process.stdin.on('keypress', (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
          if (stopped) {
            // Stopping, and Ctrl+C again: at once, the terminal put back first.
            if (key?.ctrl && key.name === 'c') {
              restoreTerminal();
              process.exit(130);
            }
            return;
          }
          if (key?.ctrl && key.name === 'c') return quit();
          if (text === 'q') return quit();
          const lab = this.labs.find((_, i) => revealKey(i) === text);
          if (!lab) return;
          this.reveal(lab.id, !(lab.id in this.classFolder.revealed));
        });
      }
    });
  }

  private banner(port: number, lan: boolean): void {
    const { classFolder, say } = this;
    const hosts = lan ? lanAddresses() : ['127.0.0.1'];
    write(say('class.serve.title', { name: classFolder.name, folder: forUser(classFolder.folder) }));
    write();
    write(`${say('class.serve.code')}: ${classFolder.code}`);
    write(`${say('class.serve.learnersType')}:`);
    for (const host of hosts) write(`  npm run lab -- --join http://${host}:${port} --code ${classFolder.code}`);
    if (lan && hosts.length === 0) write(`  ${say('class.serve.noLan')}`);
    if (!lan) write(say('class.serve.localOnly'));
    write();
    write(`${say('class.serve.projector')}:`);
    write(`  http://127.0.0.1:${port}/#token=${classFolder.token}`);
    write(say('class.serve.tokenSecret'));
    write();
    write(say('class.serve.listening', { port }));
    if (process.stdin.isTTY) {
      write(say('class.serve.keys'));
      this.labs.forEach((lab, i) => write(`  ${revealKey(i)}  ${lab.id}: ${lab.title[this.lang]}${lab.id in classFolder.revealed ? ` (${say('class.serve.isRevealed')})` : ''}`));
      write(say('class.serve.quit'));
    } else {
      write(say('class.serve.noKeys'));
    }
  }

  /** Reveals or hides a lab (by key or from the projector): kept in the class folder, said, and measured the first time. */
  private reveal(lab: string, revealed: boolean): void {
    this.classFolder.setRevealed(lab, revealed);
    write(this.say(revealed ? 'class.serve.revealed' : 'class.serve.hidden', { lab }));
    if (revealed) this.measure(lab);
  }

  private measure(labId: string): void {
    if (this.measured.has(labId) || this.measuring.has(labId)) return;
    const lab = this.labs.find((l) => l.id === labId);
    if (!lab) return;
    write(this.say('class.serve.measuring', { lab: labId }));
    const job = measureLab(lab)
      .then((m) => {
        writeMeasurement(this.classFolder.measuredFile(labId), m);
        this.measured.set(labId, m);
        const figures = lab.questions.map((q) => `${q.id} = ${m.questions[q.id]?.value}`).join(' · ');
        write(this.say('class.serve.measured', { lab: labId, seconds: (m.tookMs / 1000).toFixed(1), figures }));
      })
      .catch((error: unknown) => {
        write(this.say('class.serve.measureFailed', { lab: labId, error: error instanceof Error ? error.message : String(error) }));
      })
      .finally(() => this.measuring.delete(labId));
    this.measuring.set(labId, job);
  }
}

/**
 * The serve terminal's log: one line per event, who and what, with a running
 * count per lab ("Ana predicted broken-schema (4 of 12)"), so that an
 * instructor sees who has predicted before the reveal. A learner's every
 * command joins again and resends what was not acknowledged: a join is said
 * once per learner, an entry once (only what keep() stored). Counted by name,
 * as the projector shows learners; the class folder's journals count from the
 * start, so that a restarted class goes on counting.
 */
class ClassLog {
  /** Every learner the class knows: joined, or with an entry in the folder. */
  private readonly learners = new Set<string>();
  /** `lab/kind` -> who has sent one; a revision counts as a prediction too. */
  private readonly did = new Map<string, Set<string>>();

  constructor(
    folder: string,
    private readonly say: (id: MessageId, values?: Values) => string,
  ) {
    for (const journal of discover(folder).journals) {
      this.learners.add(journal.learner);
      for (const entry of journal.entries) this.count(journal.learner, entry);
    }
  }

  joined(learner: string): void {
    if (this.learners.has(learner)) return;
    this.learners.add(learner);
    write(this.say('class.serve.joined', { learner, count: this.learners.size }));
  }

  kept(learner: string, entries: readonly Pick<JournalEntry, 'kind' | 'lab'>[]): void {
    this.learners.add(learner);
    for (const entry of entries) {
      const count = this.count(learner, entry);
      const values = { learner, lab: entry.lab, count, total: this.learners.size };
      const id = LOGGED[entry.kind as keyof typeof LOGGED];
      write(id ? this.say(id, values) : this.say('class.serve.sent', { ...values, kind: entry.kind }));
    }
  }

  /** Counts the entry; returns how many learners have now done what it says for its lab. */
  private count(learner: string, entry: Pick<JournalEntry, 'kind' | 'lab'>): number {
    const kind = entry.kind === 'revision' ? 'prediction' : entry.kind;
    const key = `${entry.lab}/${kind}`;
    const who = this.did.get(key) ?? new Set<string>();
    who.add(learner);
    this.did.set(key, who);
    return who.size;
  }
}

/** The line of each kind of entry a learner sends (SENT_KINDS, src/learn/class-wire.ts). */
const LOGGED = {
  prediction: 'class.serve.predicted',
  revision: 'class.serve.revised',
  run: 'class.serve.ran',
  reflection: 'class.serve.reflected',
} as const satisfies Record<string, MessageId>;

