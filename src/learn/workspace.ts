/**
 * A learner's workspace: learners/<name>/workspace/<lab>/ holds a copy of the
 * server's sources (src/, contract/) with the lab's break applied. The learner
 * fixes it there; src/ is never touched. Nothing a learner wrote is ever
 * deleted: a reset first moves the old workspace to workspace/.trash/.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO } from '../lab/paths.js';
import { breakPatch, patchChain, prepareSources } from '../lab/variants.js';
import { learnerDir } from './learner.js';
import { UserError } from '../core/user-error.js';

export function workspaceDir(name: string, lab: string, root = REPO): string {
  return join(learnerDir(root, name), 'workspace', lab);
}

/** The files the lab's break changed, in the learner's workspace: where to look first. */
export function filesToEdit(name: string, lab: string, root = REPO): string[] {
  const patch = readFileSync(breakPatch(lab), 'utf8');
  const files = [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]!);
  return files.map((file) => relative(root, join(workspaceDir(name, lab, root), file)));
}

export class WorkspaceExistsError extends UserError {}

/** Writes the broken server into the workspace. Refuses to overwrite one that exists. */
export function createWorkspace(name: string, lab: string, root = REPO): string {
  const dir = workspaceDir(name, lab, root);
  if (existsSync(dir)) throw new WorkspaceExistsError(`${relative(root, dir)} already exists; your edits are there. To start over: npm run lab -- --variant ${lab} --reset`);
  // Made from the kit's own baseline; `root` only says where learners/ is.
  const work = prepareSources(patchChain(lab).variant);
  try {
    mkdirSync(join(dir, '..'), { recursive: true });
    // Staged next to the target and renamed: a workspace is there whole, or not at all.
    const staged = `${dir}.staging-${process.pid}`;
    cpSync(work, staged, { recursive: true });
    renameSync(staged, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/** Moves the current workspace to workspace/.trash/<lab>-<time>/ and writes a fresh broken one. Returns where the old one went. */
export function resetWorkspace(name: string, lab: string, root = REPO, now = new Date()): { dir: string; keptAt?: string } {
  const dir = workspaceDir(name, lab, root);
  let keptAt: string | undefined;
  if (existsSync(dir)) {
    const trash = join(dir, '..', '.trash');
    mkdirSync(trash, { recursive: true });
    keptAt = join(trash, `${lab}-${now.toISOString().replace(/[:.]/g, '-')}`);
    renameSync(dir, keptAt);
  }
  createWorkspace(name, lab, root);
  return { dir, keptAt };
}
