/**
 * The honesty check (README.md, "What runs"):
 * nothing outside the server knows what a variant is supposed to do. Applying
 * a break by hand to a copy of the repository and running that copy's
 * *baseline* must give the same figures as this repository's run of the
 * variant, with the same seed: the runner measures the server it is given,
 * and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listBreaks, patchChain } from '../src/lab/variants.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { comparable, lab } from './helpers/lab.js';
import { REPO } from './helpers/server.js';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the repository with one break applied by hand, sharing node_modules. */
function copyWithBreak(id: string): string {
  const dir = mkdtempSync(join(tmpdir(), `schema-breaks-honesty-${id}-`));
  copies.push(dir);
  for (const entry of ['src', 'contract', 'scripts', 'breaks', 'solutions', 'package.json', 'package-lock.json']) {
    cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  // A lab built on another lab's break gets that break first, as its workspace does.
  for (const patch of patchChain(id).variant) execFileSync('git', ['apply', patch], { cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } });
  return dir;
}

const BREAKS = listBreaks();
const SETTINGS = ['--seed', '11', '--calls', '40', '--json'];

describe('the runner does not know what a variant should do', () => {
  it('there are breaks to check', () => {
    expect(BREAKS.length).toBeGreaterThanOrEqual(3);
  });

  it.each(BREAKS)('%s: a copy with the break applied by hand measures, as its baseline, what the variant run measures here', (id) => {
    // The lab's own run settings (its workload, read-only or not), with two clients.
    const run = loadCatalogue().find((l) => l.id === id)!.runs[0]!;
    const settings = [...SETTINGS, '--server', run.server, '--workload', run.workload ?? 'conjugate', ...(run.readOnly ? ['--read-only'] : [])];
    const copy = copyWithBreak(id);
    for (const client of ['faithful', 'langflow']) {
      const here = lab(['--variant', id, '--client', client, ...settings]);
      expect(here.status, here.stderr).toBe(0);
      const there = lab(['--variant', 'baseline', '--client', client, ...settings], copy);
      expect(there.status, there.stderr).toBe(0);
      const variantHere = JSON.parse(here.stdout).runs.variant;
      const baselineThere = JSON.parse(there.stdout).runs.baseline;
      expect(comparable(baselineThere)).toEqual(comparable(variantHere));
      // And the break did change something: the check would be empty otherwise.
      expect(comparable(JSON.parse(here.stdout).runs.baseline)).not.toEqual(comparable(variantHere));
    }
  });
});
