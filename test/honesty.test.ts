/**
 * The honesty check (docs/learning.md, "What runs"):
 * nothing outside the server knows what a variant is supposed to do. Applying
 * a break by hand to a copy of the repository and running that copy's
 * *baseline* must give the same figures as this repository's run of the
 * variant, with the same seed: the runner measures the server it is given,
 * and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { run, type RunResult } from '../src/lab/runner.js';
import { buildServer, listBreaks, patchChain } from '../src/lab/variants.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { comparable as labelless, withoutTimings } from './helpers/lab.js';
import { REPO } from './helpers/server.js';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the server's sources (and its contract) with one break applied by hand, as a learner would edit them. */
function copyWithBreak(id: string): string {
  const dir = mkdtempSync(join(tmpdir(), `schema-breaks-honesty-${id}-`));
  copies.push(dir);
  for (const entry of ['src', 'contract']) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  // A lab built on another lab's break gets that break first, as its workspace does.
  for (const patch of patchChain(id).variant) execFileSync('git', ['apply', patch], { cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } });
  return dir;
}

/** What two honest runs must share: every figure and record, the label and the timings aside. */
const comparable = (result: RunResult) => withoutTimings(labelless(result as unknown as Record<string, unknown>));

const BREAKS = listBreaks();

describe('the runner does not know what a variant should do', () => {
  it('there are breaks to check', () => {
    expect(BREAKS.length).toBeGreaterThanOrEqual(3);
  });

  it.each(BREAKS)('%s: a copy with the break applied by hand measures, as its baseline, what the variant run measures here', async (id) => {
    // The lab's own run settings (its workload, read-only or not), with two clients; the runner is
    // the one every lab runs, and the copy's server is built like any learner's workspace.
    const labRun = loadCatalogue().find((l) => l.id === id)!.runs[0]!;
    const chain = patchChain(id);
    const [baselineHere, variantHere, baselineThere] = await Promise.all([buildServer(chain.base), buildServer(chain.variant), buildServer([], copyWithBreak(id))]);
    // Two builds of their own (the kit's cache is keyed by the sources and the patches applied).
    expect(baselineThere).not.toBe(variantHere);
    // Two clients every lab runs on, and the lab's own first host: a break whose fault only a host's limit shows
    // (a description, a tool's name) changes nothing on the first two, and the check would be empty there.
    for (const client of [...new Set(['faithful', 'langflow', labRun.client])]) {
      const settings = { client: getProfile(client)!, server: labRun.server, seed: 11, calls: 40, knobs: DEFAULT_KNOBS, workload: labRun.workload ?? 'conjugate', readOnly: labRun.readOnly ?? false };
      const [here, there, base] = await Promise.all([run(id, variantHere, settings), run('baseline', baselineThere, settings), run('baseline', baselineHere, settings)]);
      expect(comparable(there), client).toEqual(comparable(here));
      // And the break did change something on the lab's own host: the check would be empty otherwise.
      if (client === labRun.client) expect(comparable(base), client).not.toEqual(comparable(here));
    }
  });
});
