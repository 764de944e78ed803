/**
 * `npm run lab -- --variant <id> ...`: parses the command line, builds the
 * servers, runs baseline, variant (and solution) side by side, prints the
 * report. Every bad input is one clear line and exit code 2.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC, SPEC_ERAS, type SpecEra } from '../minimcp/errors.js';
import { DEFAULT_KNOBS, type Knobs } from './knobs.js';
import { getProfile, PROFILE_IDS } from './profiles.js';
import { jsonDiff, REPORT_FORMAT_VERSION, renderTerminal, toJson, type LabReport } from './report.js';
import { run, type RunResult, type RunSettings } from './runner.js';
import { BASELINE, breakPatch, buildServer, BuildError, listBreaks, solutionPatch } from './variants.js';

export const USAGE = `Usage: npm run lab -- --variant <id> [options]

Runs a workload of tutor requests through a model, a client profile and the
variant server, next to the baseline, and shows what the fault did.

  --variant ID       a break from breaks/ (see the list below), or baseline
  --client P         how the host presents the schema: ${PROFILE_IDS.join(', ')} (default faithful)
  --spec ERA         MCP revision for error mapping: ${SPEC_ERAS.join(', ')} (default ${DEFAULT_SPEC})
  --seed N           seed of the workload and the model (default 1)
  --calls N          workload size (default 100); the eval of 30 always runs
  --temperature T    the model's sampling temperature, 0 to 2 (default ${DEFAULT_KNOBS.temperature})
  --solution         also run the break with its solution applied
  --json             print one JSON document (format ${REPORT_FORMAT_VERSION}, see README.md) and nothing else
  --help             this text

Variants: ${[BASELINE, ...listBreaks()].join(', ')}`;

export class UsageError extends Error {}

export interface LabOptions {
  variant: string;
  settings: RunSettings;
  solution: boolean;
  json: boolean;
}

function integer(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} takes a whole number of at least ${min} (got ${value})`);
  return Number(value);
}

export function parseLabArgs(argv: string[]): LabOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        variant: { type: 'string' },
        client: { type: 'string', default: 'faithful' },
        spec: { type: 'string', default: DEFAULT_SPEC },
        seed: { type: 'string' },
        calls: { type: 'string' },
        temperature: { type: 'string' },
        solution: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (values.help) return 'help';
  const variants = [BASELINE, ...listBreaks()];
  if (!values.variant) throw new UsageError(`--variant is missing; one of: ${variants.join(', ')}`);
  if (!variants.includes(values.variant)) throw new UsageError(`unknown variant "${values.variant}"; one of: ${variants.join(', ')}`);
  const client = getProfile(values.client!);
  if (!client) throw new UsageError(`unknown client "${values.client}"; one of: ${PROFILE_IDS.join(', ')}`);
  if (!(SPEC_ERAS as readonly string[]).includes(values.spec!)) throw new UsageError(`unknown spec "${values.spec}"; one of: ${SPEC_ERAS.join(', ')}`);
  const temperature = values.temperature === undefined ? DEFAULT_KNOBS.temperature : Number(values.temperature);
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw new UsageError(`--temperature takes a number from 0 to 2 (got ${values.temperature})`);
  if (values.solution && values.variant === BASELINE) throw new UsageError('--solution needs a break: the baseline has no solution');
  const knobs: Knobs = { ...DEFAULT_KNOBS, temperature };
  return {
    variant: values.variant,
    solution: values.solution!,
    json: values.json!,
    settings: {
      client,
      spec: values.spec as SpecEra,
      seed: integer('seed', values.seed, 1, 0),
      calls: integer('calls', values.calls, 100, 1),
      knobs,
    },
  };
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
    settings: { client: settings.client.id, spec: settings.spec, seed: settings.seed, calls: settings.calls, temperature: settings.knobs.temperature },
    runs: { baseline, ...(variantRun ? { variant: variantRun } : {}), ...(solution ? { solution } : {}) },
    schemaDiff: jsonDiff(baseline.publishedSchema, compared.publishedSchema),
  };
}

export async function main(argv: string[]): Promise<number> {
  let options: LabOptions | 'help';
  try {
    options = parseLabArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`lab: ${error.message}\n(npm run lab -- --help for the options)\n`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const report = await runLab(options);
    process.stdout.write(options.json ? `${toJson(report)}\n` : `${renderTerminal(report)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof BuildError) {
      process.stderr.write(`lab: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
