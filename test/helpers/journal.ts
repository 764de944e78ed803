/**
 * Shared by the journal tests (test/journal.test.ts, test/journal-files.test.ts,
 * test/learner-names.test.ts): fresh temporary folders, the notes folder of a
 * learner, and the byte and marker checks on breaks.jsonl and breaks.md.
 *
 * A test file that calls `fresh` registers `afterEach(removeFreshDirs)` at its
 * top level, so each test's folders are gone before the next test.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'vitest';

const temps: string[] = [];
export function fresh(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
  temps.push(dir);
  return dir;
}
/** For afterEach: removes the folders `fresh` made. */
export function removeFreshDirs(): void {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export function notesDir(root: string, name = 'ana'): string {
  return path.join(root, 'learners', name, 'notes');
}

export function bytes(file: string): Buffer {
  return fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
}

export function expectPrefix(before: Buffer, after: Buffer): void {
  expect(after.length).toBeGreaterThanOrEqual(before.length);
  // Compare without dumping megabytes into a failure message.
  expect(after.subarray(0, before.length).equals(before), 'earlier bytes must be a prefix of the new file').toBe(true);
}

export function markers(md: string): string[] {
  return [...md.matchAll(/^<!-- entry (\S+) -->$/gm)].map((m) => m[1] ?? '');
}
