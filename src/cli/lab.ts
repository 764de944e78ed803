/**
 * `npm run lab`: the command a learner types. It parses the command line and
 * hands over to one of:
 * - the catalogue (no --variant): each lab's state and what to do next;
 * - the learner's path for a lab (--variant <lab>): predictions, the lab's
 *   runs, prediction next to measurement, notes (src/learn/flow.ts);
 * - a single run (--json, --client/--server given, or the baseline): baseline,
 *   variant (and solution) side by side;
 * - --read, --hint N, --workspace, --reset.
 * Every bad input is one clear line and exit code 2.
 */
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCommand, UserError } from '../core/user-error.js';
import { DEFAULT_BUILD, isServerBuild, SERVER_BUILDS, type ServerBuild } from '../minimcp/errors.js';
import { LANGS, loadCatalogue, type Lab, type Lang } from '../learn/catalogue.js';
import * as flow from '../learn/flow.js';
import { detectLang, t } from '../learn/i18n.js';
import { isLang } from '../core/lang.js';
import { DEFAULT_KNOBS, type Knobs } from '../lab/knobs.js';
import { WORKLOADS, type Workload } from '../lab/runner.js';
import { getProfile, PROFILE_IDS } from '../lab/profiles/index.js';
import { REPORT_FORMAT_VERSION, renderTerminal, toJson, type LabReport } from '../lab/report.js';
import { REPO } from '../lab/paths.js';
import { runLab } from '../lab/side-by-side.js';
import { rememberedLang, rememberLang } from '../learn/learner.js';
import type { Command } from '../learn/command.js';
import { labSheetQuote, writeReportPage } from '../report/write.js';
import { BASELINE, listBreaks } from '../lab/variants.js';

export type { LabOptions } from '../lab/side-by-side.js';

export const USAGE = `Usage: npm run lab -- [--variant <id>] [options]

With no --variant: the labs, where you are in each, and what to do next.
With --variant <lab>: asks your predictions, runs the lab, and puts your
predictions next to what was measured, in your notes (learners/<name>/notes/).

  --variant ID       a lab (a break from breaks/), or baseline
  --learner NAME     whose notes and workspace (remembered after the first time)
  --lang en|es       language of the sheets and questions (default: from the locale)
  --read             show the lab sheet
  --hint N           show hint N of the lab sheet
  --workspace        write the broken server into learners/<name>/workspace/<lab>/
  --reset            restore the broken workspace (asks first; --yes to skip asking)
  --no-predict       run without asking for predictions
  --predict FILE     predictions from a JSON file: {"answers": {"<question id>": value}, "reasoning": "..."}

Runs (for exploring; no predictions are asked):
  --client P         how the host presents the schema: ${PROFILE_IDS.join(', ')} (default faithful)
  --server ID        the server build, which decides how errors reach the client:
                     ${SERVER_BUILDS.join(', ')} (default: the lab's, else ${DEFAULT_BUILD})
  --seed N           seed of the workload and the model (default 1)
  --seeds N          run N seeds from --seed on and report each figure's mean and range
                     (default: 1 for a run, the lab's own number for a lab's questions)
  --calls N          workload size (default 100); the eval of 30 always runs
  --temperature T    the model's sampling temperature, 0 to 2 (default ${DEFAULT_KNOBS.temperature})
  --workload W       the requests: conjugate (default), profile (edit a profile: read, change, write back) or lessons
  --read-only        start the servers read-only (--read-only on minimcp)
  --solution         also run the break with its solution applied
  --json             print one JSON document (format ${REPORT_FORMAT_VERSION}, see README.md) and nothing else
  --html FILE        also write the results as one self-contained HTML page (with the lab: your predictions too);
                     a bare file name goes into out/, which git ignores

Variants: ${[BASELINE, ...listBreaks()].join(', ')}
Check a fix: npm run check -- <lab>`;

/** A bad command line: one line, and where to read the options. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2, '(npm run lab -- --help for the options)');
  }
}


/** More seeds than this is a sweep, not a lab run. */
const MAX_SEEDS = 20;
/** A run of 1,000 calls takes a few seconds; more teaches nothing more. */
const MAX_CALLS = 1000;

function integer(name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} takes a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'} (got ${value})`);
  }
  return Number(value);
}

export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Command | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        variant: { type: 'string' },
        client: { type: 'string' },
        server: { type: 'string' },
        spec: { type: 'string' },
        seed: { type: 'string' },
        seeds: { type: 'string' },
        calls: { type: 'string' },
        temperature: { type: 'string' },
        solution: { type: 'boolean', default: false },
        workload: { type: 'string' },
        'read-only': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        learner: { type: 'string' },
        lang: { type: 'string' },
        read: { type: 'boolean', default: false },
        hint: { type: 'string' },
        workspace: { type: 'boolean', default: false },
        reset: { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        'no-predict': { type: 'boolean', default: false },
        predict: { type: 'string' },
        html: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    const message = (error as Error).message;
    // parseArgs reads "--calls -5" as a flag missing its value: say what the value must be.
    const ambiguous = /Option '--(\w+)[^']*' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const at = argv.indexOf(`--${ambiguous[1]}`);
      throw new UsageError(`--${ambiguous[1]} takes a value, not ${argv[at + 1] ?? 'nothing'}${/^-\d/.test(argv[at + 1] ?? '') ? ' (a negative number is not allowed here)' : ''}`);
    }
    throw new UsageError(message.split('\n')[0]!);
  }
  if (values.help) return 'help';
  const variants = [BASELINE, ...listBreaks()];
  if (values.variant !== undefined && !variants.includes(values.variant)) {
    throw new UsageError(`unknown variant "${values.variant}"; one of: ${variants.join(', ')}`);
  }
  const clientId = values.client ?? 'faithful';
  const client = getProfile(clientId);
  if (!client) throw new UsageError(`unknown client "${clientId}"; one of: ${PROFILE_IDS.join(', ')}`);
  if (values.spec !== undefined) throw new UsageError(`--spec is gone: which error a client sees depends on the server build, not the MCP revision; use --server ${SERVER_BUILDS.join('|')}`);
  const variant = values.variant;
  const lab = variant && variant !== BASELINE ? loadCatalogue().find((l) => l.id === variant) : undefined;
  // An exploration of a lab runs on the lab's own server build unless told otherwise.
  const server = values.server ?? lab?.runs[0]?.server ?? DEFAULT_BUILD;
  if (!isServerBuild(server)) throw new UsageError(`unknown server build "${server}"; one of: ${SERVER_BUILDS.join(', ')}`);
  const temperature = values.temperature === undefined ? DEFAULT_KNOBS.temperature : Number(values.temperature);
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw new UsageError(`--temperature takes a number from 0 to 2 (got ${values.temperature})`);
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) throw new UsageError(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  if (values.solution && variant === BASELINE) throw new UsageError('--solution needs a break: the baseline has no solution');
  const labOnly = (['read', 'workspace', 'reset'] as const).filter((flag) => values[flag]).map((f) => `--${f}`);
  if (values.hint !== undefined) labOnly.push('--hint');
  if (labOnly.length > 0 && !lab) throw new UsageError(`${labOnly.join(', ')} needs a lab: --variant ${listBreaks()[0] ?? '<lab>'}`);
  if (values['no-predict'] && values.predict !== undefined) throw new UsageError('--no-predict and --predict exclude each other');
  if (values.html !== undefined && values.html.trim() === '') throw new UsageError('--html takes a file name: --html report.html');
  if (values.html !== undefined && (!variant || labOnly.length > 0)) throw new UsageError(`--html writes the page of a run: --variant ${listBreaks()[0] ?? '<lab>'} --html report.html`);
  const workload = values.workload ?? 'conjugate';
  if (!(WORKLOADS as readonly string[]).includes(workload)) throw new UsageError(`unknown workload "${workload}"; one of: ${WORKLOADS.join(', ')}`);
  const knobs: Knobs = { ...DEFAULT_KNOBS, temperature };
  return {
    variant,
    lab,
    // --lang, else the one last asked for (learners/.lang), else the locale.
    lang: (values.lang as Lang | undefined) ?? rememberedLang(REPO) ?? detectLang(env),
    learner: values.learner,
    explicitSettings: values.client !== undefined || values.server !== undefined || values.workload !== undefined || values['read-only']!,
    run: {
      variant: variant ?? BASELINE,
      solution: values.solution!,
      json: values.json!,
      seeds: values.seeds === undefined ? undefined : integer('seeds', values.seeds, 1, 1, MAX_SEEDS),
      settings: {
        client,
        server: server as ServerBuild,
        seed: integer('seed', values.seed, 1, 0),
        calls: integer('calls', values.calls, 100, 1, MAX_CALLS),
        knobs,
        workload: workload as Workload,
        readOnly: values['read-only']!,
      },
    },
    read: values.read!,
    hint: values.hint === undefined ? undefined : integer('hint', values.hint, 1, 1),
    workspace: values.workspace!,
    reset: values.reset!,
    yes: values.yes!,
    noPredict: values['no-predict']!,
    predictFile: values.predict,
    // A bare name goes into out/ (ignored by git), not into the checkout's root.
    htmlFile: values.html === undefined ? undefined : values.html.includes('/') || isAbsolute(values.html) ? values.html : join('out', values.html),
  };
}

function writeHtml(file: string, report: LabReport, lang: Lang, say: (text: string) => void): void {
  writeReportPage(file, { report, lang, sheet: labSheetQuote(report.variant, lang) });
  say(`wrote ${file}\n`);
}

async function dispatch(command: Command): Promise<number> {
  const { lab } = command;
  if (!command.variant) return flow.showCatalogue(command);
  if (lab && command.read) return flow.showSheet(lab, command.lang);
  if (lab && command.hint !== undefined) return flow.showHint(lab, command.hint, command.lang);
  if (lab && command.workspace) return flow.makeWorkspace(lab, command);
  if (lab && command.reset) return flow.reset(lab, command);
  if (command.run.json) {
    const report = await runLab(command.run);
    process.stdout.write(`${toJson(report)}\n`);
    // stdout stays one JSON document: the note goes to stderr.
    if (command.htmlFile) writeHtml(command.htmlFile, report, command.lang, (text) => process.stderr.write(text));
    return 0;
  }
  if (!lab || command.explicitSettings || command.run.solution) {
    if (lab && !command.noPredict) process.stdout.write(`${t('exploring', command.lang)}\n\n`);
    const report = await runLab(command.run);
    process.stdout.write(`${renderTerminal(report, command.lang)}\n`);
    if (command.htmlFile) writeHtml(command.htmlFile, report, command.lang, (text) => process.stdout.write(text));
    return 0;
  }
  return flow.runLabPath(lab, command);
}

/** Every user error (src/core/user-error.ts) is one line and its exit code; Ctrl+C at a prompt is 130. */
export async function main(argv: string[]): Promise<number> {
  const lang = detectLang();
  return runCommand('lab', async () => {
    const command = parseCommand(argv);
    if (command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const code = await dispatch(command);
    // A learner's own choice of language is kept (not an exploration's, nor --json's).
    const chose = argv.includes('--lang') || argv.some((a) => a.startsWith('--lang='));
    if (chose && !command.run.json && !command.explicitSettings) rememberLang(REPO, command.lang);
    return code;
  }, t('interrupted', langOf(argv) ?? lang));
}

/** The language --lang names, if it names one the kit speaks (a bad one is reported by parseCommand). */
function langOf(argv: string[]): Lang | undefined {
  const given = argv.includes('--lang') ? argv[argv.indexOf('--lang') + 1] : argv.find((a) => a.startsWith('--lang='))?.slice('--lang='.length);
  return given !== undefined && isLang(given) ? given : undefined;
}
