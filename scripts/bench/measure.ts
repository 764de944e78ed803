/**
 * The measurements of npm run bench (scripts/bench.ts prints them against
 * their targets) made in this process: servers started and called over
 * stdio, and the runner next to a bare SDK client. The commands timed as a
 * user runs them are in scripts/bench/commands.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ServerConnection } from '../../src/lab/connection.js';
import { DEFAULT_KNOBS } from '../../src/lab/knobs.js';
import { serverAttempts } from '../../src/lab/metrics.js';
import { REPO } from '../../src/lab/paths.js';
import { getProfile } from '../../src/lab/profiles/index.js';
import { run, type RunResult } from '../../src/lab/runner.js';

export const BUILD = 'mcpserver-1.32' as const;

/** Valid arguments for the baseline's conjugate tool, cycled through. */
const CALL_ARGS: Record<string, unknown>[] = [
  { verb: 'eat', tense: 'present perfect', person: '3rd singular' },
  { verb: 'go', tense: 'simple past', person: '1st plural' },
  { verb: 'write', tense: 'future continuous', person: '2nd plural' },
  { verb: 'be', tense: 'simple present', person: '3rd singular' },
];

// ---------------------------------------------------------------------------
// Small helpers

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n === 0 ? NaN : n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0] ?? NaN, max: sorted[n - 1] ?? NaN, n };
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const ms = (x: number, digits = 0) => `${x.toFixed(digits)} ms`;
export const fmtSummaryMs = (s: Summary, digits = 0) => `${ms(s.median, digits)} (min ${s.min.toFixed(digits)}, max ${s.max.toFixed(digits)}, n=${s.n})`;
export const perSec = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`;
export const met = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
export const cpuSeconds = (cpuMs: number | null) => (cpuMs === null ? '' : `, ${(cpuMs / 1000).toFixed(0)} CPU-s`);
/** Calls a CPU-per-call figure is the mean of. */
export const CPU_CALLS = 3000;

export function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export interface ServerCmd {
  label: string;
  command: string;
  args: string[];
}

/**
 * Where a server's stderr goes: nowhere (`ignore`, the bare loops' yardstick), or a pipe this
 * process reads to its end, as the runner reads it (src/lab/connection.ts).
 */
export type StderrTo = 'ignore' | 'pipe';

/** A connected SDK client on a fresh server process; `spawnedAt` is taken just before the spawn. */
export async function connect(cmd: ServerCmd, stderrTo: StderrTo = 'ignore'): Promise<{ client: Client; spawnedAt: number }> {
  const transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, cwd: REPO, stderr: stderrTo });
  // A pipe is read to its end: a full pipe would stall the server.
  if (stderrTo === 'pipe') transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'schema-breaks-bench', version: '0.1.0' });
  const spawnedAt = performance.now();
  try {
    await client.connect(transport, { timeout: 60_000 });
  } catch (error) {
    await transport.close().catch(() => {});
    throw new Error(`${cmd.label}: the server did not start: ${(error as Error).message}`);
  }
  return { client, spawnedAt };
}

// ---------------------------------------------------------------------------
// 1. Cold start

export async function coldStart(cmd: ServerCmd): Promise<number> {
  const { client, spawnedAt } = await connect(cmd);
  try {
    const { tools } = await client.listTools(undefined, { timeout: 60_000 });
    const elapsed = performance.now() - spawnedAt;
    if (!tools.some((t) => t.name === 'conjugate')) throw new Error(`${cmd.label}: tools/list has no conjugate tool`);
    return elapsed;
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------------------
// 2. Sequential call rate (bare SDK client)

export interface Rate {
  calls: number;
  totalMs: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** The call the baseline refuses: a conjugation without its verb (a required argument), answered with the server's error. */
const REFUSED_ARGS: Record<string, unknown> = { tense: 'simple past', person: '1st plural' };

/** `calls` refused calls in a row, each answered (an isError result or a JSON-RPC error: whichever the build sends). */
async function refusedLoop(client: Client, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: 'conjugate', arguments: REFUSED_ARGS }).catch((error: unknown) => ({ isError: true, error }));
    if (!result.isError) throw new Error('conjugate without its verb was not refused');
  }
}

export async function callLoop(client: Client, calls: number, timings?: number[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = timings ? performance.now() : 0;
    const result = await client.callTool({ name: 'conjugate', arguments: CALL_ARGS[i % CALL_ARGS.length]! });
    if (timings) timings.push(performance.now() - t0);
    if (result.isError) throw new Error(`conjugate answered isError: ${JSON.stringify(result.content)}`);
  }
  return performance.now() - started;
}

export async function callRate(cmd: ServerCmd, warmup: number, calls: number): Promise<Rate> {
  const { client } = await connect(cmd);
  try {
    await client.listTools();
    await callLoop(client, warmup);
    const timings: number[] = [];
    const totalMs = await callLoop(client, calls, timings);
    return { calls, totalMs, perSecond: (calls * 1000) / totalMs, p50: percentile(timings, 50), p99: percentile(timings, 99) };
  } finally {
    await client.close();
  }
}

/**
 * CPU time, in ms, of the children this process has waited for (Linux:
 * /proc/self/stat's cutime and cstime, in clock ticks of 10 ms); null where
 * there is no /proc.
 */
export function childrenCpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** Starts counting the CPU of the children this process waits for; the function returned gives it, in ms (null where /proc does not say). */
export function childrenCpuMeter(): () => number | null {
  const before = childrenCpuMs();
  return () => {
    const after = childrenCpuMs();
    return before === null || after === null ? null : after - before;
  };
}

/**
 * Starts counting the CPU of this process (the client) and of the children it
 * waits for (the servers); the function returned stops and gives both, in ms.
 * The SDK's close() resolves when the process is gone, but its CPU counts
 * once it has been waited for: hence the wait, taken after any wall clock has
 * stopped.
 */
function cpuMeter(): () => Promise<{ client: number; server: number | null }> {
  const own = process.cpuUsage();
  const children = childrenCpuMeter();
  return async () => {
    const used = process.cpuUsage(own);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { client: (used.user + used.system) / 1000, server: children() };
  };
}

/** Client and server together; null when the server's part is not known. */
const clientAndServer = ({ client, server }: { client: number; server: number | null }) => (server === null ? null : client + server);

/**
 * CPU, in ms, of `sessions` server processes in a row, each started, listed,
 * sent `calls` ok calls and closed: of the bare SDK client (this process) and
 * of the servers (its children: read once they have exited; null where the
 * system does not say, childrenCpuMs).
 */
async function cpuOfSessions(cmd: ServerCmd, sessions: number, calls: number, stderrTo: StderrTo, refused = false): Promise<{ client: number; server: number | null }> {
  const cpu = cpuMeter();
  for (let i = 0; i < sessions; i++) {
    const { client } = await connect(cmd, stderrTo);
    try {
      await client.listTools();
      await (refused ? refusedLoop(client, calls) : callLoop(client, calls));
    } finally {
      await client.close();
    }
  }
  return cpu();
}

/**
 * CPU per tools/call of a bare SDK client (this process) and of the server
 * (its child), in µs: `calls` calls on one process, less one process that
 * starts, lists its tools and closes. Ok calls, or with `refused` calls the
 * server refuses (a required argument left out): its error costs it more.
 */
export async function cpuPerCall(cmd: ServerCmd, calls: number, stderrTo: StderrTo = 'ignore', refused = false): Promise<{ clientUs: number; serverUs: number | null }> {
  const start = await cpuOfSessions(cmd, 1, 0, stderrTo);
  const loaded = await cpuOfSessions(cmd, 1, calls, stderrTo, refused);
  return {
    clientUs: ((loaded.client - start.client) * 1000) / calls,
    serverUs: loaded.server === null || start.server === null ? null : ((loaded.server - start.server) * 1000) / calls,
  };
}

/**
 * CPU of one server process that only starts, answers initialize and
 * tools/list, and closes, in ms, of the client and of the server: the mean
 * of `starts` in a row (the clock ticks of childrenCpuMs are 10 ms).
 */
export async function cpuPerStart(cmd: ServerCmd, starts: number): Promise<{ clientMs: number; serverMs: number | null }> {
  const { client, server } = await cpuOfSessions(cmd, starts, 0, 'ignore');
  return { clientMs: client / starts, serverMs: server === null ? null : server / starts };
}

// ---------------------------------------------------------------------------
// 3. Runner vs bare loop

export interface Timed {
  /** Calls that reached the server. */
  calls: number;
  /** Spawn to close done: the whole of run(). */
  wallMs: number;
  /** From the tools/list answer to the start of close: the calls (and, for the runner, the agent loop around them). */
  callPhaseMs: number;
  /** CPU of the client (this process) and the server (its child, once waited for), start to close; null where /proc does not say. */
  cpuMs: number | null;
}

/** One tools/call as it went to the server: the tool and the arguments the host sent. */
export interface SentCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The bare SDK client sending `calls` in order, one at a time, whatever each
 * answers (an isError result and a JSON-RPC error alike): the yardstick for
 * the runner, replaying the very calls a runner's run sent (sentCalls).
 */
export async function bareRun(cmd: ServerCmd, calls: readonly SentCall[]): Promise<Timed> {
  const cpu = cpuMeter();
  const started = performance.now();
  const { client } = await connect(cmd);
  let callPhaseMs: number;
  try {
    await client.listTools();
    const phase = performance.now();
    for (const call of calls) await client.callTool(call).catch(() => undefined);
    callPhaseMs = performance.now() - phase;
  } finally {
    await client.close();
  }
  const wallMs = performance.now() - started;
  return { calls: calls.length, wallMs, callPhaseMs, cpuMs: clientAndServer(await cpu()) };
}

/** The calls a run sent to the server, in order (workload, then eval): its attempts with a round trip (metrics.ts). */
export function sentCalls(result: RunResult): SentCall[] {
  return serverAttempts([...(result.records?.workload ?? []), ...(result.records?.eval ?? [])]).flatMap((a) => (a.tool && a.args ? [{ name: a.tool, arguments: a.args }] : []));
}

/** Attempts that reached the server: every label but 'no-call' and 'client-*'. */
export const reachedServer = (label: string) => label !== 'no-call' && !label.startsWith('client-');

export function callsSent(result: RunResult): { workload: number; evaluation: number; fromHistogram: number } {
  const fromHistogram = Object.entries(result.attempts)
    .filter(([label]) => reachedServer(label))
    .reduce((sum, [, n]) => sum + n, 0);
  // The records by the kit's own rule (metrics.ts), the histogram by its labels: runnerRun checks that they agree.
  return { workload: serverAttempts(result.records?.workload ?? []).length, evaluation: serverAttempts(result.records?.eval ?? []).length, fromHistogram };
}

/**
 * Timestamps of the runner's phases, taken by wrapping two methods of
 * ServerConnection (behaviour unchanged): when tools/list has answered, and
 * when close() begins. Valid because the runs here are sequential.
 */
export const runnerPhase = { listedAt: NaN, closingAt: NaN };
{
  const listTools = ServerConnection.prototype.listTools;
  ServerConnection.prototype.listTools = async function (this: ServerConnection) {
    try {
      return await listTools.call(this);
    } finally {
      runnerPhase.listedAt = performance.now();
    }
  };
  const close = ServerConnection.prototype.close;
  ServerConnection.prototype.close = function (this: ServerConnection) {
    runnerPhase.closingAt = performance.now();
    return close.call(this);
  };
}

export async function runnerRun(serverJs: string, calls: number): Promise<Timed & { result: RunResult }> {
  const client = getProfile('faithful');
  if (!client) throw new Error('no faithful profile');
  runnerPhase.listedAt = runnerPhase.closingAt = NaN;
  const cpu = cpuMeter();
  const started = performance.now();
  const result = await run('baseline', serverJs, { client, server: BUILD, seed: 1, calls, knobs: DEFAULT_KNOBS });
  const wallMs = performance.now() - started;
  const cpuMs = clientAndServer(await cpu());
  const sent = callsSent(result);
  if (sent.fromHistogram !== sent.workload) throw new Error(`attempts histogram (${sent.fromHistogram}) and records (${sent.workload}) disagree`);
  if (result.serverNotes.length > 0) throw new Error(`the baseline run has server notes: ${result.serverNotes.join('; ')}`);
  return { calls: sent.workload + sent.evaluation, wallMs, callPhaseMs: runnerPhase.closingAt - runnerPhase.listedAt, cpuMs, result };
}
