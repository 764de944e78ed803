/**
 * A fix a learner is taught holds everywhere the baseline holds (issue 21):
 * on every host profile and every server build the lab's runs use, the
 * solution's calls end ok about as often as the baseline's: its mean over
 * a few seeds is at least the baseline's least (a host where the baseline's
 * calls never end ok asks nothing). A lab built on another lab's break has
 * that break for its baseline (src/lab/variants.ts, patchChain). The runs
 * are the sweep's (src/class/sweep-run.ts measureRuns): worker threads,
 * server processes lent from run to run, a baseline shared by the labs that
 * have it; a short workload and two seeds keep it cheap.
 * test/solutions-hold.test.ts holds every lab of the catalogue to it, `npm
 * run author -- check` the lab being made.
 */
import { availableParallelism } from 'node:os';
import { RunCache, SWEEP_CACHE_DIR } from '../class/sweep-cache.js';
import { measureRuns, type PlannedRun } from '../class/sweep-run.js';
import { sweepLabs } from '../class/sweep-model.js';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { PROFILES, type ClientProfile } from '../lab/profiles/index.js';
import type { RunResult } from '../lab/runner.js';
import { baselineName, patchChain } from '../lab/variants.js';
import type { Lab } from '../learn/catalogue.js';
import type { ServerBuild } from '../minimcp/errors.js';

/** Two seeds: each adds some 220 runs and 70 server starts to the whole catalogue's check (40 CPU-s on the build machine). */
export const HOLD_SEEDS = [1, 2];
/** Workload calls per run (the eval of 30 runs besides). */
export const HOLD_CALLS = 20;

/** A row of the sweep (a lab with one workload and read-only setting) on one server build its catalogue runs use, on one host: its runs by seed. */
export interface HoldCase {
  lab: string;
  label: string;
  baseline: number[];
  solution: number[];
}

/** The labs' cases and, for each where the solution falls short, one line saying where and by how much. */
export async function solutionShortfalls(
  labs: Lab[],
  profiles: readonly ClientProfile[] = PROFILES,
  { seeds = HOLD_SEEDS, calls = HOLD_CALLS, cached = false }: { seeds?: number[]; calls?: number; cached?: boolean } = {},
): Promise<{ cases: HoldCase[]; short: string[] }> {
  const runs: PlannedRun[] = [];
  const ids = new Map<string, number>();
  const plan = (variant: string, patches: string[], settings: Omit<PlannedRun, 'id' | 'variant' | 'patches'>): number => {
    const key = JSON.stringify([patches, settings]);
    const known = ids.get(key);
    if (known !== undefined) return known;
    runs.push({ id: runs.length, variant, patches, ...settings });
    ids.set(key, runs.length - 1);
    return runs.length - 1;
  };
  const cases: (Omit<HoldCase, 'baseline' | 'solution'> & { baseline: number[]; solution: number[] })[] = [];
  const rows = sweepLabs().filter((row) => labs.some((lab) => lab.id === row.id));
  for (const row of rows) {
    const lab = labs.find((l) => l.id === row.id)!;
    const chain = patchChain(row.id);
    const servers = [...new Set(lab.runs.filter((r) => (r.workload ?? 'conjugate') === row.workload && (r.readOnly ?? false) === row.readOnly).map((r) => (r.server ?? 'mcpserver-1.32') as ServerBuild))];
    for (const server of servers) {
      for (const profile of profiles) {
        const settings = (seed: number) => ({ client: profile.id, server, seed, calls, temperature: DEFAULT_KNOBS.temperature, workload: row.workload, readOnly: row.readOnly, shareServers: true });
        cases.push({
          lab: row.id,
          label: `${row.id} on ${profile.id} (${server}, ${row.workload}${row.readOnly ? ', read-only' : ''})`,
          baseline: seeds.map((seed) => plan(baselineName(row.id), chain.base, settings(seed))),
          solution: seeds.map((seed) => plan(`${row.id}+solution`, chain.solution, settings(seed))),
        });
      }
    }
  }
  // `cached`: the sweep's cache (out/sweep-cache/, keyed by the server's bytes, the runner's and the settings): a
  // check run again after a change to the fix measures the fix's runs alone, the baseline's being the same.
  const { result } = await measureRuns(runs, { jobs: Math.min(2, availableParallelism()), ...(cached ? { cache: new RunCache(SWEEP_CACHE_DIR) } : {}) });
  const ok = (id: number) => (result(id) as RunResult).finalOutcomes.ok ?? 0;
  const measured: HoldCase[] = cases.map((c) => ({ ...c, baseline: c.baseline.map(ok), solution: c.solution.map(ok) }));
  const short: string[] = [];
  for (const c of measured) {
    const mean = c.solution.reduce((a, b) => a + b, 0) / c.solution.length;
    if (mean < Math.min(...c.baseline)) short.push(`${c.label}: the solution's calls ending ok ${c.solution.join(', ')} (mean ${mean.toFixed(1)}) against the baseline's ${c.baseline.join(', ')}, of ${calls} (seeds ${seeds.join(', ')})`);
  }
  return { cases: measured, short };
}
