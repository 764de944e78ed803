/**
 * Running the sweep: every server bundle first, then the runs on worker
 * threads (src/class/sweep-worker.ts), the baseline of a (client, server,
 * workload, read-only) shared by the labs that use it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { bundleWithHosts, cacheDir, cached, installedHosts, sourcesKey } from '../core/bundler.mjs';
import { SERVER_BUILDS, type ServerBuild } from '../minimcp/errors.js';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { REPO } from '../lab/paths.js';
import { PROFILES } from '../lab/profiles/index.js';
import type { RunResult } from '../lab/runner.js';
import { sharesServer } from '../lab/server-pool.js';
import { baselineName, BuildError, buildServers, bundleDigest, patchChain, solutionPatch } from '../lab/variants.js';
import { runInputs, runKey, sha256, type CachedRun, type RunCache, type RunInputs } from './sweep-cache.js';
import { newWorkerState, Schedule, type WorkerState } from './sweep-schedule.js';
import type { RunTask, WorkerReply, WorkerStopped } from './sweep-worker.js';
import { addWork, cellVerdict, defaultPerJob, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, sweepLabs, toSweepRun, type SweepCell, type SweepLab, type SweepOptions, type SweepReport, type SweepTiming } from './sweep-model.js';
import { UserError } from '../core/user-error.js';

// ---------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------

/** The worker, bundled into the kit's cache (by content), so it starts the same from tsx, vitest or a launched bundle. */
export async function workerBundle(): Promise<string> {
  const key = sourcesKey(REPO, { dirs: ['src'], endings: ['.ts', '.mjs', '.json'], files: ['package.json', 'package-lock.json', 'hosts/package-lock.json'], extra: [installedHosts(REPO)] });
  // The host frameworks come from their own bundle (src/core/bundler.mjs): a worker whose runs are on the kit's own
  // profiles never loads them, and an edit of the kit does not bundle them again.
  const built = await cached(REPO, 'class', key, 'sweep-worker.mjs', (staged) =>
    bundleWithHosts(REPO, join(REPO, 'src', 'class', 'sweep-worker.ts'), staged, join(cacheDir(REPO), 'class', key), ['esbuild']),
  );
  return built.path;
}

/** The runner's code by content: the worker bundle's bytes, hashed once a process (a bundle never changes: its folder is named by its sources). */
function workerDigest(workerJs: string): string {
  let digest = workerDigests.get(workerJs);
  if (digest === undefined) {
    digest = sha256(readFileSync(workerJs));
    workerDigests.set(workerJs, digest);
  }
  return digest;
}
const workerDigests = new Map<string, string>();

/**
 * One run per server bundle, byte for byte, and settings: a fix that puts
 * back the very sources of the baseline (or of another lab's server) builds
 * the same bytes (src/lab/variants.ts names files relative to the copy), and a
 * run is decided by its server's bytes and its settings, its label aside (the
 * runner reads no label, src/lab/runner.ts). Returns the runs to make and, for
 * every planned run, which of them measures it.
 */
export function sameServerOnce(planned: RunTask[]): { tasks: RunTask[]; measuredBy: Map<number, number> } {
  const first = new Map<string, number>();
  const tasks: RunTask[] = [];
  const measuredBy = new Map<number, number>();
  for (const task of planned) {
    // The label is not a setting: the runner reads none.
    const { id, variant: _label, serverJs, ...settings } = task;
    const key = JSON.stringify([bundleDigest(serverJs), settings]);
    const known = first.get(key);
    if (known === undefined) {
      first.set(key, id);
      tasks.push(task);
    }
    measuredBy.set(id, known ?? id);
  }
  return { tasks, measuredBy };
}

/**
 * The server process a run may be lent, undefined when it starts its own. The
 * pool (src/lab/server-pool.ts) keys its processes by command and timeout;
 * in a sweep the command follows from these three, and every run has the
 * same timeout (DEFAULT_KNOBS).
 */
function sharedServerOf(task: RunTask): string | undefined {
  return task.shareServers && sharesServer(task.workload) ? JSON.stringify([task.serverJs, task.server, task.readOnly]) : undefined;
}

/** Runs the tasks on `jobs` worker threads, each with up to `perJob` runs in flight; results by task id. */
async function runPool(
  tasks: RunTask[],
  jobs: number,
  perJob: number,
  workerJs: string,
  onDone: (done: number, id: number, run: { result: RunResult; roundTrips: number }) => void,
  counts: Pick<SweepTiming, 'servers' | 'roundTrips' | 'byClient'>,
): Promise<Map<number, RunResult>> {
  const results = new Map<number, RunResult>();
  if (tasks.length === 0) return results;
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const schedule = new Schedule(tasks.map((t) => ({ id: t.id, sharedServer: sharedServerOf(t) })));
  const workers: Worker[] = [];
  let settled = false;
  try {
    await new Promise<void>((resolvePool, rejectPool) => {
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        rejectPool(error);
      };
      const feed = (worker: Worker, state: WorkerState) => {
        const next = schedule.take(state);
        if (next) worker.postMessage(byId.get(next.id)!);
      };
      for (let j = 0; j < Math.min(jobs, tasks.length); j++) {
        const worker = new Worker(workerJs, { env: { ...process.env, SCHEMA_BREAKS_ROOT: REPO } });
        const state = newWorkerState();
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if (settled) return;
          if ('error' in reply) return fail(reply.userError ? new UserError(reply.error) : new Error(`run ${describeTask(byId.get(reply.id)!)} failed: ${reply.error}`));
          schedule.done(state, reply.id);
          results.set(reply.id, reply.result);
          counts.roundTrips += reply.roundTrips;
          addWork(counts.byClient, byId.get(reply.id)!.client, byId.get(reply.id)!.workload, reply.work);
          onDone(results.size, reply.id, { result: reply.result, roundTrips: reply.roundTrips });
          if (results.size === tasks.length) {
            settled = true;
            resolvePool();
          } else feed(worker, state);
        });
        worker.on('error', (error) => fail(error));
        worker.on('exit', (code) => {
          if (!settled) fail(new Error(`a sweep worker exited (code ${code}) before its runs were done`));
        });
        for (let k = 0; k < perJob; k++) feed(worker, state);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => stopWorker(w, counts.servers)));
  }
  return results;
}

/**
 * A worker keeps the servers it lends from run to run: told to stop, it stops
 * them and ends. One that does not end within a few seconds is terminated
 * (its servers then end with this process, when their stdin closes).
 */
async function stopWorker(worker: Worker, servers: SweepTiming['servers']): Promise<void> {
  if (worker.threadId === -1) return;
  worker.removeAllListeners('message');
  worker.on('message', (reply: WorkerStopped) => {
    if (!('stopped' in reply)) return;
    servers.started += reply.stopped.started;
    servers.reused += reply.stopped.reused;
  });
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('stop');
  const late = setTimeout(() => void worker.terminate(), 5000);
  await ended;
  clearTimeout(late);
}

function describeTask(task: RunTask): string {
  return `${task.variant} (client ${task.client}, server ${task.server}, workload ${task.workload}${task.readOnly ? ', read-only' : ''})`;
}

/** One run the sweep makes, before its server is built: the patches its server is built from. */
export type PlannedRun = Omit<RunTask, 'serverJs'> & { patches: string[] };

/** A cell of the sweep and the runs (by id) it is made of. */
export interface PlannedCell {
  lab: SweepLab;
  client: string;
  server: ServerBuild;
  baseline: number;
  variant: number;
  solution: number | null;
}

/**
 * What a sweep will run, without building or running anything: the rows,
 * clients and server builds asked for, every cell, and the runs, one per
 * (server sources, client, server build, workload, read-only), shared by
 * every cell that needs it: a baseline by the labs that use it, and a
 * chained lab's baseline by the lab whose break it is.
 */
export function planSweep(options: SweepOptions): { labs: SweepLab[]; clients: typeof PROFILES; servers: ServerBuild[]; cells: PlannedCell[]; runs: PlannedRun[] } {
  const temperature = options.temperature ?? DEFAULT_KNOBS.temperature;
  const labs = sweepLabs().filter((lab) => !options.labs || options.labs.includes(lab.id));
  const clients = PROFILES.filter((p) => !options.clients || options.clients.includes(p.id));
  const servers = SERVER_BUILDS.filter((s) => !options.servers || options.servers.includes(s));
  const runs: PlannedRun[] = [];
  const runIds = new Map<string, number>();
  const planned = (variant: string, patches: string[], client: string, server: ServerBuild, lab: SweepLab): number => {
    const key = JSON.stringify([patches, client, server, lab.workload, lab.readOnly]);
    const known = runIds.get(key);
    if (known !== undefined) return known;
    runs.push({ id: runs.length, variant, patches, client, server, seed: options.seed, calls: options.calls, temperature, workload: lab.workload, readOnly: lab.readOnly, shareServers: options.serverPerRun !== true });
    runIds.set(key, runs.length - 1);
    return runs.length - 1;
  };
  const cells = labs.flatMap((lab) => {
    // Read once a lab (the patches are files): a lab that builds on another lab's break has that server for its baseline.
    const chain = patchChain(lab.id);
    const base = baselineName(lab.id);
    const hasSolution = existsSync(solutionPatch(lab.id));
    return clients.flatMap((client) =>
      servers.map(
        (server): PlannedCell => ({
          lab,
          client: client.id,
          server,
          baseline: planned(base, chain.base, client.id, server, lab),
          variant: planned(lab.id, chain.variant, client.id, server, lab),
          solution: hasSolution ? planned(`${lab.id}+solution`, chain.solution, client.id, server, lab) : null,
        }),
      ),
    );
  });
  return { labs, clients, servers, cells, runs };
}

/** What measuring a set of runs cost: for the sweep's timing line. */
export type MeasureTiming = Omit<SweepTiming, 'totalMs' | 'cachedCells'>;

/**
 * Measures planned runs: every server bundle first (built or found in the
 * cache once, before any worker starts), each run whose server is byte for
 * byte another's with the same settings once, each run kept in `cache` under
 * the same inputs taken from there (src/class/sweep-cache.ts), the rest on
 * `jobs` worker threads, and kept there as each one ends. Returns a run's
 * figures by its planned id, each with its own label, and whether it came
 * from the cache. The sweep measures its cells with it; a test that needs
 * only some runs of the sweep (test/solutions-hold.test.ts: baselines and
 * solutions, over seeds) plans its own and measures them the same way.
 */
export async function measureRuns(
  runs: PlannedRun[],
  options: { jobs: number; perJob?: number; onProgress?: (done: number, total: number) => void; cache?: RunCache },
): Promise<{ result: (id: number) => RunResult; fromCache: (id: number) => boolean; timing: MeasureTiming }> {
  const started = performance.now();
  const jobs = Math.max(1, options.jobs);
  const perJob = Math.max(1, options.perJob ?? defaultPerJob(jobs));
  const sources = [...new Set(runs.map((r) => JSON.stringify(r.patches)))];
  const [workerJs, built] = await Promise.all([workerBundle(), buildServers(sources.map((patches) => JSON.parse(patches) as string[]))]);
  const bundleOf = new Map(sources.map((patches, i) => [patches, built[i]!]));
  const planned = new Map<number, RunTask>(runs.map(({ patches, ...run }) => [run.id, { ...run, serverJs: bundleOf.get(JSON.stringify(patches))! }]));
  const { tasks, measuredBy } = sameServerOnce([...planned.values()]);

  // Each run's key, and the runs kept under theirs: those are not measured again.
  const { cache } = options;
  const runner = cache ? workerDigest(workerJs) : '';
  const keys = new Map<number, { key: string; inputs: RunInputs }>();
  const kept = new Map<number, CachedRun>();
  for (const task of cache ? tasks : []) {
    const inputs = runInputs(task, runner);
    const key = runKey(inputs);
    keys.set(task.id, { key, inputs });
    const found = cache!.get(key);
    if (found) kept.set(task.id, found);
  }
  const toRun = tasks.filter((t) => !kept.has(t.id));
  const builtAt = performance.now();

  // Processes started for the runs, and runs served by a process an earlier run started (src/lab/server-pool.ts).
  const counts = { servers: { started: 0, reused: 0 }, roundTrips: 0, byClient: {} as SweepTiming['byClient'] };
  const measured = await runPool(
    toRun,
    jobs,
    perJob,
    workerJs,
    (done, id, run) => {
      // Kept as each run ends: a sweep stopped half-way keeps what it measured.
      if (cache) cache.put(keys.get(id)!.key, run, keys.get(id)!.inputs);
      options.onProgress?.(done, toRun.length);
    },
    counts,
  );
  for (const [id, run] of kept) measured.set(id, run.result);
  cache?.prune();
  const finished = performance.now();
  return {
    // A planned run that another measured for it keeps its own label ('baseline', the break, '<id>+solution').
    result: (id) => ({ ...measured.get(measuredBy.get(id)!)!, variant: planned.get(id)!.variant }),
    fromCache: (id) => kept.has(measuredBy.get(id)!),
    timing: {
      jobs: Math.min(jobs, toRun.length),
      perJob,
      runs: toRun.length,
      cached: kept.size,
      // Runs with requests that change the server start a process of their own; the workers count the others'.
      servers: { started: counts.servers.started + toRun.filter((t) => !t.shareServers || !sharesServer(t.workload)).length, reused: counts.servers.reused },
      roundTrips: counts.roundTrips,
      byClient: counts.byClient,
      buildMs: builtAt - started,
      runMs: finished - builtAt,
    },
  };
}

export async function sweep(options: SweepOptions): Promise<{ report: SweepReport; timing: SweepTiming }> {
  const started = performance.now();
  const temperature = options.temperature ?? DEFAULT_KNOBS.temperature;
  const { labs, clients, servers, cells: cellTasks, runs } = planSweep(options);
  const { result, fromCache, timing } = await measureRuns(runs, {
    jobs: options.jobs,
    ...(options.perJob !== undefined ? { perJob: options.perJob } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  });

  const cells: SweepCell[] = cellTasks.map((c) => {
    const baseline = toSweepRun(result(c.baseline));
    const variant = toSweepRun(result(c.variant));
    const solution = c.solution === null ? null : toSweepRun(result(c.solution));
    const runs = { baseline, variant, solution };
    return { lab: c.lab.id, workload: c.lab.workload, readOnly: c.lab.readOnly, client: c.client, server: c.server, runs, verdict: cellVerdict(runs) };
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
  // A cell comes from the cache when every run it is made of does.
  const cachedCells = cellTasks.filter((c) => [c.baseline, c.variant, c.solution].every((id) => id === null || fromCache(id))).length;
  return { report, timing: { ...timing, cachedCells, totalMs: performance.now() - started } };
}
