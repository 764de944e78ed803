/**
 * A fresh copy of the kit, as a learner gets it (no learners/, no .git, no
 * cache), with the checkout's node_modules linked in: for the tests that go
 * through the learner's commands and npm itself. Each copy is removed after
 * the test file.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { REPO } from './server.js';

/** What a copy of the kit holds: what a learner's clone has, apart from docs and tests. */
const KIT = ['src', 'contract', 'scripts', 'breaks', 'solutions', 'labs', 'package.json', 'package-lock.json', 'tsconfig.json'];

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-learner-'));
  copies.push(dir);
  for (const entry of KIT) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

