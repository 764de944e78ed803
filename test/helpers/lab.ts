/** Runs the lab command, or another of the kit's commands, as a learner does (node scripts/launch.mjs scripts/lab.ts ...), from any checkout. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { vi } from 'vitest';
import { REPO } from './server.js';

/**
 * A lab run kept short, for a test that reads what a command says or writes, not its figures: one seed of
 * 5 calls (the eval of 30 still runs). A lab's questions otherwise measure their own seeds of 100 calls,
 * some 3 s of CPU per run on the build machine against 1 s.
 */
export const SHORT_RUN = ['--calls', '5', '--seeds', '1'];

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function lab(args: string[], root = REPO, env: NodeJS.ProcessEnv = {}): CommandResult {
  return launched('scripts/lab.ts', args, root, env);
}

/** A command's entry point (`scripts/check.ts`) started through scripts/launch.mjs, as package.json starts it. */
export function launched(entry: string, args: string[], root = REPO, env: NodeJS.ProcessEnv = {}): CommandResult {
  const result = spawnSync(process.execPath, [join(root, 'scripts/launch.mjs'), entry, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The lab command's main in this process, its output captured: for what
 * needs no process of its own (a bad flag, --help). One case each still goes
 * through `lab()`, so that the real process is seen to say the same.
 */
export async function labHere(args: string[]): Promise<CommandResult> {
  const { main } = await import('../../src/cli/lab.js');
  return commandHere(main, args);
}

/** A command's main (src/cli/*.ts) in this process, its stdout and stderr captured. */
export async function commandHere(main: (argv: string[]) => Promise<number> | number, args: string[]): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    return { status: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** A run's figures with what may differ between two honest runs taken out: the label and the timings. */
export function comparable(run: Record<string, unknown>): Record<string, unknown> {
  const { variant: _variant, latencyMs: _latency, ...rest } = run;
  return rest;
}

/** A value with every `latencyMs` taken out, at any depth (each call's record has one): what two honest runs share. */
export function withoutTimings<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'latencyMs' ? undefined : v))) as T;
}
