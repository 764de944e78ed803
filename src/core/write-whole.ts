/**
 * Writing a cache file whole or not at all: a staged file beside it, renamed
 * over it, so a reader running at the same time (another lint, another
 * sweep) finds the old file or the complete new one, never half of one.
 *
 * No fsync, unlike the journal's replaceFile (src/learn/atomic.ts): a cache
 * entry lost to a power cut costs one measurement again, and a sweep writes
 * hundreds of them.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';

export function writeWhole(file: string, text: string): void {
  const staged = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(staged, text);
    renameSync(staged, file);
  } finally {
    rmSync(staged, { force: true });
  }
}
