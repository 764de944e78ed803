/**
 * The kit's benchmark: `npm run bench` (tsx scripts/bench.ts).
 *
 * Measures, on this machine, with warm-up and repetitions:
 *   1. cold start (spawn to the first tools/list answer) of the baseline server
 *      started with `npx tsx`, `node --import tsx` and plain node on the bundle;
 *   2. sequential tools/call rate over stdio on one server process;
 *   3. the runner's call rate (agent loop, profile, records) next to a bare SDK
 *      client loop, in the same run; target: runner/bare >= 0.8;
 *   4. the wall time of `npm run lab -- --variant broken-schema --json`, warm
 *      (target: under 3 s) and once with the build caches removed;
 *   5. the wall time of `npm run class -- sweep` (target: under 20 s);
 *   6. the wall time of the whole test suite, `npx vitest run` (target: under
 *      100 s); `--no-suite` leaves it out;
 *   7. the wall time of `npm run lint` on a 30-tool server (target: under 2 s)
 *      and on the kit's baseline (target: under 1 s), with the part that is
 *      the server's own start (spawn to the last tools/list page).
 *
 * It prints figures and whether each target is met; it never fails on them.
 * Takes about five minutes with the suite, two without.
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallRecord } from '../src/lab/agent.js';
import { ServerConnection } from '../src/lab/connection.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { CACHE_DIR, REPO } from '../src/lab/paths.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { run, type RunResult } from '../src/lab/runner.js';
import { buildServer, serverCommand } from '../src/lab/variants.js';

// ---------------------------------------------------------------------------
// Settings

const COLD_REPS = 5;
const RATE_WARMUP = 200;
const RATE_CALLS = 2000;
const RATE_REPS = 3;
const SIDE_BY_SIDE_CALLS = 1000;
const SIDE_BY_SIDE_ROUNDS = 5;
const LAB_REPS = 5;
const RATIO_TARGET = 0.9;
const LAB_TARGET_MS = 3000;
const SWEEP_TARGET_MS = 20_000;
const SUITE_TARGET_MS = 100_000;
const BUILD = 'mcpserver-1.32' as const;

/** Valid arguments for the baseline's conjugate tool, cycled through. */
const CALL_ARGS: Record<string, unknown>[] = [
  { verb: 'eat', tense: 'present perfect', person: '3rd singular' },
  { verb: 'go', tense: 'simple past', person: '1st plural' },
  { verb: 'write', tense: 'future continuous', person: '2nd plural' },
  { verb: 'be', tense: 'simple present', person: '3rd singular' },
];

// ---------------------------------------------------------------------------
// Small helpers

interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n === 0 ? NaN : n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0] ?? NaN, max: sorted[n - 1] ?? NaN, n };
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const ms = (x: number, digits = 0) => `${x.toFixed(digits)} ms`;
const fmtSummaryMs = (s: Summary, digits = 0) => `${ms(s.median, digits)} (min ${s.min.toFixed(digits)}, max ${s.max.toFixed(digits)}, n=${s.n})`;
const perSec = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`;
const met = (ok: boolean) => (ok ? 'MET' : 'NOT MET');

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

interface ServerCmd {
  label: string;
  command: string;
  args: string[];
}

/** A connected SDK client on a fresh server process; `spawnedAt` is taken just before the spawn. */
async function connect(cmd: ServerCmd): Promise<{ client: Client; spawnedAt: number }> {
  // stderr is ignored: nobody reads it here, and a full pipe would stall the server.
  const transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, cwd: REPO, stderr: 'ignore' });
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

async function coldStart(cmd: ServerCmd): Promise<number> {
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

interface Rate {
  calls: number;
  totalMs: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function callLoop(client: Client, calls: number, timings?: number[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = timings ? performance.now() : 0;
    const result = await client.callTool({ name: 'conjugate', arguments: CALL_ARGS[i % CALL_ARGS.length]! });
    if (timings) timings.push(performance.now() - t0);
    if (result.isError) throw new Error(`conjugate answered isError: ${JSON.stringify(result.content)}`);
  }
  return performance.now() - started;
}

async function callRate(cmd: ServerCmd, warmup: number, calls: number): Promise<Rate> {
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

// ---------------------------------------------------------------------------
// 3. Runner vs bare loop

interface Timed {
  /** Calls that reached the server. */
  calls: number;
  /** Spawn to close done: the whole of run(). */
  wallMs: number;
  /** From the tools/list answer to the start of close: the calls (and, for the runner, the agent loop around them). */
  callPhaseMs: number;
}

async function bareRun(cmd: ServerCmd, calls: number): Promise<Timed> {
  const started = performance.now();
  const { client } = await connect(cmd);
  let callPhaseMs: number;
  try {
    await client.listTools();
    callPhaseMs = await callLoop(client, calls);
  } finally {
    await client.close();
  }
  return { calls, wallMs: performance.now() - started, callPhaseMs };
}

/** Attempts that reached the server: every label but 'no-call' and 'client-*'. */
const reachedServer = (label: string) => label !== 'no-call' && !label.startsWith('client-');

function callsSent(result: RunResult): { workload: number; evaluation: number; fromHistogram: number } {
  const fromHistogram = Object.entries(result.attempts)
    .filter(([label]) => reachedServer(label))
    .reduce((sum, [, n]) => sum + n, 0);
  const count = (records: CallRecord[]) => records.reduce((sum, r) => sum + r.attempts.filter((a) => reachedServer(a.label)).length, 0);
  return { workload: count(result.records?.workload ?? []), evaluation: count(result.records?.eval ?? []), fromHistogram };
}

/**
 * Timestamps of the runner's phases, taken by wrapping two methods of
 * ServerConnection (behaviour unchanged): when tools/list has answered, and
 * when close() begins. Valid because the runs here are sequential.
 */
const runnerPhase = { listedAt: NaN, closingAt: NaN };
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

async function runnerRun(serverJs: string, calls: number): Promise<Timed & { result: RunResult }> {
  const client = getProfile('faithful');
  if (!client) throw new Error('no faithful profile');
  runnerPhase.listedAt = runnerPhase.closingAt = NaN;
  const started = performance.now();
  const result = await run('baseline', serverJs, { client, server: BUILD, seed: 1, calls, knobs: DEFAULT_KNOBS });
  const wallMs = performance.now() - started;
  const sent = callsSent(result);
  if (sent.fromHistogram !== sent.workload) throw new Error(`attempts histogram (${sent.fromHistogram}) and records (${sent.workload}) disagree`);
  if (result.serverNotes.length > 0) throw new Error(`the baseline run has server notes: ${result.serverNotes.join('; ')}`);
  return { calls: sent.workload + sent.evaluation, wallMs, callPhaseMs: runnerPhase.closingAt - runnerPhase.listedAt, result };
}

// ---------------------------------------------------------------------------
// 4. npm run lab wall time

const LAB_ARGS = ['scripts/launch.mjs', 'scripts/lab.ts', '--variant', 'broken-schema', '--json'];

function labOnce(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, LAB_ARGS, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const elapsed = performance.now() - started;
      if (code === 0) resolve(elapsed);
      else reject(new Error(`lab exited with ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

/**
 * One lab run with the build caches (node_modules/.cache/schema-breaks) moved
 * aside, restored afterwards whatever happens, including Ctrl-C.
 */
async function labCold(): Promise<number> {
  const aside = `${CACHE_DIR}.bench-aside-${process.pid}`;
  const fresh = `${CACHE_DIR}.bench-cold-${process.pid}`;
  const hadCache = existsSync(CACHE_DIR);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (!hadCache) return; // nothing was moved: the cold run's caches simply stay
    if (existsSync(CACHE_DIR)) renameSync(CACHE_DIR, fresh);
    renameSync(aside, CACHE_DIR);
    rmSync(fresh, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    try {
      restore();
    } finally {
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  if (hadCache) renameSync(CACHE_DIR, aside);
  process.on('exit', restore);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await labOnce();
  } finally {
    restore();
    process.off('exit', restore);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// ---------------------------------------------------------------------------
// 7. npm run lint

const LINT_REPS = 5;
const LINT_30_TARGET_MS = 2000;
const LINT_BASELINE_TARGET_MS = 1000;

/** One `npm run lint -- --json ...` as a user runs it: its wall time, and the server's start to its last tools/list page. */
function lintOnce(args: string[]): Promise<{ wallMs: number; listedMs: number; tools: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['scripts/launch.mjs', 'scripts/lint.ts', '--json', '--fail-on', 'none', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`lint exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
      const report = JSON.parse(stdout) as { server: { listedInMs: number }; tools: unknown[] };
      resolve({ wallMs, listedMs: report.server.listedInMs, tools: report.tools.length });
    });
  });
}

async function lintTimes(args: string[]): Promise<{ wall: Summary; listed: Summary; tools: number }> {
  await lintOnce(args); // warm-up: the launcher's bundle, the server's build
  const runs = [];
  for (let i = 0; i < LINT_REPS; i++) runs.push(await lintOnce(args));
  return { wall: summarize(runs.map((r) => r.wallMs)), listed: summarize(runs.map((r) => r.listedMs)), tools: runs[0]!.tools };
}

// ---------------------------------------------------------------------------
// 5 and 6. The sweep and the suite

/** The wall time of one command run to its end (its output is not kept; its last lines are shown if it fails). */
function timed(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let tail = '';
    const keep = (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-4096));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${tail.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const withSuite = !process.argv.includes('--no-suite');
  const benchStarted = performance.now();
  const cpus = os.cpus();
  const machine = `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${os.platform()} ${os.release()} ${os.arch()}, node ${process.version}`;
  log(`schema-breaks bench on ${machine}`);
  log();

  const bundle = await buildServer([]);
  const serverTs = join('src', 'minimcp', 'server.ts');
  const npxTsx: ServerCmd = { label: 'npx tsx', command: 'npx', args: ['tsx', serverTs, '--build', BUILD] };
  const nodeTsx: ServerCmd = { label: 'node --import tsx', command: process.execPath, args: ['--import', 'tsx', serverTs, '--build', BUILD] };
  const nodeBundle: ServerCmd = { label: 'node bundle', command: process.execPath, args: [bundle, '--build', BUILD] };
  // How the runner starts a server: from the bundle's V8 startup snapshot (src/lab/variants.ts).
  const nodeSnapshot: ServerCmd = { label: 'node snapshot', ...serverCommand(bundle, ['--build', BUILD]) };

  // 1 ---------------------------------------------------------------------
  log(`1. Cold start, spawn to tools/list answer (1 warm-up + ${COLD_REPS} runs each)`);
  const cold = new Map<string, Summary>();
  for (const cmd of [npxTsx, nodeTsx, nodeBundle, nodeSnapshot]) {
    await coldStart(cmd); // warm-up: disk cache, tsx's transform cache
    const times: number[] = [];
    for (let i = 0; i < COLD_REPS; i++) times.push(await coldStart(cmd));
    const s = summarize(times);
    cold.set(cmd.label, s);
    log(`   ${cmd.label.padEnd(18)} ${fmtSummaryMs(s)}`);
  }
  log();

  // 2 ---------------------------------------------------------------------
  log(`2. Sequential tools/call over stdio, one process, bare SDK client (${RATE_WARMUP} warm-up + ${RATE_CALLS} calls; ${RATE_REPS} processes each, alternating)`);
  const rateRuns = new Map<string, Rate[]>([
    [nodeBundle.label, []],
    [nodeTsx.label, []],
  ]);
  for (let i = 0; i < RATE_REPS; i++) {
    for (const cmd of [nodeBundle, nodeTsx]) rateRuns.get(cmd.label)!.push(await callRate(cmd, RATE_WARMUP, RATE_CALLS));
  }
  const rates = new Map<string, { perSecond: Summary; p50: number; p99: number }>();
  for (const [label, runs] of rateRuns) {
    const r = { perSecond: summarize(runs.map((x) => x.perSecond)), p50: summarize(runs.map((x) => x.p50)).median, p99: summarize(runs.map((x) => x.p99)).median };
    rates.set(label, r);
    log(
      `   ${label.padEnd(18)} ${perSec(r.perSecond.median).padStart(8)} (min ${perSec(r.perSecond.min)}, max ${perSec(r.perSecond.max)})` +
        `  round trip p50 ${ms(r.p50, 3)}, p99 ${ms(r.p99, 3)}`,
    );
  }
  log();

  // 3 ---------------------------------------------------------------------
  const N = SIDE_BY_SIDE_CALLS;
  log(`3. Runner vs bare SDK loop on the baseline bundle, both started as the runner starts it (snapshot), N=${N} (1 warm-up round + ${SIDE_BY_SIDE_ROUNDS} alternating rounds)`);
  log('   end to end = spawn to close (all of run()); calls phase = tools/list answered to close begun');
  await bareRun(nodeSnapshot, 200);
  await runnerRun(bundle, 200);
  const bare: Timed[] = [];
  const runner: Timed[] = [];
  let lastRunner: RunResult | undefined;
  const line = (name: string, t: Timed) =>
    `${name} ${t.calls} calls: end to end ${ms(t.wallMs)} = ${perSec((t.calls * 1000) / t.wallMs)}, calls phase ${ms(t.callPhaseMs)} = ${perSec((t.calls * 1000) / t.callPhaseMs)}`;
  for (let round = 0; round < SIDE_BY_SIDE_ROUNDS; round++) {
    // Alternate which goes first, so that neither always runs on a warmer machine.
    const first = round % 2 === 0 ? 'bare' : 'runner';
    let b: Timed;
    let r: Timed & { result: RunResult };
    if (first === 'bare') {
      b = await bareRun(nodeSnapshot, N);
      r = await runnerRun(bundle, N);
    } else {
      r = await runnerRun(bundle, N);
      b = await bareRun(nodeSnapshot, N);
    }
    bare.push(b);
    runner.push(r);
    lastRunner = r.result;
    log(`   round ${round + 1}: ${line('bare  ', b)}`);
    log(`            ${line('runner', r)}`);
  }
  const rate = (t: Timed[], key: 'wallMs' | 'callPhaseMs') => summarize(t.map((x) => (x.calls * 1000) / x[key]));
  const bareE2E = rate(bare, 'wallMs');
  const runnerE2E = rate(runner, 'wallMs');
  const bareCalls = rate(bare, 'callPhaseMs');
  const runnerCalls = rate(runner, 'callPhaseMs');
  const ratioE2E = runnerE2E.median / bareE2E.median;
  const ratioCalls = runnerCalls.median / bareCalls.median;
  const fixedBare = summarize(bare.map((b) => b.wallMs - b.callPhaseMs));
  const fixedRunner = summarize(runner.map((r) => r.wallMs - r.callPhaseMs));
  if (lastRunner) {
    const sent = callsSent(lastRunner);
    log(`   runner calls sent: workload ${sent.workload} (attempts ${JSON.stringify(lastRunner.attempts)}) + eval ${sent.evaluation}`);
  }
  log(`   spawn + initialize + tools/list + close: bare ${ms(fixedBare.median)}, runner ${ms(fixedRunner.median)}`);
  const rateRange = (s: Summary) => `${perSec(s.median)} (min ${perSec(s.min)}, max ${perSec(s.max)})`;
  log(`   end to end   bare ${rateRange(bareE2E)}, runner ${rateRange(runnerE2E)}`);
  log(`   calls phase  bare ${rateRange(bareCalls)}, runner ${rateRange(runnerCalls)}`);
  log(`   ratio runner/bare: end to end ${ratioE2E.toFixed(2)} (${met(ratioE2E >= RATIO_TARGET)}), calls phase ${ratioCalls.toFixed(2)} (${met(ratioCalls >= RATIO_TARGET)}); target >= ${RATIO_TARGET}`);
  log();

  // 4 ---------------------------------------------------------------------
  log(`4. npm run lab -- --variant broken-schema --json (1 warm-up + ${LAB_REPS} runs, then 1 cold)`);
  await labOnce(); // fills the build caches
  const labTimes: number[] = [];
  for (let i = 0; i < LAB_REPS; i++) labTimes.push(await labOnce());
  const lab = summarize(labTimes);
  log(`   warm  ${fmtSummaryMs(lab)}; target < ${LAB_TARGET_MS} ms: ${met(lab.median < LAB_TARGET_MS)}`);
  const coldLab = await labCold();
  log(`   cold  ${ms(coldLab)} (node_modules/.cache/schema-breaks moved aside, then restored)`);
  log();

  // 5 ---------------------------------------------------------------------
  log('5. npm run class -- sweep (every lab x every client x every build, 100 calls; bundles already cached)');
  const sweepMs = await timed(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', 'sweep', '--out', join('out', 'bench-sweep.html')]);
  log(`   ${ms(sweepMs)}; target < ${SWEEP_TARGET_MS} ms: ${met(sweepMs < SWEEP_TARGET_MS)}`);
  log();

  // 6 ---------------------------------------------------------------------
  let suiteMs: number | undefined;
  if (withSuite) {
    log('6. the test suite, npx vitest run');
    suiteMs = await timed(join(REPO, 'node_modules', '.bin', 'vitest'), ['run']);
    log(`   ${ms(suiteMs)}; target < ${SUITE_TARGET_MS} ms: ${met(suiteMs < SUITE_TARGET_MS)}`);
    log();
  }

  // 7 ---------------------------------------------------------------------
  log(`7. npm run lint (1 warm-up + ${LINT_REPS} runs each; "server" = its spawn to the last tools/list page)`);
  const lint30 = await lintTimes(['--', process.execPath, join('test', 'fixtures', 'lint', 'thirty-tools.mjs')]);
  log(`   ${lint30.tools}-tool server (test/fixtures/lint/thirty-tools.mjs, 3 pages): ${fmtSummaryMs(lint30.wall)}, server ${ms(lint30.listed.median)}; target < ${LINT_30_TARGET_MS} ms: ${met(lint30.wall.median < LINT_30_TARGET_MS)}`);
  const lintBaseline = await lintTimes(['--variant', 'baseline']);
  log(`   the kit's baseline (--variant baseline): ${fmtSummaryMs(lintBaseline.wall)}, server ${ms(lintBaseline.listed.median)}; target < ${LINT_BASELINE_TARGET_MS} ms: ${met(lintBaseline.wall.median < LINT_BASELINE_TARGET_MS)}`);
  const lintFs = await lintTimes(['--', process.execPath, join('node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), join('test', 'fixtures', 'lint')]);
  log(`   @modelcontextprotocol/server-filesystem (${lintFs.tools} tools): ${fmtSummaryMs(lintFs.wall)}, server ${ms(lintFs.listed.median)}`);
  log();

  // Table -------------------------------------------------------------------
  const rows: [string, string, string][] = [];
  for (const [label, s] of cold) rows.push([`cold start, ${label}`, fmtSummaryMs(s), '']);
  for (const [label, r] of rates) rows.push([`tools/call rate, ${label}`, `${perSec(r.perSecond.median)} (p50 ${ms(r.p50, 3)}, p99 ${ms(r.p99, 3)})`, '']);
  rows.push([`bare SDK loop, N=${N}, end to end`, rateRange(bareE2E), '']);
  rows.push([`runner, N=${N}+eval, end to end`, rateRange(runnerE2E), '']);
  rows.push(['ratio runner/bare, end to end', ratioE2E.toFixed(2), `>= ${RATIO_TARGET}: ${met(ratioE2E >= RATIO_TARGET)}`]);
  rows.push([`bare SDK loop, N=${N}, calls phase`, rateRange(bareCalls), '']);
  rows.push([`runner, N=${N}+eval, calls phase`, rateRange(runnerCalls), '']);
  rows.push(['ratio runner/bare, calls phase', ratioCalls.toFixed(2), `>= ${RATIO_TARGET}: ${met(ratioCalls >= RATIO_TARGET)}`]);
  rows.push(['npm run lab (warm)', fmtSummaryMs(lab), `< ${LAB_TARGET_MS} ms: ${met(lab.median < LAB_TARGET_MS)}`]);
  rows.push(['npm run lab (cold caches)', ms(coldLab), '']);
  rows.push(['npm run class -- sweep', ms(sweepMs), `< ${SWEEP_TARGET_MS} ms: ${met(sweepMs < SWEEP_TARGET_MS)}`]);
  if (suiteMs !== undefined) rows.push(['npx vitest run', ms(suiteMs), `< ${SUITE_TARGET_MS} ms: ${met(suiteMs < SUITE_TARGET_MS)}`]);
  rows.push([`npm run lint, ${lint30.tools}-tool server`, `${fmtSummaryMs(lint30.wall)}, server ${ms(lint30.listed.median)}`, `< ${LINT_30_TARGET_MS} ms: ${met(lint30.wall.median < LINT_30_TARGET_MS)}`]);
  rows.push(["npm run lint, the kit's baseline", `${fmtSummaryMs(lintBaseline.wall)}, server ${ms(lintBaseline.listed.median)}`, `< ${LINT_BASELINE_TARGET_MS} ms: ${met(lintBaseline.wall.median < LINT_BASELINE_TARGET_MS)}`]);
  rows.push([`npm run lint, server-filesystem (${lintFs.tools} tools)`, `${fmtSummaryMs(lintFs.wall)}, server ${ms(lintFs.listed.median)}`, '']);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  log('Summary (medians)');
  log(`machine: ${cpus.length} cpus, ${cpus[0]?.model.trim() ?? 'unknown'}, node ${process.version}, ${os.platform()} ${os.release()}`);
  log(`${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ${'-'.repeat(22)}`);
  for (const [a, b, c] of rows) log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
  log(`${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ${'-'.repeat(22)}`);
  log(`bench took ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);
}

await main();
