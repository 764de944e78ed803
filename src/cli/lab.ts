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
import { helpWidth, HELP_OPTION, optionsHelp, parseOptions, type Option } from '../core/options.js';
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

/** More seeds than this is a sweep, not a lab run. */
const MAX_SEEDS = 20;
/** A run of 1,000 calls takes a few seconds; more teaches nothing more. */
const MAX_CALLS = 1000;

/** The options of a lab: the learner's path. */
const LAB_OPTIONS = [
  { name: 'variant', kind: 'string', value: 'ID', help: 'a lab (a break from breaks/), or baseline' },
  { name: 'learner', kind: 'string', value: 'NAME', help: 'whose notes and workspace (remembered after the first time)' },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the sheets and questions (default: the last one asked for, else the locale)' },
  { name: 'read', kind: 'boolean', help: 'show the lab sheet' },
  { name: 'hint', kind: 'string', value: 'N', help: 'show hint N of the lab sheet' },
  { name: 'workspace', kind: 'boolean', help: 'write the broken server into learners/<name>/workspace/<lab>/' },
  { name: 'reset', kind: 'boolean', help: 'restore the broken workspace (asks first; --yes to skip asking)' },
  { name: 'yes', kind: 'boolean', help: 'do not ask before --reset' },
  { name: 'no-predict', kind: 'boolean', help: 'run without asking for predictions' },
  { name: 'predict', kind: 'string', value: 'FILE', help: 'predictions from a JSON file: {"answers": {"<question id>": value}, "reasoning": "..."}' },
  HELP_OPTION,
] as const satisfies readonly Option[];

/** The options of a run, for exploring (no predictions are asked). */
const RUN_OPTIONS = [
  { name: 'client', kind: 'string', value: 'P', help: `how the host presents the schema: ${PROFILE_IDS.join(', ')} (default faithful)` },
  { name: 'server', kind: 'string', value: 'ID', help: ['the server build, which decides how errors reach the client:', `${SERVER_BUILDS.join(', ')} (default: the lab's, else ${DEFAULT_BUILD})`] },
  { name: 'seed', kind: 'string', value: 'N', help: 'seed of the workload and the model (default 1)' },
  { name: 'seeds', kind: 'string', value: 'N', help: [`run N seeds (up to ${MAX_SEEDS}) from --seed on and report each figure's mean and range`, "(default: 1 for a run, the lab's own number for a lab's questions)"] },
  { name: 'calls', kind: 'string', value: 'N', help: `workload size (default 100, at most ${MAX_CALLS}); the eval of 30 always runs` },
  { name: 'temperature', kind: 'string', value: 'T', help: `the model's sampling temperature, 0 to 2 (default ${DEFAULT_KNOBS.temperature})` },
  { name: 'workload', kind: 'string', value: 'W', help: 'the requests: conjugate (default), profile (edit a profile: read, change, write back) or lessons' },
  { name: 'read-only', kind: 'boolean', help: 'start the servers read-only (--read-only on minimcp)' },
  { name: 'solution', kind: 'boolean', help: 'also run the break with its solution applied' },
  { name: 'json', kind: 'boolean', help: `print one JSON document (format ${REPORT_FORMAT_VERSION}, see README.md) and nothing else` },
  { name: 'html', kind: 'string', value: 'FILE', help: ['also write the results as one self-contained HTML page (with the lab: your predictions too);', 'a bare file name goes into out/, which git ignores'] },
  { name: 'spec', kind: 'string', help: 'gone: the server build decides the errors', hidden: true },
] as const satisfies readonly Option[];

const WIDTH = helpWidth(LAB_OPTIONS, RUN_OPTIONS);

export const USAGE = `Usage: npm run lab -- [--variant <id>] [options]

With no --variant: the labs, where you are in each, and what to do next.
With --variant <lab>: asks your predictions, runs the lab, and puts your
predictions next to what was measured, in your notes (learners/<name>/notes/).

${optionsHelp(LAB_OPTIONS, { width: WIDTH })}

Runs (for exploring; no predictions are asked):
${optionsHelp(RUN_OPTIONS, { width: WIDTH })}

Variants: ${[BASELINE, ...listBreaks()].join(', ')}
Check a fix: npm run check -- <lab>`;

/** A bad command line: one line, and where to read the options. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2, '(npm run lab -- --help for the options)');
  }
}



function integer(name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} takes a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'} (got ${value})`);
  }
  return Number(value);
}

export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Command | 'help' {
  const { values } = parseOptions([...LAB_OPTIONS, ...RUN_OPTIONS], argv, (message) => new UsageError(message));
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
    explicitSettings: values.client !== undefined || values.server !== undefined || values.workload !== undefined || (values['read-only'] ?? false),
    run: {
      variant: variant ?? BASELINE,
      solution: (values.solution ?? false),
      json: (values.json ?? false),
      seeds: values.seeds === undefined ? undefined : integer('seeds', values.seeds, 1, 1, MAX_SEEDS),
      settings: {
        client,
        server: server as ServerBuild,
        seed: integer('seed', values.seed, 1, 0),
        calls: integer('calls', values.calls, 100, 1, MAX_CALLS),
        knobs,
        workload: workload as Workload,
        readOnly: (values['read-only'] ?? false),
      },
    },
    read: (values.read ?? false),
    hint: values.hint === undefined ? undefined : integer('hint', values.hint, 1, 1),
    workspace: (values.workspace ?? false),
    reset: (values.reset ?? false),
    yes: (values.yes ?? false),
    noPredict: (values['no-predict'] ?? false),
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
