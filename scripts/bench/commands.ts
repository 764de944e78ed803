/**
 * The kit's commands timed as a user runs them, for npm run bench: a lab,
 * the linter, the class sweep and the test suite, each a process of its own
 * started through scripts/launch.mjs (or vitest's own bin). A command that
 * fails stops the bench on one line (commandFailed): the time of a failure
 * measures nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import process from 'node:process';
import { UserError } from '../../src/core/user-error.js';
import { CACHE_DIR, REPO } from '../../src/lab/paths.js';
import { childrenCpuMeter, summarize, type Summary } from './measure.js';

/** The last line a command wrote that says something: what a failed run is shown by. */
export const lastLine = (tail: string) => tail.split('\n').map((l) => l.trim()).filter((l) => l !== '').at(-1) ?? '(nothing)';

/** A command the bench times that did not succeed: one line, exit 1 (src/core/user-error.ts). */
export function commandFailed(what: string, code: number | null, output: string): UserError {
  return new UserError(`${what} exited with ${code ?? 'a signal'}, so its time is no measure: ${lastLine(output)}`, 1);
}

// ---------------------------------------------------------------------------
// 4. npm run lab wall time

export const LAB_ARGS = ['scripts/launch.mjs', 'scripts/lab.ts', '--variant', 'broken-schema', '--json'];

export function labOnce(): Promise<number> {
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
      else reject(commandFailed('npm run lab', code, stderr));
    });
  });
}

/**
 * One lab run with the build caches (node_modules/.cache/schema-breaks) moved
 * aside, restored afterwards whatever happens, including Ctrl-C.
 */
export async function labCold(): Promise<number> {
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

export const LINT_REPS = 5;

/** One `npm run lint -- --json ...` as a user runs it: its wall time, and the server's start to its last tools/list page. */
export function lintOnce(args: string[]): Promise<{ wallMs: number; listedMs: number; tools: number }> {
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
      if (code !== 0) return reject(commandFailed('npm run lint', code, stderr));
      const report = JSON.parse(stdout) as { server: { listedInMs: number }; tools: unknown[] };
      resolve({ wallMs, listedMs: report.server.listedInMs, tools: report.tools.length });
    });
  });
}

export async function lintTimes(args: string[]): Promise<{ wall: Summary; listed: Summary; tools: number }> {
  await lintOnce(args); // warm-up: the launcher's bundle, the server's build
  const runs = [];
  for (let i = 0; i < LINT_REPS; i++) runs.push(await lintOnce(args));
  return { wall: summarize(runs.map((r) => r.wallMs)), listed: summarize(runs.map((r) => r.listedMs)), tools: runs[0]!.tools };
}

// ---------------------------------------------------------------------------
// 5 and 6. The sweep and the suite

/** One command run to its end: its wall time, its CPU and its children's (null where /proc does not say), its exit code and the last 4 KiB it wrote. */
export interface CommandRun {
  ms: number;
  cpuMs: number | null;
  code: number | null;
  tail: string;
}

/**
 * Runs a command to its end, its output kept only as a tail (stdout and
 * stderr together). Its CPU is that of every process under it that was
 * waited for (childrenCpuMs): on a shared machine whose pace moves from day
 * to day, the CPU a run took tells a slower machine from slower code.
 */
export function runTimed(command: string, args: string[]): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpu = childrenCpuMeter();
    const child = spawn(command, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let tail = '';
    const keep = (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-4096));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ ms: performance.now() - started, cpuMs: cpu(), code, tail });
    });
  });
}
