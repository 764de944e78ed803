/** Runs the lab command as a learner does (node scripts/launch.mjs scripts/lab.ts ...), from any checkout. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './server.js';

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function lab(args: string[], root = REPO, env: NodeJS.ProcessEnv = {}): CommandResult {
  const result = spawnSync(process.execPath, [join(root, 'scripts/launch.mjs'), 'scripts/lab.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A run's figures with what may differ between two honest runs taken out: the label and the timings. */
export function comparable(run: Record<string, unknown>): Record<string, unknown> {
  const { variant: _variant, latencyMs: _latency, ...rest } = run;
  return rest;
}
