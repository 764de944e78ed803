/**
 * ai-sdk-google-2026-11 runs the Vercel AI SDK's published code (ai 6.0.325,
 * @ai-sdk/google 3.0.141, @ai-sdk/mcp 1.0.102). Every expected value here is
 * derived by hand from that code, read in the packages' dist (and their
 * sources, packages/{mcp,google,ai}/src in vercel/ai at those tags); the
 * comment above each names the rule. The rules, once:
 *  M  @ai-sdk/mcp ListToolsResultSchema: a tool whose inputSchema root is not
 *     `type: "object"` fails the whole tools/list (MCPClientError, zod issues):
 *     no tool of the server (D).
 *  M' toolsFromDefinitions: jsonSchema({ ...inputSchema, properties: properties ?? {}, additionalProperties: false }).
 *  G  @ai-sdk/google convertJSONSchemaToOpenAPISchema keeps description,
 *     required, format, type, enum, properties, items, allOf, anyOf, oneOf,
 *     minLength; `const` -> a one-value enum; a type list -> one type +
 *     nullable, or anyOf of the types; anyOf with a null branch -> nullable;
 *     local `$ref` inlined, a recursive one sends the raw schema as
 *     parametersJsonSchema; non-string enums -> strings with format "enum";
 *     an object with no properties (and no truthy additionalProperties) has no
 *     parameters at the root. Everything else (additionalProperties, default,
 *     minimum, maximum, minItems, $schema, title, pattern, maxLength, $defs)
 *     is dropped.
 *  A  the API: the kit's 2025-06 legacy rules without the enum check: a
 *     string format other than enum/date-time, oneOf and allOf refuse the
 *     whole request (R).
 *  V  no argument check: jsonSchema() has no validate, so doParseToolCall
 *     only parses the JSON.
 * Letters as in test/lint-hosts.test.ts: A accepted, L lossy, R refused, D dropped.
 */
import { describe, expect, it } from 'vitest';
import { aiSdkGoogle } from '../src/lab/profiles/ai-sdk-google.js';
import { listBreaks } from '../src/lab/variants.js';
import { hostColumn, publishedTools } from './helpers/host-column.js';
import { recorded } from './helpers/lint.js';


/** This host's column of the linter's matrix (test/helpers/host-column.ts). */
const letters = (tools: unknown[]) => hostColumn(aiSdkGoogle, tools);

type Tool = { name: string; description?: string; inputSchema: Record<string, unknown> };
const one = (inputSchema: Record<string, unknown>): Tool[] => [{ name: 't', description: 'A tool.', inputSchema }];
const find = (tools: unknown[], name: string) => (tools as Tool[]).find((t) => t.name === name)!;

async function shownSchemas(tools: Tool[]): Promise<Record<string, unknown>> {
  const view = await aiSdkGoogle.present(tools as never);
  if ('rejected' in view) throw new Error(`rejected: ${view.rejected}`);
  return Object.fromEntries(view.tools.map((t) => [t.name, t.inputSchema]));
}

describe('the recorded tools/list of real servers', () => {
  it('server-everything 2026.8.31', async () => {
    expect(await letters(recorded('server-everything'))).toEqual({
      echo: 'A',
      // includeImage: default dropped (G).
      'get-annotated-message': 'L',
      // No properties: sent without parameters, shown as an object with none (G, root).
      'get-env': 'A',
      // count: default, minimum, maximum dropped (G).
      'get-resource-links': 'L',
      'get-resource-reference': 'L',
      'get-structured-content': 'A',
      'get-sum': 'A',
      'get-tiny-image': 'A',
      // data: "format": "uri" is kept (G) and refused (A).
      'gzip-file-as-resource': 'R',
      'toggle-simulated-logging': 'A',
      'toggle-subscriber-updates': 'A',
      'trigger-long-running-operation': 'L',
      'simulate-research-query': 'L',
      'get-roots-list': 'A',
      'trigger-elicitation-request': 'A',
      // url: "format": "uri" (A).
      'trigger-url-elicitation': 'R',
      'trigger-sampling-request': 'L',
      '(all tools, one request)': 'R',
    });
  });

  it('server-everything: what the model is shown, and the refusal of the whole list', async () => {
    const tools = recorded('server-everything') as Tool[];
    // G: $schema, default, minimum, maximum go; description and type stay.
    expect((await shownSchemas([find(tools, 'get-resource-links')]))['get-resource-links']).toEqual({
      type: 'object',
      properties: { count: { description: 'Number of resource links to return (1-10)', type: 'number' } },
    });
    // A: both uri formats are listed, each at its declaration's index in the one request (gzip-file-as-resource is the 9th tool, trigger-url-elicitation the 15th).
    expect(await aiSdkGoogle.present(tools as never)).toEqual({
      rejected:
        "AI_APICallError: * GenerateContentRequest.tools[0].function_declarations[8].parameters.properties[data].format: only 'enum' and 'date-time' are supported for STRING type\n" +
        "* GenerateContentRequest.tools[0].function_declarations[14].parameters.properties[url].format: only 'enum' and 'date-time' are supported for STRING type",
      lost: 'request',
      // The 2025 rules of the legacy field applied to 2026-11 (the profile's API comment): unconfirmed.
      evidence: expect.objectContaining({ kind: 'report', date: '2025-07-03', unconfirmed: true }),
    });
  });

  it('server-filesystem 2026.8.31', async () => {
    expect(await letters(recorded('server-filesystem'))).toEqual({
      read_file: 'A',
      read_text_file: 'A',
      read_media_file: 'A',
      // paths: minItems dropped (G).
      read_multiple_files: 'L',
      write_file: 'A',
      // dryRun: default dropped.
      edit_file: 'L',
      create_directory: 'A',
      list_directory: 'A',
      list_directory_with_sizes: 'L',
      directory_tree: 'L',
      move_file: 'A',
      search_files: 'L',
      get_file_info: 'A',
      list_allowed_directories: 'A',
      '(all tools, one request)': 'L',
    });
  });

  it('server-memory 2026.8.31: every tool as published but $schema', async () => {
    const rows = await letters(recorded('server-memory'));
    expect(Object.keys(rows)).toHaveLength(10);
    for (const [tool, letter] of Object.entries(rows)) expect(letter, tool).toBe('A');
  });

  it('@ivotoby/openapi-mcp-server 1.16.1 on the pet clinic', async () => {
    expect(await letters(recorded('openapi-pet-clinic'))).toEqual({
      // limit: minimum and maximum dropped (G); x-parameter-location goes too, which tells the model nothing.
      'lst-pets': 'L',
      // Root is a oneOf with no type (M).
      'crt-pet': 'D',
      // nickname: anyOf [string, null] -> {type: string, nullable: true} (G), Gemini's spelling of the same type: nothing lost.
      'rename-pet': 'A',
      // day: "format": "date" (A).
      'book-visit': 'R',
      // contact: oneOf kept (G), the API has no oneOf field (A).
      'upd-owner': 'R',
      // crt-pet fails the tools/list (M).
      '(all tools, one request)': 'D',
    });
  });

  it('the pet clinic: the texts of the drop and the refusals, and the nullable union', async () => {
    const tools = recorded('openapi-pet-clinic') as Tool[];
    // M: the zod issue is at the second tool of the list (crt-pet), its root type.
    expect(await aiSdkGoogle.present(tools as never)).toEqual({
      rejected: 'MCPClientError: Failed to parse server response (Invalid input: expected "object" at tools.1.inputSchema.type)',
      lost: 'server',
    });
    // A: oneOf is not a field of the legacy Schema: the parse stage names it where it is (contact is the second property).
    expect(await aiSdkGoogle.present([find(tools, 'upd-owner')] as never)).toEqual({
      rejected: "AI_APICallError: Invalid JSON payload received. Unknown name \"oneOf\" at 'tools[0].function_declarations[0].parameters.properties[1].value': Cannot find field.",
      lost: 'request',
      // The parse stage is reported in 2026 for other keywords; for oneOf it is modelled: unconfirmed.
      // oneOf is no field of the Schema message (content.proto, @google-ai/generativelanguage 4.1.0, 2026-09-13): confirmed.
      evidence: { kind: 'code', date: '2026-09-13', source: expect.stringContaining('no "oneOf" field in the Schema message') },
    });
    // G: anyOf with one non-null branch becomes that branch, nullable; required and descriptions kept.
    expect((await shownSchemas([find(tools, 'rename-pet')]))['rename-pet']).toEqual({
      type: 'object',
      required: ['petId', 'nickname'],
      properties: { petId: { description: 'petId parameter', type: 'string' }, nickname: { type: 'string', nullable: true } },
    });
  });
});

describe("the kit's baseline and every break", async () => {
  const listings: Record<string, unknown[]> = {};
  await Promise.all(['baseline', ...listBreaks()].map(async (id) => (listings[id] = await publishedTools(id))));

  /** What each variant publishes differently from the baseline, and the letters of this host: hand-derived. */
  const EXPECTED: Record<string, Record<string, string>> = {
    // additionalProperties: false dropped everywhere (G): lossy, every tool.
    baseline: { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    'broken-schema': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    // verb: oneOf (G keeps it, A refuses it): the one request fails.
    'discriminated-union': { conjugate: 'R', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'R' },
    // lessons publishes {type: object, properties: {}}: no parameters, shown as such.
    'readonly-gate': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'A', '(all tools, one request)': 'L' },
    'root-transform': { conjugate: 'A', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    'root-transform-shape': { conjugate: 'A', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    'schema-drift': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    // verb: anyOf of two objects, kept (G), which the API of these rules takes.
    'structural-anyof': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    'unreachable-filter': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    // Only $schema differs (2020-12), and the converter drops $schema of any draft (G): as the baseline.
    'schema-dialect': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    // conjugate gains an outputSchema, which tools() never reads (schemas "automatic"); its inputSchema is the baseline's.
    'output-schema': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    // Only conjugate's description differs (1,287 characters): the converter reads the schema, not the description.
    'long-description': { conjugate: 'L', get_profile: 'L', update_profile: 'L', lessons: 'L', '(all tools, one request)': 'L' },
    // lessons renamed, 56 characters of [a-z_]: within the 64 of [a-zA-Z0-9_.:-] a Gemini function name takes; schemas as the baseline's.
    'tool-name': { conjugate: 'L', get_profile: 'L', update_profile: 'L', list_open_create_or_delete_grammar_lessons_by_cefr_level: 'L', '(all tools, one request)': 'L' },
  };

  it('every break has its expectation', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(['baseline', ...listBreaks()].sort());
  });

  it.each(Object.keys(EXPECTED))('%s', async (label) => {
    expect(await letters(listings[label]!)).toEqual(EXPECTED[label]);
  });

  it('baseline: the model is told the enums, the descriptions and required; additionalProperties and $schema go (G)', async () => {
    const shown = await shownSchemas(listings.baseline as Tool[]);
    expect(shown.get_profile).toEqual({
      type: 'object',
      required: ['learner'],
      properties: { learner: { type: 'string', description: 'The learner\'s id, e.g. "ana".' } },
    });
  });

  it('broken-schema: shown without required, so the model is never told a key is needed', async () => {
    const shown = (await shownSchemas(listings['broken-schema'] as Tool[])).conjugate as Record<string, unknown>;
    expect(shown).not.toHaveProperty('required');
    expect(Object.keys(shown.properties as object)).toEqual(['verb', 'tense', 'person']);
  });

  it('structural-anyof: the anyOf reaches the model, each branch without additionalProperties (G)', async () => {
    const verb = ((await shownSchemas(listings['structural-anyof'] as Tool[])).conjugate as { properties: Record<string, unknown> }).properties.verb;
    expect(verb).toEqual({
      description: 'The verb: by name, or by its principal parts.',
      anyOf: [
        { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'The verb in its base form, e.g. "eat" or "walk".' } } },
        {
          type: 'object',
          required: ['infinitive', 'past', 'pastParticiple'],
          properties: {
            infinitive: { type: 'string', description: 'e.g. "sew"' },
            past: { type: 'string', description: 'e.g. "sewed"' },
            pastParticiple: { type: 'string', description: 'e.g. "sewn"' },
          },
        },
      ],
    });
  });

  it('discriminated-union: refused for every tool, at verb (the first property of the first declaration)', async () => {
    expect(await aiSdkGoogle.present(listings['discriminated-union'] as never)).toEqual({
      rejected: "AI_APICallError: Invalid JSON payload received. Unknown name \"oneOf\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
      lost: 'request',
      // The parse stage is reported in 2026 for other keywords; for oneOf it is modelled: unconfirmed.
      // oneOf is no field of the Schema message (content.proto, @google-ai/generativelanguage 4.1.0, 2026-09-13): confirmed.
      evidence: { kind: 'code', date: '2026-09-13', source: expect.stringContaining('no "oneOf" field in the Schema message') },
    });
  });
});

describe('the conversion is the package\'s, not a pass-through', () => {
  it('const, $ref, a nullable type list, non-string enums, a union of types: each rewritten as @ai-sdk/google does (G)', async () => {
    const schema = {
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/When', description: 'd' },
        b: { const: 'x' },
        c: { type: ['string', 'null'], minimum: 1, default: 'q', title: 'T', pattern: '^a', maxLength: 3, minLength: 1 },
        d: { type: 'integer', enum: [1, 2] },
        e: { type: ['string', 'integer'] },
      },
      $defs: { When: { type: 'string', format: 'date-time' } },
      additionalProperties: true,
    };
    expect((await shownSchemas(one(schema))).t).toEqual({
      type: 'object',
      properties: {
        // The $ref's target with the sibling description laid over it.
        a: { type: 'string', format: 'date-time', description: 'd' },
        // const -> enum of one, its type inferred from the value.
        b: { type: 'string', enum: ['x'] },
        // One non-null type: that type, nullable; of the constraints only minLength stays.
        c: { type: 'string', nullable: true, minLength: 1 },
        d: { type: 'integer', format: 'enum', enum: ['1', '2'] },
        e: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    });
  });

  it('an object root with no properties is sent without parameters, even with additionalProperties: true (M\' makes it false)', async () => {
    expect((await shownSchemas(one({ type: 'object', additionalProperties: true }))).t).toEqual({ type: 'object', properties: {} });
  });

  it('a recursive $ref goes as parametersJsonSchema: the MCP client\'s schema, additionalProperties: false added (M\')', async () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/N' } }, $defs: { N: { type: 'object', properties: { next: { $ref: '#/$defs/N' } } } } };
    expect((await shownSchemas(one(schema))).t).toEqual({ ...schema, additionalProperties: false });
  });

  it('what the converter cannot express fails the request before it is sent', async () => {
    expect(await aiSdkGoogle.present(one({ type: 'object', properties: { a: { enum: ['x', 1] } } }) as never)).toEqual({
      rejected: 'AI_UnsupportedFunctionalityError: Google does not support this JSON Schema enum. Enum values must share one supported primitive type and match the schema type.',
      lost: 'request',
    });
    expect(await aiSdkGoogle.present(one({ type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }) as never)).toEqual({
      rejected: 'AI_UnsupportedFunctionalityError: Google schema conversion only supports references to direct children of root-level $defs or definitions.',
      lost: 'request',
    });
  });

  it('a root without "type": "object" loses the server at the MCP client (M), before any conversion', async () => {
    expect(await aiSdkGoogle.present(one({ properties: {} }) as never)).toEqual({
      rejected: 'MCPClientError: Failed to parse server response (Invalid input: expected "object" at tools.0.inputSchema.type)',
      lost: 'server',
    });
  });
});

describe('the result of a call: the published outputSchema is never read (@ai-sdk/mcp 1.0.102, tools() with schemas "automatic")', () => {
  it('a tool that publishes an outputSchema, called, answers without structuredContent and the model is told no error', async () => {
    // The profile's in-memory server answers every tools/call with a text alone, no structuredContent: were the
    // package to check the published outputSchema (extractStructuredContent), execute would throw and the model
    // would be told a tool-error.
    const typed = {
      name: 'conjugate',
      inputSchema: { type: 'object', properties: { verb: { type: 'string' } }, required: ['verb'] },
      outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    };
    const view = await aiSdkGoogle.present([typed] as never);
    if ('rejected' in view) throw new Error(view.rejected);
    expect(await aiSdkGoogle.validate(view.tools[0]!, { verb: 'eat' })).toEqual({ ok: true, args: { verb: 'eat' } });
    expect(aiSdkGoogle.checksOutputSchema).toBe(false);
  });
});

describe('the argument check', () => {
  const conjugate = {
    name: 'conjugate',
    inputSchema: { type: 'object', properties: { verb: { type: 'string', enum: ['eat', 'go'] }, tense: { type: 'string' } }, required: ['verb', 'tense'] },
  };

  it('there is none (V): a wrong enum value, a missing required key and an extra key all reach the server as the model wrote them', async () => {
    const args = { verb: 'run', extra: null };
    expect(await aiSdkGoogle.validate(conjugate, structuredClone(args))).toEqual({ ok: true, args });
  });

  it('a numeric enum is sent (format "enum", its values as strings: G) and a call of the tool shown so reaches the server with its number', async () => {
    const tools = one({ type: 'object', properties: { n: { type: 'number', enum: [1, 2] } }, required: ['n'] });
    const view = await aiSdkGoogle.present(tools as never);
    if ('rejected' in view) throw new Error(view.rejected);
    expect(view.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { n: { type: 'number', format: 'enum', enum: ['1', '2'] } }, required: ['n'] });
    expect(await aiSdkGoogle.validate(view.tools[0]!, { n: 2 })).toEqual({ ok: true, args: { n: 2 } });
  });

  it('what the server receives is what the tool\'s execute sent over MCP, nested values and all', async () => {
    const args = { verb: 'eat', tense: 'simple past', nested: { list: [1, 'two', { three: true }] } };
    expect(await aiSdkGoogle.validate(conjugate, structuredClone(args))).toEqual({ ok: true, args });
  });
});
