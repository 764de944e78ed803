/**
 * openai-agents-2025-10: the OpenAI Agents SDK for JS (@openai/agents-core 0.2.1) run on the published schemas.
 * Every expected value is derived by hand from the SDK's code at tag v0.2.1 (cf1ec3fe), the rules are:
 *  M1 mcp.ts mcpToFunctionTool: schema = {...inputSchema, type ?? 'object', properties ?? {}, required ?? [],
 *     additionalProperties ?? false}.
 *  M2 Agent.getMcpTools passes convertSchemasToStrict: false, so a tool goes strict only when the published root has
 *     additionalProperties === true; ensureStrictJsonSchema then sets the ROOT's additionalProperties: false (nothing
 *     else), strict: true, and the OpenAI API's strict rules judge it (openai-strict.ts).
 *  M3 every other tool: strict: false, the root's additionalProperties: true.
 *  M4 tool(): the name through toFunctionToolName (each character outside a-z A-Z 0-9 becomes "_").
 *  M5 shims/mcp-server/node.ts listTools: ListToolsResultSchema.parse (MCP SDK 1.20.2, zod 3): a root without
 *     "type": "object" throws invalid_literal, getAllMcpTools does not catch it, the run fails (lost: 'request').
 *  M6 the argument check: JSON.parse and nothing else (utils/tools.ts getSchemaAndParserFromInputType).
 * The profile is not in PROFILES yet (the lead registers it), so it is used here directly.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { bundle, hostsDir } from '../src/core/bundler.mjs';
import { describe, expect, it } from 'vitest';
import { openAiAgents202510 as agents } from '../src/lab/profiles/openai-agents.js';
import { hostVerdict } from '../src/lint/hosts.js';
import { readServer } from '../src/lint/server.js';
import type { ListedTool } from '../src/lint/types.js';
import { hostColumn, publishedTools } from './helpers/host-column.js';
import { recorded } from './helpers/lint.js';
import { ANY_OF_VERB, BASELINE, EMPTY, NO_REQUIRED, ONE_OF_VERB, ROOT_ANY_OF, TYPE_LIST, published, type Json } from './helpers/profiles.js';
import { REPO, SERVER_JS } from './helpers/server.js';

async function view(...schemas: Json[]) {
  return agents.present(published(...schemas));
}

async function shownOne(schema: Json): Promise<{ name: string; description?: string; inputSchema: Json }> {
  const v = await view(schema);
  if ('rejected' in v) throw new Error(`rejected: ${v.rejected}`);
  return v.tools[0]!;
}


/** This host's column of the linter's matrix (test/helpers/host-column.ts). */
const column = (tools: unknown[]) => hostColumn(agents, tools);

describe('the kit baseline and breaks (schemas by hand in test/helpers/profiles.ts)', () => {
  it('a strict baseline is sent non-strict: additionalProperties false becomes true (M3), the rest as published', async () => {
    expect(await shownOne(BASELINE)).toEqual({
      name: 'conjugate',
      description: 'Conjugates an English verb.',
      inputSchema: { ...BASELINE, additionalProperties: true },
    });
  });

  it('a missing required becomes [] and the object is still open (M1, M3)', async () => {
    expect((await shownOne(NO_REQUIRED)).inputSchema).toEqual({ ...NO_REQUIRED, required: [], additionalProperties: true });
  });

  it('unions are not touched: anyOf, oneOf, a root anyOf, a type list; only the root is opened (M3)', async () => {
    expect((await shownOne(ANY_OF_VERB)).inputSchema).toEqual({ ...ANY_OF_VERB, additionalProperties: true });
    expect((await shownOne(ONE_OF_VERB)).inputSchema).toEqual({ ...ONE_OF_VERB, additionalProperties: true });
    // ROOT_ANY_OF has neither properties nor required at the root: M1 adds both.
    expect((await shownOne(ROOT_ANY_OF)).inputSchema).toEqual({ ...ROOT_ANY_OF, properties: {}, required: [], additionalProperties: true });
    expect((await shownOne(TYPE_LIST)).inputSchema).toEqual({ ...TYPE_LIST, additionalProperties: true });
  });

  it('no parameters: an empty object, open (M1, M3)', async () => {
    expect((await shownOne(EMPTY)).inputSchema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: true });
  });

  it('additionalProperties as a schema is not `true`: non-strict, and the schema is replaced by true (M2, M3)', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: { type: 'number' } };
    expect((await shownOne(schema)).inputSchema).toEqual({ ...schema, additionalProperties: true });
  });

  it('a root that allows extra keys goes strict: closed at the root, and shown when every key is required and nothing nested is open (M2)', async () => {
    const schema = { type: 'object', properties: { verb: { type: 'string' }, person: { type: 'string' } }, required: ['verb', 'person'], additionalProperties: true };
    expect((await shownOne(schema)).inputSchema).toEqual({ ...schema, additionalProperties: false });
  });

  it('strict, with an optional key: the API refuses the whole request (M2; openai-strict "required ... Missing")', async () => {
    expect(await view({ type: 'object', properties: { verb: { type: 'string' }, note: { type: 'string' } }, required: ['verb'], additionalProperties: true })).toEqual({
      rejected:
        "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'note'.",
      lost: 'request',
      // The API's answer to a strict tool is the kit's openai-strict rules: their evidence, OpenAI's guide (2024-08).
      evidence: expect.objectContaining({ kind: 'docs', date: '2024-08-06' }),
    });
  });

  it('strict only closes the root: a nested open object is refused (M2; openai-strict additionalProperties rule)', async () => {
    const nested = { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] };
    expect(await view({ type: 'object', properties: { a: nested }, required: ['a'], additionalProperties: true })).toEqual({
      rejected: "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=('properties', 'a'), 'additionalProperties' is required to be supplied and to be false.",
      lost: 'request',
      // The API's answer to a strict tool is the kit's openai-strict rules: their evidence, OpenAI's guide (2024-08).
      evidence: expect.objectContaining({ kind: 'docs', date: '2024-08-06' }),
    });
  });

  it('one strict tool the API refuses takes down the request with the others (M2)', async () => {
    const v = await view(BASELINE, { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true });
    expect(v).toEqual({
      rejected: "400 invalid_function_parameters: Invalid schema for function 'tool1': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'a'.",
      lost: 'request',
      // The API's answer to a strict tool is the kit's openai-strict rules: their evidence, OpenAI's guide (2024-08).
      evidence: expect.objectContaining({ kind: 'docs', date: '2024-08-06' }),
    });
  });

  it('a root that is not "type": "object" ends the run before the model is called (M5: zod 3 invalid_literal)', async () => {
    expect(await view(BASELINE, { anyOf: [{ type: 'object', properties: {} }] })).toEqual({
      rejected:
        'the run fails before the model is called (Agent.getAllTools): ZodError: [{"code":"invalid_literal","expected":"object","path":["tools",1,"inputSchema","type"],"message":"Invalid literal value, expected \\"object\\""}]',
      lost: 'request',
    });
  });

  it('a description left out is shown empty (tool(): description || "")', async () => {
    const v = await agents.present([{ name: 'conjugate', inputSchema: { type: 'object', properties: {} } }]);
    expect('tools' in v && v.tools[0]!.description).toBe('');
  });
});

describe('the real package, not a pass-through', () => {
  // A pass-through (the published schema copied) would keep the names and additionalProperties: false.
  it('hyphens in a name become underscores and the root is opened', async () => {
    const v = await agents.present([{ name: 'get-sum.v2', description: 'Adds.', inputSchema: BASELINE as never }]);
    expect(v).toEqual({ tools: [{ name: 'get_sum_v2', description: 'Adds.', inputSchema: { ...BASELINE, additionalProperties: true } }] });
  });

  it("prints nothing: the SDK's default trace exporter writes every span to stdout unless tracing is disabled", async () => {
    // In a child process without NODE_ENV=test, which the SDK reads as "tracing off" (config.ts `tracing.disabled`):
    // the profile and the package bundled together (one copy of the SDK's global trace provider), the package
    // resolved from the host frameworks' install, as the kit's own bundles resolve it (src/core/bundler.mjs).
    const dir = mkdtempSync(join(REPO, 'node_modules', '.cache', 'schema-breaks-agents-trace-'));
    try {
      writeFileSync(
        join(dir, 'child.ts'),
        [
          `import { openAiAgents202510 as p } from ${JSON.stringify(join(REPO, 'src/lab/profiles/openai-agents.ts'))};`,
          `import { getGlobalTraceProvider } from '@openai/agents-core';`,
          `await p.present([{ name: 'conjugate', inputSchema: { type: 'object', properties: {} } }]);`,
          `await getGlobalTraceProvider().forceFlush();`,
          `process.stdout.write('done');`,
        ].join('\n'),
      );
      await bundle(join(dir, 'child.ts'), join(dir, 'child.mjs'), { nodePaths: [join(hostsDir(REPO), 'node_modules')] });
      const { NODE_ENV: _test, ...env } = process.env;
      const out = execFileSync(process.execPath, [join(dir, 'child.mjs')], { cwd: REPO, env, encoding: 'utf8' });
      expect(out).toBe('done');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('present never mutates its input', async () => {
    const tools = published(BASELINE, NO_REQUIRED);
    const before = structuredClone(tools);
    await agents.present(tools);
    expect(tools).toEqual(before);
  });
});

describe('validate: the real FunctionTool.invoke, whose only check is JSON.parse (M6)', () => {
  it('anything the model sends as an object reaches the server unchanged: a wrong enum value, a missing key, an extra key', async () => {
    const seen = await shownOne(BASELINE);
    const args = { verb: 'fly', tense: 'simple past', mood: 'x' };
    expect(await agents.validate(seen, structuredClone(args))).toEqual({ ok: true, args });
  });

  it('what JSON cannot carry is not sent: an undefined value is dropped on the way (JSON.stringify, then JSON.parse)', async () => {
    const seen = await shownOne(BASELINE);
    // toStrictEqual: a pass-through would keep the key `person` (undefined), which toEqual would not see.
    expect(await agents.validate(seen, { verb: 'go', person: undefined })).toStrictEqual({ ok: true, args: { verb: 'go' } });
  });

  it("arguments that are not JSON get the SDK's default tool error text (defaultToolErrorFunction, ModelBehaviorError)", async () => {
    const core = await import('@openai/agents-core');
    let called = false;
    const server = {
      name: 's',
      cacheToolsList: false,
      connect: async () => {},
      close: async () => {},
      invalidateToolsCache: async () => {},
      listTools: async () => [],
      callTool: async () => ((called = true), []),
    };
    const t = core.mcpToFunctionTool({ name: 'conjugate', inputSchema: BASELINE } as never, server, false);
    expect(await t.invoke(new core.RunContext(), '{"verb": ')).toBe('An error occurred while running the tool. Please try again. Error: Error: Invalid JSON input for tool');
    expect(called).toBe(false);
  });
});

describe("the linter's matrix column for this host, on the recorded real servers", () => {
  it('server-everything: only echo keeps its name (M4); no root says additionalProperties, so nothing else is lost (M1, M3)', async () => {
    const tools = recorded('server-everything') as ListedTool[];
    const names = tools.map((t) => t.name);
    const expected: Record<string, string> = Object.fromEntries(names.map((n) => [n, n === 'echo' ? 'A' : 'L']));
    expect(await column(tools)).toEqual({ ...expected, '(all tools, one request)': 'L' });
    const sum = await hostVerdict(agents, tools.find((t) => t.name === 'get-sum')!);
    expect(sum.lost).toEqual([{ kind: 'name', path: '/name', what: 'name shown as get_sum' }]);
  });

  it('server-filesystem and server-memory: snake_case names, no additionalProperties: every tool shown as published', async () => {
    for (const server of ['server-filesystem', 'server-memory']) {
      const tools = recorded(server) as ListedTool[];
      const expected = Object.fromEntries(tools.map((t) => [t.name, 'A']));
      expect(await column(tools), server).toEqual({ ...expected, '(all tools, one request)': 'A' });
    }
  });

  it('openapi-pet-clinic: crt-pet has no root type (M5: the run fails), the others are renamed (M4)', async () => {
    const tools = recorded('openapi-pet-clinic') as ListedTool[];
    expect(await column(tools)).toEqual({
      'lst-pets': 'L',
      'crt-pet': 'R',
      'rename-pet': 'L',
      'book-visit': 'L',
      'upd-owner': 'L',
      '(all tools, one request)': 'R',
    });
  });

  it("the kit's own baseline server: every tool publishes additionalProperties: false, sent as true (M3)", async () => {
    const listing = await readServer({ label: 'baseline', command: process.execPath, args: [SERVER_JS] }, 10_000);
    const tools = listing.tools as ListedTool[];
    expect(await column(tools)).toEqual({ conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' });
    const v = await hostVerdict(agents, tools[0]!);
    expect(v.lost?.map((l) => l.kind)).toEqual(['additionalProperties']);
  });

  // Every break's server, built as the labs build it. What each publishes (read in breaks/*.patch): a root with
  // additionalProperties: false on every tool (M3: L), but the transformed roots, published {type: object,
  // properties: {}} (root-transform, root-transform-shape: conjugate), and readonly-gate's lessons, published
  // {type: object}, which say nothing M1 and M3 could lose (A).
  it('every break of the kit: L wherever the root said additionalProperties: false, A where it said nothing', async () => {
    const L = { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' };
    const expected: Record<string, Record<string, string>> = {
      'broken-schema': L,
      'discriminated-union': L,
      'readonly-gate': { ...L, lessons: 'A' },
      'root-transform': { ...L, conjugate: 'A' },
      'root-transform-shape': { ...L, conjugate: 'A' },
      'schema-drift': L,
      'structural-anyof': L,
      'unreachable-filter': L,
      // Only $schema differs from the baseline (2020-12); every root still says additionalProperties: false.
      'schema-dialect': L,
      // conjugate gains an outputSchema; its inputSchema, the one shown, is the baseline's.
      'output-schema': L,
    };
    for (const [variant, letters] of Object.entries(expected)) {
      const tools = await publishedTools(variant);
      expect(await column(tools), variant).toEqual(letters);
    }
  }, 120_000);
});
