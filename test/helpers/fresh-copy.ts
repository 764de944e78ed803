/**
 * A fresh copy of the kit in a temporary folder, as a new learner's clone:
 * its own learners/ (no notes, no remembered learner), the checkout's
 * node_modules linked in. Removed when the test file ends.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { REPO } from './server.js';

const copies: string[] = [];

/** Call at the top level of a test file: the copies it makes are removed after its tests. */
export function removeCopiesAfterAll(): void {
  afterAll(() => {
    for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

export function freshCopy(prefix = 'schema-breaks-copy-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  copies.push(dir);
  for (const entry of ['src', 'contract', 'scripts', 'breaks', 'solutions', 'labs', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}
