/**
 * `npm run class -- sweep`: the whole course's findings on one screen.
 *
 * Every lab (every break in breaks/), every client profile and every server build,
 * one seed, each with its solution: the baseline, the variant and the solution
 * of each (lab, client, server), as `npm run lab -- --variant <lab> --client <p>
 * --server <build> --solution` measures them. The result is one self-contained
 * HTML page (a table per server build, one shown at a time: a row per client profile, three columns per lab), or
 * with `--json` the data (format `schema-breaks/sweep`, version 1).
 *
 * Each lab runs with the requests it is about: the workload and read-only
 * setting of its runs in labs/catalogue.json; a break the catalogue does not
 * list yet gets the workloads of the tools its patch touches (conjugate,
 * profile, lessons), a row each.
 *
 * How it runs:
 * - every server bundle is built first (baseline, each break, each break with
 *   its solution), so the workers never race on a build;
 * - the baseline of a (client, server, workload, read-only) is the same run for
 *   every lab that uses those settings (same server, same settings, same
 *   seed), so it runs once and every such lab's cell shares it; so does a
 *   run whose server is byte for byte another's (a fix that puts back the
 *   baseline's sources), with the same settings;
 * - the runs go to `--jobs` worker threads (src/class/sweep-worker.ts, bundled
 *   into the kit's cache), as many runs in flight in all as there are cores
 *   (defaultPerJob in sweep-model.ts says why);
 *   a run whose requests change the server (profile edits, lessons) starts a
 *   server process of its own, and conjugations share one per server bundle and
 *   build (src/lab/server-pool.ts), the runs of one server handed to the worker
 *   that holds it (src/class/sweep-schedule.ts; `--server-per-run` gives every
 *   run its own, with the same figures).
 * Runs are deterministic by seed: the same seed gives the same JSON whatever
 * the number of jobs (latency aside).
 */
import { fileRule, outputFile, writeOutput, wroteLine } from '../core/file-option.js';
import { REPO } from '../lab/paths.js';
import { HELP_OPTION, optionsHelp, parseOptions, type Option } from '../core/options.js';
import { SERVER_BUILDS, type ServerBuild } from '../minimcp/errors.js';
import { LANGS, type Lang } from '../learn/catalogue.js';
import { detectLang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { PROFILE_IDS } from '../lab/profiles/index.js';
import { listBreaks } from '../lab/variants.js';
import { availableParallelism } from 'node:os';
import { okShare, pct, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, type SweepReport } from './sweep-model.js';
import { RunCache, SWEEP_CACHE_DIR } from './sweep-cache.js';
import { renderPage } from './sweep-page.js';
import { sweep } from './sweep-run.js';
import { runCommand, UsageError } from '../core/user-error.js';

export * from './sweep-model.js';
export { renderPage } from './sweep-page.js';
export { planSweep, sameServerOnce, sweep, workerBundle } from './sweep-run.js';

// ---------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------

const SWEEP_OPTIONS = [
  { name: 'seed', kind: 'string', value: 'N', help: 'seed of the workload and the model (default 1)' },
  { name: 'calls', kind: 'string', value: 'N', help: 'workload size of each run (default 100); the eval of 30 always runs' },
  { name: 'out', kind: 'string', value: 'FILE', help: 'where to write the page (default out/sweep.html)' },
  { name: 'json', kind: 'boolean', help: [`print the data as one JSON document (format ${SWEEP_FORMAT} ${SWEEP_FORMAT_VERSION}) and nothing else;`, 'the page is written too when --out is given'] },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the page (default: from the locale)' },
  { name: 'jobs', kind: 'string', value: 'N', help: ["worker threads running the labs in parallel (default: the machine's cores); they keep", 'as many runs in flight in all as there are cores'] },
  { name: 'labs', kind: 'string', value: 'A,B', help: "only these labs (default: every one), e.g. the labs of today's workshop" },
  { name: 'clients', kind: 'string', value: 'A,B', help: 'only these client profiles (default: every one)' },
  { name: 'servers', kind: 'string', value: 'A,B', help: 'only these server builds (default: every one)' },
  { name: 'fresh', kind: 'boolean', help: ['measure every run again, taking none from the cache of runs (out/sweep-cache/, by content: a run', 'is measured again only when its server, settings, knobs or runner code change), and keep them there'] },
  { name: 'work', kind: 'string', value: 'FILE', help: ['write what each client profile did in the runs measured now (runs, tool lists presented, arguments', 'checked, tool calls, the error probe\'s calls, calls refused) as JSON: what `npm run bench` weighs its floor by'] },
  { name: 'server-per-run', kind: 'boolean', help: ['start a server process for every run; by default the runs whose requests change nothing on', 'the server (conjugations) share one per server build, with the same figures'] },
  HELP_OPTION,
] as const satisfies readonly Option[];

export const SWEEP_USAGE = `Usage: npm run class -- sweep [options]

Every lab x every client profile (${PROFILE_IDS.join(', ')}) x every server build (${SERVER_BUILDS.join(', ')}),
each with its solution, on one page: the whole course's findings on one screen.

${optionsHelp(SWEEP_OPTIONS)}

${fileRule(detectLang())}`;

/** A bad command line: one line, and where to read the sweep's options. */
const usage = (message: string) => new UsageError(message, '(npm run class -- sweep --help for the options)');

interface SweepCommand {
  seed: number;
  calls: number;
  out?: string;
  json: boolean;
  lang: Lang;
  jobs: number;
  serverPerRun: boolean;
  fresh: boolean;
  work?: string;
  labs?: string[];
  clients?: string[];
  servers?: ServerBuild[];
}

/** A comma-separated list of ids, each one of `known`. */
function idList(name: string, value: string | undefined, known: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value.split(',').map((id) => id.trim()).filter(Boolean);
  if (ids.length === 0) throw usage(`--${name} needs at least one of: ${known.join(', ')}`);
  const unknown = ids.find((id) => !known.includes(id));
  if (unknown !== undefined) throw usage(`--${name}: unknown "${unknown}"; one of: ${known.join(', ')}`);
  return ids;
}

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw usage(`--${name} takes a whole number of at least ${min} (got ${value})`);
  return Number(value);
}

export function parseSweepArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): SweepCommand | 'help' {
  // Tolerate the subcommand's own name in front, whoever routes to us.
  const args = argv[0] === 'sweep' ? argv.slice(1) : argv;
  const { values } = parseOptions(SWEEP_OPTIONS, args, usage);
  if (values.help) return 'help';
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) throw usage(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  if (values.out === '') throw usage('--out needs a file name');
  if (values.work === '') throw usage('--work needs a file name');
  return {
    seed: wholeNumber('seed', values.seed, 1, 0),
    calls: wholeNumber('calls', values.calls, 100, 1),
    out: values.out,
    json: values.json ?? false,
    lang: (values.lang as Lang | undefined) ?? detectLang(env),
    jobs: wholeNumber('jobs', values.jobs, availableParallelism(), 1),
    serverPerRun: values['server-per-run'] ?? false,
    fresh: values.fresh ?? false,
    work: values.work,
    labs: idList('labs', values.labs, listBreaks()),
    clients: idList('clients', values.clients, PROFILE_IDS),
    servers: idList('servers', values.servers, SERVER_BUILDS) as ServerBuild[] | undefined,
  };
}

/** What `--json` prints: the report, keys in a stable order. */
export function sweepJson(report: SweepReport): string {
  return JSON.stringify(report, null, 2);
}

/** The sweep command: a bad command line or a server that does not build is one line (src/core/user-error.ts). */
export async function runSweepCommand(argv: string[]): Promise<number> {
  return runCommand('sweep', () => sweepMain(argv));
}

async function sweepMain(argv: string[]): Promise<number> {
  const command = parseSweepArgs(argv);
  if (command === 'help') {
    process.stdout.write(`${SWEEP_USAGE}\n`);
    return 0;
  }
  const { json, lang } = command;
  // With --json, stdout carries the document and nothing else: progress and timing go to stderr.
  const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const tty = process.stderr.isTTY === true;
  let result: Awaited<ReturnType<typeof sweep>>;
  try {
    result = await sweep({
      seed: command.seed,
      calls: command.calls,
      jobs: command.jobs,
      serverPerRun: command.serverPerRun,
      cache: new RunCache(SWEEP_CACHE_DIR, command.fresh),
      ...(command.labs ? { labs: command.labs } : {}),
      ...(command.clients ? { clients: command.clients } : {}),
      ...(command.servers ? { servers: command.servers } : {}),
      onProgress: tty ? (done, total) => process.stderr.write(`\rsweep: ${done}/${total} runs`) : undefined,
    });
  } catch (error) {
    // The progress line ends before the error's line (a server that does not build is a BuildError: exit 1).
    if (tty) process.stderr.write('\n');
    throw error;
  }
  if (tty) process.stderr.write('\r\u001b[K');
  const { report, timing } = result;
  // Where --out says, else (without --json) the kit's out/sweep.html (src/core/file-option.ts).
  const out = command.out === undefined && json ? undefined : outputFile(command.out, REPO, 'sweep.html');
  if (out !== undefined) writeOutput(out, renderPage(report, lang, timing));
  if (json) process.stdout.write(`${sweepJson(report)}\n`);
  const work = command.work === undefined ? undefined : outputFile(command.work, REPO);
  if (work !== undefined) writeOutput(work, `${JSON.stringify(timing.byClient, null, 2)}\n`);
  const short = report.cells.filter((c) => c.verdict.solutionFallsShort);
  const secs = (ms: number) => formatNumber(ms / 1000, lang, { decimals: 1, minDecimals: 1 });
  say(
    t('sweep.console', lang, {
      labs: new Set(report.labs.map((l) => l.id)).size,
      rows: report.labs.length,
      clients: report.clients.length,
      servers: report.servers.length,
      cells: report.cells.length,
      runs: timing.runs,
      processes: timing.servers.started,
      roundTrips: formatNumber(timing.roundTrips, lang, { grouping: true }),
      total: secs(timing.totalMs),
      build: secs(timing.buildMs),
      running: secs(timing.runMs),
      jobs: timing.jobs,
      perJob: timing.perJob,
    }),
  );
  say(t('sweep.cached', lang, { cachedCells: timing.cachedCells, cells: report.cells.length, cached: timing.cached, runs: timing.runs }));
  if (!json) {
    say(t('sweep.changed', lang, { changed: report.cells.filter((c) => c.verdict.variant !== 'same').length, cells: report.cells.length, short: short.length }));
    for (const c of short) say(t('sweep.fallsShort', lang, { lab: c.lab, client: c.client, server: c.server, before: pct(okShare(c.runs.baseline)), after: pct(okShare(c.runs.solution!)) }));
  }
  for (const file of [out, work]) if (file !== undefined) say(wroteLine(file, lang));
  return 0;
}

