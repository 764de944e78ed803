/**
 * A room of laptops installs only what the labs use: on a copy of the kit as
 * a clone has it, `npm ci --omit=dev` (package.json `dependencies`, none of
 * the kit's own test tooling), then the commands of lab 1 as a learner types
 * them: a run, a check with no workspace, a workspace, a check that builds,
 * type-checks (the kit's tsc) and runs it, and `npm run doctor`. None may
 * stop on a module that was not installed.
 *
 * It needs the npm registry (or npm's cache); offline, it is skipped and says
 * so. Some 60 s on an idle laptop (200 s on the 2-core build machine under load), most of it npm ci.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { kitCopy, npmRun, removeKitCopies } from './helpers/kit-copy.js';

// Removing some 800 MB of node_modules takes a while on a busy disk.
afterAll(removeKitCopies, 240_000);

/** Whether npm can reach its registry: `npm ping`, so that the user's npm settings (registry, proxy, CA file) count, as they will for npm ci. */
function reachable(): boolean {
  return spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ping'], { encoding: 'utf8', timeout: 15_000, shell: process.platform === 'win32' }).status === 0;
}

/** What a command says when the install left out something it loads. */
const MISSING_MODULE = /ERR_MODULE_NOT_FOUND|Cannot find (module|package)|MODULE_NOT_FOUND|ENOENT[^\n]*node_modules/;

it('npm ci --omit=dev gives a learner every command of lab 1, and npm run doctor says ready', { timeout: 300_000 }, (ctx) => {
  if (!reachable()) {
    const note = 'npm ping failed (offline?): npm ci --omit=dev was not tried';
    process.stderr.write(`test/install.test.ts skipped: ${note}\n`);
    ctx.skip(note);
  }
  const copy = kitCopy();
  const ci = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: copy, encoding: 'utf8', timeout: 240_000, shell: process.platform === 'win32' });
  expect(ci.status, ci.stderr).toBe(0);
  // The kit's own test tooling stayed out; what the commands load came in.
  for (const dev of ['vitest', 'playwright-core', 'dependency-cruiser', 'fast-check', '@modelcontextprotocol/server-everything']) expect(existsSync(join(copy, 'node_modules', dev)), `${dev} was installed`).toBe(false);

  const steps = [
    npmRun(copy, 'lab', ['--variant', 'broken-schema', '--no-predict', '--learner', 'A']),
    npmRun(copy, 'check', ['broken-schema']),
    npmRun(copy, 'lab', ['--variant', 'broken-schema', '--workspace', '--learner', 'A']),
    npmRun(copy, 'check', ['broken-schema', '--learner', 'A', '--lang', 'en']),
  ];
  for (const step of steps) expect(`${step.stdout}${step.stderr}`).not.toMatch(MISSING_MODULE);
  const [run, noWorkspace, workspace, check] = steps;
  expect(run!.status, run!.stderr).toBe(0);
  expect(noWorkspace!.status, noWorkspace!.stderr).toBe(2); // a user error: there is no workspace yet
  expect(workspace!.status, workspace!.stderr).toBe(0);
  // The broken server is not fixed (1), but the check got as far as the kit's compiler ("It type-checks (tsc)."
  // or "Your workspace does not type-check (tsc):").
  expect(check!.stdout).toMatch(/type-checks? \(tsc\)/);
  expect(check!.status, check!.stderr).toBe(1);

  const doctor = npmRun(copy, 'doctor', ['--lang', 'en']);
  expect(doctor.stdout).toContain('Ready: every lab command will work here.');
  expect(doctor.status).toBe(0);
});
