/**
 * The instructor's keys in the `class serve` terminal (a real pseudo-terminal,
 * test/helpers/pty.ts): 1 is the catalogue's first lab (labs/catalogue.json:
 * broken-schema), pressed once it is revealed and measured, pressed again it
 * is hidden; a number with no lab does nothing; q stops the server with
 * everything on disk. And without a terminal, SIGTERM stops it the same way.
 * A lab's number of two digits (the tenth lab on) is typed as two keys
 * (labKey, written out by hand below).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { labKey } from '../src/class/serve.js';
import { cli } from './helpers/class-report.js';
import { startServe } from './helpers/class-serve.js';
import { Terminal } from './helpers/pty.js';
import { REPO } from './helpers/server.js';

const roots: string[] = [];
const terminals: Terminal[] = [];
afterAll(async () => {
  // A test that failed half-way leaves its server running: q stops it (the pty's own kill would leave it orphaned).
  for (const term of terminals.filter((t) => t.exitCode === undefined)) {
    term.type('q');
    await term.done(10_000);
  }
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function tempFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'class-serve-keys-'));
  roots.push(root);
  return join(root, 'class');
}
const revealed = (folder: string) => Object.keys((JSON.parse(readFileSync(join(folder, 'class.json'), 'utf8')) as { revealed: object }).revealed);

describe('class serve: keys and stopping', () => {
  it('1 reveals and measures the first lab, 1 again hides it, 0 does nothing, q quits', async () => {
    const folder = tempFolder();
    const term = new Terminal(`node scripts/launch.mjs scripts/class.ts serve ${folder} --port 0`, REPO, { LANG: 'en_GB.UTF-8', LC_ALL: '' });
    terminals.push(term);
    let at = await term.waitFor(/ {2}1 {2}broken-schema: /, 60_000);
    await term.waitFor(/q quits/, 5_000, at);
    // 0 names no lab (a lab's number starts at 1), whatever the catalogue's length.
    term.type('0');
    term.type('1');
    at = await term.waitFor(/Revealed: broken-schema\./, 10_000, at);
    expect(term.screen().slice(0, at)).not.toMatch(/Revealed: (?!broken-schema)/);
    expect(revealed(folder)).toEqual(['broken-schema']);
    at = await term.waitFor(/Measured broken-schema in [\d.]+ s: missing-arguments = /, 150_000, at);
    term.type('1');
    at = await term.waitFor(/Hidden again: broken-schema\./, 10_000, at);
    expect(revealed(folder)).toEqual([]);
    term.type('q');
    await term.waitFor(/Class stopped\./, 10_000, at);
    expect(await term.done(20_000)).toBe(0);
  }, 240_000);

  it('without a terminal, SIGTERM stops it: exit 0, and it says where everything is; a busy port or a damaged class.json is one line', async () => {
    const served = await startServe(tempFolder());
    // The banner's last lines may reach the pipe a moment after "Listening on port", which startServe waits for.
    await expect.poll(() => served.output(), { timeout: 5_000 }).toMatch(/No terminal for keys: reveal from the projector page/);
    // A second server on the same port, and a folder whose class.json is not one: one line each, exit 2.
    const busy = cli(['serve', tempFolder(), '--port', String(served.port)]);
    expect([busy.status, busy.stderr]).toEqual([2, `class serve: port ${served.port} is already in use (another class server?)\nnpm run class -- serve --port N\n`]);
    const damaged = tempFolder();
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'class.json'), '{"name": "x"}');
    const refused = cli(['serve', damaged, '--port', '0']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`class serve: ${join(damaged, 'class.json')} is not a class file this kit wrote (name, code, token, revealed); move it away to start a new class there\n`);
    expect(readFileSync(join(damaged, 'class.json'), 'utf8')).toBe('{"name": "x"}');
    served.child.kill('SIGTERM');
    expect(await served.ended).toBe(0);
    expect(served.output()).toMatch(/Class stopped\. Everything received is in .*class; run the same command to go on\./);
  }, 90_000);
});

describe("a lab's number, typed one digit at a time (labKey)", () => {
  it('with 8 labs every number is one key: 1 and 8 name a lab at once, 9 and 0 none', () => {
    expect(labKey('1', 8)).toEqual({ lab: 1 });
    expect(labKey('8', 8)).toEqual({ lab: 8 });
    expect(labKey('9', 8)).toBe('none');
    expect(labKey('0', 8)).toBe('none');
  });

  it('with 12 labs, 1 waits for a second digit (1, 10, 11, 12), 2 to 9 do not; 10 and 12 name labs, 13 and 01 none', () => {
    expect(labKey('1', 12)).toBe('more');
    expect(labKey('2', 12)).toEqual({ lab: 2 });
    expect(labKey('9', 12)).toEqual({ lab: 9 });
    expect(labKey('10', 12)).toEqual({ lab: 10 });
    expect(labKey('12', 12)).toEqual({ lab: 12 });
    expect(labKey('13', 12)).toBe('none');
    expect(labKey('01', 12)).toBe('none');
    expect(labKey('', 12)).toBe('none');
  });

  it('with 10 labs exactly, 1 still waits (10), and 10 is the last', () => {
    expect(labKey('1', 10)).toBe('more');
    expect(labKey('10', 10)).toEqual({ lab: 10 });
    expect(labKey('11', 10)).toBe('none');
  });
});
