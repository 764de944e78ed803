/**
 * `npm run check -- <lab>`: is the learner's workspace fixed? Three proofs,
 * as for the kit's own solutions:
 * 1. it type-checks: the sheets teach that the compiler catches some of these
 *    faults, so a workspace the compiler rejects is not a fix;
 * 2. the schema contract tests pass on the workspace server's published
 *    schema, against the kit's contract and known-violations list for this
 *    lab (those of the reference solution, built from the kit: never the
 *    workspace's own, which a learner could edit to pass);
 * 2b. where the lab's sheet has the learner make the compiler see the break
 *    (`compilerCatchesBreak` in the catalogue: lab 1 types the executor from
 *    the schema), the break put back on a copy of the workspace no longer
 *    type-checks;
 * 3. the lab's runs against it are not worse than the reference solution's
 *    (src/lab/figures.ts, `verdict`: what the user gets first, then what it
 *    cost in retries). Where the solution only restores the
 *    baseline, its figures are the baseline's; where the break came with a
 *    new capability, they are the capability's.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { sourcesKey } from '../core/bundler.mjs';
import type { Violation } from '../contract/rules.js';
import { checkServer } from '../contract/check.js';
import { verdict, type FigureDef } from '../lab/figures.js';
import { LAB_DEFAULTS } from './lab-runs.js';
import { CACHE_DIR, REPO } from '../lab/paths.js';
import { getProfile } from '../lab/profiles/index.js';
import { run, type RunResult, type RunSettings } from '../lab/runner.js';
import { breakPatch, buildServer, BuildError, bundleDigest, contractOf, patchChain, serverCommand } from '../lab/variants.js';
import { replaceFile } from './atomic.js';
import { COMPILER_PACKAGE, compilerPath, compilerVersion } from './compiler.js';
import { UserError } from '../core/user-error.js';
import type { Lab, LabRun } from './catalogue.js';

export interface RunComparison {
  run: LabRun;
  /** Figures worse than the reference solution's; empty when the run is as good. */
  worse: FigureDef[];
  /** Figures better than the reference solution's. */
  better: FigureDef[];
  reference: RunResult;
  workspace: RunResult;
}

export type CheckVerdict =
  | { fixed: false; buildError: string }
  | { fixed: false; typeErrors: string }
  | { fixed: boolean; violations: Violation[]; runs: RunComparison[]; compilerCatchesBreak?: CompilerCatches };

/**
 * With the lab's break put back on the workspace: the compiler refuses it (`caught`), or it still type-checks
 * (`blind`); or the break cannot be put back because the workspace still has it (`present`: not fixed yet, a
 * workspace just created), or because the learner's file no longer has the lines it changes (`unapplied`).
 */
export type CompilerCatches = 'caught' | 'blind' | 'present' | 'unapplied';

/**
 * Puts the lab's break back on a copy of the workspace (one line of context
 * is enough: the learner may have rewritten what is around it) and
 * type-checks the copy. Lab 1's lesson is that a type derived from the
 * schema lets the compiler catch the break: a workspace that still
 * type-checks with `.partial()` back has not learnt it.
 */
export function compilerCatchesBreak(lab: Lab, workspace: string): CompilerCatches {
  const work = mkdtempSync(join(tmpdir(), 'schema-breaks-rebreak-'));
  try {
    cpSync(join(workspace, 'src'), join(work, 'src'), { recursive: true });
    // GIT_CEILING_DIRECTORIES: the patch applies to the copy, relative to its root (as src/lab/variants.ts applies them).
    const apply = (...flags: string[]) => {
      try {
        execFileSync('git', ['apply', '-C1', '--whitespace=nowarn', ...flags, breakPatch(lab.id)], { cwd: work, env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(work) }, stdio: ['ignore', 'ignore', 'pipe'] });
        return true;
      } catch {
        return false;
      }
    };
    if (!apply()) {
      // The break does not go on again: a workspace that still has it (it comes off) is not fixed yet; only one
      // that has neither the break nor the lines it changes is one the check cannot judge.
      return apply('--reverse', '--check') ? 'present' : 'unapplied';
    }
    return typeCheck(work) ? 'caught' : 'blind';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The workspace's sources through the kit's TypeScript compiler and
 * settings: the empty string when they type-check, else the compiler's
 * errors, with paths as the learner sees them. The compiler's answer is
 * kept in the kit's cache by the content of what it read (the workspace's
 * sources, the kit's tsconfig and lockfile): a check run again on an
 * unchanged workspace does not wait for the compiler a second time.
 */
export function typeCheck(workspace: string): string {
  const shown = relative(REPO, workspace) || workspace;
  const key = sourcesKey(workspace, { dirs: ['src'], endings: ['.ts', '.mts', '.cts', '.json'], extra: [compilerVersion(), ...['tsconfig.json', 'package-lock.json'].map((f) => readFileSync(join(REPO, f)))] });
  const kept = join(CACHE_DIR, 'tsc', `${key}.txt`);
  let answer: string;
  if (existsSync(kept)) {
    answer = readFileSync(kept, 'utf8');
  } else {
    answer = compile(workspace);
    replaceFile(kept, [Buffer.from(answer)]);
  }
  return answer.replaceAll(WORKSPACE, shown);
}

/** Where the workspace's path goes in a kept answer of the compiler: the same sources elsewhere give the same answer. */
const WORKSPACE = '\u0000workspace';

/** The compiler on a copy of the workspace's sources: its errors, with the workspace's files named by WORKSPACE. */
function compile(workspace: string): string {
  const tsc = compilerPath();
  if (!tsc) throw new UserError(`the TypeScript compiler for this computer (${COMPILER_PACKAGE}) is not installed: run npm ci --omit=dev`);
  // A copy under the kit's node_modules: wherever the workspace is, its imports (zod, the SDK) resolve to the kit's.
  mkdirSync(join(CACHE_DIR, 'tsc'), { recursive: true });
  const dir = mkdtempSync(join(CACHE_DIR, 'tsc', 'check-'));
  try {
    cpSync(join(workspace, 'src'), join(dir, 'src'), { recursive: true });
    const config = join(dir, 'tsconfig.json');
    // The server and what it imports: what the learner edits and the check builds (the kit's other modules are the kit's to keep typed).
    writeFileSync(config, JSON.stringify({ extends: join(REPO, 'tsconfig.json'), compilerOptions: { noEmit: true, types: ['node'], typeRoots: [join(REPO, 'node_modules', '@types')] }, include: [], files: ['src/minimcp/server.ts'] }));
    // One thread: the server and what it imports are some 300 files, and on two cores the compiler's parallel
    // checkers cost a third more CPU for no shorter wait (0.7 against 1.1 CPU-s, the same answer).
    execFileSync(tsc, ['-p', config, '--singleThreaded'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    return '';
  } catch (error) {
    const out = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`.trim();
    // The compiler's paths are the copy's: name the learner's own files.
    return out.replaceAll(`${dir}/`, `${WORKSPACE}/`).replace(/^src\//gm, `${WORKSPACE}/src/`) || String(error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function checkWorkspace(lab: Lab, workspace: string, seed = 1): Promise<CheckVerdict> {
  let serverJs: string;
  try {
    serverJs = await buildServer([], workspace);
  } catch (error) {
    if (error instanceof BuildError) return { fixed: false, buildError: error.message };
    throw error;
  }
  const typeErrors = existsSync(join(workspace, 'src')) ? typeCheck(workspace) : '';
  if (typeErrors) return { fixed: false, typeErrors };
  const caught = lab.compilerCatchesBreak && existsSync(join(workspace, 'src')) ? compilerCatchesBreak(lab, workspace) : undefined;
  // The reference: the kit's own solution, built from the kit's sources.
  const referenceJs = await buildServer(patchChain(lab.id).solution);
  let violations: Violation[];
  try {
    ({ violations } = await contractCheck(serverJs, contractOf(referenceJs)));
    // A lab that builds on another lab's break starts from that break's violations: only the ones its
    // reference solution does not have count against the workspace.
    const reference = await contractCheck(referenceJs, contractOf(referenceJs));
    const inherited = new Set(reference.violations.map(violationKey));
    violations = violations.filter((v) => !inherited.has(violationKey(v)));
  } catch (error) {
    // It builds but does not serve: it crashed at start, or never answered tools/list.
    return { fixed: false, buildError: `the server builds but does not answer tools/list: ${(error as Error).message}` };
  }
  const runs = await Promise.all(
    lab.runs.map(async (labRun) => {
      const client = getProfile(labRun.client);
      if (!client) throw new Error(`labs/catalogue.json: ${lab.id} names an unknown client ${labRun.client}`);
      const settings = { client, server: labRun.server, seed, calls: LAB_DEFAULTS.calls, knobs: LAB_DEFAULTS.knobs, workload: labRun.workload ?? 'conjugate', readOnly: labRun.readOnly ?? false };
      const [reference, candidate] = await Promise.all([measured('reference solution', referenceJs, settings), measured('workspace', serverJs, settings)]);
      // The one rule of "better" and "worse" (src/lab/figures.ts): what the user gets first, then what it cost.
      const judged = verdict(candidate, reference);
      const worse = judged.verdict === 'worse' || judged.verdict === 'mixed' ? judged.worse : [];
      return { run: labRun, worse, better: judged.better, reference, workspace: candidate };
    }),
  );
  return { fixed: violations.length === 0 && runs.every((r) => r.worse.length === 0) && (caught === undefined || caught === 'caught'), violations, runs, ...(caught ? { compilerCatchesBreak: caught } : {}) };
}

const violationKey = (v: Violation) => `${v.rule} ${v.tool} ${v.path}`;

/*
 * A run is deterministic for its server's bytes, its settings and its seed
 * (and the same sources bundle to the same bytes wherever they were copied,
 * src/lab/variants.ts): a workspace fixed to the reference solution's very
 * sources is not run a second time, and the reference runs of one check
 * serve the next in the same process.
 */
const made = new Map<string, Promise<unknown>>();

/** The promise kept under `key`, or `make()`'s, kept unless it fails. */
function once<T>(key: string, make: () => Promise<T>): Promise<T> {
  let kept = made.get(key) as Promise<T> | undefined;
  if (!kept) {
    kept = make();
    made.set(key, kept);
    kept.catch(() => made.delete(key));
  }
  return kept;
}

async function measured(label: string, serverJs: string, settings: RunSettings): Promise<RunResult> {
  const { client, ...rest } = settings;
  const result = await once(JSON.stringify(['run', bundleDigest(serverJs), client.id, rest]), () => run(label, serverJs, settings));
  return { ...result, variant: label };
}

/** The contract file sits in its reference build's folder with its known violations, named by the build's sources. */
function contractCheck(serverJs: string, contract: string): ReturnType<typeof checkServer> {
  return once(JSON.stringify(['contract', bundleDigest(serverJs), contract]), () => checkServer(serverCommand(serverJs), contract));
}
