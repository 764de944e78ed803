/**
 * A lab's own runs (the catalogue's), for each of its seeds: what the
 * learner's path, the checker and `npm run sheets` measure a lab's questions
 * with.
 */
import { DEFAULT_KNOBS, type Knobs } from '../lab/knobs.js';
import { getProfile } from '../lab/profiles/index.js';
import { ServerPool } from '../lab/server-pool.js';
import { runLab, seedsFrom } from '../lab/side-by-side.js';
import { DEFAULT_LAB_SEEDS, type Lab, type LabResults } from './catalogue.js';

export interface LabRunSettings {
  /** The first seed; the lab's others follow it. */
  seed: number;
  seeds?: number;
  calls: number;
  knobs?: Knobs;
}

/**
 * A plain lab run's settings (`npm run lab -- --variant <lab>` with no
 * option): what the sheets' figures, the checker's comparison and the live
 * class's measurement at reveal are all taken at, so that each matches the
 * figures a learner's own run prints.
 */
export const LAB_DEFAULTS = { seed: 1, calls: 100, knobs: DEFAULT_KNOBS } as const satisfies LabRunSettings;

/** The lab's runs for one seed: their reports, by run name. */
export async function runLabOnce(lab: Lab, seed: number, settings: LabRunSettings, pool?: ServerPool): Promise<LabResults> {
  const results: LabResults = {};
  const reports = await Promise.all(
    lab.runs.map(async (labRun) => {
      const client = getProfile(labRun.client);
      if (!client) throw new Error(`labs/catalogue.json: ${lab.id} names an unknown client ${labRun.client}`);
      const run = { client, server: labRun.server, seed, calls: settings.calls, knobs: settings.knobs ?? DEFAULT_KNOBS, workload: labRun.workload ?? 'conjugate', readOnly: labRun.readOnly ?? false };
      return [labRun.name, await runLab({ variant: lab.id, solution: false, json: false, seeds: 1, settings: run, ...(pool ? { pool } : {}) })] as const;
    }),
  );
  for (const [name, report] of reports) results[name] = report;
  return results;
}

/** The lab's runs for each of its seeds, one seed after another (more processes than cores only slow each other). */
export async function runLabSeeds(lab: Lab, settings: LabRunSettings, onSeed?: (n: number, count: number) => void): Promise<{ seeds: number[]; perSeed: LabResults[] }> {
  const seeds = seedsFrom(settings.seed, settings.seeds ?? lab.seeds ?? DEFAULT_LAB_SEEDS);
  const perSeed: LabResults[] = [];
  // One pool for every seed: a seed's conjugations go to the servers the seed before used (src/lab/server-pool.ts).
  const pool = new ServerPool();
  try {
    for (const [i, seed] of seeds.entries()) {
      onSeed?.(i + 1, seeds.length);
      perSeed.push(await runLabOnce(lab, seed, settings, pool));
    }
  } finally {
    await pool.close();
  }
  return { seeds, perSeed };
}
