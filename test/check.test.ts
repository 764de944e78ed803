/**
 * The learner's checker against every lab: a fresh broken workspace is not
 * fixed, and the same workspace with the reference solution applied (as a
 * learner's edit would be) is. The checker knows nothing of the solution.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { checkWorkspace } from '../src/learn/check.js';
import { createWorkspace, workspaceDir } from '../src/learn/workspace.js';
import { REPO } from './helpers/server.js';

const root = mkdtempSync(join(tmpdir(), 'schema-breaks-check-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(loadCatalogue().map((lab) => [lab.id, lab] as const))('npm run check -- %s', (id, lab) => {
  it('is red on the broken workspace and green once the reference solution is applied', async () => {
    // The workspace lives under a root of its own; the patches come from the kit.
    const learner = `L-${id}`;
    const dir = createWorkspace(learner, id, root);
    expect(dir).toBe(workspaceDir(learner, id, root));
    const broken = await checkWorkspace(lab, dir);
    expect(broken.fixed).toBe(false);
    // `patch`, not `git apply`: the workspace may sit inside a git checkout, and git would apply relative to that.
    execFileSync('patch', ['-p1', '-s', '-i', join(REPO, 'solutions', `${id}.patch`)], { cwd: dir });
    const fixed = await checkWorkspace(lab, dir);
    expect('violations' in fixed ? fixed.violations : fixed).toEqual([]);
    expect(fixed.fixed).toBe(true);
  });
});
