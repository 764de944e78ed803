/**
 * Writing a file so that a crash at any moment leaves the old file or the
 * complete new one, never half of either: a temp file in the same folder,
 * fsync, rename over the target, fsync the folder. Shared by the journal and
 * the remembered learner.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Directories cannot be fsynced on every platform (Windows); the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
export function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

export function renameWithRetry(from: string, to: string): void {
  // Windows refuses to replace a file another program has open for a moment (editor, antivirus).
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt >= 20 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err;
      sleepSync(25 * (attempt + 1));
    }
  }
}

/**
 * Atomically replaces `file` with `parts` concatenated: temp file in the same
 * folder, fsync, rename over `file`, fsync the folder. A crash at any point
 * leaves either the old file or the complete new one.
 */
export function replaceFile(file: string, parts: readonly Buffer[]): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let mode = 0o644;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    // new file
  }
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', mode);
    for (const part of parts) {
      let off = 0;
      while (off < part.length) off += fs.writeSync(fd, part, off, part.length - off);
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    renameWithRetry(tmp, file);
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}
