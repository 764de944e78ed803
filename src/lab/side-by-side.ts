/**
 * One lab run side by side: the baseline, the variant and, when asked, the
 * solution, each its own server process, with the same settings and seed;
 * and, with several seeds, the same again for each seed, summed up as each
 * figure's mean and range.
 */
import { spreads } from './figures.js';
import { jsonDiff, REPORT_FORMAT_VERSION, type LabReport, type SeedSummary } from './report.js';
import { run, type RunResult, type RunSettings } from './runner.js';
import { BASELINE, baselineName, buildServer, patchChain } from './variants.js';

/** A single run: baseline, variant and optionally solution, with one client and one server build. */
export interface LabOptions {
  variant: string;
  settings: RunSettings;
  solution: boolean;
  json: boolean;
  /** How many seeds to run, from settings.seed on (default 1). */
  seeds?: number;
}

/** The seeds a run of `count` seeds uses: the first one and the ones after it. */
export function seedsFrom(first: number, count: number): number[] {
  return Array.from({ length: Math.max(1, count) }, (_, i) => first + i);
}

export async function runLab(options: LabOptions): Promise<LabReport> {
  const { variant, settings } = options;
  const isBreak = variant !== BASELINE;
  // Build first (cached by content), then run the servers side by side: each is its own process.
  // A lab that builds on another lab's break has that break's server for its baseline.
  const chain = patchChain(variant);
  const [baselineJs, variantJs, solutionJs] = await Promise.all([
    buildServer(chain.base),
    isBreak ? buildServer(chain.variant) : undefined,
    isBreak && options.solution ? buildServer(chain.solution) : undefined,
  ]);
  const seeds = seedsFrom(settings.seed, options.seeds ?? 1);
  // One seed after another, its servers side by side: more processes than
  // cores at once would only slow each call down (latency is a figure too).
  const perSeed: [RunResult, RunResult | undefined, RunResult | undefined][] = [];
  for (const seed of seeds) {
    const at = { ...settings, seed };
    perSeed.push(
      await Promise.all([
        run(baselineName(variant), baselineJs, at),
        variantJs ? run(variant, variantJs, at) : undefined,
        solutionJs ? run(`${variant}+solution`, solutionJs, at) : undefined,
      ]),
    );
  }
  const [baseline, variantRun, solution] = perSeed[0]!;
  const compared: RunResult = variantRun ?? baseline;
  let summary: SeedSummary | undefined;
  if (seeds.length > 1) {
    const of = (i: 0 | 1 | 2) => perSeed.map((runs) => runs[i]).filter((r): r is RunResult => r !== undefined);
    summary = {
      seeds,
      baseline: spreads(of(0)),
      ...(variantRun ? { variant: spreads(of(1)) } : {}),
      ...(solution ? { solution: spreads(of(2)) } : {}),
    };
  }
  return {
    format: 'schema-breaks/lab-report',
    version: REPORT_FORMAT_VERSION,
    variant,
    settings: { client: settings.client.id, server: settings.server, seed: settings.seed, calls: settings.calls, temperature: settings.knobs.temperature },
    runs: { baseline, ...(variantRun ? { variant: variantRun } : {}), ...(solution ? { solution } : {}) },
    ...(summary ? { seeds: summary } : {}),
    schemaDiff: jsonDiff(baseline.publishedSchema, compared.publishedSchema),
  };
}
