/**
 * The gemini-cli-2025-11 profile against gemini-cli v0.17.0's own code, as published on npm
 * (@google/gemini-cli-core 0.17.0, the devDependency gemini-cli-core-0-17; 079dfef2).
 *
 * The same tool lists (every server the kit ships: the baseline, each break, each solution; the recorded
 * tools/list of every real server in test/fixtures/lint/recorded/; one hand-written list whose $schema Ajv does
 * not know) go through the profile and through the host:
 *  - what the model is shown: the profile's tool against the FunctionDeclaration the host sends, the `schema`
 *    getter of a real `DiscoveredMCPTool` built as mcp-client.ts `discoverTools` builds it;
 *  - what the model is told: for each tool, a valid call, a wrong enum value, a missing required key, an extra
 *    key and a wrong type (derived from the tool's own schema) through the profile's `validate`, and through
 *    the real `CoreToolScheduler` (nonInteractiveToolExecutor.ts `executeToolCall`) with that tool registered.
 *    Where the host answers INVALID_TOOL_PARAMS, the profile must refuse with the `response.error` of the
 *    functionResponse the host gives the model, and the host must not have called the server; where the host
 *    calls the server, the profile must let the call through with the very arguments the server got.
 * The expected values are the real code's outputs, never the profile's. Calls go in the same order through
 * both, each side on its own schema object, so Ajv's per-object cache (the first call of a tool with an
 * unknown $schema fails, the next do not) is compared too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveredMCPTool as RealTool } from 'gemini-cli-core-0-17/dist/src/tools/mcp-tool.js';
import type { executeToolCall as RealExecute } from 'gemini-cli-core-0-17/dist/src/core/nonInteractiveToolExecutor.js';
import { runRequest } from '../src/lab/agent.js';
import { ServerConnection } from '../src/lab/connection.js';
import { DEFAULT_KNOBS, type Knobs } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { run } from '../src/lab/runner.js';
import { drawWorkload } from '../src/lab/workload.js';
import type { PublishedTool } from '../src/lab/profiles/shared.js';
import type { SeenTool } from '../src/lab/types.js';
import { buildServer, kitServerPatches, serverCommand } from '../src/lab/variants.js';
import { readServer } from '../src/lint/server.js';
import { recorded } from './helpers/lint.js';
import { SERVER_JS } from './helpers/server.js';

type Json = Record<string, unknown>;
type Told = { ok: true; args: Json } | { ok: false; error: string };

const profile = getProfile('gemini-cli-2025-11')!;
const SERVER = 'srv';

let DiscoveredMCPTool: typeof RealTool;
let executeToolCall: typeof RealExecute;

beforeAll(async () => {
  // The scheduler's module graph is large (telemetry, the genai SDK): about 10 s to load on the build machine.
  ({ DiscoveredMCPTool } = await import('gemini-cli-core-0-17/dist/src/tools/mcp-tool.js'));
  ({ executeToolCall } = await import('gemini-cli-core-0-17/dist/src/core/nonInteractiveToolExecutor.js'));
}, 120_000);

/** Every tool list: the kit's servers (read over stdio from the built variant) and the recorded real servers. */
async function toolLists(): Promise<[string, PublishedTool[]][]> {
  const lists: [string, PublishedTool[]][] = [];
  for (const patches of kitServerPatches()) {
    const label = patches.map((p) => p.split('/').slice(-2).join('/')).join(' + ') || 'baseline';
    const { command, args } = serverCommand(await buildServer(patches));
    lists.push([`kit ${label}`, (await readServer({ label, command, args }, 30_000)).tools as PublishedTool[]]);
  }
  for (const name of ['server-everything', 'server-filesystem', 'server-memory', 'openapi-pet-clinic'])
    lists.push([`recorded ${name}`, recorded(name) as PublishedTool[]]);
  // Hand-written: a $schema the host's Ajv (draft-07) has no meta-schema for (google-gemini/gemini-cli#14970).
  lists.push([
    'hand-written draft 2020-12',
    [
      {
        name: 'greeting',
        description: 'Hello World',
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { message: { type: 'string', enum: ['hello', 'bye'] }, times: { type: 'integer' } },
          required: ['message'],
          additionalProperties: false,
        },
      },
    ],
  ]);
  // Hand-written: names the host declares otherwise (mcp-tool.ts generateValidName, run by both sides here).
  const named = (name: string): PublishedTool => ({ name, description: 'Search the notes.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
  lists.push(['hand-written names', [named('notes/search'), named('db:query v2'), named('get-sum.all'), named(`long_${'x'.repeat(70)}_end`)]]);
  return lists;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value of the schema's own type: an enum's first member, else a plain value (not meant to pass every keyword). */
function sample(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 6) return 'x';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf']) if (Array.isArray(schema[key]) && (schema[key] as unknown[]).length > 0) return sample((schema[key] as unknown[])[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (type === 'array') return [];
  if (type === 'object') return requiredOf(schema, depth + 1);
  return 'x';
}

function requiredOf(schema: Json, depth = 0): Json {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  return Object.fromEntries(required.map((name) => [name, sample(properties[name], depth)]));
}

/** The calls tried on one tool: a valid one and one per kind of mistake the schema allows to make. */
function callsFor(schema: Json): [string, Json][] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const valid = requiredOf(schema);
  const calls: [string, Json][] = [['valid', valid]];
  const withEnum = Object.entries(properties).find(([, p]) => isObject(p) && Array.isArray(p.enum));
  if (withEnum) calls.push(['wrong enum value', { ...valid, [withEnum[0]]: 'not-a-member-of-the-enum' }]);
  const required = Object.keys(valid);
  if (required.length > 0) calls.push(['missing required key', Object.fromEntries(Object.entries(valid).slice(1))]);
  calls.push(['extra key', { ...valid, unexpected_key: 1 }]);
  const typed = Object.entries(properties).find(([, p]) => isObject(p) && typeof p.type === 'string');
  if (typed) {
    const type = (typed[1] as Json).type;
    calls.push(['wrong type', { ...valid, [typed[0]]: type === 'string' ? 12345 : 'text' }]);
  }
  return calls;
}

/** What the real scheduler does with one call of one tool: the error the model is told, or the arguments the server got. */
async function hostCall(tool: RealTool, args: Json): Promise<Told> {
  const sent: Json[] = [];
  const callable = (tool as unknown as { mcpTool: { callTool: (calls: { name: string; args: Json }[]) => Promise<unknown> } }).mcpTool;
  callable.callTool = async (calls) => {
    sent.push(calls[0]!.args);
    return [{ functionResponse: { name: calls[0]!.name, response: { content: [{ type: 'text', text: 'done' }] } } }];
  };
  // The little of Config the scheduler reads on this path: the registry, no message bus, YOLO (no confirmation).
  const known: Json = {
    getToolRegistry: () => ({ getTool: (name: string) => (name === tool.name ? tool : undefined), getAllToolNames: () => [tool.name] }),
    getEnableMessageBusIntegration: () => false,
    getApprovalMode: () => 'yolo',
  };
  const config = new Proxy(known, { get: (target, key) => (typeof key === 'string' && key in target ? target[key] : typeof key === 'string' && /^(get|is)/.test(key) ? () => undefined : undefined) });
  const done = await executeToolCall(config as never, { callId: 'c1', name: tool.name, args, isClientInitiated: false, prompt_id: 'p1' }, new AbortController().signal);
  const part = done.response.responseParts[0] as { functionResponse: { response: Json } };
  if (done.status === 'error') {
    expect(done.response.errorType).toBe('invalid_tool_params');
    expect(sent).toEqual([]);
    expect(Object.keys(part.functionResponse.response)).toEqual(['error']);
    return { ok: false, error: part.functionResponse.response.error as string };
  }
  expect(done.status).toBe('success');
  expect(sent).toHaveLength(1);
  return { ok: true, args: sent[0]! };
}

/** The host's tool, built as mcp-client.ts discoverTools builds it at v0.17.0. */
function hostTool(tool: PublishedTool): RealTool {
  const callable = { tool: async () => ({}), callTool: async () => [] };
  return new DiscoveredMCPTool(callable as never, SERVER, tool.name, tool.description ?? '', structuredClone(tool.inputSchema ?? { type: 'object', properties: {} }), false);
}

describe('gemini-cli-2025-11 against @google/gemini-cli-core 0.17.0', async () => {
  const lists = await toolLists();
  /** Per kind of call, how many the host refused and how many it sent: the comparison covers both answers. */
  const tally = new Map<string, { refused: number; sent: number }>();

  it('reads every kit server and every recorded one', () => {
    expect(lists.length).toBeGreaterThanOrEqual(17 + 4 + 1);
    for (const [label, tools] of lists) expect(tools.length, label).toBeGreaterThan(0);
  });

  /**
   * The tools the profile shows, each beside what tools/list published. A list the host's MCP SDK refuses
   * (1.15.1's Tool shape: a root that is not an object) loses the whole server, before gemini-cli-core's code
   * sees a tool: that drop is the SDK's (src/lab/profiles/mcp-sdk.ts), not compared here; the other tools of
   * such a list are then compared one by one, as a server publishing only them would be.
   */
  async function shownBy(tools: PublishedTool[]): Promise<{ published: PublishedTool; seen: SeenTool }[]> {
    const view = await profile.present(structuredClone(tools));
    if (!('rejected' in view)) return tools.map((published, i) => ({ published, seen: view.tools[i]! }));
    expect(view.lost, view.rejected).toBe('server');
    expect(view.rejected).toMatch(/^Error discovering tools from <server>: \(kit text: a ZodError from the MCP SDK 1\.15\.1/);
    const one = await Promise.all(tools.map(async (published) => ({ published, view: await profile.present(structuredClone([published])) })));
    return one.flatMap(({ published, view: alone }) => ('rejected' in alone ? [] : [{ published, seen: alone.tools[0]! }]));
  }

  describe.each(lists)('%s', (_label, tools) => {
    it('shows the model what the host declares (name, description, parametersJsonSchema)', async () => {
      const pairs = await shownBy(tools);
      expect(pairs.length).toBeGreaterThan(0);
      const declared = pairs.map(({ published }) => hostTool(published).schema);
      const seen = pairs.map(({ seen: t }) => ({ name: t.name, description: t.description, parametersJsonSchema: t.inputSchema }));
      expect(seen).toEqual(declared);
      // No two tools of one server share a name (the registry would rename the second "<server>__<name>").
      expect(new Set(declared.map((d) => d.name)).size).toBe(declared.length);
    });

    it('tells the model what the host tells it, for a valid call and each mistake', async () => {
      let compared = 0;
      for (const { published, seen } of await shownBy(tools)) {
        const real = hostTool(published);
        for (const [mistake, args] of callsFor(published.inputSchema as Json)) {
          const host = await hostCall(real, structuredClone(args));
          const told = await profile.validate(seen, structuredClone(args));
          expect(told, `${published.name}, ${mistake}: ${JSON.stringify(args)}`).toEqual(host);
          const count = tally.get(mistake) ?? { refused: 0, sent: 0 };
          count[host.ok ? 'sent' : 'refused']++;
          tally.set(mistake, count);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  });

  it('the comparisons above covered calls the host refused and calls it sent, for each kind of mistake', () => {
    expect([...tally.keys()].sort()).toEqual(['extra key', 'missing required key', 'valid', 'wrong enum value', 'wrong type']);
    for (const [mistake, { refused, sent }] of tally) expect(refused, mistake).toBeGreaterThan(0);
    expect(tally.get('valid')!.sent).toBeGreaterThan(0);
    expect(tally.get('extra key')!.sent).toBeGreaterThan(0); // where additionalProperties is not false
  });

  it('the hand-written names are declared as generateValidName makes them (by hand: [^a-zA-Z0-9_.-] to "_", over 63 cut to 28 + "___" + 32)', async () => {
    const names = lists.find(([label]) => label === 'hand-written names')![1];
    expect(names.map((t) => hostTool(t).schema.name)).toEqual(['notes_search', 'db_query_v2', 'get-sum.all', `long_${'x'.repeat(23)}___${'x'.repeat(28)}_end`]);
  });

  it('the mistakes are refused by the host on the baseline, and reach no server', async () => {
    const baseline = lists.find(([label]) => label === 'kit baseline')![1].find((t) => t.name === 'conjugate')!;
    const real = hostTool(baseline);
    const outcomes = [];
    for (const [mistake, args] of callsFor(baseline.inputSchema as Json)) outcomes.push([mistake, (await hostCall(real, args)).ok]);
    expect(outcomes).toEqual([
      ['valid', true],
      ['wrong enum value', false],
      ['missing required key', false],
      ['extra key', false],
      ['wrong type', false],
    ]);
  });
});

/*
 * End to end on the kit's baseline server (mcpserver-1.32): a model made to write an off-list value
 * (strayFromEnum 1, offList 1) or to leave out every required key (dropRequired 1). The host's check answers first;
 * only the calls it lets through reach the server, and the server's own trace (one stderr line per
 * tools/call it received) counts them.
 */
describe('gemini-cli-2025-11 end to end: what the host refuses never reaches the server', () => {
  const cases: [string, Partial<Knobs>, RegExp][] = [
    // offList 1 and offListOmit 0: a request no listed option can say is written in the model's own words too, never
    // left out (a key left out would be Ajv's other text).
    ['a wrong enum value', { strayFromEnum: 1, offList: 1, offListOmit: 0 }, /^params\/(verb|tense|person) must be equal to one of the allowed values$/],
    ['a missing required key', { dropRequired: 1 }, /^params must have required property '(verb|tense|person)'$/],
  ];

  it.each(cases)('%s ends client-invalid in the runner, with Ajv\'s text', async (_what, knobs, text) => {
    const result = await run('baseline', SERVER_JS, { client: profile, server: 'mcpserver-1.32', seed: 1, calls: 20, knobs: { ...DEFAULT_KNOBS, ...knobs } });
    // A request no listed option can say is no call at all (the model gives up): the others are all refused by the host.
    const first = result.records!.workload.map((r) => r.attempts[0]!).filter((a) => a.label !== 'no-call');
    expect(first.length).toBeGreaterThanOrEqual(15);
    expect(first.map((a) => a.label)).toEqual(first.map(() => 'client-invalid'));
    for (const attempt of first) {
      expect(attempt.text).toMatch(text);
      expect(attempt.latencyMs).toBeUndefined();
    }
    expect(Object.keys(result.outcomes).sort()).toEqual(result.outcomes['no-call'] ? ['client-invalid', 'no-call'] : ['client-invalid']);
  });

  it.each(cases)('%s: the server receives only the calls the host let through', async (_what, knobs, text) => {
    const connection = new ServerConnection(serverCommand(SERVER_JS, ['--build', 'mcpserver-1.32']), 5_000);
    try {
      const view = await profile.present(await connection.listTools());
      const records = [];
      for (const request of drawWorkload(1, 10)) records.push(await runRequest(request, view, profile, connection, { ...DEFAULT_KNOBS, ...knobs }, 1));
      const attempts = records.flatMap((r) => r.attempts);
      const refused = attempts.filter((a) => a.label === 'client-invalid');
      const sent = attempts.filter((a) => a.label !== 'client-invalid' && a.label !== 'no-call');
      expect(refused.length).toBeGreaterThanOrEqual(10);
      for (const attempt of refused) expect(attempt.text).toMatch(/^params/);
      expect(refused.filter((a) => text.test(a.text)).length).toBeGreaterThanOrEqual(10);
      const traced = (await connection.settledStderr()).split('\n').filter((line) => / tools\/call conjugate /.test(line));
      expect(traced).toHaveLength(sent.length);
      // Nothing the server got was refused by its own check: the host's caught every such call first.
      expect(traced.filter((line) => /invalid arguments/.test(line))).toEqual([]);
    } finally {
      await connection.close();
    }
  });
});
