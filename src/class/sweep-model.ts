/**
 * The sweep's data: what a cell holds, which labs it runs with which
 * requests, and how a run compares with its baseline (src/lab/figures.ts's
 * one rule). No running and no page here: src/class/sweep-run.ts runs the
 * cells, src/class/sweep-page.ts draws them, src/class/sweep.ts is the command.
 */
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import type { ServerBuild } from '../minimcp/errors.js';
import { loadCatalogue } from '../learn/catalogue.js';
import { verdict as judge } from '../lab/figures.js';
import type { RunResult, Workload } from '../lab/runner.js';
import type { RunCache } from './sweep-cache.js';
import type { ClientWork } from './sweep-worker.js';

export type { ClientWork } from './sweep-worker.js';
import { breakPatch, listBreaks } from '../lab/variants.js';

export const SWEEP_FORMAT = 'schema-breaks/sweep';
/** Bump when a field changes meaning or goes away; adding a field does not. */
export const SWEEP_FORMAT_VERSION = 1;

/**
 * Runs in flight in all, whatever the number of workers: one per core. A run
 * is a ping-pong between its client (on a worker thread) and its server
 * process, one of the two working at a time, so a run in flight per core
 * keeps the cores busy, and more only add switching between them: on two
 * cores, two workers with two runs each spent 70 CPU-s on the sweep and
 * took 35-36 s, with one run each 61-63 CPU-s and 32-33 s.
 */
export function defaultPerJob(jobs: number, cores = availableParallelism()): number {
  return Math.max(1, Math.ceil(cores / Math.max(1, jobs)));
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
  /** Runs measured now. */
  runs: number;
  /** Runs taken from the cache (src/class/sweep-cache.ts), and cells every run of which was. */
  cached: number;
  cachedCells: number;
  /** Server processes started, and runs served by a process an earlier run started (src/lab/server-pool.ts). */
  servers: { started: number; reused: number };
  /** Tool calls that went to a server, workload and eval (the error probe's aside): what the sweep's time is mostly made of. */
  roundTrips: number;
  /** What each client profile did in the runs measured now, by profile id and workload: what the bench weighs its floor by (scripts/bench.ts). */
  byClient: Record<string, Partial<Record<Workload, ClientWork>>>;
  buildMs: number;
  runMs: number;
  totalMs: number;
}


export function addWork(into: SweepTiming['byClient'], client: string, workload: Workload, work: ClientWork): void {
  const sum = ((into[client] ??= {})[workload] ??= { runs: 0, presents: 0, checks: 0, roundTrips: 0, probeCalls: 0, refused: 0 });
  for (const k of Object.keys(sum) as (keyof ClientWork)[]) sum[k] += work[k];
}

export interface SweepOptions {
  seed: number;
  calls: number;
  temperature?: number;
  jobs: number;
  /** Runs in flight per worker (default: defaultPerJob(jobs)). */
  perJob?: number;
  /** A fresh server process for every run, even where one could serve several (default: shared; src/lab/server-pool.ts). */
  serverPerRun?: boolean;
  /** Subsets, for tests; default every lab, every profile, every server build. */
  labs?: string[];
  clients?: string[];
  servers?: ServerBuild[];
  onProgress?: (done: number, total: number) => void;
  /** Runs kept by content (src/class/sweep-cache.ts): those found there are not measured again; none when undefined. */
  cache?: RunCache;
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

/** A value as JSON with its keys in order: what two equal figures share. */
export function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(sort(value));
}

/** A share as a percentage, for the page and the command's summary. */
export const pct = (x: number) => `${Math.round(x * 100)}%`;

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


/** A cell's verdicts: the break's and the fix's against the baseline, and whether the fix falls short (worse or mixed). */
export function cellVerdict(runs: SweepCell['runs']): SweepCell['verdict'] {
  const solution = runs.solution ? verdict(runs.solution, runs.baseline) : null;
  return { variant: verdict(runs.variant, runs.baseline), solution, solutionFallsShort: solution === 'worse' || solution === 'mixed' };
}
