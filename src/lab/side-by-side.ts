/**
 * One lab run side by side: the baseline, the variant and, when asked, the
 * solution, each its own server process, with the same settings and seed;
 * and, with several seeds, the same again for each seed, summed up as each
 * figure's mean and range. A seed's conjugations go to the server process
 * the seed before used (src/lab/server-pool.ts).
 */
import { spreads } from './figures.js';
import { jsonDiff, REPORT_FORMAT_VERSION, type LabReport, type SeedSummary } from './report.js';
import { run, type RunResult, type RunSettings } from './runner.js';
import { ServerPool } from './server-pool.js';
import { BASELINE, baselineName, buildServer, patchChain } from './variants.js';
import { chatModels, prepareChat, type ChatSetup } from './chat/setup.js';

/** A single run: baseline, variant and optionally solution, with one client and one server build. */
export interface LabOptions {
  variant: string;
  settings: RunSettings;
  solution: boolean;
  json: boolean;
  /** How many seeds to run, from settings.seed on (default 1). */
  seeds?: number;
  /** A real model at an OpenAI-compatible endpoint writes the calls instead of the stand-in (src/lab/chat/). */
  chat?: ChatSetup;
  /** Requests done of all the runs' requests together, as they finish (for a progress line). */
  onProgress?: (done: number, total: number) => void;
  /** Server processes lent from run to run (src/lab/server-pool.ts); without one, the lab keeps its own for its seeds. */
  pool?: ServerPool;
}

/** Seeds of the stand-in run next to a real model's run: its seed-to-seed range is what a difference is measured against. */
export const STAND_IN_SEEDS = 5;

/** The seeds a run of `count` seeds uses: the first one and the ones after it. */
export function seedsFrom(first: number, count: number): number[] {
  return Array.from({ length: Math.max(1, count) }, (_, i) => first + i);
}

/** One seed's runs: the baseline, and the variant and solution when the lab has them. */
type SeedRuns = [RunResult, RunResult | undefined, RunResult | undefined];

/** Each figure's mean and range over the seeds, per role. */
function summarise(seeds: number[], perSeed: SeedRuns[]): SeedSummary {
  const of = (i: 0 | 1 | 2) => perSeed.map((runs) => runs[i]).filter((r): r is RunResult => r !== undefined);
  const [, variant, solution] = perSeed[0]!;
  return { seeds, baseline: spreads(of(0)), ...(variant ? { variant: spreads(of(1)) } : {}), ...(solution ? { solution: spreads(of(2)) } : {}) };
}

export async function runLab(options: LabOptions): Promise<LabReport> {
  const { variant, settings } = options;
  const isBreak = variant !== BASELINE;
  // Build first (cached by content), then run the servers side by side: each is its own process (one a seed before used, for conjugations).
  // A lab that builds on another lab's break has that break's server for its baseline.
  const chain = patchChain(variant);
  const [baselineJs, variantJs, solutionJs] = await Promise.all([
    buildServer(chain.base),
    isBreak ? buildServer(chain.variant) : undefined,
    isBreak && options.solution ? buildServer(chain.solution) : undefined,
  ]);
  const seeds = seedsFrom(settings.seed, options.seeds ?? 1);
  const pool = options.pool ?? new ServerPool();
  try {
    return await runSides(options, seeds, pool, baselineJs, variantJs, solutionJs);
  } finally {
    if (!options.pool) await pool.close();
  }
}

async function runSides(options: LabOptions, seeds: number[], pool: ServerPool, baselineJs: string, variantJs: string | undefined, solutionJs: string | undefined): Promise<LabReport> {
  const { variant, settings } = options;
  if (options.chat) await prepareChat(options.chat);
  const chatFor = options.chat ? chatModels(options.chat, settings.knobs.temperature) : undefined;
  // Each run's own settings: with a real model, its own transport (a recording or a replay is per run).
  // Progress over all the runs together: every run of a lab sends as many requests, so the whole is one run's times the runs.
  const runCount = seeds.length * [baselineJs, variantJs, solutionJs].filter(Boolean).length;
  const progress = new Map<string, number>();
  const progressOf = (key: string) => (done: number, total: number) => {
    progress.set(key, done);
    let all = 0;
    for (const d of progress.values()) all += d;
    options.onProgress?.(all, total * runCount);
  };
  const withModel = (variantName: string, at: RunSettings): RunSettings => ({
    ...at,
    ...(chatFor ? { chat: chatFor({ variant: variantName, client: at.client.id, server: at.server, seed: at.seed, workload: at.workload ?? 'conjugate', readOnly: at.readOnly ?? false }) } : {}),
    ...(options.onProgress ? { onProgress: progressOf(`${variantName} ${at.seed}`) } : {}),
  });
  // One seed after another, its servers side by side: more processes than
  // cores at once would only slow each call down (latency is a figure too).
  const runSeeds = async (seedList: number[], settingsFor: (name: string, at: RunSettings) => RunSettings): Promise<SeedRuns[]> => {
    const out: SeedRuns[] = [];
    for (const seed of seedList) {
      const at = { ...settings, seed, pool };
      const one = (name: string, js: string | undefined) => (js ? run(name, js, settingsFor(name, at)) : undefined);
      out.push(await Promise.all([run(baselineName(variant), baselineJs, settingsFor(baselineName(variant), at)), one(variant, variantJs), one(`${variant}+solution`, solutionJs)]));
    }
    return out;
  };
  const perSeed = await runSeeds(seeds, withModel);
  const [baseline, variantRun, solution] = perSeed[0]!;
  const compared: RunResult = variantRun ?? baseline;
  const summary = seeds.length > 1 ? summarise(seeds, perSeed) : undefined;
  // Next to a real model: the stand-in with the same variant, client and seed, over a few seeds, for its range.
  let standIn: SeedSummary | undefined;
  if (options.chat) {
    const standInSeeds = seedsFrom(settings.seed, STAND_IN_SEEDS);
    const quiet = (_name: string, at: RunSettings): RunSettings => ({ ...at, chat: undefined, onProgress: undefined, signal: undefined });
    standIn = summarise(standInSeeds, await runSeeds(standInSeeds, quiet));
  }
  return {
    format: 'schema-breaks/lab-report',
    version: REPORT_FORMAT_VERSION,
    variant,
    settings: { client: settings.client.id, server: settings.server, seed: settings.seed, calls: settings.calls, temperature: settings.knobs.temperature },
    runs: { baseline, ...(variantRun ? { variant: variantRun } : {}), ...(solution ? { solution } : {}) },
    ...(summary ? { seeds: summary } : {}),
    ...(standIn ? { standIn } : {}),
    schemaDiff: jsonDiff(baseline.publishedSchema, compared.publishedSchema),
  };
}
