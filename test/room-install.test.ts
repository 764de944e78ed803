/**
 * A room installs the learner set the ways INSTRUCTOR.md gives, with npm
 * itself, from an empty npm cache:
 *  1. the devcontainer's create command (.devcontainer/devcontainer.json),
 *     as written, in a copy of the kit, its cache in a folder of its own
 *     (npm reads `npm_config_cache` as `--cache`): what a room on Codespaces
 *     runs, and what the instructor's laptop runs once to fill the folder
 *     carried to the room. Its download (the folder's content: every
 *     tarball and registry document npm fetched) and its node_modules are
 *     held to the room's budget (issue 32: 60 MB and 150 MB), and npm may
 *     print no warning;
 *  2. `npm ci --omit=dev --offline --cache FOLDER` in a second copy: a laptop
 *     with no network installs from that folder alone, and a lab runs.
 * The first step needs the npm registry (CI has it); with no registry it is
 * skipped, saying so, and the second with it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesUnder, kitCopy, npmRun, personEnv, removeKitCopies } from './helpers/kit-copy.js';
import { REPO } from './helpers/server.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MB = 1_000_000;

const registry = spawnSync(npm, ['ping'], { encoding: 'utf8', timeout: 20_000, env: personEnv(), shell: process.platform === 'win32' });
const online = registry.status === 0;

const cache = mkdtempSync(join(tmpdir(), 'schema-breaks-room-cache-'));
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  removeKitCopies();
}, 120_000);

interface DevContainer {
  image: string;
  postCreateCommand: string;
}
const devcontainer = JSON.parse(readFileSync(join(REPO, '.devcontainer', 'devcontainer.json'), 'utf8')) as DevContainer;

describe('a room installs the learner set', () => {
  it("the devcontainer's image runs a Node that package.json's engines takes", () => {
    const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    // The Dev Containers images are tagged by Node's major version: javascript-node:<major>-<debian>.
    const major = /javascript-node:(\d+)(?:-|$)/.exec(devcontainer.image)?.[1];
    expect(major, devcontainer.image).toBeDefined();
    expect(semver.subset(`${major}.x`, engines), `Node ${major}.x against engines ${engines}`).toBe(true);
    expect(devcontainer.postCreateCommand).toMatch(/^npm ci --omit=dev\b/);
  });

  it.skipIf(!online)(`its create command, from an empty cache: at most 60 MB fetched, 150 MB in node_modules, no warning${online ? '' : ' (skipped: npm ping found no registry)'}`, { timeout: 300_000 }, () => {
    const copy = kitCopy();
    const create = spawnSync('bash', ['-c', devcontainer.postCreateCommand], { cwd: copy, encoding: 'utf8', timeout: 280_000, env: personEnv({ npm_config_cache: cache }) });
    expect(create.status, `${create.stdout}\n${create.stderr}`).toBe(0);
    expect(`${create.stdout}${create.stderr}`.split('\n').filter((line) => /^npm (warn|WARN|error|ERR)/.test(line))).toEqual([]);
    expect(create.stdout).toContain('Ready: every lab command will work here.');
    const fetched = bytesUnder(join(cache, '_cacache', 'content-v2'));
    const installed = bytesUnder(join(copy, 'node_modules'), ['.cache']);
    console.log(`learner install: ${(fetched / MB).toFixed(1)} MB fetched, ${(installed / MB).toFixed(1)} MB in node_modules`);
    expect(fetched / MB).toBeLessThanOrEqual(60);
    expect(installed / MB).toBeLessThanOrEqual(150);
  });

  it.skipIf(!online)('a second laptop installs from that cache folder with --offline, and a lab runs', { timeout: 300_000 }, () => {
    const copy = kitCopy();
    const install = spawnSync(npm, ['ci', '--omit=dev', '--offline', '--cache', cache], { cwd: copy, encoding: 'utf8', timeout: 240_000, env: personEnv(), shell: process.platform === 'win32' });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr.split('\n').filter((line) => /^npm (warn|WARN)/.test(line))).toEqual([]);
    const lab = npmRun(copy, 'lab', ['--variant', 'broken-schema', '--no-predict', '--calls', '5', '--seeds', '1']);
    expect(lab.status, lab.stderr).toBe(0);
    expect(lab.stdout).toContain('broken-schema');
  });
});
