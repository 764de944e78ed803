/**
 * One lab run side by side: the baseline, the variant and, when asked, the
 * solution, each its own server process, with the same settings and seed.
 */
import { jsonDiff, REPORT_FORMAT_VERSION, type LabReport } from './report.js';
import { run, type RunResult, type RunSettings } from './runner.js';
import { BASELINE, breakPatch, buildServer, solutionPatch } from './variants.js';

/** A single run: baseline, variant and optionally solution, with one client and one server build. */
export interface LabOptions {
  variant: string;
  settings: RunSettings;
  solution: boolean;
  json: boolean;
}

export async function runLab(options: LabOptions): Promise<LabReport> {
  const { variant, settings } = options;
  const isBreak = variant !== BASELINE;
  // Build first (cached by content), then run the servers side by side: each is its own process.
  const [baselineJs, variantJs, solutionJs] = await Promise.all([
    buildServer([]),
    isBreak ? buildServer([breakPatch(variant)]) : undefined,
    isBreak && options.solution ? buildServer([breakPatch(variant), solutionPatch(variant)]) : undefined,
  ]);
  const [baseline, variantRun, solution] = await Promise.all([
    run(BASELINE, baselineJs, settings),
    variantJs ? run(variant, variantJs, settings) : undefined,
    solutionJs ? run(`${variant}+solution`, solutionJs, settings) : undefined,
  ]);
  const compared: RunResult = variantRun ?? baseline;
  return {
    format: 'schema-breaks/lab-report',
    version: REPORT_FORMAT_VERSION,
    variant,
    settings: { client: settings.client.id, server: settings.server, seed: settings.seed, calls: settings.calls, temperature: settings.knobs.temperature },
    runs: { baseline, ...(variantRun ? { variant: variantRun } : {}), ...(solution ? { solution } : {}) },
    schemaDiff: jsonDiff(baseline.publishedSchema, compared.publishedSchema),
  };
}
