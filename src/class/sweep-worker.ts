/**
 * A worker thread of the class sweep (src/class/sweep.ts): it takes runs from
 * the main thread, a few at a time, and answers each with its figures.
 *
 * One run is one server (already built: the main thread builds every
 * bundle first, so workers never race on a build), one client profile, one
 * server build, one workload and one seed, exactly as `runLab` runs it
 * (src/lab/runner.ts); a thread lends its server processes from run to run
 * where the requests change nothing on the server (src/lab/server-pool.ts). Runs
 * are deterministic by seed, so which worker runs what, and in which order,
 * does not change a figure (latency aside).
 *
 * This file is bundled by sweep.ts into the kit's cache and started with
 * worker_threads; it runs nothing when imported outside a worker.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { serverAttempts } from '../lab/metrics.js';
import { getProfile, type ClientProfile } from '../lab/profiles/index.js';
import { probedCall, run, type RunResult, type Workload } from '../lab/runner.js';
import { ServerPool } from '../lab/server-pool.js';
import type { ServerBuild } from '../minimcp/errors.js';
import { UserError } from '../core/user-error.js';

/** One run to make: what `run(variant, serverJs, settings)` needs, as plain data. */
/**
 * What one client profile did in the runs measured now: the work every run must do whatever the kit's runner
 * costs. The bench's floor (scripts/bench/sweep.ts) weighs each profile's own CPU by these counts.
 */
export interface ClientWork {
  runs: number;
  /** Tool lists the profile presented to the model (its `present`: once a run whose server answered tools/list). */
  presents: number;
  /** Calls' arguments the profile checked (its `validate`: every call the model wrote, sent or refused by the host). */
  checks: number;
  /** Tool calls that went to a server: the workload's and the eval's (`roundTrips` above), then the error probe's. */
  roundTrips: number;
  probeCalls: number;
  /** Of those calls (round trips and the probe's), the ones the server refused (an isError or a JSON-RPC error): its error costs it more than an answer. */
  refused: number;
}

export interface RunTask {
  id: number;
  /** 'baseline', the break's id, or '<id>+solution' (the label runLab gives). */
  variant: string;
  serverJs: string;
  client: string;
  server: ServerBuild;
  seed: number;
  calls: number;
  temperature: number;
  workload: Workload;
  readOnly: boolean;
  /** Lend server processes from run to run where the requests change nothing on the server (src/lab/server-pool.ts). */
  shareServers: boolean;
}

/** A run's figures, its round trips to the server (src/lab/metrics.ts serverAttempts) and its client's work, for the sweep's timing line. */
/** A run's figures, or its error: a person's to fix (`userError`: a host framework not installed) or the kit's (a stack). */
export type WorkerReply = { id: number; result: RunResult; roundTrips: number; work: ClientWork } | { id: number; error: string; userError?: boolean };
/** The last message of a thread told to stop: how many server processes it started for how many runs. */
export interface WorkerStopped {
  stopped: { started: number; reused: number };
}

/** This thread's servers, lent from run to run; closed when the main thread says stop. */
const pool = new ServerPool();

export async function runTask(task: RunTask): Promise<{ result: RunResult; roundTrips: number; work: ClientWork }> {
  const profile = getProfile(task.client);
  if (!profile) throw new Error(`unknown client profile ${task.client}`);
  // The profile's own work, counted where it is done (behaviour unchanged): the bench's floor weighs its CPU by it.
  let presents = 0;
  let checks = 0;
  const client: ClientProfile = {
    ...profile,
    present: (tools) => (presents++, profile.present(tools)),
    validate: (tool, args) => (checks++, profile.validate(tool, args)),
  };
  const result = await run(task.variant, task.serverJs, {
    client,
    server: task.server,
    seed: task.seed,
    calls: task.calls,
    knobs: { ...DEFAULT_KNOBS, temperature: task.temperature },
    workload: task.workload,
    readOnly: task.readOnly,
    ...(task.shareServers ? { pool } : {}),
  });
  const records = result.records ? [...result.records.workload, ...result.records.eval] : [];
  const sent = serverAttempts(records);
  const roundTrips = sent.length;
  // The probe works on the workload's records (runner.ts), one call per argument it leaves out.
  const probeCalls = probedCall(result.records?.workload ?? [])?.paths.length ?? 0;
  // The per-call records stay here: the sweep reads figures, and `--json` of a lab drops them too.
  delete result.records;
  // The probe's refusals are its `total` (runner.ts probeErrorMessages); a timeout or an exit (rare) counts as refused.
  const refused = sent.filter((a) => a.label !== 'ok').length + result.errorProbe.total;
  return { result, roundTrips, work: { runs: 1, presents, checks, roundTrips, probeCalls, refused } };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (task: RunTask | 'stop') => {
    if (task === 'stop') {
      // Every server this thread kept is stopped before the thread ends: none is left behind.
      void pool.close().finally(() => {
        port.postMessage({ stopped: { started: pool.started, reused: pool.reused } } satisfies WorkerStopped);
        port.close();
      });
      return;
    }
    runTask(task).then(
      ({ result, roundTrips, work }) => port.postMessage({ id: task.id, result, roundTrips, work } satisfies WorkerReply),
      (error: unknown) =>
        port.postMessage(
          (error instanceof UserError ? { id: task.id, error: error.message, userError: true } : { id: task.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }) satisfies WorkerReply,
        ),
    );
  });
}
