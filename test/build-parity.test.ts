/**
 * Each server build of minimcp (src/minimcp/errors.ts) answers on the wire
 * exactly as a real server built on that SDK version does.
 *
 * The real side: servers written with the published packages, installed side
 * by side (`@modelcontextprotocol/sdk` 1.32.2 pinned, `sdk-1-20` =
 * `@modelcontextprotocol/sdk@1.20.2` with `zod3` = `zod@3.25.76`), in
 * test/fixtures/parity/. minimcp serves the same tools in each build. Both
 * get the same raw JSON-RPC lines (valid, missing argument, wrong enum, wrong
 * type, unknown key, no arguments, unknown tool, null for an optional, a throw
 * inside the tool, the tool refusing its arguments, a tool with no schema),
 * and the whole reply (`error.code` and `error.message`, or the result with
 * its `isError` and text) must be the same.
 *
 * Mutation check: minimcp copies with one line of the mapping changed must
 * fail the same comparison.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_BUILDS, type ServerBuild } from '../src/minimcp/errors.js';
import { bundle } from '../src/lab/variants.js';
import { PARITY_CALLS } from './fixtures/parity/calls.js';
import { RawServer, REPO, type RawReply } from './helpers/server.js';

const FIXTURES = join(REPO, 'test/fixtures/parity');
/** The real server each build is compared with; the low-level handler runs on two SDK versions. */
const REFERENCES: Record<ServerBuild, string[]> = {
  'low-level': ['ref-low-level-1.32', 'ref-low-level-1.20'],
  'mcpserver-1.20': ['ref-mcpserver-1.20'],
  'mcpserver-1.32': ['ref-mcpserver-1.32'],
};

let dir: string;
const js = (name: string) => join(dir, `${name}.js`);

/** What one server answers to each parity call, in order: the error, or the result. */
async function replies(script: string, args: string[] = []): Promise<unknown[]> {
  const server = new RawServer(args, script);
  try {
    await server.initialize();
    const out: unknown[] = [];
    for (const [i, call] of PARITY_CALLS.entries()) {
      const reply: RawReply = await server.request(`c${i}`, 'tools/call', call.params);
      out.push(reply.error ?? reply.result);
    }
    return out;
  } finally {
    await server.close();
  }
}

const real = new Map<string, unknown[]>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'schema-breaks-parity-'));
  const entries = ['minimcp-probe', ...new Set(Object.values(REFERENCES).flat())];
  await Promise.all(entries.map((e) => bundle(join(FIXTURES, `${e}.ts`), js(e))));
  for (const ref of new Set(Object.values(REFERENCES).flat())) real.set(ref, await replies(js(ref)));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(SERVER_BUILDS)('minimcp --build %s', (build) => {
  let mine: unknown[];
  beforeAll(async () => {
    mine = await replies(js('minimcp-probe'), ['--build', build]);
  });

  it.each(REFERENCES[build])('answers every call as the real server %s does', (ref) => {
    const theirs = real.get(ref)!;
    for (const [i, call] of PARITY_CALLS.entries()) expect({ call: call.id, reply: mine[i] }).toEqual({ call: call.id, reply: theirs[i] });
  });
});

describe('the real builds differ where the kit says they do (an independent reading of the SDK packages)', () => {
  const kind = (reply: unknown) => {
    const r = reply as { code?: number; isError?: boolean };
    return r.code !== undefined ? `rpc:${r.code}` : r.isError ? 'isError' : 'ok';
  };
  const at = (ref: string, id: string) => kind(real.get(ref)![PARITY_CALLS.findIndex((c) => c.id === id)]);
  // From dist/esm/server/mcp.js of each version and shared/protocol.js (docs/sources.md, "Server builds").
  const expected: [string, string, string][] = [
    ['ref-low-level-1.32', 'a throw inside the tool', 'rpc:-32603'],
    ['ref-low-level-1.20', 'a throw inside the tool', 'rpc:-32603'],
    ['ref-low-level-1.32', 'missing argument', 'rpc:-32602'],
    ['ref-mcpserver-1.20', 'missing argument', 'rpc:-32602'],
    ['ref-mcpserver-1.20', 'a throw inside the tool', 'isError'],
    ['ref-mcpserver-1.20', 'unknown tool', 'rpc:-32602'],
    ['ref-mcpserver-1.20', 'unknown key', 'ok'],
    ['ref-mcpserver-1.32', 'missing argument', 'isError'],
    ['ref-mcpserver-1.32', 'a throw inside the tool', 'isError'],
    ['ref-mcpserver-1.32', 'unknown tool', 'isError'],
    ['ref-mcpserver-1.32', 'null for an optional', 'isError'],
    ['ref-mcpserver-1.20', 'null for an optional', 'rpc:-32602'],
  ];
  it.each(expected)('%s: %s gives %s', (ref, id, outcome) => {
    expect(at(ref, id)).toBe(outcome);
  });
});

describe('mutation check: a minimcp whose mapping changed fails the comparison', () => {
  // Each mutation changes one line of src/minimcp; the build it affects must then differ from its real server.
  const mutations: { name: string; file: string; from: string; to: string; build: ServerBuild; ref: string }[] = [
    {
      name: 'mcpserver-1.20 answers invalid arguments with isError',
      file: 'src/minimcp/errors.ts',
      from: "if (build === 'mcpserver-1.20') {",
      to: "if (build === 'mcpserver-1.20' && false) {",
      build: 'mcpserver-1.20',
      ref: 'ref-mcpserver-1.20',
    },
    {
      name: "low-level catches the tool's exception",
      file: 'src/minimcp/errors.ts',
      from: "if (build === 'low-level') throw failure.error;",
      to: '',
      build: 'low-level',
      ref: 'ref-low-level-1.32',
    },
    {
      name: 'mcpserver-1.32 throws for an unknown tool',
      file: 'src/minimcp/errors.ts',
      from: "if (build === 'mcpserver-1.32') return toolError(error.message);",
      to: '',
      build: 'mcpserver-1.32',
      ref: 'ref-mcpserver-1.32',
    },
    {
      name: "zod 3's message for a missing key is not \"Required\"",
      file: 'src/minimcp/zod3.ts',
      from: "received === 'undefined' ? 'Required'",
      to: "received === 'undefined' ? 'Missing'",
      build: 'mcpserver-1.20',
      ref: 'ref-mcpserver-1.20',
    },
    {
      name: 'the registry treats null for an optional parameter as absent',
      file: 'src/minimcp/registry.ts',
      from: 'const input = build === ',
      to: 'args = args && Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));\n    const input = build === ',
      build: 'mcpserver-1.32',
      ref: 'ref-mcpserver-1.32',
    },
  ];

  it.each(mutations)('$name', async (m) => {
    const copy = mkdtempSync(join(tmpdir(), 'schema-breaks-parity-mutant-'));
    try {
      cpSync(join(REPO, 'src'), join(copy, 'src'), { recursive: true });
      cpSync(FIXTURES, join(copy, 'test/fixtures/parity'), { recursive: true });
      const file = join(copy, m.file);
      const source = readFileSync(file, 'utf8');
      expect(source, `the mutation's anchor is in ${m.file}`).toContain(m.from);
      writeFileSync(file, source.replace(m.from, m.to));
      const mutant = join(copy, 'mutant.js');
      await bundle(join(copy, 'test/fixtures/parity/minimcp-probe.ts'), mutant);
      const mine = await replies(mutant, ['--build', m.build]);
      const differing = PARITY_CALLS.filter((_, i) => JSON.stringify(mine[i]) !== JSON.stringify(real.get(m.ref)![i])).map((c) => c.id);
      expect(differing.length, 'calls where the mutant differs from the real server').toBeGreaterThan(0);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
