/**
 * `npm run lab`: the command a learner types. It parses the command line and
 * hands over to one of:
 * - the catalogue (no --variant): each lab's state and what to do next;
 * - the learner's path for a lab (--variant <lab>): predictions, the lab's
 *   runs, prediction next to measurement, notes (src/learn/flow.ts; the menu, sheet and hints in src/learn/browse.ts);
 * - a single run (--json, --client/--server given, or the baseline): baseline,
 *   variant (and solution) side by side;
 * - --read, --hint N, --workspace, --reset.
 * Every bad input is one clear line and exit code 2.
 */
import { helpWidth, HELP_OPTION, optionsHelp, parseOptions, type Option, type ValuesOf } from '../core/options.js';
import type { ChatSetup } from '../lab/chat/setup.js';
import { runCommand, UsageError } from '../core/user-error.js';
import { fromUser } from '../core/cwd.js';
import { fileRule, outputFile, wroteLine } from '../core/file-option.js';
import { DEFAULT_BUILD, isServerBuild, SERVER_BUILDS, type ServerBuild } from '../minimcp/errors.js';
import { LANGS, loadCatalogue, type Lang } from '../learn/catalogue.js';
import * as flow from '../learn/flow.js';
import { LAB_DEFAULTS } from '../learn/lab-runs.js';
import * as browse from '../learn/browse.js';
import { showLearners } from '../learn/learners-list.js';
import { detectLang, isLang } from '../core/lang.js';
import { t } from '../core/messages/index.js';
import { DEFAULT_KNOBS, type Knobs } from '../lab/knobs.js';
import { WORKLOADS, type Workload } from '../lab/runner.js';
import { getProfile, PROFILE_IDS } from '../lab/profiles/index.js';
import { REPORT_FORMAT_VERSION, renderTerminal, toJson, type LabReport } from '../lab/report.js';
import { REPO } from '../lab/paths.js';
import { runLab, type LabOptions } from '../lab/side-by-side.js';
import { renderComparison } from '../lab/chat/compare.js';
import { paint } from '../core/colour.js';
import { LearnerNameError, rememberedLang, rememberLang, rememberLearner } from '../learn/learner.js';
import * as live from '../learn/live.js';
import { classUrl, joinCode } from '../learn/class-link.js';
import { CODE_ALPHABET, CODE_LENGTH, LIMITS } from '../learn/class-wire.js';
import type { Command } from '../learn/command.js';
import { labSheetQuote, writeReportPage } from '../report/write.js';
import { BASELINE, listBreaks } from '../lab/variants.js';

export type { LabOptions } from '../lab/side-by-side.js';

/** More seeds than this is a sweep, not a lab run. */
const MAX_SEEDS = 20;
/** A run of 1,000 calls takes a few seconds; more teaches nothing more. */
const MAX_CALLS = 1000;
/** Requests in flight to a model endpoint: more than this is no longer polite to a laptop or a rate limit. */
const MAX_CONCURRENCY = 16;

/** The options of a lab: the learner's path. */
const LAB_OPTIONS = [
  { name: 'variant', kind: 'string', value: 'ID', help: 'a lab (a break from breaks/), or baseline; the lab alone as a word does the same' },
  { name: 'learner', kind: 'string', value: 'NAME', help: 'whose notes and workspace (remembered after the first time)' },
  { name: 'learners', kind: 'boolean', help: 'list the learners of this copy, how many labs each has run and fixed' },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the sheets and questions (default: the last one asked for, else the locale)' },
  { name: 'read', kind: 'boolean', help: 'show the lab sheet' },
  { name: 'all', kind: 'boolean', help: t('learn.readAllHelp', detectLang()) },
  { name: 'hint', kind: 'string', value: 'N', help: 'show hint N of the lab sheet' },
  { name: 'workspace', kind: 'boolean', help: 'write the broken server into learners/<name>/workspace/<lab>/' },
  { name: 'reset', kind: 'boolean', help: 'restore the broken workspace (asks first; --yes to skip asking)' },
  { name: 'yes', kind: 'boolean', help: 'do not ask before --reset' },
  { name: 'no-predict', kind: 'boolean', help: 'run without asking for predictions' },
  { name: 'predict', kind: 'string', value: 'FILE', help: 'predictions from a JSON file: {"answers": {"<question id>": value}, "reasoning": "..."}' },
  { name: 'reflect', kind: 'string', value: 'TEXT', help: t('learn.reflectHelp', detectLang()) },
  { name: 'unheld', kind: 'boolean', help: t('learn.unheldHelp', detectLang()) },
  { name: 'join', kind: 'string', value: 'URL', help: t('learn.joinHelp', detectLang()) },
  { name: 'code', kind: 'string', value: 'CODE', help: t('learn.codeHelp', detectLang()) },
  { name: 'leave', kind: 'boolean', help: t('learn.leaveHelp', detectLang()) },
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
  { name: 'json', kind: 'boolean', help: `print one JSON document (format ${REPORT_FORMAT_VERSION}, see docs/architecture.md) and nothing else` },
  { name: 'html', kind: 'string', value: 'FILE', help: 'also write the results as one self-contained HTML page (with the lab: your predictions too)' },
  { name: 'spec', kind: 'string', help: 'gone: the server build decides the errors', hidden: true },
] as const satisfies readonly Option[];

/** The options of a run with a real model (src/lab/chat/). */
const MODEL_OPTIONS = [
  { name: 'model', kind: 'string', value: 'M', help: ['who writes the calls: stand-in (default: seeded, no network) or openai (a real model', 'at an OpenAI-compatible endpoint: Ollama, llama.cpp, vLLM, LM Studio, a hosted API)'] },
  { name: 'base-url', kind: 'string', value: 'URL', help: "the endpoint's base URL, e.g. http://localhost:11434/v1 (Ollama)" },
  { name: 'model-name', kind: 'string', value: 'NAME', help: 'the model at the endpoint, e.g. qwen2.5:3b' },
  { name: 'api-key-env', kind: 'string', value: 'VAR', help: 'the environment variable holding the key (default OPENAI_API_KEY; a local server needs none)' },
  { name: 'concurrency', kind: 'string', value: 'N', help: `requests in flight at once (default 2, at most ${MAX_CONCURRENCY})` },
  { name: 'request-timeout', kind: 'string', value: 'S', help: 'seconds one completion may take (default 120)' },
  { name: 'record', kind: 'string', value: 'DIR', help: 'write every request and answer to DIR, one JSON-lines file per run (no key in them)' },
  { name: 'replay', kind: 'string', value: 'DIR', help: 'answer from the transcripts in DIR (made with --record): no network, the same figures' },
] as const satisfies readonly Option[];

const WIDTH = helpWidth(LAB_OPTIONS, RUN_OPTIONS, MODEL_OPTIONS);

export const USAGE = `Usage: npm run lab -- [<lab> | --variant <id>] [options]

With no --variant: the labs, where you are in each, and what to do next.
With --variant <lab>: asks your predictions, runs the lab, and puts your
predictions next to what was measured, in your notes (learners/<name>/notes/).

${optionsHelp(LAB_OPTIONS, { width: WIDTH })}

Runs (for exploring; no predictions are asked):
${optionsHelp(RUN_OPTIONS, { width: WIDTH })}

A real model (docs/learning.md, "A real model in the loop"); its figures are shown next to the stand-in's:
${optionsHelp(MODEL_OPTIONS, { width: WIDTH })}

${fileRule(detectLang())}

Variants: ${[BASELINE, ...listBreaks()].join(', ')}
Check a fix: npm run check -- <lab>`;

/** A bad command line: one line, and where to read the options, in the language the learner asked for. */
const usageIn = (lang: Lang) => (message: string) => new UsageError(message, t('learn.usageFooter', lang));



function wholeNumber(usage: (message: string) => UsageError, name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw usage(`--${name} takes a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'} (got ${value})`);
  }
  return Number(value);
}

export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Command | 'help' {
  // --lang (a valid one), else the one last asked for (learners/.lang), else the locale: known before any
  // refusal, so that a refusal speaks it.
  const guessed = langOf(argv) ?? rememberedLang(REPO) ?? detectLang(env);
  const { values, positionals } = parseOptions([...LAB_OPTIONS, ...RUN_OPTIONS, ...MODEL_OPTIONS], argv, usageIn(guessed), { positionals: true, env });
  if (values.help) return 'help';
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) throw usageIn(guessed)(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  const lang = (values.lang as Lang | undefined) ?? guessed;
  const usage = usageIn(lang);
  const integer = (name: string, value: string | undefined, fallback: number, min: number, max?: number) => wholeNumber(usage, name, value, fallback, min, max);
  const variants = [BASELINE, ...listBreaks()];
  // The lab as a plain word, as `npm run check -- <lab>` takes it: `npm run lab broken-schema` needs no `--` at all.
  if (positionals.length > 1) throw usage(`one lab at a time (got ${positionals.join(', ')})`);
  if (positionals[0] !== undefined && values.variant !== undefined && positionals[0] !== values.variant) throw usage(`two labs: ${positionals[0]} and --variant ${values.variant}; name one`);
  const variant = values.variant ?? positionals[0];
  if (variant !== undefined && !variants.includes(variant)) {
    throw usage(t('learn.unknownVariant', lang, { variant, variants: variants.join(', ') }));
  }
  const clientId = values.client ?? 'faithful';
  const client = getProfile(clientId);
  if (!client) throw usage(t('learn.unknownClient', lang, { client: clientId, clients: PROFILE_IDS.join(', ') }));
  if (values.spec !== undefined) throw usage(t('learn.specGone', lang, { builds: SERVER_BUILDS.join('|') }));
  const lab = variant && variant !== BASELINE ? loadCatalogue().find((l) => l.id === variant) : undefined;
  // An exploration of a lab runs on the lab's own server build unless told otherwise.
  const server = values.server ?? lab?.runs[0]?.server ?? DEFAULT_BUILD;
  if (!isServerBuild(server)) throw usage(t('learn.unknownServer', lang, { server, builds: SERVER_BUILDS.join(', ') }));
  const temperature = values.temperature === undefined ? DEFAULT_KNOBS.temperature : Number(values.temperature);
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw usage(`--temperature takes a number from 0 to 2 (got ${values.temperature})`);
  if (values.solution && variant === BASELINE) throw usage('--solution needs a break: the baseline has no solution');
  const labOnly = (['read', 'workspace', 'reset'] as const).filter((flag) => values[flag]).map((f) => `--${f}`);
  if (values.hint !== undefined) labOnly.push('--hint');
  if (values.all && !values.read) throw usage(`--all goes with --read: --variant ${lab?.id ?? listBreaks()[0] ?? '<lab>'} --read --all`);
  if (labOnly.length > 0 && !lab) throw usage(`${labOnly.join(', ')} needs a lab: --variant ${listBreaks()[0] ?? '<lab>'}`);
  if (values['no-predict'] && values.predict !== undefined) throw usage('--no-predict and --predict exclude each other');
  if (values.html !== undefined && values.html.trim() === '') throw usage('--html takes a file name: --html report.html');
  if (values.html !== undefined && (!variant || labOnly.length > 0)) throw usage(`--html writes the page of a run: --variant ${listBreaks()[0] ?? '<lab>'} --html report.html`);
  const workload = values.workload ?? 'conjugate';
  if (!(WORKLOADS as readonly string[]).includes(workload)) throw usage(`unknown workload "${workload}"; one of: ${WORKLOADS.join(', ')}`);
  const knobs: Knobs = { ...DEFAULT_KNOBS, temperature };
  const chat = chatSetup(values, env, usage);
  const live = liveOptions(values, lang, usage);
  if (values.json && (live.join || live.leave)) throw usage(t('learn.class.notWithJson', lang, { flag: live.join ? '--join' : '--leave' }));
  if (live.reflect !== undefined) {
    if (!lab || labOnly.length > 0 || values.json || values.client !== undefined || values.server !== undefined || values.workload !== undefined || values['read-only'] || values.solution || chat) throw usage(t('learn.class.reflectNeedsLab', lang, { lab: lab?.id ?? listBreaks()[0] ?? '<lab>' }));
    if (values['no-predict']) throw usage(t('learn.class.reflectNoPredict', lang));
  }
  return {
    variant,
    lab,
    // --lang, else the one last asked for (learners/.lang), else the locale.
    lang,
    ...live,
    learner: values.learner,
    learners: values.learners ?? false,
    explicitSettings: values.client !== undefined || values.server !== undefined || values.workload !== undefined || (values['read-only'] ?? false) || chat !== undefined,
    run: {
      variant: variant ?? BASELINE,
      solution: (values.solution ?? false),
      json: (values.json ?? false),
      seeds: values.seeds === undefined ? undefined : integer('seeds', values.seeds, 1, 1, MAX_SEEDS),
      ...(chat ? { chat } : {}),
      settings: {
        client,
        server: server as ServerBuild,
        seed: integer('seed', values.seed, LAB_DEFAULTS.seed, 0),
        calls: integer('calls', values.calls, LAB_DEFAULTS.calls, 1, MAX_CALLS),
        knobs,
        workload: workload as Workload,
        readOnly: (values['read-only'] ?? false),
      },
    },
    read: (values.read ?? false),
    all: (values.all ?? false),
    hint: values.hint === undefined ? undefined : integer('hint', values.hint, 1, 1),
    workspace: (values.workspace ?? false),
    reset: (values.reset ?? false),
    yes: (values.yes ?? false),
    noPredict: (values['no-predict'] ?? false),
    unheld: (values.unheld ?? false),
    // Every path is read from the folder the command was typed in (src/core/cwd.ts), not the package root npm moves to.
    predictFile: values.predict === undefined ? undefined : fromUser(values.predict),
    // Where you said, from where you typed it (src/core/file-option.ts): --html has no default, it is asked for.
    htmlFile: values.html === undefined ? undefined : outputFile(values.html, REPO),
  };
}

/** --join URL --code CODE, --leave and --reflect TEXT, each checked alone (what they go with is checked by the caller). */
function liveOptions(values: ValuesOf<typeof LAB_OPTIONS>, lang: Lang, usage: (message: string) => UsageError): Pick<Command, 'join' | 'leave' | 'reflect'> {
  if (values.code !== undefined && values.join === undefined) throw usage(t('learn.class.codeWithoutJoin', lang, { code: values.code }));
  if (values.leave && values.join !== undefined) throw usage(t('learn.class.leaveAndJoin', lang));
  let join: Command['join'];
  if (values.join !== undefined) {
    const url = classUrl(values.join);
    if (url === undefined) throw usage(t('learn.class.badUrl', lang, { url: values.join }));
    if (values.code === undefined) throw usage(t('learn.class.joinWithoutCode', lang, { url }));
    const code = joinCode(values.code);
    if (code === undefined) {
      // Say which part is wrong: its length, or the characters no code has (read alike: 0/O, 1/I/L; or no letter or digit at all).
      const typed = values.code.replace(/\s+/g, '').toUpperCase();
      const wrong = [...new Set([...typed].filter((c) => !CODE_ALPHABET.includes(c)))];
      if ([...typed].length !== CODE_LENGTH || wrong.length === 0) throw usage(t('learn.class.badCode', lang, { length: CODE_LENGTH, code: values.code, count: [...typed].length }));
      throw usage(t('learn.class.badCodeChars', lang, { alphabet: CODE_ALPHABET, code: values.code, wrong: wrong.join(', ') }));
    }
    join = { url, code };
  }
  const reflect = values.reflect?.trim();
  if (reflect === '') throw usage(t('learn.class.reflectEmpty', lang));
  // The class refuses a longer text (LIMITS in src/learn/class-wire.ts): refused here, before anything is written.
  if (reflect !== undefined && [...reflect].length > LIMITS.textChars) throw usage(t('learn.class.reflectTooLong', lang, { max: LIMITS.textChars, count: [...reflect].length }));
  return { join, leave: values.leave ?? false, reflect };
}

/** `--model openai` and its options, checked: what src/lab/chat/setup.ts needs, or undefined for the stand-in. */
function chatSetup(values: ValuesOf<typeof MODEL_OPTIONS>, env: NodeJS.ProcessEnv, usage: (message: string) => UsageError): ChatSetup | undefined {
  const model = values.model ?? (values.replay !== undefined ? 'openai' : 'stand-in');
  if (model !== 'stand-in' && model !== 'openai') throw usage(`unknown --model "${model}"; one of: stand-in, openai`);
  const given = (['base-url', 'model-name', 'api-key-env', 'concurrency', 'request-timeout', 'record', 'replay'] as const).filter((k) => values[k] !== undefined);
  if (model === 'stand-in') {
    if (given.length > 0) throw usage(`--${given[0]} is for a real model: add --model openai`);
    return undefined;
  }
  if (values.record !== undefined && values.replay !== undefined) throw usage('--record and --replay exclude each other');
  if (values.replay === undefined) {
    if (values['base-url'] === undefined) throw usage('--model openai needs --base-url URL (e.g. http://localhost:11434/v1 for Ollama)');
    if (values['model-name'] === undefined) throw usage('--model openai needs --model-name NAME (the model at the endpoint, e.g. qwen2.5:3b)');
  }
  for (const dir of [values.record, values.replay]) if (dir !== undefined && dir.trim() === '') throw usage('--record and --replay take a folder');
  const keyVar = values['api-key-env'] ?? 'OPENAI_API_KEY';
  if (values['api-key-env'] !== undefined && !env[keyVar]) throw usage(`--api-key-env ${keyVar}: the variable ${keyVar} is not set`);
  const timeout = values['request-timeout'] === undefined ? 120 : Number(values['request-timeout']);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 3600) throw usage(`--request-timeout takes seconds, more than 0 and at most 3600 (got ${values['request-timeout']})`);
  return {
    baseUrl: values['base-url'],
    modelName: values['model-name'],
    apiKey: env[keyVar] || undefined,
    concurrency: wholeNumber(usage, 'concurrency', values.concurrency, 2, 1, MAX_CONCURRENCY),
    timeoutMs: timeout * 1000,
    record: values.record === undefined ? undefined : fromUser(values.record),
    replay: values.replay === undefined ? undefined : fromUser(values.replay),
  };
}

function writeHtml(file: string, report: LabReport, lang: Lang, say: (text: string) => void): void {
  writeReportPage(file, { report, lang, sheet: labSheetQuote(report.variant, lang) });
  say(`${wroteLine(file, lang)}\n`);
}

async function dispatch(command: Command): Promise<number> {
  const { lab } = command;
  if (command.join || command.leave) {
    const name = await flow.resolveLearner(command);
    if (command.join) await live.joinClass(REPO, name, command.join.url, command.join.code, command.lang);
    else live.leaveClass(REPO, name, command.lang);
    rememberLearner(REPO, name);
    if (!command.variant) {
      // The who line after the join: it names the class the learner is in now.
      flow.sayWho(name, command.lang);
      if (command.join) process.stdout.write(`${t('learn.class.joinNext', command.lang)}\n`);
      return 0;
    }
  }
  // Every learner's command starts by sending what waits for the class (at most SEND_TIMEOUT_MS; a failure is one line and the command goes on).
  await live.sendWaiting(REPO, learnerIfValid(command), command.lang);
  /*
   * The last name given with --learner is the one kept (labs/INSTRUCTOR.md, "Whose notes"), on the commands that
   * only read too (the list, the catalogue, the sheet, a hint), once they succeeded: a run and --workspace keep it
   * in src/learn/flow.ts. The list is the exception: it names the learner given as the current one, so it keeps
   * it first.
   */
  const keepLearner = async (body: () => Promise<number>) => {
    const code = await body();
    if (code === 0 && command.learner !== undefined) rememberLearner(REPO, command.learner);
    return code;
  };
  if (command.learners) {
    if (command.learner !== undefined) rememberLearner(REPO, command.learner);
    return showLearners(command);
  }
  if (!command.variant) return keepLearner(() => browse.showCatalogue(command));
  // The sheet and the hints are read for the learner the kit knows, if any: say whom, as every learner's command does.
  if (lab && (command.read || command.hint !== undefined)) flow.sayWho(flow.knownLearner(command), command.lang);
  if (lab && command.read) return keepLearner(() => browse.showSheet(lab, command));
  if (lab && command.hint !== undefined) return keepLearner(() => browse.showHint(lab, command.hint!, command.lang, flow.knownLearner(command)));
  if (lab && command.workspace) return flow.makeWorkspace(lab, command);
  if (lab && command.reset) return flow.reset(lab, command);
  if (command.run.json) {
    const report = await runWatched(command.run, command.lang);
    process.stdout.write(`${toJson(report)}\n`);
    // stdout stays one JSON document: the note goes to stderr.
    if (command.htmlFile) writeHtml(command.htmlFile, report, command.lang, (text) => process.stderr.write(text));
    return 0;
  }
  if (!lab || command.explicitSettings || command.run.solution) {
    const report = await runWatched(command.run, command.lang);
    // Written once the run is done: an endpoint that cannot be used (runLab checks it first) fails before anything is printed.
    if (lab && !command.noPredict) process.stdout.write(`${t(command.run.chat ? 'learn.exploringModel' : 'learn.exploring', command.lang)}\n\n`);
    process.stdout.write(`${renderTerminal(report, command.lang)}\n`);
    if (report.standIn) process.stdout.write(`\n${renderComparison(report, command.lang, (text) => paint('1', text))}\n`);
    const stopped = Object.values(report.runs).find((r) => r?.interrupted);
    if (stopped) process.stdout.write(`\n${t('lab.interruptedRun', command.lang, { calls: stopped.calls })}\n`);
    if (command.htmlFile) writeHtml(command.htmlFile, report, command.lang, (text) => process.stdout.write(text));
    return 0;
  }
  return flow.runLabPath(lab, command);
}

/** The learner a command acts for, if known; a bad --learner is left for the command itself to report (an exploration ignores it). */
function learnerIfValid(command: Command): string | undefined {
  try {
    return flow.knownLearner(command);
  } catch (error) {
    if (error instanceof LearnerNameError) return undefined;
    throw error;
  }
}

/**
 * A run. On a terminal, a progress line once it has taken more than a second
 * (a stand-in lab run takes one or two; --calls 1000 --seeds 20, or a real
 * model, take much longer). With a real model, Ctrl+C stops starting requests
 * and shows what was measured (a second Ctrl+C quits).
 */
async function runWatched(options: LabOptions, lang: Lang): Promise<LabReport> {
  const live = process.stderr.isTTY === true;
  const started = performance.now();
  let shown = false;
  const onProgress = (done: number, total: number) => {
    if (!options.chat && performance.now() - started < PROGRESS_AFTER_MS) return;
    shown = true;
    process.stderr.write(`\r${t(options.chat ? 'lab.modelProgress' : 'lab.progress', lang, { done, total })}`);
  };
  const controller = new AbortController();
  let stops = 0;
  const onInterrupt = () => {
    if (++stops > 1) process.exit(130);
    controller.abort();
    process.stderr.write(`\n${t('lab.modelStopping', lang)}\n`);
  };
  if (options.chat) process.on('SIGINT', onInterrupt);
  try {
    return await runLab({
      ...options,
      ...(options.chat ? { settings: { ...options.settings, signal: controller.signal } } : {}),
      ...(live ? { onProgress } : {}),
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    if (shown) process.stderr.write('\r\u001b[K');
  }
}

/** A stand-in run shows its progress only after this long: a short run would only flash it. */
const PROGRESS_AFTER_MS = 1000;

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
  }, t('learn.interrupted', langOf(argv) ?? lang));
}

/** The language --lang names, if it names one the kit speaks (a bad one is reported by parseCommand). */
function langOf(argv: string[]): Lang | undefined {
  const given = argv.includes('--lang') ? argv[argv.indexOf('--lang') + 1] : argv.find((a) => a.startsWith('--lang='))?.slice('--lang='.length);
  return given !== undefined && isLang(given) ? given : undefined;
}
