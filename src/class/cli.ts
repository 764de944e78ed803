/**
 * `npm run class`: the instructor's commands for a workshop.
 *
 *   report [FOLDER]   every learner's journal under FOLDER, as one page and a terminal summary
 *   handout <lab>     a printable handout, one page or two (hypothesis, break, questions with blank boxes)
 *   serve [FOLDER]    the live class: learners send their predictions as they lock them (src/class/serve.ts)
 *   sweep [...]       handed to runSweepCommand in src/class/sweep.ts
 *
 * Every bad input is one clear line and exit code 2.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fromUser } from '../core/cwd.js';
import { fileRule, outputFile, writeOutput, wroteLine } from '../core/file-option.js';
import { REPO } from '../lab/paths.js';
import { LANGS, loadCatalogue, type Lang } from '../learn/catalogue.js';
import { detectLang } from '../core/lang.js';
import { discover, FolderError } from './discover.js';
import { renderHandout } from './handout.js';
import { renderClassPage } from './page.js';
import { buildClassReport } from './report.js';
import { findModelRuns } from './model-runs.js';
import { renderClassTerminal } from './terminal.js';
import { helpWidth, HELP_OPTION, optionsHelp, parseOptions, type Option } from '../core/options.js';
import { runCommand, UsageError } from '../core/user-error.js';

const REPORT_OPTIONS = [
  { name: 'out', kind: 'string', value: 'FILE', help: 'where to write the page (default out/class-report.html)' },
  { name: 'json', kind: 'boolean', help: ['print the report as one JSON document instead (format', 'schema-breaks/class-report, version 1; the page only with --out)'] },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the page and summary (default: from the locale)' },
  HELP_OPTION,
] as const satisfies readonly Option[];

const HANDOUT_OPTIONS = [
  { name: 'all', kind: 'boolean', help: 'every lab (in both languages, unless --lang is given)' },
  { name: 'out', kind: 'string', value: 'FILE', help: 'the handout file (with --all: a folder; default out/handouts/)' },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the handout (default: from the locale)' },
  HELP_OPTION,
] as const satisfies readonly Option[];

/** The port `serve` listens on when none is given: fixed, so that a restarted server is where the learners' laptops remember it. */
const SERVE_PORT = 4747;

const SERVE_OPTIONS = [
  { name: 'port', kind: 'string', value: 'N', help: `the port to listen on (default ${SERVE_PORT}; 0: any free port)` },
  { name: 'lan', kind: 'boolean', help: ["listen on the room's network too (default: this laptop", 'only, 127.0.0.1)'] },
  { name: 'name', kind: 'string', value: 'TEXT', help: "the class's name, shown to learners who join (default: the folder's)" },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the terminal, the replies and the projector (default: from the locale)' },
  HELP_OPTION,
] as const satisfies readonly Option[];

// Options indented under their command, their explanations in the commands' column.
const WIDTH = Math.max(18, helpWidth(REPORT_OPTIONS, HANDOUT_OPTIONS, SERVE_OPTIONS));

export const USAGE = `Usage: npm run class -- <command> [options]

Commands:
  report [FOLDER]     the class report: every breaks.jsonl under FOLDER, at any depth
                      (default learners/), as a terminal summary and an HTML page
${optionsHelp(REPORT_OPTIONS.filter((o) => o.name !== 'help'), { indent: 4, width: WIDTH })}
  handout <lab>       a printable handout (one page; two for the longest diffs): the
                      hypothesis, the break, the questions with blank boxes and
                      the glossary's words it uses, no answers
${optionsHelp(HANDOUT_OPTIONS.filter((o) => o.name !== 'help'), { indent: 4, width: WIDTH })}
  serve [FOLDER]      the live class: learners join with a code, their predictions reach
                      the class folder (default class/) as they lock them; the projector
                      page shows the room's spread; keys 1-8 reveal a lab's measurement
${optionsHelp(SERVE_OPTIONS.filter((o) => o.name !== 'help'), { indent: 4, width: WIDTH })}
  sweep [...]         every lab x every client profile x every server build, on one page
                      (npm run class -- sweep --help for its options)

  -h, --help          this text

${fileRule(detectLang())}`;


const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);


function langOf(value: string | undefined): Lang {
  if (value === undefined) return detectLang();
  if (!(LANGS as readonly string[]).includes(value)) throw new UsageError(`unknown language "${value}"; one of: ${LANGS.join(', ')}`);
  return value as Lang;
}

export async function reportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(REPORT_OPTIONS, argv, (message) => new UsageError(message), { positionals: true });
  if (values.help) {
    write(USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`report takes one folder; got ${positionals.length}: ${positionals.join(' ')}`);
  const lang = langOf(values.lang);
  const given = positionals[0];
  const folder = given === undefined ? join(REPO, 'learners') : fromUser(given);
  const name = given ?? 'learners/';
  let discovery;
  try {
    // No learners/ folder yet on this machine: nobody has run a lab here, which is not a mistake.
    discovery = given === undefined && !existsSync(folder) ? { journals: [], unreadable: [], duplicateNames: [] } : discover(folder);
  } catch (error) {
    if (error instanceof FolderError) throw new UsageError(error.message.replace(folder, name));
    throw error;
  }
  const modelRuns = given === undefined && !existsSync(folder) ? [] : findModelRuns(folder, lang);
  const report = buildClassReport({ folder: name, discovery, labs: loadCatalogue(), lang, modelRuns });
  // The page where --out says, else into the kit's out/ (src/core/file-option.ts), never into the learners' folder.
  const pageFile = outputFile(values.out, REPO, 'class-report.html');
  if (values.json) {
    // stdout stays one JSON document: the page (only with --out) and its line go to stderr's side.
    if (values.out !== undefined) {
      writeOutput(pageFile, renderClassPage(report));
      process.stderr.write(`${wroteLine(pageFile, lang)}\n`);
    }
    write(JSON.stringify(report, null, 2));
    return 0;
  }
  write(renderClassTerminal(report));
  writeOutput(pageFile, renderClassPage(report));
  write(`\n${wroteLine(pageFile, lang)}`);
  return 0;
}

export async function handoutCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(HANDOUT_OPTIONS, argv, (message) => new UsageError(message), { positionals: true });
  if (values.help) {
    write(USAGE);
    return 0;
  }
  const labs = loadCatalogue();
  const ids = labs.map((l) => l.id).join(', ');
  if (values.all) {
    if (positionals.length > 0) throw new UsageError(`handout --all takes no lab; got ${positionals.join(' ')}`);
    const langs = values.lang === undefined ? [...LANGS] : [langOf(values.lang)];
    const dir = outputFile(values.out, REPO, 'handouts');
    for (const lab of labs) {
      for (const lang of langs) {
        const file = join(dir, `${lab.id}.${lang}.html`);
        writeOutput(file, renderHandout(lab, lang));
        write(wroteLine(file, lang));
      }
    }
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `which lab? one of: ${ids} (or --all)` : `handout takes one lab; got ${positionals.join(' ')}`);
  const lab = labs.find((l) => l.id === positionals[0]);
  if (!lab) throw new UsageError(`unknown lab "${positionals[0]}"; one of: ${ids}`);
  const lang = langOf(values.lang);
  const file = outputFile(values.out, REPO, 'handouts', `${lab.id}.${lang}.html`);
  writeOutput(file, renderHandout(lab, lang));
  write(wroteLine(file, lang));
  return 0;
}

/** The server (src/class/serve.ts) is loaded only when asked for, like the sweep. */
export async function serveCommand(argv: string[]): Promise<number> {
  const hint = 'npm run class -- serve --help';
  const { values, positionals } = parseOptions(SERVE_OPTIONS, argv, (message) => new UsageError(message, hint), { positionals: true });
  if (values.help) {
    write(USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`serve takes one folder; got ${positionals.length}: ${positionals.join(' ')}`, hint);
  const lang = langOf(values.lang);
  const port = values.port === undefined ? SERVE_PORT : Number(values.port);
  if (values.port !== undefined && (!/^\d{1,5}$/.test(values.port) || port > 65535)) throw new UsageError(`--port takes a number from 0 to 65535; got "${values.port}"`, hint);
  if (values.name !== undefined && (values.name.trim() === '' || [...values.name].length > 80 || /\p{Cc}/u.test(values.name))) throw new UsageError('--name takes one line of 1 to 80 characters', hint);
  const folder = positionals[0] === undefined ? join(REPO, 'class') : fromUser(positionals[0]);
  const { serve } = await import('./serve.js');
  return serve({ folder, port, lan: values.lan === true, lang, ...(values.name !== undefined ? { name: values.name.trim() } : {}) });
}

/** The sweep (src/class/sweep.ts) is loaded only when asked for: the other commands never run its code. */
export async function sweepCommand(argv: string[]): Promise<number> {
  const { runSweepCommand } = await import('./sweep.js');
  return runSweepCommand(argv);
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--help':
    case '-h':
    case 'help':
      write(USAGE);
      return 0;
    case undefined:
      process.stderr.write(`class: which command? report, handout, serve or sweep (npm run class -- --help)\n`);
      return 2;
    case 'sweep':
      // Its own runCommand: "sweep: ...", with where its options are.
      return sweepCommand(rest);
    case 'report':
    case 'handout':
    case 'serve':
      // Every user error (src/core/user-error.ts): one line, "class <command>: ...", its exit code.
      return runCommand(`class ${command}`, () => (command === 'report' ? reportCommand(rest) : command === 'handout' ? handoutCommand(rest) : serveCommand(rest)));
    default:
      process.stderr.write(`class: unknown command "${command}"; one of: report, handout, serve, sweep (npm run class -- --help)\n`);
      return 2;
  }
}
