/**
 * The journal's lock, `.breaks.lock`: appends from two processes are
 * serialised by a file created with O_EXCL ('wx'), holding {pid, host, token,
 * time}. A lock whose process is gone (same host), or that names this very
 * process with a token it does not hold (a pid reused after a kill -9,
 * common in a container: issue 35, D3), or that is old, or empty for more
 * than a second, is stale: it is renamed aside to
 * `.breaks.lock.stale.<pid>.<random>`, checked to be the very lock that was
 * judged stale (else put back), removed, and the lock is tried again.
 *
 * Why not a lock library (proper-lockfile): its staleness is by age only, at
 * least 5 s, where a dead holder is seen here at once; a learner who pressed
 * Ctrl+C would wait 5 s on the next run, and test/journal.test.ts's 30 kill
 * -9s would take minutes.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sleepSync } from './atomic.js';
import { UserError } from '../core/user-error.js';

type LockInfo = { pid?: number; host?: string; token?: string; time?: number };

const STALE_LOCK_ASIDE = /^\.breaks\.lock\.stale\.(\d+)\.[0-9a-f]+$/;

/** The tokens of the locks this process holds right now: a lock naming our pid with any other token was left by an earlier process with our pid. */
const heldHere = new Set<string>();

/** Another process holds the journal lock for longer than we were willing to wait. */
export class JournalBusyError extends UserError {
  constructor(lockFile: string, holder: string) {
    super(`The journal is in use by ${holder} (lock file ${lockFile}). Nothing was written; try again in a moment.`);
    this.name = 'JournalBusyError';
  }
}

export class FileLock {
  private lockToken: string | undefined;

  constructor(
    readonly lockPath: string,
    private readonly lockTimeoutMs: number,
  ) {}

  /** Takes the lock (waiting up to the timeout; a timeout of 0 tries once and never sleeps), and returns its release. */
  acquire(): () => void {
    const token = randomBytes(8).toString('hex');
    const body = JSON.stringify({ pid: process.pid, host: os.hostname(), token, time: Date.now() } satisfies LockInfo);
    const deadline = Date.now() + this.lockTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = fs.openSync(this.lockPath, 'wx', 0o644);
        try {
          fs.writeSync(fd, body);
          fs.closeSync(fd);
        } catch (err) {
          fs.closeSync(fd);
          fs.rmSync(this.lockPath, { force: true });
          throw err;
        }
        this.lockToken = token;
        heldHere.add(token);
        return () => {
          this.lockToken = undefined;
          heldHere.delete(token);
          try {
            const info = JSON.parse(fs.readFileSync(this.lockPath, 'utf8')) as LockInfo;
            if (info.token === token) fs.rmSync(this.lockPath, { force: true });
          } catch {
            // Lock already gone (broken by someone who judged it stale): nothing to release.
          }
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = this.breakIfStale();
      if (holder === undefined) continue; // it was stale and is gone: try again at once
      if (this.lockTimeoutMs <= 0 || Date.now() >= deadline) throw new JournalBusyError(this.lockPath, holder);
      sleepSync(5 + Math.random() * Math.min(50, 5 * (attempt + 1)));
    }
  }

  /** Removes the lock if it is stale and returns undefined; otherwise describes who holds it. */
  private breakIfStale(): string | undefined {
    let raw: string;
    let age: number;
    try {
      raw = fs.readFileSync(this.lockPath, 'utf8');
      age = Date.now() - fs.statSync(this.lockPath).mtimeMs;
    } catch {
      return undefined; // vanished meanwhile: try again
    }
    let info: LockInfo | undefined;
    try {
      info = JSON.parse(raw) as LockInfo;
    } catch {
      info = undefined;
    }
    let stale: boolean;
    let holder: string;
    if (info === undefined || typeof info.pid !== 'number') {
      // A writer creates the lock and writes its content at once; an empty or garbled lock a
      // second later is from a writer that was killed in between.
      stale = age > 1_000;
      holder = 'a process that is just starting to write';
    } else if (info.host === os.hostname()) {
      const ours = info.pid === process.pid;
      stale = (ours && !heldHere.has(String(info.token))) || !processAlive(info.pid) || age > 10 * 60_000;
      holder = `process ${info.pid}`;
    } else {
      stale = age > 60_000;
      holder = `process ${info.pid} on ${info.host ?? 'another computer'}`;
    }
    if (!stale) return holder;
    // Move the stale lock aside before deleting it, and check it is the one we judged:
    // a plain unlink could delete a fresh lock someone created a moment ago.
    const aside = `${this.lockPath}.stale.${process.pid}.${randomBytes(6).toString('hex')}`;
    try {
      fs.renameSync(this.lockPath, aside);
    } catch {
      return undefined; // someone else moved it first: try again
    }
    let movedRaw = '';
    try {
      movedRaw = fs.readFileSync(aside, 'utf8');
    } catch {
      // ignore
    }
    if (movedRaw !== raw) {
      // We moved a live lock: put it back if the name is still free.
      try {
        fs.linkSync(aside, this.lockPath);
      } catch {
        if (!fs.existsSync(this.lockPath)) {
          try {
            fs.renameSync(aside, this.lockPath);
            return undefined;
          } catch {
            // ignore
          }
        }
      }
    }
    fs.rmSync(aside, { force: true });
    return undefined;
  }

  /**
   * A stale lock moved aside (name: .breaks.lock.stale.<pid of the mover>.<random>) by a
   * process that died before deleting it. While its mover lives it may still need the file
   * (to put back a lock it moved by mistake), so it is removed only once the mover is gone or
   * it is old, and never if it is our own lock. Called while holding the lock.
   */
  removeIfAbandoned(name: string): void {
    const aside = STALE_LOCK_ASIDE.exec(name);
    if (aside === null) return;
    const file = path.join(path.dirname(this.lockPath), name);
    try {
      const moverGone = !processAlive(Number(aside[1])) || Date.now() - fs.statSync(file).ctimeMs > 60_000;
      const ours = this.lockToken !== undefined && fs.readFileSync(file, 'utf8').includes(this.lockToken);
      if (moverGone && !ours) fs.rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}
