/**
 * mastra-google-2025-12: a Mastra 0.24.9 agent with MCP tools and a Gemini model, run on the published schemas.
 * The profile runs the packages themselves; every expected value here is derived by hand from their code, read at
 * the tags (mastra-ai/mastra @mastra/mcp@0.14.5, @mastra/core@0.24.9, @mastra/schema-compat@0.11.9;
 * glideapps/zod-from-json-schema v0.5.2; vercel/ai @ai-sdk/google@2.0.40). The rules:
 *  M1 the MCP SDK's Client parses tools/list (ListToolsResultSchema): a root whose type is not "object" fails the
 *     parse, @mastra/mcp's tools() throws and getTools()/getToolsets() rethrow MCP_CLIENT_GET_TOOLSETS_FAILED: the
 *     agent gets no MCP tools (R, the whole request).
 *  Z1 zod-from-json-schema 0.5.2 (convertSchemaNode): a node with no "type" admits all six JSON types; with any
 *     constraint keyword beside it (anyOf, oneOf, ...) it is z.union([string, number, boolean, null, array, object]).
 *  Z2 anyOf: z.intersection(<the node's own types>, z.union(<branches>)) (AnyOfHandler, always an intersection).
 *  Z3 oneOf: <the node's own types>.refine(exactly one branch parses).
 *  Z4 a key left out of "required" is .optional(); additionalProperties: false is a plain z.object(shape), which
 *     strips unknown keys (anything else is .passthrough()); "default" is .default(v); format (but binary) is not
 *     read; minLength/maxLength are refinements.
 *  G1 GoogleSchemaCompatLayer (provider id contains "google"), zod v4 branch: an optional value is returned as it
 *     is (defaultZodOptionalHandler compares the ZodOptional's own class name with the handled types, which never
 *     matches); a required intersection throws "<modelId> does not support zod type: ZodIntersection" from
 *     CoreToolBuilder.build, so the agent's call fails before the model is asked (R); a union is rebuilt from its
 *     processed options, so a refinement on it (Z3) is gone from the schema shown; null becomes z.any() described
 *     "must be null".
 *  W1 @ai-sdk/google 2.0.40 convertJSONSchemaToOpenAPISchema keeps only type (a list with "null" becomes the other
 *     type and nullable: true), description, required, format, const (as enum), enum, properties, items, allOf,
 *     anyOf (a "null" branch becomes nullable), oneOf, minLength: additionalProperties, default, minimum, maximum,
 *     minItems, $schema, title, x-... never reach the request.
 *  V1 the check: core tools/validation.ts validateToolInput on the G1-processed schema, text
 *     "Tool validation failed for <name>. Please fix the following errors and try again:\n- <path>: <zod message>
 *     \n\nProvided arguments: <JSON, 2 spaces>", returned to the model as the tool's result; then tools/tool.ts
 *     Tool.execute checks the unprocessed schema and the MCP client sends the parsed data (defaults filled in, Z4).
 * Letters: A shown as published, L something lost (W1 is enough: additionalProperties: false, a default, a bound),
 * R the request fails (M1, G1), D every tool left out. The profile is not in PROFILES yet (the lead registers it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mastraGoogle202512 as mastra } from '../src/lab/profiles/mastra.js';
import type { SeenTool } from '../src/lab/types.js';
import { hostVerdict } from '../src/lint/hosts.js';
import { readServer } from '../src/lint/server.js';
import type { ListedTool } from '../src/lint/types.js';
import { hostColumn, publishedTools } from './helpers/host-column.js';
import { recorded } from './helpers/lint.js';
import { ANY_OF_VERB, BASELINE, NO_REQUIRED, ONE_OF_VERB, PERSON, ROOT_ANY_OF, TENSE, TYPE_LIST, VERB, published, type Json } from './helpers/profiles.js';
import { REPO, SERVER_JS } from './helpers/server.js';

async function shownOne(schema: Json): Promise<SeenTool> {
  const v = await mastra.present(published(schema));
  if ('rejected' in v) throw new Error(`rejected: ${v.rejected}`);
  return v.tools[0]!;
}

async function refusal(schema: Json): Promise<{ rejected: string; lost: string }> {
  const v = await mastra.present(published(schema));
  if (!('rejected' in v)) throw new Error(`shown: ${JSON.stringify(v.tools)}`);
  return v;
}


/** This host's column of the linter's matrix (test/helpers/host-column.ts). */
const column = (tools: unknown[]) => hostColumn(mastra, tools);

const version = (dir: string) => (JSON.parse(readFileSync(join(REPO, 'hosts', 'node_modules', dir, 'package.json'), 'utf8')) as { version: string }).version;
/** The version of `name` that `from` loads, found as Node finds it: under `from`'s own node_modules first, else hoisted to the top of the hosts' install (hosts/). */
const versionSeenBy = (from: string, name: string) => (existsSync(join(REPO, 'hosts', 'node_modules', from, 'node_modules', name)) ? version(`${from}/node_modules/${name}`) : version(name));

describe('the packages the profile runs are the pinned ones', () => {
  it('Mastra 0.24.9 / 0.14.5 / 0.11.9, @ai-sdk/google 2.0.40, and zod-from-json-schema 0.5.2 under both Mastra packages (the override)', () => {
    expect(version('@mastra/core')).toBe('0.24.9');
    expect(version('@mastra/mcp')).toBe('0.14.5');
    expect(version('@mastra/schema-compat')).toBe('0.11.9');
    expect(version('@ai-sdk/google-v5')).toBe('2.0.40');
    expect(versionSeenBy('@mastra/mcp', 'zod-from-json-schema')).toBe('0.5.2');
    expect(versionSeenBy('@mastra/schema-compat', 'zod-from-json-schema')).toBe('0.5.2');
  });
});

describe('the kit baseline and breaks (schemas by hand in test/helpers/profiles.ts)', () => {
  it('the baseline: the request carries type, properties, enums, descriptions and required; $schema and additionalProperties: false are not sent (W1)', async () => {
    expect(await shownOne(BASELINE)).toEqual({
      name: 'conjugate',
      description: 'Conjugates an English verb.',
      inputSchema: { type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON }, required: ['verb', 'tense', 'person'] },
    });
  });

  it('no required: every key optional (Z4), shown without required', async () => {
    expect((await shownOne(NO_REQUIRED)).inputSchema).toEqual({ type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON } });
  });

  it('a required anyOf of objects (structural-anyof) fails the agent call before the model is asked (Z2, G1)', async () => {
    expect(await refusal(ANY_OF_VERB)).toEqual({
      rejected: "the agent's call fails before the model is asked (CoreToolBuilder.build): gemini-2.5-flash does not support zod type: ZodIntersection",
      lost: 'request',
    });
  });

  it('a root anyOf beside type: object is an intersection at the root: refused the same way (Z2, G1)', async () => {
    expect((await refusal(ROOT_ANY_OF)).rejected).toContain('does not support zod type: ZodIntersection');
  });

  it('the same anyOf made optional passes G1 untouched: shown (as an allOf of the node and the union), not refused', async () => {
    const optional = { ...ANY_OF_VERB, required: ['tense', 'person'] };
    const verb = ((await shownOne(optional)).inputSchema.properties as Json).verb as Json;
    expect(Object.keys(verb)).toEqual(['allOf']);
  });

  it('a required oneOf (discriminated-union): the six JSON types, the branches and their refinement gone (Z1, Z3, G1)', async () => {
    const verb = ((await shownOne(ONE_OF_VERB)).inputSchema.properties as Json).verb as { anyOf: Json[] };
    expect(verb.anyOf.slice(0, 4)).toEqual([{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { description: 'must be null' }]);
    expect(verb.anyOf).toHaveLength(6);
    expect(JSON.stringify(verb)).not.toContain('kind');
  });

  it('a root that is not an object fails the MCP client (M1): the whole request', async () => {
    const v = await refusal({ anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] });
    expect(v.lost).toBe('request');
    expect(v.rejected).toMatch(/^MCPClient\.getTools\(\) throws \(MCP_CLIENT_GET_TOOLSETS_FAILED\): ZodError: /);
  });

  it('a required number\'s bounds and a required string\'s pattern are told as description text, not as keywords (G1, W1)', async () => {
    // google.ts: defaultZodNumberHandler / defaultZodStringHandler (zod 4 branch) move greater_than/less_than and the
    // regex format into mergeParameterDescription: "constraints: " + the list joined by ", ". The optional ones stay as
    // keywords and @ai-sdk/google drops them (lst-pets below).
    const shown = await shownOne({ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 5 }, s: { type: 'string', pattern: '^a' } }, required: ['n', 's'] });
    expect(shown.inputSchema).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', description: 'constraints: greater than or equal to 1, lower than or equal to 5' },
        s: { type: 'string', description: 'constraints: input must match this regex /^a/' },
      },
      required: ['n', 's'],
    });
  });

  it('a local $ref is inlined by the MCP client (convertInputSchema dereferences first), and the published tool is left as it was', async () => {
    const schema = { type: 'object', properties: { tense: { $ref: '#/$defs/tense' } }, required: ['tense'], $defs: { tense: TENSE } };
    const before = JSON.stringify(schema);
    expect((await shownOne(schema)).inputSchema).toEqual({ type: 'object', properties: { tense: TENSE }, required: ['tense'] });
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('a nullable type list, optional: sent as the type with nullable: true (Z4, G1 optional untouched, W1)', async () => {
    expect((await shownOne(TYPE_LIST)).inputSchema).toEqual({ type: 'object', properties: { verb: { type: 'string' }, note: { type: 'string', nullable: true } }, required: ['verb'] });
  });
});

describe("tool names: the agent's formatTools (N1, @mastra/core 0.24.9 agent.ts)", () => {
  // N1 by hand, from formatTools: every character outside [a-zA-Z0-9_-] becomes "_", a name that does not start with a
  // letter or "_" gets "_" in front, and the result is cut to 63 characters; a name renamed onto another tool's throws
  // MastraError AGENT_TOOL_NAME_COLLISION, and the agent's call fails before the model is asked (R).
  const RENAMED: [string, string][] = [
    ['notes/search', 'notes_search'],
    ['db.query', 'db_query'],
    ['1st-pass', '_1st-pass'],
    ['get-sum', 'get-sum'],
    ['x'.repeat(70), 'x'.repeat(63)],
  ];
  const tool = (name: string) => ({ name, description: 'Search the notes.', inputSchema: { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] } });

  it('the table is what a real Agent sends: agent.generate() with these names as a toolset, its request to @ai-sdk/google 2.0.40 recorded', async () => {
    const [{ Agent }, { createTool }, { createGoogleGenerativeAI }, { z }] = await Promise.all([
      import('@mastra/core/agent'),
      import('@mastra/core/tools' as string) as Promise<{ createTool: (o: Record<string, unknown>) => unknown }>,
      import('@ai-sdk/google-v5'),
      import('zod'),
    ]);
    let sent: string[] = [];
    const fetch = (async (_url: unknown, init?: { body?: unknown }) => {
      sent = (JSON.parse(String(init?.body)) as { tools: { functionDeclarations: { name: string }[] } }).tools.functionDeclarations.map((d) => d.name);
      return new Response(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }), { headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const agent = new Agent({ name: 'app', instructions: 'app', model: createGoogleGenerativeAI({ apiKey: 'kit', fetch }).chat('gemini-2.5-flash') });
    const toolset = Object.fromEntries(RENAMED.map(([name]) => [name, createTool({ id: name, description: 'd', inputSchema: z.object({ q: z.string() }), execute: async () => ({}) })]));
    await agent.generate('hello', { toolsets: { srv: toolset as never } });
    // formatTools deletes a renamed key and adds it again, so renamed tools come after the others: the order is not compared.
    expect(sent.sort()).toEqual(RENAMED.map(([, shown]) => shown).sort());
  });

  it('the profile shows each tool under the name the agent gives it, and its argument check still runs', async () => {
    const view = await mastra.present(RENAMED.map(([name]) => tool(name)));
    if ('rejected' in view) throw new Error(view.rejected);
    expect(view.tools.map((t) => t.name).sort()).toEqual(RENAMED.map(([, shown]) => shown).sort());
    expect(await mastra.validate(view.tools.find((t) => t.name === 'notes_search')!, { q: 'milk' })).toEqual({ ok: true, args: { q: 'milk' } });
  });

  it('a name renamed onto another tool\'s: the agent throws AGENT_TOOL_NAME_COLLISION, the whole call fails (R); each alone is shown', async () => {
    expect(await mastra.present([tool('notes/search'), tool('notes_search')])).toEqual({
      rejected:
        'the agent\'s call fails before the model is asked (Agent.formatTools, AGENT_TOOL_NAME_COLLISION): ' +
        'Two or more tools resolve to the same name "notes_search". Please rename one of the tools to avoid this collision.',
      lost: 'request',
    });
    expect(await column([tool('notes/search'), tool('notes_search')])).toEqual({ 'notes/search': 'L', notes_search: 'A', '(all tools, one request)': 'R' });
  });
});

describe("the argument check: the tool's own execute (V1)", () => {
  it('a verb outside the enum: the validation text, and nothing sent', async () => {
    const tool = await shownOne(BASELINE);
    expect(await mastra.validate(tool, { verb: 'run', tense: 'simple past', person: '1st singular' })).toEqual({
      ok: false,
      error:
        'Tool validation failed for conjugate. Please fix the following errors and try again:\n' +
        '- verb: Invalid option: expected one of "eat"|"go"|"sew"\n\n' +
        'Provided arguments: {\n  "verb": "run",\n  "tense": "simple past",\n  "person": "1st singular"\n}',
    });
  });

  it('a key the additionalProperties: false root does not have is not refused: it is dropped before the call (Z4)', async () => {
    const tool = await shownOne(BASELINE);
    expect(await mastra.validate(tool, { verb: 'eat', tense: 'simple past', person: '1st singular', mood: 'x' })).toEqual({
      ok: true,
      args: { verb: 'eat', tense: 'simple past', person: '1st singular' },
    });
  });

  it("a required key left out: zod's message for undefined", async () => {
    const tool = await shownOne(BASELINE);
    const checked = await mastra.validate(tool, { verb: 'eat', tense: 'simple past' });
    expect(!checked.ok && checked.error.split('\n')[1]).toBe('- person: Invalid option: expected one of "1st singular"|"3rd singular"');
  });

  it('a valid call goes through as sent; a left-out key with a default is sent with it (Z4, V1)', async () => {
    const tool = await shownOne(BASELINE);
    expect(await mastra.validate(tool, { verb: 'eat', tense: 'simple past', person: '1st singular' })).toEqual({ ok: true, args: { verb: 'eat', tense: 'simple past', person: '1st singular' } });
    const withDefault = await shownOne({ type: 'object', properties: { verb: { type: 'string' }, count: { type: 'integer', default: 3 } }, required: ['verb'] });
    expect(await mastra.validate(withDefault, { verb: 'eat' })).toEqual({ ok: true, args: { verb: 'eat', count: 3 } });
  });

  it('the oneOf the model is not shown is still checked, by the unprocessed schema (Z3, V1)', async () => {
    const tool = await shownOne(ONE_OF_VERB);
    const checked = await mastra.validate(tool, { verb: 'eat', tense: 'simple past' });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error.split('\n')[1]).toBe('- verb: Value must match exactly one of the oneOf schemas');
  });
});

describe('the recorded tools/list of the real servers (test/fixtures/lint/recorded/)', () => {
  it('server-everything: L wherever a default, a bound or a format was published (W1, Z4), A elsewhere', async () => {
    expect(await column(recorded('server-everything') as ListedTool[])).toEqual({
      echo: 'A',
      'get-annotated-message': 'L', // includeImage default
      'get-env': 'A',
      'get-resource-links': 'L', // count: default, minimum, maximum
      'get-resource-reference': 'L', // defaults
      'get-structured-content': 'A',
      'get-sum': 'A',
      'get-tiny-image': 'A',
      'gzip-file-as-resource': 'L', // defaults; data's format: uri is never read (Z4)
      'toggle-simulated-logging': 'A',
      'toggle-subscriber-updates': 'A',
      'trigger-long-running-operation': 'L', // defaults
      'get-roots-list': 'A',
      'trigger-elicitation-request': 'A',
      'trigger-url-elicitation': 'L', // url's format, defaults
      'trigger-sampling-request': 'L', // maxTokens default
      'simulate-research-query': 'L', // ambiguous default
      '(all tools, one request)': 'L',
    });
  });

  it('server-memory: arrays of objects, all required: A', async () => {
    const tools = recorded('server-memory') as ListedTool[];
    expect(await column(tools)).toEqual({ ...Object.fromEntries(tools.map((t) => [t.name, 'A'])), '(all tools, one request)': 'A' });
  });

  it('server-filesystem: L for minItems (W1) and for every default', async () => {
    expect(await column(recorded('server-filesystem') as ListedTool[])).toEqual({
      read_file: 'A',
      read_text_file: 'A',
      read_media_file: 'A',
      read_multiple_files: 'L', // paths: minItems 1
      write_file: 'A',
      edit_file: 'L', // dryRun default
      create_directory: 'A',
      list_directory: 'A',
      list_directory_with_sizes: 'L', // sortBy default
      directory_tree: 'L', // excludePatterns default
      move_file: 'A',
      search_files: 'L', // excludePatterns default
      get_file_info: 'A',
      list_allowed_directories: 'A',
      '(all tools, one request)': 'L',
    });
  });

  it('openapi-pet-clinic: the untyped root fails the list (M1), required anyOfs fail the call (G1), a required oneOf is shown as any value (G1)', async () => {
    expect(await column(recorded('openapi-pet-clinic') as ListedTool[])).toEqual({
      'lst-pets': 'L', // limit: minimum, maximum (optional, so untouched by G1; W1 drops them)
      'crt-pet': 'R', // root oneOf without type (M1)
      'rename-pet': 'R', // nickname: required anyOf [string, null] (Z2, G1)
      'book-visit': 'R', // pet: required anyOf of objects (Z2, G1)
      'upd-owner': 'L', // contact: required oneOf (Z1, Z3, G1)
      '(all tools, one request)': 'R',
    });
  });

  it("the kit's own baseline server: every tool publishes additionalProperties: false, not sent (W1)", async () => {
    const listing = await readServer({ label: 'baseline', command: process.execPath, args: [SERVER_JS] }, 10_000);
    const tools = listing.tools as ListedTool[];
    expect(await column(tools)).toEqual({ conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' });
    expect((await hostVerdict(mastra, tools[0]!)).lost?.map((l) => l.kind)).toEqual(['additionalProperties']);
  });

  // Every break's server, built as the labs build it (read in breaks/*.patch): L wherever the root says
  // additionalProperties: false (W1); structural-anyof's conjugate has a required anyOf (R, G1), which takes the
  // request down; the transformed roots ({type: object, properties: {}}) and readonly-gate's lessons ({type: object})
  // lose nothing (A).
  it('every break of the kit', async () => {
    const L = { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' };
    const expected: Record<string, Record<string, string>> = {
      'broken-schema': L,
      'discriminated-union': L,
      'readonly-gate': { ...L, lessons: 'A' },
      'root-transform': { ...L, conjugate: 'A' },
      'root-transform-shape': { ...L, conjugate: 'A' },
      'schema-drift': L,
      'structural-anyof': { ...L, conjugate: 'R', '(all tools, one request)': 'R' },
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

describe('a remote $ref: no network, no minute-long wait', () => {
  it('the ref resolver is answered by the profile, the tool is left out as Mastra leaves it, and the global fetch is given back', async () => {
    const calls: string[] = [];
    const spy = (async (url: unknown) => {
      calls.push(String(url));
      return new Response('{}', { status: 200 });
    }) as typeof globalThis.fetch;
    const before = globalThis.fetch;
    globalThis.fetch = spy;
    try {
      const remote = { type: 'object', properties: { order: { $ref: 'https://example.com/schemas/order.json' } }, required: ['order'] };
      const view = await mastra.present([{ name: 'ref_remote', description: 'Validate an order.', inputSchema: remote as never }]);
      // @mastra/mcp's tools(): the conversion throws ("HTTP ERROR 404" from the resolver), the tool is logged and left out.
      expect(view).toMatchObject({ lost: 'server', rejected: expect.stringContaining('Failed to create Mastra tool wrapper for MCP tool: ref_remote') });
      expect(calls).toEqual([]);
      expect(globalThis.fetch).toBe(spy);
    } finally {
      globalThis.fetch = before;
    }
  });
});
