/**
 * The host matrix on the recorded tools/list of the real servers and of the
 * kit's baseline. Every expected verdict is derived by hand from each host's
 * documented rules (the comments name the rule; the sources are in
 * src/lab/profiles/ and docs/sources.md, "Hosts"), never from the linter's
 * output. Then: the matrix says what the labs' own runner would, because it
 * calls the same profile code (one real lab run shows it).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile, PROFILES } from '../src/lab/profiles/index.js';
import { runLab } from '../src/lab/side-by-side.js';
import { lintTools } from '../src/lint/lint.js';
import { readServer } from '../src/lint/server.js';
import type { Evidence, LintReport, Verdict } from '../src/lint/types.js';
import { LETTER } from './helpers/host-column.js';
import { recorded, withoutEvidence } from './helpers/lint.js';
import { SERVER_JS } from './helpers/server.js';

/*
 * The hosts, in the order of PROFILES, and the rules the table below applies:
 *  1 faithful: shows every schema as published.
 *  2 continue-gemini-2025-02: the MCP SDK 1.0.3 client drops the whole list for a root that is not "type": "object"
 *    (D); Continue strips $schema, additionalProperties and default along root, properties and items (L when one was
 *    there); the API before 2025-03-13 refuses the whole request (R) for any keyword that is not a field of its Schema
 *    message (fields: type, format, description, nullable, enum, items, maxItems, minItems, properties, required,
 *    anyOf; let through as unknown: minimum, maximum, pattern, minLength, maxLength, min/maxProperties, example,
 *    propertyOrdering), so for oneOf/allOf/const/$ref/title/default/examples/$defs/x-... anywhere it parses, anyOf
 *    branches included; a branch or node of type "null", a type list, a string format other than "enum", an array
 *    without items, an empty nested object.
 *  3 goose-google-2025-02: keeps 10 keys (type, format, description, nullable, enum, maxItems, minItems, properties,
 *    required, items) at every level, all fields of the 2025-02 Schema, a node left without a type becomes a string
 *    (L for default, minimum/maximum, additionalProperties, a union); the same API then refuses what is left (R: a
 *    format other than "enum").
 *  4 gemini-cli-2025-06: the MCP SDK 1.12.1 drops the list for a root that is not an object (D); @google/genai 1.4.0
 *    keeps 20 keys (default, minimum, maximum, anyOf among them; oneOf, const, $ref, additionalProperties not: L) and
 *    loses the server on "type" beside "anyOf" or a type list (D); the API of 2025-06 refuses (R) a format other than
 *    "enum" or "date-time", an array without items, enums on non-strings.
 *  5 gemini-cli-2025-11: the raw schema in parametersJsonSchema: A, but D for a root the MCP SDK 1.15.1 refuses.
 *  6 openai-strict: every object needs additionalProperties: false and every key required (R otherwise, the whole request).
 *  7 claude-code-2025-07 (1.0.63): the MCP SDK's Tool shape (D for a root that is not an object, "properties" not an
 *    object, "required" not a list of strings), then the API refuses anyOf/oneOf/allOf at the top (R).
 *  8 claude-code-2026-08 (2.1.235): the same Tool shape (D, the server); a tool with anyOf/oneOf/allOf at the top is
 *    left out alone (D for that tool; the whole list, the others shown, is L).
 *  9 langflow: a Pydantic model: enum and const never read, bounds and formats not kept, the first anyOf branch (the
 *    other one beside null), additionalProperties gone (L); a root that is not an object fails the server (D); an
 *    optional parameter left out is sent as null unless the schema gives a default (L, "sent").
 * The TypeScript host frameworks, each profile running the package itself (columns 10 to 13, numbered 0 to 3 above):
 * 10 openai-agents-2025-10 (@openai/agents-core 0.2.1): MCP tools go non-strict with the root's additionalProperties
 *    set to true (L where the server said false), "-" and "." in names become "_" (L); a root that says
 *    additionalProperties: true goes strict, and strict mode's rules refuse it (R); a tools/list the MCP SDK refuses
 *    fails the whole run (R).
 * 11 mastra-google-2025-12 (Mastra 0.24.9, Google layer, zod-from-json-schema 0.5.2): additionalProperties, default,
 *    minItems, bounds and formats not sent (L); a required anyOf becomes a zod intersection the Google layer throws on
 *    (R); a required oneOf is shown as any value (L); a tools/list the MCP SDK refuses fails the request (R).
 * 12 langchain-mcp-2026-01 (@langchain/mcp-adapters 1.1.2, ChatOpenAI): the schema as published but for not/if/then/
 *    else/unevaluatedProperties; a union becomes its object branches merged (L), a nullable anyOf is shown as {} (L);
 *    a tool that fails to load fails every server's tools (R, onConnectionError "throw").
 * 13 ai-sdk-google-2026-11 (ai 6, @ai-sdk/google 3): additionalProperties, default, bounds, minItems, title and $defs
 *    dropped (L); the 2025-06 API rules then refuse a format other than "enum" or "date-time" (R) and oneOf (R); the
 *    MCP client drops the server for a root that is not an object (D).
 * Today's model APIs and VS Code (issue 22), columns 14 to 17 (numbered 4 to 7 above):
 * 14 openai-functions-2026-11 (not strict): shown as published (A), but the whole request fails (R) for more than 128
 *    tools, a name outside ^[a-zA-Z0-9_-]+$ or over 64, a description over 1,024 characters, a root that is not
 *    type "object", an array without items.
 * 15 gemini-parameters-2026-09: the schema as published in `parameters`; any keyword that is not one of the Schema
 *    message's 22 fields (type, format, title, description, nullable, enum, items, min/maxItems, properties, required,
 *    min/maxProperties, minimum, maximum, min/maxLength, pattern, example, anyOf, propertyOrdering, default) refuses the
 *    request (R): $schema, which every zod-published schema carries, additionalProperties, oneOf, const, x-...
 * 16 gemini-json-schema-2026-11: the schema as published in `parametersJsonSchema` (A); R for a $ref that points nowhere
 *    or has a keyword beside it other than description, default or a $-keyword.
 * 17 vscode-copilot-2026-01 (Copilot Chat 0.37, GPT-4.1): a tool whose schema draft-07 faults, or that declares $schema
 *    draft 2019-09/2020-12, left out alone (D, the tool); an array without items fails the request (R); minLength,
 *    maxLength, pattern, default, format, minimum, maximum, min/maxItems, propertyNames (20 keywords) deleted at every
 *    level, root unions deleted, a root that is not an object shown as taking no parameters (L).
 */
function matrix(report: LintReport): Record<string, string> {
  const letter = (v: Verdict) => LETTER[v];
  const out: Record<string, string> = {};
  for (const tool of report.tools) out[tool.name] = PROFILES.map((p) => letter(tool.hosts[p.id]!.verdict)).join(' ');
  out['(all tools, one request)'] = PROFILES.map((p) => letter(report.server.hosts[p.id]!.verdict)).join(' ');
  return out;
}

const kinds = (report: LintReport, tool: string, host: string) => [...new Set(report.tools.find((t) => t.name === tool)!.hosts[host]!.lost?.map((l) => l.kind) ?? [])].sort();

describe('server-everything 2026.8.31 (17 tools to a client that declares roots, sampling and elicitation)', async () => {
  const report = await lintTools(recorded('server-everything'));

  it('each tool on each host', () => {
    //                                        1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7
    expect(matrix(report)).toEqual({
      // message: string, required. No key any host drops; only strict mode wants additionalProperties: false.
      echo: 'A A A A A R A A A A A A A A R A A',
      // includeImage has a default (2 strips it, 3 does not keep it); messageType is an enum (9 never reads it).
      'get-annotated-message': 'A L L A A R A A L L L A L A R A L',
      // No parameters: 2 and 3 send none, 4 an empty object, which 2025-06 takes.
      'get-env': 'A A A A A R A A A L A A A A R A A',
      // count: default (2, 3), minimum and maximum (3 keeps neither, 9 keeps no bounds).
      'get-resource-links': 'A L L A A R A A L L L A L A R A L',
      // defaults (2, 3); resourceType is an enum (9).
      'get-resource-reference': 'A L L A A R A A L L L A L A R A L',
      // location is an enum (9).
      'get-structured-content': 'A A A A A R A A L L A A A A R A A',
      'get-sum': 'A A A A A R A A A L A A A A R A A',
      'get-tiny-image': 'A A A A A R A A A L A A A A R A A',
      // data has "format": "uri": 2 and 3 (only "enum" in 2025-02) and 4 (enum, date-time) refuse it; 9 drops the format and the enum.
      'gzip-file-as-resource': 'A R R R A R A A L L L A R A R A L',
      'toggle-simulated-logging': 'A A A A A R A A A L A A A A R A A',
      'toggle-subscriber-updates': 'A A A A A R A A A L A A A A R A A',
      // duration, steps: defaults (2, 3); 9 sends the defaults themselves when left out.
      'trigger-long-running-operation': 'A L L A A R A A A L L A L A R A L',
      'simulate-research-query': 'A L L A A R A A A L L A L A R A L',
      // Listed only to a client that declares roots, elicitation or sampling (the linter declares all three by default):
      'get-roots-list': 'A A A A A R A A A L A A A A R A A',
      'trigger-elicitation-request': 'A A A A A R A A A L A A A A R A A',
      // url has "format": "uri" (2, 3, 4 refuse it); elicitationId is optional with no default (9 sends null).
      'trigger-url-elicitation': 'A R R R A R A A L L L A R A R A L',
      // maxTokens has a default (2, 3).
      'trigger-sampling-request': 'A L L A A R A A A L L A L A R A L',
      // One request: the uri format takes every tool down on 2, 3 and 4; strict mode refuses the first tool.
      // 15: every schema carries $schema (zod's draft-07), no field of the Schema message; 17 deletes default,
      // minimum, maximum and format wherever they are.
      '(all tools, one request)': 'A R R R A R A A L L L A R A R A L',
    });
  });

  it('what is lost is said', () => {
    expect(kinds(report, 'get-resource-links', 'goose-google-2025-02')).toEqual(['constraint', 'default']);
    expect(kinds(report, 'get-structured-content', 'langflow')).toEqual(['enum']);
    expect(report.tools.find((t) => t.name === 'get-structured-content')!.hosts.langflow!.lost).toEqual([
      { kind: 'enum', path: '/inputSchema/properties/location/enum', what: 'enum of 3 values dropped: the model is not told them' },
    ]);
    expect(kinds(report, 'gzip-file-as-resource', 'langflow')).toEqual(['constraint', 'enum']);
  });
});

describe('server-filesystem 2026.8.31', async () => {
  const report = await lintTools(recorded('server-filesystem'));

  it('each tool on each host', () => {
    //                                        1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7
    expect(matrix(report)).toEqual({
      // tail and head are optional numbers with no default: 9 sends them as null when left out.
      read_file: 'A A A A A R A A L A A A A A R A A',
      read_text_file: 'A A A A A R A A L A A A A A R A A',
      read_media_file: 'A A A A A R A A A A A A A A R A A',
      // paths has minItems 1: 3 and 4 keep minItems, 9 keeps no bounds.
      read_multiple_files: 'A A A A A R A A L A L A L A R A L',
      write_file: 'A A A A A R A A A A A A A A R A A',
      // dryRun has a default (2, 3); the edits' objects keep their properties everywhere.
      edit_file: 'A L L A A R A A A A L A L A R A L',
      create_directory: 'A A A A A R A A A A A A A A R A A',
      list_directory: 'A A A A A R A A A A A A A A R A A',
      // sortBy: an enum with a default (2, 3: default; 9: enum).
      list_directory_with_sizes: 'A L L A A R A A L A L A L A R A L',
      // excludePatterns defaults to [] (2, 3).
      directory_tree: 'A L L A A R A A A A L A L A R A L',
      move_file: 'A A A A A R A A A A A A A A R A A',
      search_files: 'A L L A A R A A A A L A L A R A L',
      get_file_info: 'A A A A A R A A A A A A A A R A A',
      list_allowed_directories: 'A A A A A R A A A A A A A A R A A',
      '(all tools, one request)': 'A L L A A R A A L A L A L A R A L',
    });
  });

  it('Langflow sends null for the optional numbers the model leaves out', () => {
    expect(report.tools.find((t) => t.name === 'read_file')!.hosts.langflow!.lost).toEqual([
      { kind: 'sent', path: '/inputSchema/properties', what: 'sends tail: null, head: null when the model leaves them out' },
    ]);
  });
});

describe('server-memory 2026.8.31', () => {
  it('every tool shown as published, but on strict mode (no additionalProperties: false)', async () => {
    const m = matrix(await lintTools(recorded('server-memory')));
    expect(Object.keys(m)).toHaveLength(10);
    // Objects in arrays, each with properties and required; nothing any host drops. Gemini's `parameters` (15) refuses
    // the $schema every tool carries.
    for (const [tool, row] of Object.entries(m)) expect(row, tool).toBe('A A A A A R A A A A A A A A R A A');
  });
});

describe('@ivotoby/openapi-mcp-server 1.16.1 on test/fixtures/lint/pet-clinic.openapi.json', async () => {
  const report = await lintTools(recorded('openapi-pet-clinic'));

  it('each tool on each host', () => {
    //                                        1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7
    expect(matrix(report)).toEqual({
      // limit has minimum/maximum (3, 9), species an enum (9), both optional without default (9 sends null);
      // both carry x-parameter-location, no field of the 2025-02 Schema (2: R; 3 keeps only its 10 keys).
      'lst-pets': 'A R L A A R A A L L L A L A R A L',
      // The root is a oneOf with no "type": every MCP SDK client drops the server (2, 4, 5, 7, 8), Langflow fails it (9),
      // strict mode refuses it; Goose finds no root properties and sends no parameters (L).
      // 7 and 8 alike: the Tool shape fails before any rule on unions is reached.
      'crt-pet': 'A D L D D R D D D R R R D R R A L',
      // nickname: anyOf [string, null]. 2025-02 parses the anyOf and refuses its "null" branch, and x- keys (2: R);
      // 3 and 9 keep the string alone (L); 4 takes the anyOf; 13 sends {type: string, nullable: true}, the same (A).
      'rename-pet': 'A R L A A R A A L L R L A A R A A',
      // pet: anyOf of two objects (parsed on 2, but the root's x-content-type is no field: R); day has "format": "date",
      // which 3 and 4 refuse (R); 9 keeps the first branch.
      'book-visit': 'A R R R A R A A L L R L R A R A L',
      // contact: oneOf of two objects. 2 refuses oneOf; 3 makes it a string, 4 drops it (untyped), 9 reads it as Any.
      'upd-owner': 'A R L L A R A A L L L L R A R A A',
      // One request: crt-pet takes the server down on 2, 4, 5, 7, 8, 9; on 3, book-visit's format fails the request.
      // 14 refuses crt-pet's root (no type "object"); 15 refuses every x- key and oneOf; 17 shows crt-pet with no
      // parameters and deletes minimum, maximum and format.
      '(all tools, one request)': 'A D R D D R D D D R R R D R R A L',
    });
  });

  it('a refusal carries the host\'s own text and what it takes down; a drop says the server goes', () => {
    const book = report.tools.find((t) => t.name === 'book-visit')!.hosts;
    expect(withoutEvidence(book['continue-gemini-2025-02'])).toEqual({
      verdict: 'refused',
      // The anyOf parses (2025-02 had any_of); the server's vendor key at the root does not.
      detail: "400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name \"x-content-type\" at 'tools[0].function_declarations[0].parameters': Cannot find field.",
      takesDown: 'request',
    });
    const pet = report.tools.find((t) => t.name === 'crt-pet')!.hosts;
    expect(pet['claude-code-2025-07']!.takesDown).toBe('server');
    expect(pet['claude-code-2026-08']!.takesDown).toBe('server');
    expect(pet.langflow!.detail).toBe("Failed to create tool 'crt-pet' from server '<server>': Root schema must be type 'object'");
    expect(report.tools.find((t) => t.name === 'rename-pet')!.hosts['goose-google-2025-02']!.lost).toEqual([
      { kind: 'union', path: '/inputSchema/properties/nickname/anyOf', what: 'nullable anyOf: shown as a plain string alone, so null cannot be sent' },
    ]);
  });

  it('every refusal or drop is the profile\'s own answer to that tool', async () => {
    for (const tool of report.tools)
      for (const profile of PROFILES) {
        const v = tool.hosts[profile.id]!;
        if (v.verdict !== 'refused' && v.verdict !== 'dropped') continue;
        const view = await profile.present([recorded('openapi-pet-clinic').find((t) => (t as { name: string }).name === tool.name) as never]);
        const { evidence, ...said } = view as { evidence?: Evidence };
        expect(said, `${tool.name} on ${profile.id}`).toEqual({ rejected: v.detail, lost: v.takesDown });
        // The verdict rests on what the rejection names, else on the profile's own evidence (issue 33: provenance on
        // every verdict); an assumption is unconfirmed whatever it says.
        const expected = evidence ?? profile.evidence;
        expect(v.evidence, `${tool.name} on ${profile.id}`).toEqual(expected?.kind === 'assumed' ? { ...expected, unconfirmed: true } : expected);
        expect(v.evidence, `${tool.name} on ${profile.id}`).toBeDefined();
      }
  });
});

describe("the kit's own baseline", () => {
  it('strict objects of enums: shown whole on strict mode and Claude, the enums and additionalProperties lost elsewhere', async () => {
    const listing = await readServer({ label: 'baseline', command: process.execPath, args: [SERVER_JS] }, 10_000);
    const report = await lintTools(listing.tools);
    //                  1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7
    expect(matrix(report)).toEqual({
      // additionalProperties: false goes on 2 and 3 (stripped, not in the list) and 4 (not among the 20 keys); 9 drops enums.
      conjugate: 'A L L L A A A A L L L A L A R A A',
      get_profile: 'A L L L A A A A L L L A L A R A A',
      update_profile: 'A L L L A A A A L L L A L A R A A',
      lessons: 'A L L L A A A A L L L A L A R A A',
      '(all tools, one request)': 'A L L L A A A A L L L A L A R A A',
    });
    expect(kinds(report, 'conjugate', 'langflow')).toEqual(['additionalProperties', 'enum']);
    expect(kinds(report, 'get_profile', 'langflow')).toEqual(['additionalProperties']);
  });
});

describe('refused or dropped: every way a profile rejects, and what it takes down', () => {
  const tool = (inputSchema: unknown) => ({ name: 't', description: 'A tool.', inputSchema });
  const verdictOf = async (host: string, inputSchema: unknown) => {
    const v = (await lintTools([tool(inputSchema)])).tools[0]!.hosts[host]!;
    return `${v.verdict} ${v.takesDown}`;
  };
  const unionRoot = { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['a'] }, { properties: { b: { type: 'string' } } }] };

  it.each([
    // The MCP SDK client refuses the list: the host's client loses the server (mcp-sdk.ts).
    ['continue-gemini-2025-02', { properties: {} }, 'dropped server'],
    ['gemini-cli-2025-06', { properties: {} }, 'dropped server'],
    ['gemini-cli-2025-11', { properties: {} }, 'dropped server'],
    ['claude-code-2025-07', { properties: {} }, 'dropped server'],
    ['claude-code-2026-08', { properties: {} }, 'dropped server'],
    ['claude-code-2026-08', { type: 'object', required: null }, 'dropped server'],
    // The model API's 400: the whole request.
    ['continue-gemini-2025-02', { type: 'object', properties: { a: { const: 'x' } } }, 'refused request'],
    ['goose-google-2025-02', { type: 'object', properties: { a: { type: ['string', 'null'] } } }, 'refused request'],
    ['gemini-cli-2025-06', { type: 'object', properties: { a: { type: 'array' } } }, 'refused request'],
    ['gemini-cli-2025-11', { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }, 'refused request'],
    ['openai-strict', { type: 'object', properties: {} }, 'refused request'],
    ['claude-code-2025-07', unionRoot, 'refused request'],
    // Claude Code 2.1.235 skips a tool with a union at the top, alone: the server's other tools stay.
    ['claude-code-2026-08', unionRoot, 'dropped tool'],
    // @google/genai 1.4.0 throws ("type and anyOf cannot be both populated"): gemini-cli loses the server.
    ['gemini-cli-2025-06', { type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }, { type: 'null' }] } } }, 'dropped server'],
    // Goose's format_tools panics on properties that are not an object: the request never goes (modelled).
    ['goose-google-2025-02', { type: 'object', properties: 'x' }, 'refused request'],
    // Langflow's update_tools re-raises: the server fails to load.
    ['langflow', { type: 'string' }, 'dropped server'],
    // The TypeScript frameworks, each running its package. agents-core's getAllMcpTools does not catch the MCP SDK's
    // ZodError, so the run fails; a root that says additionalProperties: true goes strict, and strict mode refuses it.
    ['openai-agents-2025-10', { properties: {} }, 'refused request'],
    ['openai-agents-2025-10', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, 'refused request'],
    // Mastra: the MCP client's tools() throws on a list the SDK refuses; a required anyOf becomes a zod intersection,
    // which the Google layer throws on.
    ['mastra-google-2025-12', { properties: {} }, 'refused request'],
    ['mastra-google-2025-12', { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['a'] }, 'refused request'],
    // LangChain: loadMcpTools fails, and with onConnectionError "throw" getTools() fails for every server.
    ['langchain-mcp-2026-01', { properties: {} }, 'refused request'],
    ['langchain-mcp-2026-01', { type: 'object', properties: {}, allOf: [null] }, 'refused request'],
    // The AI SDK: its MCP client refuses the list (the server's tools are gone); @ai-sdk/google sends oneOf, which the
    // API refuses, and throws itself on an enum of mixed types before sending.
    ['ai-sdk-google-2026-11', { properties: {} }, 'dropped server'],
    ['ai-sdk-google-2026-11', { type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } } }, 'refused request'],
    ['ai-sdk-google-2026-11', { type: 'object', properties: { a: { enum: ['x', 1] } } }, 'refused request'],
    // Today's APIs refuse the request; VS Code leaves a tool out alone, or Copilot fails the request before sending.
    ['openai-functions-2026-11', { type: 'object', properties: { a: { type: 'array' } } }, 'refused request'],
    ['openai-functions-2026-11', { properties: {} }, 'refused request'],
    ['gemini-parameters-2026-09', { type: 'object', properties: { a: { type: 'string', propertyNames: { pattern: '^x' } } } }, 'refused request'],
    ['gemini-parameters-2026-09', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, 'refused request'],
    ['gemini-json-schema-2026-11', { type: 'object', properties: { a: { $ref: '#/$defs/A', type: 'string' } }, $defs: { A: { type: 'string' } } }, 'refused request'],
    ['gemini-json-schema-2026-11', { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }, 'refused request'],
    ['vscode-copilot-2026-01', { type: 'object', properties: { a: { type: 'array' } } }, 'refused request'],
    ['vscode-copilot-2026-01', { type: 'object', properties: { a: { type: 'strin' } } }, 'dropped tool'],
    ['vscode-copilot-2026-01', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} }, 'dropped tool'],
  ])('%s on %j: %s', async (host, schema, expected) => {
    expect(await verdictOf(host, schema)).toBe(expected);
  });

  it('claude-code-2026-08 leaves the union tool out with its own log line, and the server goes on with the other', async () => {
    const report = await lintTools([tool({ type: 'object', properties: {} }), { ...tool(unionRoot), name: 'u' }]);
    // The log line of Claude Code 2.1.235, written out by hand from its code (claude-code-2026-08.ts).
    expect(withoutEvidence(report.tools[1]!.hosts['claude-code-2026-08'])).toEqual({
      verdict: 'dropped',
      detail: 'Skipping tool "u": its input schema uses top-level anyOf, which the Anthropic API does not accept. Other tools from this server remain available.',
      takesDown: 'tool',
    });
    expect(report.tools[0]!.hosts['claude-code-2026-08']!.verdict).toBe('accepted');
    expect(withoutEvidence(report.server.hosts['claude-code-2026-08'])).toEqual({ verdict: 'lossy', detail: '1 of 2 tools left out by the host, the others shown' });
    // 1.0.63 sent it on: the API refuses the whole request, counting the union tool second.
    expect(report.server.hosts['claude-code-2025-07']!.detail).toBe(
      '400 invalid_request_error: tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
  });
});

describe('the $schema dialect, where a host compiles the schema with a validator', () => {
  // gemini-cli 0.17 checks each call with Ajv's draft-07 class (its own SchemaValidator, run as published): a 2020-12
  // declaration throws "no schema with key or ref" on the first call (speakeasy-api/gram#863, gemini-cli#14970). VS Code's
  // JSON language service of 2026-01 cannot load the 2020-12 meta-schema and omits the tool (playwright-mcp#1357). The
  // others validate nothing with the published $schema: the APIs, the frameworks (their own code runs here), Langflow.
  const declaring = (dialect: string) => ({ name: 'browser_drop', description: 'Drop files.', inputSchema: { $schema: dialect, type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] } });

  it('draft 2020-12: a loss on gemini-cli 2025-11, the tool left out on VS Code, nothing on the hosts without a validator', async () => {
    const report = await lintTools([declaring('https://json-schema.org/draft/2020-12/schema')]);
    expect(report.tools[0]!.hosts['gemini-cli-2025-11']!.lost).toEqual([
      {
        kind: 'dialect',
        path: '/inputSchema/$schema',
        what: "the host's validator (Ajv, draft-07) cannot compile $schema https://json-schema.org/draft/2020-12/schema: the tool's first call fails before the server sees it",
      },
    ]);
    expect(report.tools[0]!.hosts['vscode-copilot-2026-01']).toMatchObject({ verdict: 'dropped', takesDown: 'tool' });
    for (const host of ['openai-functions-2026-11', 'gemini-json-schema-2026-11', 'claude-code-2026-08', 'faithful']) expect(report.tools[0]!.hosts[host]!.verdict, host).toBe('accepted');
  });

  it('draft-07, as zod publishes it: no dialect loss anywhere', async () => {
    const report = await lintTools([declaring('http://json-schema.org/draft-07/schema#')]);
    for (const [host, verdict] of Object.entries(report.tools[0]!.hosts)) expect(verdict.lost?.filter((l) => l.kind === 'dialect') ?? [], host).toEqual([]);
    expect(report.tools[0]!.hosts['gemini-cli-2025-11']!.verdict).toBe('accepted');
    expect(report.tools[0]!.hosts['vscode-copilot-2026-01']!.verdict).toBe('accepted');
  });
});

describe('what a host loses, compared through a $ref and Gemini\'s nullable and enum spellings (src/lint/loss.ts, issue 33)', () => {
  // Each host's view comes from its profile, most running the host's own package (LangChain, Mastra, the AI SDK); the
  // expected losses are by hand, from what the package sends (test/profile-*.test.ts hold those views):
  //  - LangChain (@langchain/mcp-adapters 1.1.2) and the AI SDK (@ai-sdk/google 3.0.141) inline a local $ref whole;
  //    Mastra dereferences it first (json-schema-ref-parser). Inlined whole, nothing of the reference is lost; what
  //    the host drops inside it (a pattern: Mastra's Google layer on an optional string, @ai-sdk/google always) is
  //    a loss at the definition where the keyword is written.
  //  - @ai-sdk/google sends ["string", "null"] and anyOf [string, null] as {type: "string", nullable: true}, Gemini's
  //    spelling of the same type, and [1, 2] as {format: "enum", enum: ["1", "2"]} (vercel/ai#18652).
  //  - @google/genai 1.4.0 (gemini-cli-2025-06) drops $ref and shows the property as {}: the reference is lost.
  const lint = async (inputSchema: Record<string, unknown>) => (await lintTools([{ name: 't', description: 'A tool.', inputSchema } as never])).tools[0]!.hosts;
  const code = { type: 'object', properties: { code: { $ref: '#/$defs/Code' } }, required: ['code'], $defs: { Code: { type: 'string', pattern: '^[A-Z]{3}$' } } };

  it('a $ref inlined whole is no loss (LangChain); a pattern inside it dropped is (Mastra, the AI SDK), where it is written', async () => {
    const hosts = await lint(code);
    expect(withoutEvidence(hosts['langchain-mcp-2026-01'])).toEqual({ verdict: 'accepted', detail: 'shown as published' });
    for (const host of ['mastra-google-2025-12', 'ai-sdk-google-2026-11']) expect(hosts[host]!.lost, host).toEqual([{ kind: 'constraint', path: '/inputSchema/$defs/Code', what: 'pattern dropped' }]);
    expect(hosts['gemini-cli-2025-06']!.lost).toEqual([{ kind: 'ref', path: '/inputSchema/properties/code/$ref', what: '$ref #/$defs/Code dropped: shown untyped (any value)' }]);
  });

  it('a definition two properties name: its loss told once; a recursive one compared once, and kept as sent', async () => {
    const twice = { ...code, properties: { from: { $ref: '#/$defs/Code' }, to: { $ref: '#/$defs/Code' } }, required: ['from', 'to'] };
    expect((await lint(twice))['ai-sdk-google-2026-11']!.lost).toEqual([{ kind: 'constraint', path: '/inputSchema/$defs/Code', what: 'pattern dropped' }]);
    // @ai-sdk/google sends a recursive schema as parametersJsonSchema, refs and $defs as published.
    const tree = { type: 'object', properties: { root: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } } };
    expect(withoutEvidence((await lint(tree))['ai-sdk-google-2026-11'])).toEqual({ verdict: 'accepted', detail: 'shown as published' });
  });

  it("Gemini's nullable is the null of a type list or of an anyOf; a number enum sent as strings under format \"enum\" is the same enum", async () => {
    const note = (schema: Record<string, unknown>) => ({ type: 'object', properties: { note: schema }, required: ['note'] });
    expect((await lint(note({ type: ['string', 'null'] })))['ai-sdk-google-2026-11']!.verdict).toBe('accepted');
    expect((await lint(note({ anyOf: [{ type: 'string', maxLength: 9 }, { type: 'null' }] })))['ai-sdk-google-2026-11']!.lost).toEqual([
      { kind: 'constraint', path: '/inputSchema/properties/note/anyOf/0', what: 'maxLength dropped' },
    ]);
    expect(withoutEvidence((await lint(note({ type: 'number', enum: [1, 2] })))['ai-sdk-google-2026-11'])).toEqual({ verdict: 'accepted', detail: 'shown as published' });
  });
});

describe('the labs and the linter never disagree', () => {
  it('structural-anyof on Continue: the lab run is refused with the very text the matrix gives for the whole list', async () => {
    const lab = await runLab({ variant: 'structural-anyof', solution: false, json: true, settings: { client: getProfile('continue-gemini-2025-02')!, server: 'mcpserver-1.32', seed: 1, calls: 1, knobs: DEFAULT_KNOBS } });
    const run = lab.runs.variant!;
    expect(run.host.accepted).toBe(false);
    const { buildServer, patchChain, serverCommand } = await import('../src/lab/variants.js');
    const { command, args } = serverCommand(await buildServer(patchChain('structural-anyof').variant));
    const report = await lintTools((await readServer({ label: 'structural-anyof', command, args }, 10_000)).tools);
    expect(withoutEvidence(report.server.hosts['continue-gemini-2025-02'])).toEqual({ verdict: 'refused', detail: (run.host as { rejection: string }).rejection, takesDown: 'request' });
  });
});
