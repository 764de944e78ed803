/**
 * A fix a learner is taught holds everywhere the baseline holds (issue 21):
 * for every lab of labs/catalogue.json and every host profile in PROFILES,
 * read when the test runs, so a profile registered later is covered without
 * touching this file:
 * (a) the reference solution's host verdicts (`npm run lint`: per tool and
 *     for the whole list) are no worse than its baseline's, in the order
 *     accepted < lossy < refused or dropped;
 * (b) the solution's calls end ok about as often as the baseline's: its mean
 *     over a few seeds is at least the baseline's least (a host where the
 *     baseline's calls never end ok asks nothing).
 * A lab built on another lab's break has that break for its baseline
 * (src/lab/variants.ts, patchChain). The checks are src/lint/hold.ts and
 * src/author/hold.ts, which `npm run author -- check` runs on a lab in the making.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { solutionShortfalls } from '../src/author/hold.js';
import { PROFILES } from '../src/lab/profiles/index.js';
import { buildServer, patchChain, serverCommand, solutionPatch } from '../src/lab/variants.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { worseVerdicts } from '../src/lint/hold.js';
import { readServer } from '../src/lint/server.js';
import type { ListedTool } from '../src/lint/types.js';

const catalogue = loadCatalogue();

async function toolsOf(patches: string[]): Promise<ListedTool[]> {
  const { command, args } = serverCommand(await buildServer(patches));
  const listing = await readServer({ label: patches.at(-1) ?? 'baseline', command, args }, 20_000);
  return listing.tools as ListedTool[];
}

describe('every lab has a reference solution to hold', () => {
  it.each(catalogue.map((lab) => lab.id))('%s', (id) => {
    expect(existsSync(solutionPatch(id)), `solutions/${id}.patch`).toBe(true);
  });
});

describe("the solution's host verdicts (npm run lint) are no worse than the baseline's, on every host", () => {
  it.each(catalogue.map((lab) => lab.id))('%s', async (id) => {
    const chain = patchChain(id);
    const [base, fixed] = await Promise.all([toolsOf(chain.base), toolsOf(chain.solution)]);
    expect((await worseVerdicts(base, fixed, PROFILES)).map((line) => `${id} on ${line}`)).toEqual([]);
  }, 120_000);
});

describe("the solution's calls end ok as often as the baseline's, within its seed range, on every host", () => {
  it('for every lab, every host in PROFILES, every server build the lab runs on', async () => {
    const { cases, short } = await solutionShortfalls(catalogue);
    expect(new Set(cases.map((c) => c.lab))).toEqual(new Set(catalogue.map((l) => l.id)));
    expect(short).toEqual([]);
  }, 300_000);
});
