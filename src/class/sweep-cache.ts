/**
 * The sweep's runs kept by content: an instructor runs `npm run class --
 * sweep` while preparing, edits one lab, and runs it again; only the runs
 * whose inputs changed are measured again.
 *
 * A run's figures are decided by (and only by) what its key hashes, because
 * runs are deterministic by seed (src/lab/runner.ts; latency aside):
 * - the runner's code: the bytes of the bundled sweep worker, which holds the
 *   runner, the agent loop, the stand-in model, every client profile and the
 *   host frameworks they run (src/class/sweep-worker.ts is bundled whole, so
 *   an edit that reaches none of these, say the page or the linter, changes
 *   no byte of it and re-runs nothing);
 * - the server: the bytes of the built server the run starts, and the
 *   contract document that travels beside it (src/lab/variants.ts buildServer);
 * - the settings: client profile, server build, seed, calls, workload,
 *   read-only;
 * - the model's knobs (src/lab/knobs.ts DEFAULT_KNOBS, the temperature set);
 * - the Node.js version that runs both.
 * What the key leaves out is the run's label ('baseline', the break,
 * '<id>+solution': the runner reads none) and whether the server process is
 * shared (`--server-per-run`: the same figures, sweep.ts says why).
 *
 * The entries are files under out/sweep-cache/ (out/ is ignored by git), one
 * a run, written by atomic rename: a sweep stopped half-way keeps the runs it
 * finished, and never leaves a half-written entry. A run taken from the folder
 * is marked used (its file's time), and each sweep ends by removing all but
 * the KEEP_RUNS used last: an edit of the runner's code changes every key, so
 * without it the folder would grow by a whole sweep (816 runs, 5.5 MB) each time.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { writeWhole } from '../core/write-whole.js';
import { join } from 'node:path';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { REPO } from '../lab/paths.js';
import type { RunResult } from '../lab/runner.js';
import { bundleDigest, contractOf } from '../lab/variants.js';
import type { RunTask } from './sweep-worker.js';

/** Where a sweep keeps its runs by default (git ignores out/). */
export const SWEEP_CACHE_DIR = join(REPO, 'out', 'sweep-cache');

/**
 * Runs kept: about five whole sweeps (a sweep of every lab, client and build is 816 runs), so that an instructor who
 * goes back and forth between a few versions of the labs measures none of them twice.
 */
export const KEEP_RUNS = 4000;

/** Changes when an entry's form changes, so that no entry of the old form is read. */
const ENTRY_FORMAT = 'schema-breaks/sweep-run 1';

/** Everything that decides a run's figures, each named (hashed into the run's key). */
export interface RunInputs {
  /** sha256 of the bundled sweep worker: runner, model, profiles, host frameworks. */
  runner: string;
  /** sha256 of the built server's bytes and of the contract beside it. */
  server: string;
  settings: Pick<RunTask, 'client' | 'server' | 'seed' | 'calls' | 'temperature' | 'workload' | 'readOnly'>;
  knobs: typeof DEFAULT_KNOBS;
  node: string;
}

/** What a cached run holds: its figures (per-call records dropped, as the worker drops them) and its round trips. */
export interface CachedRun {
  result: RunResult;
  roundTrips: number;
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The server a run starts, by content: its bytes (hashed once a process) and its contract document. */
export function serverDigest(serverJs: string): string {
  const contract = contractOf(serverJs);
  return sha256(`${bundleDigest(serverJs)}\n${existsSync(contract) ? sha256(readFileSync(contract)) : 'no contract'}`);
}

/** A run's inputs: the runner's digest is the caller's (the worker bundle it starts). */
export function runInputs(task: RunTask, runner: string): RunInputs {
  const { client, server, seed, calls, temperature, workload, readOnly } = task;
  return {
    runner,
    server: serverDigest(task.serverJs),
    settings: { client, server, seed, calls, temperature, workload, readOnly },
    knobs: { ...DEFAULT_KNOBS, temperature },
    node: process.version,
  };
}

/** The key of a run: its inputs, hashed in a fixed order (object keys sorted, so no refactor of the literals moves it). */
export function runKey(inputs: RunInputs): string {
  return sha256(`${ENTRY_FORMAT}\n${stableJson(inputs)}`);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A run's file marked used now (prune() keeps the runs used last); a folder that cannot be written still serves it. */
function markUsed(file: string): void {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // Read-only, or removed a moment ago by another sweep's prune: the run was read all the same.
  }
}

/** The runs kept in one folder, by key. */
export class RunCache {
  /** `fresh`: take nothing from the folder (every run is measured again), and keep what is measured there. */
  constructor(
    readonly dir: string = SWEEP_CACHE_DIR,
    readonly fresh = false,
  ) {}

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The run kept under `key`, or undefined (none, or one unreadable: it is measured again and rewritten). */
  get(key: string): CachedRun | undefined {
    const file = this.file(key);
    if (this.fresh || !existsSync(file)) return undefined;
    try {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as { format?: string; key?: string } & Partial<CachedRun>;
      if (entry.format !== ENTRY_FORMAT || entry.key !== key || entry.result === undefined || typeof entry.roundTrips !== 'number') return undefined;
      markUsed(file);
      return { result: entry.result, roundTrips: entry.roundTrips };
    } catch {
      return undefined;
    }
  }

  /** Keeps a finished run (an interrupted one is not kept: its figures are those of part of its requests). */
  put(key: string, run: CachedRun, inputs: RunInputs): void {
    if (run.result.interrupted) return;
    mkdirSync(this.dir, { recursive: true });
    // The inputs are kept beside the figures: to see why a run was (not) measured again.
    writeWhole(this.file(key), `${JSON.stringify({ format: ENTRY_FORMAT, key, inputs, ...run })}\n`);
  }

  /** Removes all but the `keep` runs used or written last (a sweep calls it once it has all its runs). */
  prune(keep = KEEP_RUNS): void {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((f) => f.endsWith('.json'));
    } catch {
      return; // No folder yet: nothing kept.
    }
    if (names.length <= keep) return;
    const used = names.flatMap((f) => {
      try {
        return [{ f, at: statSync(join(this.dir, f)).mtimeMs }];
      } catch {
        return []; // Removed meanwhile by another sweep's prune.
      }
    });
    used.sort((a, b) => b.at - a.at);
    for (const { f } of used.slice(keep)) rmSync(join(this.dir, f), { force: true });
  }
}
