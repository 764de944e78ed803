/**
 * gemini-cli-2025-06 against the real @google/genai 1.4.0 (npm alias
 * genai-1-4, the version gemini-cli v0.1.1's package-lock.json resolves at
 * 6991ba13). The profile transcribes `mcpToTool(client).tool()`
 * (src/lab/profiles/genai-mcp.ts); here the same tool lists go through the
 * transcription and through the package's own `mcpToTool`, on a client whose
 * `listTools()` answers with the list (what gemini-cli hands it: the MCP SDK
 * client). The lists: every server the kit ships (baseline, each break's base,
 * variant and solution, on every server build), the recorded tools/list of
 * every real server in test/fixtures/lint/recorded/, hand-made lists for
 * every way the package throws, and generated schemas.
 *
 * Two levels are compared:
 *  1. the conversion: the `parameters` of each declaration, or the text of
 *     the error thrown (`${error}`, as gemini-cli logs it), for the whole list
 *     and for each tool alone (the linter's per-tool verdicts);
 *  2. the profile: what `present` answers, against what gemini-cli v0.1.1 does
 *     with the real declarations. The expected side is written here from
 *     gemini-cli's source (mcp-client.ts at 6991ba13, quoted below), not from
 *     the profile: a thrown error loses the server with the catch's text;
 *     otherwise `sanatizeParameters` runs, the request goes to the API (the
 *     API's rules are the profile's gemini-api.ts, not under test here), and
 *     the model is shown the declarations, with the kit's lowercase types.
 */
import { basename, dirname } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEGACY_2025_06, legacyApiRefusal } from '../src/lab/profiles/gemini-api.js';
import { getProfile } from '../src/lab/profiles/index.js';
import type { PublishedTool } from '../src/lab/profiles/shared.js';
import { buildServer, kitServerPatches, serverCommand } from '../src/lab/variants.js';
import { readServer } from '../src/lint/server.js';
import { SERVER_BUILDS } from '../src/minimcp/errors.js';
import { mcpToolParameters, GenaiError } from '../src/lab/profiles/genai-mcp.js';
import { recorded } from './helpers/lint.js';

type Json = Record<string, unknown>;
type Tools = { name: string; description?: string; inputSchema: unknown }[];
type Converted = { declarations: unknown[] } | { error: string };

const profile = getProfile('gemini-cli-2025-06')!;

/** The real `mcpToTool(client).tool()` of @google/genai 1.4.0 on a client whose listTools() answers with `tools`. */
async function real(tools: Tools): Promise<Converted> {
  const { mcpToTool } = await import('genai-1-4');
  const client = { listTools: async () => ({ tools: structuredClone(tools) }) };
  try {
    const tool = await mcpToTool(client as never).tool();
    return { declarations: tool.functionDeclarations!.map((d) => d.parameters) };
  } catch (error) {
    return { error: `${error}` };
  }
}

/** The transcription the profile runs. */
function transcribed(tools: Tools): Converted {
  try {
    return { declarations: mcpToolParameters(structuredClone(tools)) };
  } catch (error) {
    if (error instanceof GenaiError) return { error: error.text };
    throw error;
  }
}

/**
 * gemini-cli's `sanatizeParameters` (mcp-client.ts at 6991ba13), on the real declaration:
 *   if (schema.anyOf) { schema.default = undefined; for (const item of schema.anyOf) sanatizeParameters(item); }
 *   if (schema.items) sanatizeParameters(schema.items);
 *   if (schema.properties) for (const item of Object.values(schema.properties)) sanatizeParameters(item);
 * (`default = undefined` leaves the key, which JSON, and so the request, does not carry: deleted here.)
 */
function sanatizeParameters(schema: Json | undefined): void {
  if (!schema) return;
  if (schema.anyOf) {
    delete schema.default;
    for (const item of schema.anyOf as Json[]) sanatizeParameters(item);
  }
  if (schema.items) sanatizeParameters(schema.items as Json);
  if (schema.properties) for (const item of Object.values(schema.properties as Json)) sanatizeParameters(item as Json);
}

/** The kit shows the model JSON Schema's lowercase type names (profile notes): "STRING" is "string"; TYPE_UNSPECIFIED ("not specified") is no type. */
function kitCase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(kitCase);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') {
      if (value !== 'TYPE_UNSPECIFIED') out[key] = value.toLowerCase();
    } else if (key === 'items' || key === 'anyOf') out[key] = kitCase(value);
    else if (key === 'properties' && value && typeof value === 'object') out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, kitCase(v)]));
    else out[key] = value;
  }
  return out;
}

/**
 * What gemini-cli v0.1.1 does with the list, from the real conversion. The
 * parse stage of its requests names declarations `request.tools[0].function_declarations`
 * (google-gemini/gemini-cli#2031); the API's answer is the profile's own rules, fed the real declarations.
 */
async function geminiCli(tools: Tools): Promise<unknown> {
  const converted = await real(tools);
  if ('error' in converted) return { rejected: `Failed to list or register tools for MCP server '<server>': ${converted.error}`, lost: 'server' };
  const declarations = converted.declarations as Json[];
  for (const parameters of declarations) sanatizeParameters(parameters);
  const refusal = legacyApiRefusal({ ...LEGACY_2025_06, parsePrefix: 'request.tools[0].function_declarations' }, JSON.parse(JSON.stringify(declarations)));
  if (refusal) return { rejected: `400 INVALID_ARGUMENT: ${refusal}`, lost: 'request' };
  return {
    tools: tools.map((tool, i) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: kitCase(JSON.parse(JSON.stringify(declarations[i]))),
    })),
  };
}

/** The MCP SDK client's own check comes first (mcp-sdk.ts): a list it refuses never reaches @google/genai. */
function mcpSdkRefuses(tools: Tools): boolean {
  return tools.some(({ inputSchema: s }) => {
    const schema = s as Json;
    return (
      !schema ||
      typeof schema !== 'object' ||
      schema.type !== 'object' ||
      ('properties' in schema && (schema.properties === null || typeof schema.properties !== 'object' || Array.isArray(schema.properties))) ||
      ('required' in schema && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string')))
    );
  });
}

async function expectParity(tools: Tools): Promise<void> {
  const reference = await real(tools);
  expect(transcribed(tools), 'the conversion').toEqual(reference);
  const view = await profile.present(tools as PublishedTool[]);
  if (mcpSdkRefuses(tools)) {
    expect(view, 'a list the MCP SDK refuses').toMatchObject({ lost: 'server', rejected: expect.stringMatching(/^Failed to list or register tools for MCP server '<server>': \(kit text: a ZodError/) });
    return;
  }
  // What a rejection rests on (its `evidence`, issue 33) is the kit's provenance, not the host's behaviour: not compared.
  const behaviour = 'rejected' in view ? { rejected: view.rejected, lost: view.lost } : view;
  expect(behaviour, 'what the model is shown, or what is lost').toEqual(await geminiCli(tools));
}

/** The tools/list of every server the kit ships, on every build; identical lists once, under every name they go by. */
async function kitLists(): Promise<[string, Tools][]> {
  const lists = new Map<string, { names: string[]; tools: Tools }>();
  for (const patches of kitServerPatches()) {
    const js = await buildServer(patches);
    const variant = patches.length === 0 ? 'baseline' : patches.map((p) => `${basename(dirname(p))}/${basename(p, '.patch')}`).join(' + ');
    const listings = await Promise.all(
      SERVER_BUILDS.map(async (build) => {
        const { command, args } = serverCommand(js, ['--build', build]);
        return { build, tools: (await readServer({ label: variant, command, args }, 10_000)).tools as Tools };
      }),
    );
    for (const { build, tools } of listings) {
      const key = JSON.stringify(tools);
      const seen = lists.get(key) ?? { names: [], tools };
      seen.names.push(`${variant} --build ${build}`);
      lists.set(key, seen);
    }
  }
  return [...lists.values()].map(({ names, tools }) => [names.join(', '), tools]);
}

describe('every server the kit ships, every build: gemini-cli-2025-06 converts as @google/genai 1.4.0 does', async () => {
  const lists = await kitLists();

  it('the kit ships servers whose lists differ, and this covers them all', () => {
    // 17 servers x 3 builds, of which many publish the same list; a break that changes nothing would show here.
    expect(lists.length).toBeGreaterThanOrEqual(8);
  });

  it.each(lists)('%s: the whole list', async (_name, tools) => {
    await expectParity(tools);
  });

  it.each(lists)('%s: each tool alone', async (_name, tools) => {
    for (const tool of tools) await expectParity([tool]);
  });
});

describe('the recorded tools/list of every real server', () => {
  it.each(['server-everything', 'server-filesystem', 'server-memory', 'openapi-pet-clinic'])('%s: the whole list and each tool alone', async (name) => {
    const tools = recorded(name) as Tools;
    await expectParity(tools);
    for (const tool of tools) await expectParity([tool]);
  });
});

/** Every way @google/genai 1.4.0 throws on a list, and the quirks of its filter, each in one hand-made list. */
const tool = (inputSchema: Json, name = 'conjugate'): Tools[number] => ({ name, description: 'Conjugates an English verb.', inputSchema });
const obj = (properties: Json): Json => ({ type: 'object', properties });
const HAND: [string, Tools][] = [
  ['type beside anyOf', [tool(obj({ a: { type: 'string', anyOf: [{ type: 'string' }, { type: 'null' }] } }))]],
  ['a type list', [tool(obj({ a: { type: ['string', 'null'] } }))]],
  ['a type that is null', [tool(obj({ a: { type: null } }))]],
  ['a type that is a number', [tool(obj({ a: { type: 3 } }))]],
  ['a type that is not a Type', [tool(obj({ a: { type: 'date' } }))]],
  ['anyOf that is an object', [tool(obj({ a: { anyOf: { type: 'string' } } }))]],
  ['anyOf that is null', [tool(obj({ a: { anyOf: null } }))]],
  ['anyOf that is a string (iterated by character)', [tool(obj({ a: { anyOf: 'ab' } }))]],
  ['anyOf with a null branch', [tool(obj({ a: { anyOf: [{ type: 'string' }, null] } }))]],
  ['anyOf with a type-null branch (kept: the filter uppercased it)', [tool(obj({ a: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null } }))]],
  ['anyOf with a default (sanatizeParameters)', [tool(obj({ a: { anyOf: [{ type: 'string' }, { type: 'integer' }], default: 'x' } }))]],
  ['items that is null', [tool(obj({ a: { type: 'array', items: null } }))]],
  ['items that is a list', [tool(obj({ a: { type: 'array', items: [{ type: 'string' }] } }))]],
  ['a property that is null', [tool(obj({ a: null }))]],
  ['nested properties that are a string', [tool(obj({ a: { type: 'object', properties: 'ab' } }))]],
  ['nested properties that are null', [tool(obj({ a: { type: 'object', properties: null } }))]],
  ['keys the filter drops', [tool({ ...obj({ a: { type: 'string', const: 'x', examples: ['y'], 'x-extra': 1 }, b: { oneOf: [{ type: 'string' }] }, c: { $ref: '#/$defs/C' } }), $defs: { C: { type: 'string' } }, additionalProperties: false, $schema: 'x' })]],
  [
    'every key the filter keeps (supportedJsonSchemaFields)',
    [
      tool({
        ...obj({
          a: { type: 'string', format: 'date-time', title: 'A', description: 'a', default: 'x', minLength: 1, maxLength: 9, pattern: '^x', enum: ['x', 'y'] },
          b: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 }, minItems: 1, maxItems: 3 },
          c: { type: 'object', properties: { d: { type: 'boolean' } }, required: ['d'], minProperties: 1, maxProperties: 2, propertyOrdering: ['d'] },
          e: { anyOf: [{ type: 'number' }, { type: 'string' }] },
        }),
        title: 'Root',
      }),
    ],
  ],
  ['null values skipped', [tool(obj({ a: { type: 'string', default: null, description: null, enum: ['x', null] } }))]],
  ['two tools of one name', [tool(obj({}), 'a'), tool(obj({}), 'a')]],
  ['a name Object.prototype holds', [tool(obj({}), 'constructor')]],
  ['__proto__', [tool(obj({}), '__proto__')]],
  ['the duplicate is found before a later schema throws', [tool(obj({ a: { type: ['string'] } }), 'b'), tool(obj({}), 'b')]],
  ['the first error wins', [tool(obj({ a: { type: ['string'] } }), 'a'), tool(obj({ a: { type: 'string', anyOf: [] } }), 'b')]],
  ['no description', [{ name: 'a', inputSchema: obj({ a: { type: 'string' } }) }]],
];

describe('hand-made lists: every error @google/genai 1.4.0 throws, and its quirks', () => {
  it.each(HAND)('%s', async (_name, tools) => {
    await expectParity(tools);
  });

  it('the package throws where these lists say it does (they test the error paths, not only the happy one)', async () => {
    const errors = await Promise.all(HAND.map(async ([, tools]) => real(tools)));
    expect(errors.filter((c) => 'error' in c).length).toBeGreaterThanOrEqual(12);
  });
});

describe('generated schemas', () => {
  const KEYS = ['type', 'format', 'title', 'description', 'default', 'items', 'minItems', 'enum', 'properties', 'required', 'minimum', 'pattern', 'anyOf', 'oneOf', 'const', '$ref', 'additionalProperties', 'nullable', 'propertyOrdering', 'x-other'];
  const { schema } = fc.letrec((tie) => ({
    schema: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('string', 'null', 'NULL', 'object', 'array', 'Integer', 'date-time', '', 'ab', 'a\u{1F600}'),
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -2, max: 3 }),
      tie('schema'),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'constructor'), tie('schema'), { maxKeys: 3 }),
    ),
  }));
  const names = fc.constantFrom('a', 'b', 'c', 'toString');

  it('any schema, any names: the same declarations or the same error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ name: names, inputSchema: schema }), { minLength: 1, maxLength: 3 }), async (tools) => {
        expect(transcribed(tools)).toEqual(await real(tools));
      }),
      { numRuns: 1500, seed: 21 },
    );
  });

  it('any parameter of an object root: the profile answers as gemini-cli does with the real declarations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(schema, { minLength: 1, maxLength: 3 }), async (parameters) => {
        await expectParity([tool(obj(Object.fromEntries(parameters.map((p, i) => [`p${i}`, p]))))]);
      }),
      { numRuns: 1500, seed: 21 },
    );
  });
});
