/**
 * The class's copy of one learner's journal on one laptop
 * (<device>/learners/<name>/notes/breaks.jsonl), written by true appends
 * (issue 35, D4): the learner's own Journal (src/learn/journal.ts) rereads,
 * checks and rewrites the whole file with each entry, which is right for a
 * file the learner may edit but cost the server 17 ms at 2 MB and 210 ms at
 * 40 MB per request, on its one thread.
 *
 * The same file format and the same lock (src/learn/journal-lock.ts, never
 * waited for: the server answers 503 instead). An append writes the batch's
 * lines at the end (O_APPEND) and fsyncs before it returns, so what the
 * server acknowledges is on disk. A kill in the middle of a write can leave
 * a last line cut short: that batch was never acknowledged (the learner's
 * laptop sends it again), so opening the journal cuts such a tail off, under
 * the lock, and nothing else is ever removed. The file is read once, when
 * the server first needs its ids; after that only the ids and the size are
 * kept.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { fsyncDir } from '../learn/atomic.js';
import { FileLock } from '../learn/journal-lock.js';
import { entryProblem, Journal, JSONL_FILE, LOCK_FILE, type JournalEntry } from '../learn/journal.js';

export class ClassJournal {
  readonly file: string;
  /** The ids the file holds. */
  readonly ids: Set<string>;
  /** Its size in bytes. */
  bytes: number;
  private readonly lock: FileLock;

  constructor(readonly dir: string) {
    this.file = join(dir, JSONL_FILE);
    this.lock = new FileLock(join(dir, LOCK_FILE), 0);
    const release = this.lock.acquire();
    try {
      this.cutUnfinishedTail();
      // The kit's own reader: a journal damaged some other way is reported, never rewritten.
      this.ids = new Set(new Journal(dir, { markdown: false }).read().map((e) => e.id));
      this.bytes = fs.existsSync(this.file) ? fs.statSync(this.file).size : 0;
    } finally {
      release();
    }
  }

  /** Appends the entries, in order, as the kit's journal writes them; returns after fsync. */
  append(entries: readonly JournalEntry[]): void {
    const lines = entries.map((e) => {
      const stored = { id: e.id, kind: e.kind, lab: e.lab, at: e.at, data: e.data };
      const problem = entryProblem(stored);
      if (problem !== undefined) throw new TypeError(`Not a valid journal entry: ${problem}.`);
      return `${JSON.stringify(stored)}\n`;
    });
    const bytes = Buffer.from(lines.join(''), 'utf8');
    const release = this.lock.acquire();
    try {
      const created = !fs.existsSync(this.file);
      const fd = fs.openSync(this.file, 'a', 0o644);
      try {
        let off = 0;
        while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      // A new file's name is durable once its folder is.
      if (created) fsyncDir(this.dir);
    } finally {
      release();
    }
    for (const e of entries) this.ids.add(e.id);
    this.bytes += bytes.length;
  }

  /** A last line without its line break is a write a kill cut short (never acknowledged): cut it off. */
  private cutUnfinishedTail(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r+');
    } catch {
      return; // no file yet
    }
    try {
      const size = fs.fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 64 * 1024));
      let end = size;
      // Back from the end to the last line break, 64 KB at a time (an entry is at most LIMITS.entryBytes).
      while (end > 0) {
        const start = Math.max(0, end - tail.length);
        fs.readSync(fd, tail, 0, end - start, start);
        const at = tail.subarray(0, end - start).lastIndexOf(0x0a);
        if (at >= 0) {
          end = start + at + 1;
          break;
        }
        end = start;
      }
      if (end < size) {
        fs.ftruncateSync(fd, end);
        fs.fsyncSync(fd);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}
