/**
 * The verdict cache: what each host profile answered about a tool (or a
 * whole tools/list) in an earlier lint of the same server, so that linting it
 * again, unchanged, loads no host framework and runs no profile (issue 22:
 * most of a lint's time, on a 30-tool server). A tool that changed is asked
 * afresh, the others are not.
 *
 * Honest by construction: an answer is a function of the question (the
 * profile, and every field of the tool or list it was shown: the key is a
 * hash of them all) and of the kit's code (the profiles and the frameworks
 * they run). The cache's folder lives inside the command's bundle folder,
 * whose name is a hash of the kit's sources and lockfile (src/core/bundler.mjs
 * commandBundle): a change to any profile or framework version is another
 * folder, with nothing in it. An answer the kit could not reach ('unknown': a
 * profile that threw, a framework that did not load) is never kept.
 * `--no-cache` asks every host afresh.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeWhole } from '../core/write-whole.js';
import { join } from 'node:path';
import type { Target } from './targets.js';
import type { HostVerdict } from './types.js';

/** Servers whose answers are kept in one folder; the ones written longest ago go first. */
const KEEP = 64;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** A target, by how it is reached (its command, folder and arguments; its URL and headers, hashed, never stored). */
function targetKey(target: Target): string {
  return hash(JSON.stringify(target.kind === 'from' ? { from: target.file } : target.spec));
}

/** The file of a target's answers in the cache folder `dir`. */
export function answersFile(dir: string, target: Target): string {
  return join(dir, `answers-${targetKey(target)}.json`);
}

/**
 * The answers kept for one target, and the ones this run asks: `ask` answers
 * from the kept ones where the very question was asked before, else from the
 * profile; `keep` writes this run's answers (only them: what the server no
 * longer lists goes).
 */
export class Answers {
  private readonly file: string;
  private readonly kept: Record<string, HostVerdict>;
  private readonly asked = new Map<string, Promise<HostVerdict>>();

  constructor(
    private readonly dir: string,
    target: Target,
  ) {
    this.file = answersFile(dir, target);
    let kept: Record<string, HostVerdict> = {};
    try {
      kept = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, HostVerdict>;
    } catch {
      // None kept yet (or a file cut short by a full disk): every host is asked.
    }
    this.kept = kept;
  }

  /** Whether anything was kept for this target: then it most likely lists the same tools again (src/lint/lint.ts). */
  get any(): boolean {
    return Object.keys(this.kept).length > 0;
  }

  /** Each question's hash, by the object shown: the matrix shows one tool (one list) to every host, hashed once. */
  private readonly hashes = new WeakMap<object, string>();
  /** Whether this run asked a profile anything the cache did not hold. */
  private fresh = false;

  /**
   * The profile's answer to a question (what it was shown: `{ tool }` or `{ list }`, every field of it), kept or
   * asked now.
   */
  ask(profileId: string, shown: { tool: unknown } | { list: unknown }, answer: () => Promise<HostVerdict>): Promise<HostVerdict> {
    const object = ('tool' in shown ? shown.tool : shown.list) as object;
    let shownHash = this.hashes.get(object);
    if (shownHash === undefined) this.hashes.set(object, (shownHash = hash(JSON.stringify(shown))));
    const key = `${profileId} ${shownHash}`;
    let asked = this.asked.get(key);
    if (!asked) {
      const kept = this.kept[key];
      if (!kept) this.fresh = true;
      asked = kept ? Promise.resolve(kept) : answer();
      this.asked.set(key, asked);
    }
    return asked;
  }

  /**
   * Writes this run's answers, unless one is 'unknown' or was never given (a host whose framework is not
   * installed, left out of the matrix: src/lint/hosts.ts hostMatrix), or they are the ones kept already (a run
   * that asked only what the cache held, all of it); the folder keeps the KEEP targets written last.
   */
  async keep(): Promise<void> {
    if (!this.fresh && this.asked.size === Object.keys(this.kept).length) return;
    const settled = await Promise.allSettled([...this.asked].map(async ([key, answer]) => [key, await answer] as const));
    if (settled.some((s) => s.status === 'rejected')) return;
    const answers = Object.fromEntries(settled.map((s) => (s as PromiseFulfilledResult<readonly [string, HostVerdict]>).value));
    if (Object.values(answers).some((v) => v.verdict === 'unknown')) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeWhole(this.file, JSON.stringify(answers));
      const files = readdirSync(this.dir)
        .filter((f) => f.startsWith('answers-') && f.endsWith('.json'))
        .map((f) => ({ f, at: statSync(join(this.dir, f)).mtimeMs }))
        .sort((a, b) => b.at - a.at);
      for (const { f } of files.slice(KEEP)) rmSync(join(this.dir, f), { force: true });
    } catch {
      // A cache that cannot be written (a read-only install) costs the next run its time, nothing else.
    }
  }
}
