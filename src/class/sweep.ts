/**
 * `npm run class -- sweep`: the whole course's findings on one screen.
 *
 * Every lab (every break in breaks/), every client profile and every server build,
 * one seed, each with its solution: the baseline, the variant and the solution
 * of each (lab, client, server), as `npm run lab -- --variant <lab> --client <p>
 * --server <build> --solution` measures them. The result is one self-contained
 * HTML page (a grid: a row per lab, a column per client profile and server build), or
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
 *   seed), so it runs once and every such lab's cell shares it;
 * - the runs go to `--jobs` worker threads (src/class/sweep-worker.ts, bundled
 *   into the kit's cache), twice as many runs in flight in all as there are cores;
 *   every run starts its own server process.
 * Runs are deterministic by seed: the same seed gives the same JSON whatever
 * the number of jobs (latency aside).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { version as esbuildVersion } from 'esbuild';
import { SERVER_BUILDS, type ServerBuild } from '../minimcp/errors.js';
import { LANGS, loadCatalogue, type Lang } from '../learn/catalogue.js';
import { detectLang, translator } from '../learn/i18n.js';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { CACHE_DIR, REPO } from '../lab/paths.js';
import { PROFILES, PROFILE_IDS } from '../lab/profiles/index.js';
import { verdict as judge } from '../lab/figures.js';
import { OUTCOMES } from '../lab/outcomes.js';
import type { RunResult, Workload } from '../lab/runner.js';
import { BASELINE, baseOf, breakPatch, BuildError, buildServer, bundle, listBreaks, patchChain, solutionPatch } from '../lab/variants.js';
import { esc, outcomeColour } from './html.js';
import type { RunTask, WorkerReply } from './sweep-worker.js';

export const SWEEP_FORMAT = 'schema-breaks/sweep';
/** Bump when a field changes meaning or goes away; adding a field does not. */
export const SWEEP_FORMAT_VERSION = 1;

/**
 * Runs in flight in all, whatever the number of workers: twice the cores. A
 * run is mostly its server's work (a node process that starts, then answers),
 * so a single worker thread with two runs in flight already keeps both cores
 * of a two-core machine busy; more workers only add contention.
 */
export function defaultPerJob(jobs: number, cores = availableParallelism()): number {
  return Math.max(1, Math.ceil((2 * cores) / Math.max(1, jobs)));
}

// ---------------------------------------------------------------------------
// The data
// ---------------------------------------------------------------------------

/** One run's figures, as a lab's `--json` gives them, without the schemas, the executor's traces and the per-call records. */
export interface SweepRun {
  /** 'baseline', the break's id, or '<id>+solution'. */
  variant: string;
  outcomes: Record<string, number>;
  finalOutcomes: Record<string, number>;
  attempts: Record<string, number>;
  retries: RunResult['retries'];
  accuracy: RunResult['accuracy'];
  silentWrong: number;
  missingArguments: RunResult['missingArguments'];
  fieldsCleared: number;
  mutationsThroughReadOnly: number;
  errorProbe: RunResult['errorProbe'];
  /** Timings: the one part of a run that differs between two runs with the same seed. */
  latencyMs: RunResult['latencyMs'];
  /** Did the host take the tool list; if not, its error text. */
  host: { accepted: true } | { accepted: false; rejection: string };
  serverNotes: string[];
}

/**
 * How a run compares with the baseline of its cell, on what a learner reads.
 * Outcomes first (calls ending ok, eval accuracy, silently wrong answers,
 * fields cleared, changes let through a read-only server), then the cost
 * (retries). The error-message probe is kept in the data but left out of the
 * verdict: it probes different calls in different runs (the first calls that
 * worked), so its counts do not compare from one run to the next.
 * - same: every figure equal (latency aside);
 * - better: some outcome better and none worse; or the outcomes equal with fewer retries.
 *   More retries do not spoil a better outcome: a fix that answers requests the
 *   baseline could not even make may need a correction for some of them;
 * - worse: some outcome worse and none better; or the outcomes equal with more retries;
 * - mixed: some outcome better, another worse;
 * - different: outcomes and retries equal, other figures not (e.g. which error the first attempts got).
 */
export type Verdict = 'same' | 'better' | 'worse' | 'mixed' | 'different';

/** A row of the sweep: a lab, with the requests its runs send. */
export interface SweepLab {
  id: string;
  title: { en: string; es: string };
  workload: Workload;
  readOnly: boolean;
  /** Where the settings come from: the lab's runs in the catalogue, or the tool its patch touches. */
  settingsFrom: 'catalogue' | 'patch';
}

export interface SweepCell {
  lab: string;
  workload: Workload;
  readOnly: boolean;
  client: string;
  server: ServerBuild;
  runs: { baseline: SweepRun; variant: SweepRun; solution: SweepRun | null };
  verdict: {
    variant: Verdict;
    /** null when the lab has no solution patch. */
    solution: Verdict | null;
    /** The solution leaves a learner worse off than the baseline (its verdict is worse or mixed): a finding, not a fix. */
    solutionFallsShort: boolean;
  };
}

export interface SweepReport {
  format: typeof SWEEP_FORMAT;
  version: typeof SWEEP_FORMAT_VERSION;
  settings: { seed: number; calls: number; temperature: number };
  labs: SweepLab[];
  clients: { id: string; title: string; asOf: string }[];
  servers: ServerBuild[];
  /** Lab by lab (catalogue order), then client (PROFILE_IDS order), then server (SERVER_BUILDS order). */
  cells: SweepCell[];
}

export interface SweepTiming {
  jobs: number;
  perJob: number;
  runs: number;
  buildMs: number;
  runMs: number;
  totalMs: number;
}

export interface SweepOptions {
  seed: number;
  calls: number;
  temperature?: number;
  jobs: number;
  /** Runs in flight per worker (default: defaultPerJob(jobs)). */
  perJob?: number;
  /** Subsets, for tests; default every lab, every profile, every server build. */
  labs?: string[];
  clients?: string[];
  servers?: ServerBuild[];
  onProgress?: (done: number, total: number) => void;
}

/** Which workload exercises a tool: the tool files a patch may touch. */
const TOOL_WORKLOADS: [RegExp, Workload][] = [
  [/^src\/minimcp\/tools\/profile\.ts$/, 'profile'],
  [/^src\/minimcp\/tools\/lessons\.ts$/, 'lessons'],
  [/^src\/minimcp\/tools\/conjugate\.ts$/, 'conjugate'],
];

/** The workloads that exercise the tools a patch touches, in the order it touches them; conjugate when it touches none. */
export function workloadsFromPatch(patch: string): Workload[] {
  const files = existsSync(patch) ? [...readFileSync(patch, 'utf8').matchAll(/^\+\+\+ b\/(\S+)/gm)].map((m) => m[1]!) : [];
  const workloads = new Set<Workload>();
  for (const file of files) for (const [pattern, workload] of TOOL_WORKLOADS) if (pattern.test(file)) workloads.add(workload);
  return workloads.size > 0 ? [...workloads] : ['conjugate'];
}

/**
 * The labs in catalogue order (the course's order), then any other break by
 * name. A lab whose catalogue runs send different requests (workload,
 * read-only) is one row per setting.
 */
export function sweepLabs(): SweepLab[] {
  let catalogue: ReturnType<typeof loadCatalogue> = [];
  try {
    catalogue = loadCatalogue();
  } catch {
    // No catalogue: the breaks by name, titled by their ids.
  }
  const position = (id: string) => {
    const i = catalogue.findIndex((lab) => lab.id === id);
    return i === -1 ? catalogue.length : i;
  };
  return [...listBreaks()]
    .sort((a, b) => position(a) - position(b) || a.localeCompare(b))
    .flatMap((id): SweepLab[] => {
      const lab = catalogue.find((l) => l.id === id);
      const title = lab?.title ?? { en: id, es: id };
      if (!lab || lab.runs.length === 0) return workloadsFromPatch(breakPatch(id)).map((workload) => ({ id, title, workload, readOnly: false, settingsFrom: 'patch' }));
      const settings = new Map<string, SweepLab>();
      for (const run of lab.runs) {
        const workload = run.workload ?? 'conjugate';
        const readOnly = run.readOnly ?? false;
        settings.set(`${workload} ${readOnly}`, { id, title, workload, readOnly, settingsFrom: 'catalogue' });
      }
      return [...settings.values()];
    });
}

/** A run's figures without its schemas, traces and per-call records. */
export function toSweepRun(run: RunResult): SweepRun {
  return {
    variant: run.variant,
    outcomes: run.outcomes,
    finalOutcomes: run.finalOutcomes,
    attempts: run.attempts,
    retries: run.retries,
    accuracy: run.accuracy,
    silentWrong: run.silentWrong,
    missingArguments: run.missingArguments,
    fieldsCleared: run.fieldsCleared,
    mutationsThroughReadOnly: run.mutationsThroughReadOnly,
    errorProbe: run.errorProbe,
    latencyMs: run.latencyMs,
    host: run.host.accepted ? { accepted: true } : { accepted: false, rejection: run.host.rejection },
    serverNotes: run.serverNotes,
  };
}

function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(sort(value));
}

/** Final ok share of a run, 0..1. */
export function okShare(run: SweepRun): number {
  const calls = Object.values(run.finalOutcomes).reduce((a, b) => a + b, 0);
  return calls === 0 ? 0 : (run.finalOutcomes.ok ?? 0) / calls;
}

/** Everything but the latency and the label: what two honest runs with the same seed share. */
function figuresKey(r: SweepRun): string {
  const { variant: _variant, latencyMs: _latency, host, ...rest } = r;
  return canonical({ ...rest, accepted: host.accepted });
}

/** The one rule (src/lab/figures.ts): what the user gets first, then what it cost; the same when nothing at all differs. */
export function verdict(run: SweepRun, baseline: SweepRun): Verdict {
  if (figuresKey(run) === figuresKey(baseline)) return 'same';
  const judged = judge(run, baseline).verdict;
  return judged === 'same' ? 'different' : judged;
}

// ---------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------

function tsFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
    .sort();
}

/** The worker, bundled into the kit's cache (by content), so it starts the same from tsx, vitest or a launched bundle. */
export async function workerBundle(): Promise<string> {
  const entry = join(REPO, 'src', 'class', 'sweep-worker.ts');
  const hash = createHash('sha256');
  hash.update(`esbuild ${esbuildVersion}\n`);
  for (const file of [...tsFilesUnder(join(REPO, 'src')), join(REPO, 'package-lock.json')]) {
    if (!existsSync(file)) continue;
    hash.update(`${relative(REPO, file)}\n`);
    hash.update(readFileSync(file));
  }
  const outfile = join(CACHE_DIR, 'class', hash.digest('hex').slice(0, 20), 'sweep-worker.mjs');
  if (existsSync(outfile)) return outfile;
  mkdirSync(dirname(outfile), { recursive: true });
  const staged = `${outfile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await bundle(entry, staged, ['esbuild']);
  // Renamed into place only when complete: a half-written bundle is never taken from the cache.
  renameSync(staged, outfile);
  return outfile;
}

/** Runs the tasks on `jobs` worker threads, each with up to `perJob` runs in flight; results by task id. */
async function runPool(tasks: RunTask[], jobs: number, perJob: number, workerJs: string, onDone: (done: number) => void): Promise<Map<number, RunResult>> {
  const results = new Map<number, RunResult>();
  if (tasks.length === 0) return results;
  const workers: Worker[] = [];
  let next = 0;
  let settled = false;
  try {
    await new Promise<void>((resolvePool, rejectPool) => {
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        rejectPool(error);
      };
      const feed = (worker: Worker) => {
        if (next < tasks.length) worker.postMessage(tasks[next++]);
      };
      for (let j = 0; j < Math.min(jobs, tasks.length); j++) {
        const worker = new Worker(workerJs, { env: { ...process.env, SCHEMA_BREAKS_ROOT: REPO } });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if (settled) return;
          if ('error' in reply) return fail(new Error(`run ${describeTask(tasks[reply.id]!)} failed: ${reply.error}`));
          results.set(reply.id, reply.result);
          onDone(results.size);
          if (results.size === tasks.length) {
            settled = true;
            resolvePool();
          } else feed(worker);
        });
        worker.on('error', (error) => fail(error));
        worker.on('exit', (code) => {
          if (!settled) fail(new Error(`a sweep worker exited (code ${code}) before its runs were done`));
        });
        for (let k = 0; k < perJob; k++) feed(worker);
      }
    });
  } finally {
    // Every run closed its server before answering; what is left is idle threads.
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}

function describeTask(task: RunTask): string {
  return `${task.variant} (client ${task.client}, server ${task.server}, workload ${task.workload}${task.readOnly ? ', read-only' : ''})`;
}

export async function sweep(options: SweepOptions): Promise<{ report: SweepReport; timing: SweepTiming }> {
  const started = performance.now();
  const temperature = options.temperature ?? DEFAULT_KNOBS.temperature;
  const jobs = Math.max(1, options.jobs);
  const perJob = Math.max(1, options.perJob ?? defaultPerJob(jobs));
  const labs = sweepLabs().filter((lab) => !options.labs || options.labs.includes(lab.id));
  const clients = PROFILES.filter((p) => !options.clients || options.clients.includes(p.id));
  const servers = SERVER_BUILDS.filter((s) => !options.servers || options.servers.includes(s));

  // Every bundle first, and the worker's: built (or found in the cache) once, before any worker starts.
  const ids = [...new Set(labs.map((lab) => lab.id))];
  const [baselineJs, workerJs, ...labJs] = await Promise.all([
    buildServer([]),
    workerBundle(),
    ...ids.map(async (id) => ({
      id,
      // A lab that builds on another lab's break has that server for its baseline.
      base: baseOf(id) ? await buildServer(patchChain(id).base) : undefined,
      variant: await buildServer(patchChain(id).variant),
      solution: existsSync(solutionPatch(id)) ? await buildServer(patchChain(id).solution) : null,
    })),
  ]);
  const bundles = new Map(labJs.map((b) => [b.id, b]));
  const built = performance.now();

  const tasks: RunTask[] = [];
  const task = (variant: string, serverJs: string, client: string, server: ServerBuild, lab: SweepLab): number => {
    tasks.push({ id: tasks.length, variant, serverJs, client, server, seed: options.seed, calls: options.calls, temperature, workload: lab.workload, readOnly: lab.readOnly });
    return tasks.length - 1;
  };
  // One baseline per (client, server, workload, read-only), shared by the labs that use it.
  const baselineTasks = new Map<string, number>();
  const baselineTask = (client: string, server: ServerBuild, lab: SweepLab) => {
    const key = `${client} ${server} ${lab.workload} ${lab.readOnly}`;
    if (!baselineTasks.has(key)) baselineTasks.set(key, task(BASELINE, baselineJs, client, server, lab));
    return baselineTasks.get(key)!;
  };
  const cellTasks = labs.flatMap((lab) =>
    clients.flatMap((client) =>
      servers.map((server) => {
        const built = bundles.get(lab.id)!;
        return {
          lab,
          client: client.id,
          server,
          baseline: built.base ? task(baseOf(lab.id)!, built.base, client.id, server, lab) : baselineTask(client.id, server, lab),
          variant: task(lab.id, built.variant, client.id, server, lab),
          solution: built.solution === null ? null : task(`${lab.id}+solution`, built.solution, client.id, server, lab),
        };
      }),
    ),
  );

  const results = await runPool(tasks, jobs, perJob, workerJs, (done) => options.onProgress?.(done, tasks.length));
  const finished = performance.now();

  const cells: SweepCell[] = cellTasks.map((c) => {
    const baseline = toSweepRun(results.get(c.baseline)!);
    const variant = toSweepRun(results.get(c.variant)!);
    const solution = c.solution === null ? null : toSweepRun(results.get(c.solution)!);
    const solutionVerdict = solution ? verdict(solution, baseline) : null;
    return {
      lab: c.lab.id,
      workload: c.lab.workload,
      readOnly: c.lab.readOnly,
      client: c.client,
      server: c.server,
      runs: { baseline, variant, solution },
      verdict: {
        variant: verdict(variant, baseline),
        solution: solutionVerdict,
        solutionFallsShort: solutionVerdict === 'worse' || solutionVerdict === 'mixed',
      },
    };
  });

  const report: SweepReport = {
    format: SWEEP_FORMAT,
    version: SWEEP_FORMAT_VERSION,
    settings: { seed: options.seed, calls: options.calls, temperature },
    labs,
    clients: clients.map((p) => ({ id: p.id, title: p.title, asOf: p.asOf })),
    servers: [...servers],
    cells,
  };
  return {
    report,
    timing: { jobs: Math.min(jobs, tasks.length), perJob, runs: tasks.length, buildMs: built - started, runMs: finished - built, totalMs: performance.now() - started },
  };
}

// ---------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------

/** Labels in the legend's order: as the outcome table lists them, then the others by name. */
function labelOrder(labels: Iterable<string>): string[] {
  const known = Object.keys(OUTCOMES);
  const rank = (l: string) => (known.includes(l) ? known.indexOf(l) : known.length);
  return [...new Set(labels)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

const TEXT = {
  title: { en: 'schema-breaks: the whole course on one screen', es: 'schema-breaks: todo el curso en una pantalla' },
  intro: {
    en: 'Every lab × every client profile × every server build; seed {seed}, {calls} calls per run. Each cell: how the calls ended for the baseline, the break, and the break with its fix.',
    es: 'Cada laboratorio × cada perfil de cliente × cada compilación del servidor; semilla {seed}, {calls} llamadas por ejecución. Cada celda: cómo terminaron las llamadas en la línea base, con la avería y con la avería y su arreglo.',
  },
  lab: { en: 'lab', es: 'laboratorio' },
  server: { en: 'server build', es: 'compilación del servidor' },
  baseline: { en: 'base', es: 'base' },
  variant: { en: 'break', es: 'avería' },
  solution: { en: 'fix', es: 'arreglo' },
  baselineLong: { en: 'baseline', es: 'línea base' },
  variantLong: { en: 'the break', es: 'la avería' },
  solutionLong: { en: 'the break with its fix', es: 'la avería con su arreglo' },
  okShare: { en: 'ending ok', es: 'terminan en ok' },
  wrong: { en: 'silently wrong answers', es: 'respuestas erróneas en silencio' },
  retries: { en: 'retries', es: 'reintentos' },
  cleared: { en: 'fields cleared', es: 'campos borrados' },
  mutations: { en: 'changes let through read-only', es: 'cambios que pasan en solo lectura' },
  refusedLong: { en: 'the host refused the tool list', es: 'el host rechazó la lista de herramientas' },
  calls: { en: 'calls', es: 'llamadas' },
  factsRule: {
    en: '(break and fix: only where they differ from the base)',
    es: '(avería y arreglo: solo donde difieren de la base)',
  },
  ended: { en: '{total} calls ended: {parts}', es: '{total} llamadas terminaron: {parts}' },
  legend: { en: 'Legend', es: 'Leyenda' },
  legendBar: {
    en: 'Bar: the calls of a run by how they ended (after retries), client-rejected when the host refused the tool list; %: calls ending ok.',
    es: 'Barra: las llamadas de una ejecución según cómo terminaron (tras reintentos), client-rejected si el host rechazó la lista de herramientas; %: llamadas que terminan en ok.',
  },
  legendTint: { en: 'The break, against the baseline:', es: 'La avería, frente a la base:' },
  'v-same': { en: 'no effect', es: 'sin efecto' },
  'v-worse': { en: 'worse', es: 'peor' },
  'v-costly': { en: 'same answers, more retries', es: 'mismas respuestas, más reintentos' },
  'v-better': { en: 'better', es: 'mejor' },
  'v-mixed': { en: 'better and worse', es: 'mejor y peor' },
  'v-different': { en: 'other errors', es: 'otros errores' },
  'cell-v-same': { en: 'The break has no effect here.', es: 'La avería no tiene efecto aquí.' },
  'cell-v-worse': { en: 'The break makes it worse.', es: 'La avería lo empeora.' },
  'cell-v-costly': { en: 'The break costs retries; the answers end the same.', es: 'La avería cuesta reintentos; las respuestas acaban igual.' },
  'cell-v-better': { en: 'The break makes it better.', es: 'La avería lo mejora.' },
  'cell-v-mixed': { en: 'The break makes it better and worse.', es: 'La avería lo mejora y lo empeora.' },
  'cell-v-different': { en: 'The break gives other errors.', es: 'La avería da otros errores.' },
  'cell-s-same': { en: 'The fix returns to the baseline.', es: 'El arreglo vuelve a la base.' },
  'cell-s-better': { en: 'The fix beats the baseline.', es: 'El arreglo supera la base.' },
  'cell-s-different': { en: 'The fix gives other errors than the baseline.', es: 'El arreglo da otros errores que la base.' },
  'cell-s-short': { en: 'The fix falls short of the baseline.', es: 'El arreglo no llega a la base.' },
  short: { en: 'falls short', es: 'no basta' },
  legendShort: {
    en: 'Red frame and ⚠: with the fix applied, a figure is still worse than the baseline.',
    es: 'Marco rojo y ⚠: con el arreglo aplicado, alguna cifra sigue peor que en la base.',
  },
  findings: { en: 'Where the fix falls short', es: 'Donde el arreglo no basta' },
  noFindings: { en: 'Every fix returns to the baseline or beats it.', es: 'Cada arreglo vuelve a la base o la supera.' },
  hostSaid: { en: 'the host said', es: 'el host dijo' },
  summary: {
    en: 'The break changes the figures in {differ} of {cells} cells; the fix falls short in {short}.',
    es: 'La avería cambia las cifras en {differ} de {cells} celdas; el arreglo no basta en {short}.',
  },
  timing: {
    en: '{runs} runs in {seconds} s with {jobs} worker(s).',
    es: '{runs} ejecuciones en {seconds} s con {jobs} hilo(s) de trabajo.',
  },
  errorsRule: {
    en: '2025-06-18: invalid arguments are JSON-RPC -32602, a crash inside the tool -32603; 2025-11-25 (SEP-1303): both are isError results.',
    es: '2025-06-18: argumentos inválidos son JSON-RPC -32602, un fallo dentro de la herramienta -32603; 2025-11-25 (SEP-1303): ambos son resultados isError.',
  },
  'workload-conjugate': { en: 'conjugations', es: 'conjugaciones' },
  'workload-profile': { en: 'profile edits', es: 'ediciones de perfil' },
  'workload-lessons': { en: 'lesson requests', es: 'peticiones de lecciones' },
  readOnly: { en: 'read-only', es: 'solo lectura' },
} satisfies Record<string, Record<Lang, string>>;

type TextKey = keyof typeof TEXT;

const tr = translator<TextKey>(TEXT);

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The facts a cell shows beside a bar, each a symbol on the projector and words for a screen reader. */
const FACTS: { symbol: string; words: TextKey; cls: string; value: (r: SweepRun) => number }[] = [
  { symbol: '✗', words: 'wrong', cls: 'wrong', value: (r) => r.silentWrong },
  { symbol: '∅', words: 'cleared', cls: 'wrong', value: (r) => r.fieldsCleared },
  { symbol: '✎', words: 'mutations', cls: 'wrong', value: (r) => r.mutationsThroughReadOnly },
  { symbol: '↻', words: 'retries', cls: 'retry', value: (r) => r.retries.total },
];

/** The page's reading of a verdict: a worse break whose answers end the same, only with more retries, is told apart. */
type Shade = Verdict | 'costly';

function shade(cell: SweepCell): Shade {
  const { variant, baseline } = cell.runs;
  if (cell.verdict.variant !== 'worse') return cell.verdict.variant;
  const sameEnd = FACTS.filter((f) => f.words !== 'retries').every((f) => f.value(variant) === f.value(baseline)) &&
    canonical(variant.finalOutcomes) === canonical(baseline.finalOutcomes) && variant.accuracy.correct === baseline.accuracy.correct;
  return sameEnd ? 'costly' : 'worse';
}

const SHADES: Shade[] = ['worse', 'costly', 'mixed', 'different', 'better', 'same'];

const TINTS: Record<Shade, string> = {
  worse: '#f9d3d3',
  costly: '#fcebea',
  mixed: '#fde9b0',
  different: '#fdf1cf',
  better: '#d5efdb',
  same: '#eceef1',
};

/** A stacked bar of how the calls of a run ended, with its title and description. */
function outcomeBar(run: SweepRun, caption: string, lang: Lang, id: string, width = 96, height = 16): string {
  const counts = run.finalOutcomes;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = labelOrder(Object.keys(counts)).map((label) => ({ label, n: counts[label]! }));
  let x = 0;
  const rects = parts
    .map((p) => {
      const w = total === 0 ? 0 : (p.n / total) * width;
      const rect = `<rect x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="${height}" fill="${outcomeColour(p.label)}"/>`;
      x += w;
      return rect;
    })
    .join('');
  const desc = tr('ended', lang, { total, parts: parts.map((p) => `${p.label} ${p.n}`).join(', ') }) + (run.host.accepted ? '' : `; ${tr('refusedLong', lang)}`);
  // Stretched by CSS to what the cell leaves (the same in every cell: the columns are equal), never distorted: it holds rectangles only.
  return (
    `<svg class="bar" role="img" aria-labelledby="${id}t ${id}d" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none">` +
    `<title id="${id}t">${esc(caption)}</title><desc id="${id}d">${esc(desc)}</desc>` +
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>${rects}` +
    `<rect x="0" y="0" width="${width}" height="${height}" fill="none" stroke="#444" stroke-width="2" vector-effect="non-scaling-stroke"/></svg>`
  );
}

/**
 * One run of a cell: its bar, its share ending ok, and its facts. The
 * baseline shows every fact that is not zero; the break and the fix only
 * those that differ from the baseline (a cell is narrow, and the difference
 * is the finding).
 */
function runLine(run: SweepRun, kind: 'baseline' | 'variant' | 'solution', lang: Lang, where: string, id: string, baseline: SweepRun, short = false): string {
  const caption = `${tr(`${kind}Long`, lang)}, ${where}`;
  const facts: string[] = [];
  for (const f of FACTS) {
    const n = f.value(run);
    if (kind === 'baseline' ? n > 0 : n !== f.value(baseline)) facts.push(`<span class="${f.cls}"><span aria-hidden="true">${f.symbol}${n}</span><span class="sr">${n} ${esc(tr(f.words, lang))}</span></span>`);
  }
  // The run's name for a screen reader (sighted readers have the row's key column); a fix that falls short is marked here too.
  const mark = short ? '<span class="warn" aria-hidden="true">⚠</span>' : '';
  return (
    `<div class="run run-${kind}"><span class="sr">${esc(tr(`${kind}Long`, lang))}: </span>${outcomeBar(run, caption, lang, id)}` +
    `<span class="pct">${mark}${pct(okShare(run))}<span class="sr"> ${esc(tr('okShare', lang))}</span></span><span class="facts">${facts.join(' ')}</span></div>`
  );
}

function cellHtml(cell: SweepCell, lang: Lang, id: string): string {
  const where = `${cell.lab}, ${cell.client}, ${cell.server}`;
  const look = shade(cell);
  const classes = ['cell', `v-${look}`];
  const short = cell.verdict.solutionFallsShort;
  if (short) classes.push('short');
  const base = cell.runs.baseline;
  const lines = [runLine(base, 'baseline', lang, where, `${id}b`, base), runLine(cell.runs.variant, 'variant', lang, where, `${id}v`, base)];
  if (cell.runs.solution) lines.push(runLine(cell.runs.solution, 'solution', lang, where, `${id}s`, base, short));
  const said = [tr(`cell-v-${look}`, lang)];
  const s = cell.verdict.solution;
  if (s !== null) said.push(tr(short ? 'cell-s-short' : s === 'better' ? 'cell-s-better' : s === 'different' ? 'cell-s-different' : 'cell-s-same', lang));
  if (!cell.runs.variant.host.accepted) said.push(`${tr('variantLong', lang)}: ${tr('refusedLong', lang)}.`);
  if (cell.runs.solution && !cell.runs.solution.host.accepted) said.push(`${tr('solutionLong', lang)}: ${tr('refusedLong', lang)}.`);
  return `<td class="${classes.join(' ')}">${lines.join('')}<span class="sr">${esc(said.join(' '))}</span></td>`;
}

/** Every line of a cell is this tall, and so is every line of the row's key: they line up. */
const LINE = 24;

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 10px 14px 20px; font: 16px/1.25 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #111; background: #fff; }
header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 24px; }
h1 { font-size: 26px; margin: 0; }
h2 { font-size: 21px; margin: 16px 0 6px; }
p { margin: 2px 0; }
.sr { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.summary { font-size: 19px; font-weight: 700; }
.intro { font-size: 15px; color: #222; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 14px; align-items: center; margin: 3px 0; font-size: 15px; }
.legend strong { font-weight: 600; }
.swatch { display: inline-block; width: 18px; height: 14px; border: 1px solid #444; vertical-align: -2px; margin-right: 5px; }
table.grid { border-collapse: separate; border-spacing: 3px; width: 100%; table-layout: fixed; margin-top: 4px; }
.grid thead { position: sticky; top: 0; z-index: 1; background: #fff; }
.grid th { background: #20242c; color: #fff; padding: 3px 5px; text-align: center; vertical-align: top; font-size: 17px; border-radius: 4px; }
.grid th .sub { display: block; font-weight: 400; font-size: 12px; color: #d6dbe4; line-height: 1.15; margin-top: 1px; }
.grid th.server { background: #3a4050; font-size: 13px; font-weight: 600; font-variant-numeric: tabular-nums; padding: 1px 2px; }
.grid th.labname { width: 132px; font-size: 14.5px; line-height: 1.15; text-align: left; padding: 3px 4px; }
.grid th.labname .sub { font-size: 11.5px; }
.grid th.labname code { font-size: 11.5px; color: #d6dbe4; font-weight: 400; overflow-wrap: anywhere; }
.grid th.key { width: var(--key-width, 42px); background: #3a4050; font-size: 13px; font-weight: 400; text-align: right; padding: 5px 4px 3px; }
.grid th.key span { display: block; height: ${LINE}px; line-height: ${LINE}px; }
.grid th.key .k-variant { font-weight: 700; }
td.cell { border: 3px solid transparent; border-radius: 5px; padding: 2px 1px 2px 2px; vertical-align: top; }
${SHADES.map((s) => `td.v-${s}, .tint-${s} { background: ${TINTS[s]}; }`).join('\n')}
td.short { border-color: #b00020; }
.run { display: flex; align-items: center; column-gap: 3px; white-space: nowrap; height: ${LINE}px; }
svg.bar { flex: 0 0 30%; display: block; height: 14px; }
.pct { flex: 0 0 2.45em; font-size: 14.5px; font-weight: 700; font-variant-numeric: tabular-nums; text-align: right; }
.run-variant .pct { color: #000; }
.facts { flex: 1 1 auto; min-width: 0; max-height: ${LINE}px; overflow: hidden; white-space: normal; font-size: 12px; line-height: 12px; font-variant-numeric: tabular-nums; letter-spacing: -0.2px; }
.facts > span { white-space: nowrap; }
.warn { color: #b00020; font-weight: 700; margin-right: 1px; }
.wrong { color: #9a0000; font-weight: 700; }
.retry { color: #333; }
.refused { color: #1565c0; font-weight: 700; }
@media (max-width: 1500px) {
  body { font-size: 14px; padding: 6px 6px 14px; }
  .grid th { font-size: 14px; padding: 2px 3px; }
  .grid th.labname { width: 100px; font-size: 13px; }
  .grid th.key { font-size: 11px; }
  svg.bar { flex-basis: 26%; }
  .grid th.server { font-size: 11px; }
  .pct { font-size: 12.5px; }
  .facts { font-size: 10.5px; }
}
ul.findings { margin: 3px 0; padding-left: 22px; }
ul.findings li { margin: 3px 0; }
code, .rejection { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 14px; }
.rejection { background: #f3f3f3; padding: 0 3px; white-space: pre-wrap; }
footer { margin-top: 12px; font-size: 14px; color: #444; }
`;

function labSettings(lab: SweepLab, lang: Lang): string {
  const bits = [tr(`workload-${lab.workload}`, lang), ...(lab.readOnly ? [tr('readOnly', lang)] : [])];
  return bits.join(' · ');
}

export function renderPage(report: SweepReport, lang: Lang, timing?: SweepTiming): string {
  const cellAt = (lab: SweepLab, client: string, server: string) =>
    report.cells.find((c) => c.lab === lab.id && c.workload === lab.workload && c.readOnly === lab.readOnly && c.client === client && c.server === server);
  const { seed, calls } = report.settings;
  const header =
    `<tr><th scope="col" rowspan="2" class="labname">${esc(tr('lab', lang))}</th><th scope="col" rowspan="2" class="key"></th>` +
    report.clients.map((c) => `<th scope="colgroup" colspan="${report.servers.length}" title="${esc(c.title)}">${esc(c.id)}<span class="sub">${esc(c.asOf)}</span></th>`).join('') +
    '</tr>\n<tr>' +
    report.clients.map((c) => report.servers.map((server) => `<th scope="col" class="server"><span class="sr">${esc(c.id)}, ${esc(tr('server', lang))} </span>${esc(server)}</th>`).join('')).join('') +
    '</tr>';
  const key = (['baseline', 'variant', 'solution'] as const).map((k) => `<span class="k-${k}">${esc(tr(k, lang))}</span>`).join('');
  // Wide enough for the longest run name in this language (bold, 13px).
  const keyWidth = Math.ceil(12 + 8.6 * Math.max(...(['baseline', 'variant', 'solution'] as const).map((k) => tr(k, lang).length)));
  let n = 0;
  const body = report.labs
    .map((lab) => {
      const cells = report.clients.flatMap((c) =>
        report.servers.map((server) => {
          const cell = cellAt(lab, c.id, server);
          return cell ? cellHtml(cell, lang, `c${++n}`) : '<td class="cell"></td>';
        }),
      );
      const labCell = `<th scope="row" class="labname">${esc(lab.title[lang])}<br><code>${esc(lab.id)}</code><span class="sub">${esc(labSettings(lab, lang))}</span></th>`;
      return `<tr>${labCell}<th class="key" aria-hidden="true">${key}</th>${cells.join('')}</tr>`;
    })
    .join('\n');

  const runs = report.cells.flatMap((c) => [c.runs.baseline, c.runs.variant, ...(c.runs.solution ? [c.runs.solution] : [])]);
  const labels = labelOrder(runs.flatMap((r) => Object.keys(r.finalOutcomes)));
  const swatches = labels.map((l) => `<span><span class="swatch" style="background:${outcomeColour(l)}" aria-hidden="true"></span>${esc(l)}</span>`).join('');
  const shades = SHADES.filter((s) => report.cells.some((c) => shade(c) === s));
  const tints = shades.map((s) => `<span><span class="swatch tint-${s}" aria-hidden="true"></span>${esc(tr(`v-${s}`, lang))}</span>`).join('');
  const facts = FACTS.filter((f) => runs.some((r) => f.value(r) > 0)).map((f) => `<span><span aria-hidden="true">${f.symbol} N: </span>${esc(tr(f.words, lang))}</span>`);
  if (facts.length > 0) facts.push(`<span>${esc(tr('factsRule', lang))}</span>`);

  const short = report.cells.filter((c) => c.verdict.solutionFallsShort);
  const differ = report.cells.filter((c) => c.verdict.variant !== 'same').length;
  const title = (id: string) => report.labs.find((l) => l.id === id)?.title[lang] ?? id;
  const findings =
    short.length === 0
      ? `<p>${esc(tr('noFindings', lang))}</p>`
      : `<ul class="findings">${short
          .map((c) => {
            const s = c.runs.solution!;
            const b = c.runs.baseline;
            const bits = [`ok ${pct(okShare(b))} → ${pct(okShare(s))}`];
            for (const f of FACTS) if (f.value(s) !== f.value(b)) bits.push(`${tr(f.words, lang)} ${f.value(b)} → ${f.value(s)}`);
            const said = s.host.accepted ? '' : `; ${esc(tr('hostSaid', lang))}: <span class="rejection">${esc(s.host.rejection)}</span>`;
            return `<li><strong>${esc(title(c.lab))}</strong> (<code>${esc(c.lab)}</code>), ${esc(c.client)}, ${esc(c.server)}: ${esc(bits.join(', '))}${said}</li>`;
          })
          .join('')}</ul>`;
  const timingLine = timing ? `${esc(tr('timing', lang, { runs: timing.runs, seconds: (timing.totalMs / 1000).toFixed(1), jobs: timing.jobs }))} · ` : '';

  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(tr('title', lang))}</title>
<style>${CSS}
:root { --key-width: ${keyWidth}px; }</style>
</head>
<body>
<header><h1>${esc(tr('title', lang))}</h1><p class="summary">${esc(tr('summary', lang, { differ, short: short.length, cells: report.cells.length }))}</p></header>
<p class="intro">${esc(tr('intro', lang, { seed, calls }))} ${esc(tr('errorsRule', lang))}</p>
<section aria-label="${esc(tr('legend', lang))}">
<div class="legend">${swatches}<span>${esc(tr('legendBar', lang))}</span></div>
<div class="legend"><strong>${esc(tr('legendTint', lang))}</strong>${tints}<span>${esc(tr('legendShort', lang))}</span></div>
<div class="legend">${facts.join('')}</div>
</section>
<table class="grid">
<caption class="sr">${esc(tr('title', lang))}</caption>
<thead>${header}</thead>
<tbody>
${body}
</tbody>
</table>
<h2>${esc(tr('findings', lang))}</h2>
${findings}
<footer>${timingLine}format ${SWEEP_FORMAT} ${SWEEP_FORMAT_VERSION} · seed ${seed} · ${calls} ${esc(tr('calls', lang))} · temperature ${report.settings.temperature}</footer>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------

export const SWEEP_USAGE = `Usage: npm run class -- sweep [options]

Every lab x every client profile (${PROFILE_IDS.join(', ')}) x every server build (${SERVER_BUILDS.join(', ')}),
each with its solution, on one page: the whole course's findings on one screen.

  --seed N        seed of the workload and the model (default 1)
  --calls N       workload size of each run (default 100); the eval of 30 always runs
  --out FILE      where to write the page (default sweep.html)
  --json          print the data as one JSON document (format ${SWEEP_FORMAT} ${SWEEP_FORMAT_VERSION}) and nothing else;
                  the page is written too when --out is given
  --lang en|es    language of the page (default: from the locale)
  --jobs N        worker threads running the labs in parallel (default: the machine's cores); they keep
                  twice as many runs in flight in all as there are cores, each run its own server process`;

class UsageError extends Error {}

interface SweepCommand {
  seed: number;
  calls: number;
  out?: string;
  json: boolean;
  lang: Lang;
  jobs: number;
}

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} takes a whole number of at least ${min} (got ${value})`);
  return Number(value);
}

export function parseSweepArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): SweepCommand | 'help' {
  // Tolerate the subcommand's own name in front, whoever routes to us.
  const args = argv[0] === 'sweep' ? argv.slice(1) : argv;
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        seed: { type: 'string' },
        calls: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        lang: { type: 'string' },
        jobs: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (values.help) return 'help';
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) throw new UsageError(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  if (values.out === '') throw new UsageError('--out needs a file name');
  return {
    seed: wholeNumber('seed', values.seed, 1, 0),
    calls: wholeNumber('calls', values.calls, 100, 1),
    out: values.out,
    json: values.json!,
    lang: (values.lang as Lang | undefined) ?? detectLang(env),
    jobs: wholeNumber('jobs', values.jobs, availableParallelism(), 1),
  };
}

/** What `--json` prints: the report, keys in a stable order. */
export function sweepJson(report: SweepReport): string {
  return JSON.stringify(report, null, 2);
}

export async function runSweepCommand(argv: string[]): Promise<number> {
  let command: SweepCommand | 'help';
  try {
    command = parseSweepArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sweep: ${error.message}\n(npm run class -- sweep --help for the options)\n`);
      return 2;
    }
    throw error;
  }
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
      onProgress: tty ? (done, total) => process.stderr.write(`\rsweep: ${done}/${total} runs`) : undefined,
    });
  } catch (error) {
    if (tty) process.stderr.write('\n');
    if (error instanceof BuildError) {
      process.stderr.write(`sweep: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (tty) process.stderr.write('\r\u001b[K');
  const { report, timing } = result;
  // Relative to where the command was typed: npm run moves to the package folder and keeps the original in INIT_CWD.
  const named = command.out ?? (json ? undefined : 'sweep.html');
  const out = named === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), named);
  if (out !== undefined) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, renderPage(report, lang, timing));
  }
  if (json) process.stdout.write(`${sweepJson(report)}\n`);
  const short = report.cells.filter((c) => c.verdict.solutionFallsShort);
  say(
    `sweep: ${new Set(report.labs.map((l) => l.id)).size} labs (${report.labs.length} rows) x ${report.clients.length} clients x ${report.servers.length} servers = ${report.cells.length} cells, ` +
      `${timing.runs} runs in ${(timing.totalMs / 1000).toFixed(1)} s (build ${(timing.buildMs / 1000).toFixed(1)} s, runs ${(timing.runMs / 1000).toFixed(1)} s) ` +
      `with ${timing.jobs} job(s) x ${timing.perJob} runs in flight`,
  );
  if (!json) {
    say(`the break changes the figures in ${report.cells.filter((c) => c.verdict.variant !== 'same').length} of ${report.cells.length} cells; the fix falls short in ${short.length}`);
    for (const c of short) say(`  fix falls short: ${c.lab}, ${c.client}, ${c.server}: ok ${pct(okShare(c.runs.baseline))} -> ${pct(okShare(c.runs.solution!))}`);
  }
  if (out !== undefined) say(`page: ${out}`);
  return 0;
}
