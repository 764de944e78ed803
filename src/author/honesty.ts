/**
 * The honesty check (docs/learning.md, "What runs"): nothing outside the
 * server knows what a variant is supposed to do. A lab's break applied by
 * hand to a copy of the server's sources, run as that copy's *baseline*,
 * must measure exactly what the runner measures for the variant, with the
 * same seed: the runner measures the server it is given, and nothing else.
 * And the break must change something, or the check would be empty.
 * test/honesty.test.ts runs it on every break of the kit; `npm run author --
 * check` on the lab being made.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { getProfile } from '../lab/profiles/index.js';
import { REPO } from '../lab/paths.js';
import { run, type RunResult } from '../lab/runner.js';
import { buildServer, patchChain } from '../lab/variants.js';
import type { LabRun } from '../learn/catalogue.js';

/** What two honest runs must share: every figure and record, the label and the timings aside. */
export function comparable(result: RunResult): unknown {
  const { variant: _variant, latencyMs: _latency, ...rest } = result as unknown as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest, (key, v: unknown) => (key === 'latencyMs' ? undefined : v)));
}

/** The first place two JSON values differ, as a dotted path ('' when they are equal). */
export function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return '';
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return path || '(the whole run)';
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return path || '(the whole run)';
}

/**
 * A copy of the kit's server sources (src/, contract/) with the lab's break
 * applied by hand, as an instructor or a learner would edit them (a lab on
 * another lab's break gets that break first, as its workspace does). The
 * caller removes it.
 */
export function copyWithBreak(id: string): string {
  const dir = mkdtempSync(join(tmpdir(), `schema-breaks-honesty-${id}-`));
  for (const entry of ['src', 'contract']) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  for (const patch of patchChain(id).variant) execFileSync('git', ['apply', patch], { cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() }, stdio: ['ignore', 'ignore', 'pipe'] });
  return dir;
}

export interface HonestyVerdict {
  client: string;
  /** Where the copy's baseline and the variant first differ; '' when they measure the same. */
  differs: string;
  /** Whether the variant measures anything other than the baseline (a break that changes nothing proves nothing). */
  changed: boolean;
}

/**
 * The honesty check of lab `id` on the settings of one of its runs, with each client given (seed 11, 40 calls),
 * and the two servers compared: the variant the runner builds, and the copy's (two builds of their own: the
 * kit's cache is keyed by the sources and the patches applied).
 */
export async function honestyCheck(id: string, labRun: Pick<LabRun, 'server' | 'workload' | 'readOnly'>, clients: string[], { seed = 11, calls = 40 } = {}): Promise<{ builds: { variant: string; byHand: string }; verdicts: HonestyVerdict[] }> {
  const copy = copyWithBreak(id);
  try {
    const chain = patchChain(id);
    const [baselineHere, variantHere, baselineThere] = await Promise.all([buildServer(chain.base), buildServer(chain.variant), buildServer([], copy)]);
    const verdicts: HonestyVerdict[] = [];
    for (const client of clients) {
      const profile = getProfile(client);
      if (!profile) throw new Error(`unknown client ${client}`);
      const settings = { client: profile, server: labRun.server, seed, calls, knobs: DEFAULT_KNOBS, workload: labRun.workload ?? 'conjugate', readOnly: labRun.readOnly ?? false };
      const [here, there, base] = await Promise.all([run(id, variantHere, settings), run('baseline', baselineThere, settings), run('baseline', baselineHere, settings)]);
      verdicts.push({ client, differs: firstDifference(comparable(there), comparable(here)), changed: firstDifference(comparable(base), comparable(here)) !== '' });
    }
    return { builds: { variant: variantHere, byHand: baselineThere }, verdicts };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
