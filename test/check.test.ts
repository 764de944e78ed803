/**
 * The learner's checker against every lab: a fresh broken workspace is not
 * fixed, and the same workspace with the reference solution applied (as a
 * learner's edit would be) is. The checker knows nothing of the solution.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { checkWorkspace } from '../src/learn/check.js';
import { createWorkspace, workspaceDir } from '../src/learn/workspace.js';
import { buildServer, patchChain } from '../src/lab/variants.js';
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

describe('a workspace fixed to the reference solution', () => {
  it("builds to the reference's very bytes, so its runs are the reference's (check.ts runs them once)", async () => {
    const dir = createWorkspace('L-bytes', 'broken-schema', root);
    execFileSync('patch', ['-p1', '-s', '-i', join(REPO, 'solutions', 'broken-schema.patch')], { cwd: dir });
    const [workspace, reference] = await Promise.all([buildServer([], dir), buildServer(patchChain('broken-schema').solution)]);
    expect(workspace).not.toBe(reference);
    expect(readFileSync(workspace).equals(readFileSync(reference))).toBe(true);
  });
});

describe('npm run check cannot be talked round', () => {
  const lab = (id: string) => loadCatalogue().find((l) => l.id === id)!;

  it('a fix that does not type-check is not a fix, and the compiler names the workspace file', async () => {
    const dir = createWorkspace('L-types', 'broken-schema', root);
    execFileSync('patch', ['-p1', '-s', '-i', join(REPO, 'solutions', 'broken-schema.patch')], { cwd: dir });
    const file = join(dir, 'src/minimcp/tools/conjugate.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const count: number = 'three';\n`);
    const verdict = await checkWorkspace(lab('broken-schema'), dir);
    expect(verdict.fixed).toBe(false);
    expect('typeErrors' in verdict && verdict.typeErrors).toMatch(/src\/minimcp\/tools\/conjugate\.ts.*TS2322/);
    expect('typeErrors' in verdict && verdict.typeErrors).not.toContain('node_modules/.cache');
  });

  it("lab 1: deleting the `.partial()` alone, the executor's type still declared by hand, is not a fix: with the break put back it still type-checks", async () => {
    const dir = createWorkspace('L-undo', 'broken-schema', root);
    const file = join(dir, 'src/minimcp/tools/conjugate.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('}).partial();', '});'));
    const verdict = await checkWorkspace(lab('broken-schema'), dir);
    expect('violations' in verdict && verdict.violations).toEqual([]);
    expect('compilerCatchesBreak' in verdict && verdict.compilerCatchesBreak).toBe('blind');
    expect(verdict.fixed).toBe(false);
  });

  it("lab 1: the executor typed from the schema (the sheet's step), and the compiler refuses the break put back", async () => {
    const dir = createWorkspace('L-typed', 'broken-schema', root);
    const file = join(dir, 'src/minimcp/tools/conjugate.ts');
    // The step as the sheet words it, written by hand: the hand-written interface gives way to the schema's type.
    const typed = readFileSync(file, 'utf8')
      .replace('}).partial();', '});')
      .replace(/interface ConjugateInput \{[^}]*\}/, 'type ConjugateInput = z.infer<typeof ConjugateArgs>;');
    expect(typed).toContain('z.infer<typeof ConjugateArgs>');
    writeFileSync(file, typed);
    const verdict = await checkWorkspace(lab('broken-schema'), dir);
    expect('compilerCatchesBreak' in verdict && verdict.compilerCatchesBreak).toBe('caught');
    expect(verdict.fixed).toBe(true);
  });

  it("excusing the violation in the workspace's own known-violations list does not pass", async () => {
    const dir = createWorkspace('L-excuse', 'broken-schema', root);
    writeFileSync(
      join(dir, 'contract/known-violations.json'),
      JSON.stringify({ entries: [{ tool: 'conjugate', path: '/inputSchema', issue: '#1', reason: 'later' }] }),
    );
    const verdict = await checkWorkspace(lab('broken-schema'), dir);
    expect(verdict.fixed).toBe(false);
    expect('violations' in verdict && verdict.violations.map((v) => v.rule)).toContain('required-parameters');
  });

  it('copying the baseline back into a lab whose break brought a new capability does not pass', async () => {
    const dir = createWorkspace('L-copy', 'structural-anyof', root);
    cpSync(join(REPO, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(REPO, 'contract'), join(dir, 'contract'), { recursive: true });
    const verdict = await checkWorkspace(lab('structural-anyof'), dir);
    expect(verdict.fixed).toBe(false);
    // The kit's contract for this lab declares past and pastParticiple; the baseline does not publish them.
    expect('violations' in verdict && verdict.violations.map((v) => v.path)).toContain('/inputSchema/properties/past');
    // And the verbs given by their principal parts are lost again: fewer calls end ok than with the reference solution.
    expect('runs' in verdict && verdict.runs.some((r) => r.worse.some((f) => f.id === 'ok'))).toBe(true);
  });
});
