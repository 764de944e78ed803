/**
 * The runner starts each built server from a V8 startup snapshot
 * (serverCommand in src/lab/variants.ts). A server started that way must be
 * the same server: the same tools/list, byte for byte the same replies to the
 * same lines, and the same stderr (a thrown error's frames included), on
 * every build, as the same bundle started from its script.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildServer, patchChain, serverCommand } from '../src/lab/variants.js';
import { SERVER_BUILDS } from '../src/minimcp/errors.js';
import { RawServer, REPO } from './helpers/server.js';

/** Lines a client could send: the handshake, the list, good and bad calls, and a request no server knows. */
const LINES: { id: number; method: string; params?: unknown }[] = [
  { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'snapshot-test', version: '1' } } },
  { id: 2, method: 'tools/list' },
  { id: 3, method: 'tools/call', params: { name: 'conjugate', arguments: { verb: 'eat', tense: 'present perfect', person: '3rd singular' } } },
  { id: 4, method: 'tools/call', params: { name: 'conjugate', arguments: { verb: 'eat' } } },
  { id: 5, method: 'tools/call', params: { name: 'conjugate', arguments: {} } },
  { id: 6, method: 'tools/call', params: { name: 'lessons', arguments: { action: 'list' } } },
  { id: 7, method: 'no/such/method' },
];

/** A patch like a break's, in `dir`, that adds `line` at the end of the kit's `file`. */
function appending(dir: string, file: string, line: string): string {
  const text = readFileSync(join(REPO, file), 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const patch = join(dir, `${file.replace(/\W+/g, '_')}.patch`);
  writeFileSync(patch, [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`, `@@ -${lines},0 +${lines + 1},1 @@`, `+${line}`, ''].join('\n'));
  return patch;
}

async function transcript(start: { command: string; args: string[] }): Promise<{ replies: string[]; stderr: string }> {
  const server = new RawServer([], '', start);
  const replies: string[] = [];
  for (const line of LINES) {
    replies.push(JSON.stringify(await server.request(line.id, line.method, line.params)));
    if (line.id === 1) await server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }
  await server.close();
  return { replies, stderr: server.stderr };
}

// The baseline, and a break whose tool throws (its stderr names the frames).
const servers = { baseline: await buildServer(), 'root-transform-shape': await buildServer(patchChain('root-transform-shape').variant) };

describe.each(Object.entries(servers))('%s started from its snapshot', (_name, serverJs) => {
  it('has a snapshot to start from (the runner would otherwise start the script)', () => {
    expect(serverCommand(serverJs).args[0]).toBe('--snapshot-blob');
    expect(existsSync(serverCommand(serverJs).args[1]!)).toBe(true);
  });

  it.each(SERVER_BUILDS)('answers as its script does, on %s', async (build) => {
    const fromSnapshot = await transcript(serverCommand(serverJs, ['--build', build]));
    const fromScript = await transcript({ command: process.execPath, args: [serverJs, '--build', build] });
    expect(fromSnapshot.replies).toEqual(fromScript.replies);
    expect(fromSnapshot.stderr).toBe(fromScript.stderr);
    expect(fromSnapshot.stderr).toContain(`(build ${build})`);
  });
});

it('a kit server whose modules throw at start gets no snapshot, and starts from its script, where the error shows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-throws-'));
  try {
    // A patch like a break's, applied to the kit's own sources: the tool's module throws when loaded.
    const serverJs = await buildServer([appending(dir, 'src/minimcp/tools/conjugate.ts', "throw new Error('a module that throws at start');")]);
    const start = serverCommand(serverJs, ['--build', 'mcpserver-1.32']);
    expect(start.args).toEqual([serverJs, '--build', 'mcpserver-1.32']);
    const result = spawnSync(start.command, start.args, { input: '', encoding: 'utf8' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('a module that throws at start');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("a learner's workspace gets no snapshot: it changes with every edit and starts a few times per check", async () => {
  const root = mkdtempSync(join(tmpdir(), 'snapshot-workspace-'));
  try {
    for (const dir of ['src', 'contract']) cpSync(join(REPO, dir), join(root, dir), { recursive: true });
    // An edit of the learner's (a build of the same sources as the kit's is the kit's, snapshot and all).
    const tool = join(root, 'src', 'minimcp', 'tools', 'conjugate.ts');
    writeFileSync(tool, `${readFileSync(tool, 'utf8')}\n// ${root}\n`);
    const serverJs = await buildServer([], root);
    expect(serverCommand(serverJs).args).toEqual([serverJs]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('an edit the server does not read (a key of its own, the same bytes) takes the snapshot built before, and a server edit builds its own', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-same-bytes-'));
  // A fresh line each run: keys never built before.
  const run = `${process.pid}-${Date.now()}`;
  try {
    const baseline = servers.baseline;
    // The runner is in src/ (so in every server's key) and in no server's bundle.
    const elsewhere = await buildServer([appending(dir, 'src/lab/runner.ts', `// edited by test/snapshot.test.ts ${run}`)]);
    expect(elsewhere).not.toBe(baseline);
    expect(readFileSync(elsewhere).equals(readFileSync(baseline))).toBe(true);
    const blob = elsewhere.replace(/\.cjs$/, '.blob');
    // Linked, not built again: the very file (same inode) of another server with these bytes. Which one is not
    // fixed: another test may have built the same bytes first, and two snapshot builds of one script differ
    // (V8 writes a fresh hash seed into each), so the bytes of the baseline's own blob are not the thing to compare.
    expect(statSync(blob).nlink).toBeGreaterThan(1);
    const serversDir = dirname(dirname(blob));
    const twins = readdirSync(serversDir)
      .map((d) => join(serversDir, d, 'server.blob'))
      .filter((other) => other !== blob && statSync(other, { throwIfNoEntry: false })?.ino === statSync(blob).ino);
    expect(twins.length).toBeGreaterThan(0);
    for (const twin of twins) expect(readFileSync(twin.replace(/\.blob$/, '.cjs')).equals(readFileSync(baseline))).toBe(true);
    expect(serverCommand(elsewhere).args[1]).toBe(blob);

    // A statement in the server's own code: other bytes, a snapshot of its own.
    const edited = await buildServer([appending(dir, 'src/minimcp/server.ts', `(globalThis as Record<string, unknown>).snapshotTest = '${run}';`)]);
    expect(readFileSync(edited).equals(readFileSync(baseline))).toBe(false);
    expect(statSync(edited.replace(/\.cjs$/, '.blob')).nlink).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
