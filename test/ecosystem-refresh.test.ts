/**
 * `npm run ecosystem -- refresh` as a person runs it, on packages made here
 * (no network: each is laid in the install cache as npm would, so refresh
 * finds it installed): a server that will not start without a key it names,
 * one that lists no tools, one that needs the network, a library with no bin.
 * The server is a real child process speaking JSON-RPC on stdio, written here
 * by hand, which reports the folder and home it was started in and fails if
 * it sees a variable of the person's environment.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerFixture, Skipped } from '../src/lint/ecosystem/fixtures.js';
import { REPO } from './helpers/server.js';

const SERVER = `#!/usr/bin/env node
import { createInterface } from 'node:readline';
const mode = process.argv[2] ?? 'tools';
if (mode === 'offline') { console.error('Error: getaddrinfo ENOTFOUND api.example.com'); process.exit(1); }
if (process.env.ECO_PERSON_SECRET !== undefined) { console.error('Error: saw the person\\'s ECO_PERSON_SECRET'); process.exit(1); }
if (!process.env.FAKE_API_KEY) { console.error('Error: FAKE_API_KEY is required'); process.exit(1); }
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
  if (m.method === 'initialize') reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1.0.0' } });
  else if (m.method === 'tools/list') reply({ tools: mode === 'empty' ? [] : [{ name: 'where', description: JSON.stringify({ cwd: process.cwd(), home: process.env.HOME, key: process.env.FAKE_API_KEY }), inputSchema: { type: 'object' } }] });
  else process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } }) + '\\n');
});
`;

const root = mkdtempSync(join(tmpdir(), 'eco-refresh-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package as npm leaves it in the cache folder refresh installs into: <cache>/<safe name>@<version>/node_modules/<name>. */
function lay(cache: string, name: string, bin: boolean): void {
  const dir = join(cache, `${name}@1.0.0`, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', ...(bin ? { bin: { [name]: 'server.mjs' } } : {}) }));
  if (bin) writeFileSync(join(dir, 'server.mjs'), SERVER);
}

function refresh(fixtures: string, cache: string, extra: string[] = []) {
  return spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/ecosystem.ts', 'refresh', '--fixtures', fixtures, '--dir', cache, '--timeout', '10', ...extra], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, ECO_PERSON_SECRET: 'not for servers' },
    timeout: 120_000,
  });
}

describe('npm run ecosystem -- refresh', () => {
  const fixtures = join(root, 'fixtures');
  const cache = join(root, 'cache');
  mkdirSync(fixtures);
  for (const [name, bin] of [['fake-server', true], ['fake-empty', true], ['fake-offline', true], ['fake-lib', false]] as const) lay(cache, name, bin);
  writeFileSync(
    join(fixtures, 'candidates.json'),
    JSON.stringify({
      downloads: 'made up for the test',
      chosen: 'by hand',
      candidates: [
        { package: 'fake-server', version: '1.0.0', downloads: 40 },
        { package: 'fake-empty', version: '1.0.0', downloads: 30, args: ['empty'] },
        { package: 'fake-offline', version: '1.0.0', downloads: 20, args: ['offline'] },
        { package: 'fake-lib', version: '1.0.0', downloads: 10 },
      ],
    }),
  );

  it('lists a server with a dummy for the key it names, in an empty folder and home of its own, and says why each other one is skipped', () => {
    const r = refresh(fixtures, cache);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(fixtures, 'servers'))).toEqual(['fake-server.json']);
    const saved = JSON.parse(readFileSync(join(fixtures, 'servers', 'fake-server.json'), 'utf8')) as ServerFixture;
    expect(saved).toMatchObject({ package: 'fake-server', version: '1.0.0', env: ['FAKE_API_KEY'], downloads: { figure: 40, what: 'made up for the test' }, server: { name: 'fake', version: '1.0.0' } });
    expect(saved.command).toEqual({ command: 'node', args: ['node_modules/fake-server/server.mjs'] });
    expect(saved.listed).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const seen = JSON.parse((saved.tools[0] as { description: string }).description) as { cwd: string; home: string; key: string };
    expect(seen.key).toBe('dummy');
    expect(seen.cwd.startsWith(REPO)).toBe(false);
    expect(seen.cwd.startsWith(cache)).toBe(false);
    expect(seen.home).not.toBe(homedir());
    expect(seen.home.startsWith(seen.cwd)).toBe(true);
    const skipped = JSON.parse(readFileSync(join(fixtures, 'skipped.json'), 'utf8')) as Skipped[];
    expect(skipped.map((s) => [s.package, s.reason])).toEqual([
      ['fake-empty', 'no-tools'],
      ['fake-offline', 'start'],
      ['fake-lib', 'no-bin'],
    ]);
    expect(skipped.find((s) => s.package === 'fake-offline')!.detail).toContain('ENOTFOUND api.example.com');
  });

  it('does not try again what it listed or skipped at the same version, unless --again', () => {
    const again = refresh(fixtures, cache);
    expect(again.stderr).toContain('0 listed, 0 skipped this run');
    const forced = refresh(fixtures, cache, ['--again', '--only', 'fake-lib']);
    expect(forced.stderr).toContain('0 listed, 1 skipped this run');
    expect((JSON.parse(readFileSync(join(fixtures, 'skipped.json'), 'utf8')) as Skipped[]).length).toBe(3);
  });

  it('says in one line what it cannot take, and exits 2', () => {
    for (const args of [['refresh', '--limit', 'x'], ['refresh', '--only', 'not-a-candidate', '--fixtures', fixtures], ['refresh', '--bogus'], ['pin', '--limit', '3'], ['bogus']]) {
      const r = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/ecosystem.ts', ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^ecosystem: /);
    }
  });
});
