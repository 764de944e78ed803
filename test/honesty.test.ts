/**
 * The honesty check (docs/learning.md, "What runs"):
 * nothing outside the server knows what a variant is supposed to do. Applying
 * a break by hand to a copy of the repository and running that copy's
 * *baseline* must give the same figures as this repository's run of the
 * variant, with the same seed: the runner measures the server it is given,
 * and nothing else. The check is src/author/honesty.ts, which `npm run
 * author -- check` runs on a lab in the making.
 */
import { describe, expect, it } from 'vitest';
import { honestyCheck } from '../src/author/honesty.js';
import { listBreaks } from '../src/lab/variants.js';
import { loadCatalogue } from '../src/learn/catalogue.js';

const BREAKS = listBreaks();

describe('the runner does not know what a variant should do', () => {
  it('there are breaks to check', () => {
    expect(BREAKS.length).toBeGreaterThanOrEqual(3);
  });

  it.each(BREAKS)('%s: a copy with the break applied by hand measures, as its baseline, what the variant run measures here', async (id) => {
    // The lab's own run settings (its workload, read-only or not); the runner is
    // the one every lab runs, and the copy's server is built like any learner's workspace.
    const labRun = loadCatalogue().find((l) => l.id === id)!.runs[0]!;
    // Two clients every lab runs on, and the lab's own first host: a break whose fault only a host's limit shows
    // (a description, a tool's name) changes nothing on the first two, and the check would be empty there.
    const clients = [...new Set(['faithful', 'langflow', labRun.client])];
    const { builds, verdicts } = await honestyCheck(id, labRun, clients);
    // Two builds of their own (the kit's cache is keyed by the sources and the patches applied).
    expect(builds.byHand).not.toBe(builds.variant);
    expect(verdicts.map((v) => v.client)).toEqual(clients);
    for (const verdict of verdicts) {
      expect(verdict.differs, verdict.client).toBe('');
      // And the break did change something on the lab's own host: the check would be empty otherwise.
      if (verdict.client === labRun.client) expect(verdict.changed, verdict.client).toBe(true);
    }
  });
});
