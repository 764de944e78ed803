/**
 * Client profiles against hand-written published schemas: the four Gemini hosts (Continue and Goose on the
 * legacy API of 2025-02, gemini-cli of 2025-06 and of 2025-11), one schema at a time. Every input schema and
 * every expected output (what the model sees, the host's error text) is written out by hand from each host's
 * documented rules, as cited next to the code in src/lab/profiles/; none is computed by the code under test.
 * The schemas and the helpers are in test/helpers/profiles.ts; the other hosts are in test/profiles.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ANY_OF_VERB,
  BASELINE,
  BASELINE_STRIPPED,
  EMPTY,
  NO_REQUIRED,
  ONE_OF_VERB,
  PERSON,
  TENSE,
  TYPE_LIST,
  VERB,
  profile,
  published,
  rejection,
  shown,
  type Json,
} from './helpers/profiles.js';

// ---------------------------------------------------------------------------
// Continue v0.9.259 + the legacy API before 2025-03-13. Continue deletes $schema, additionalProperties and default
// along root -> properties -> items only, uppercases the root type, leaves `parameters` out for an empty root; the
// API then refuses the whole request, listing every problem (parse stage first, declaration stage only if it parsed).

describe('continue-gemini-2025-02', () => {
  const id = 'continue-gemini-2025-02';
  const at = (i: number) => `'tools[0].function_declarations[${i}].parameters`;

  it('(a) shows the baseline without $schema and additionalProperties', async () => {
    expect(await shown(id, BASELINE)).toEqual([BASELINE_STRIPPED]);
  });

  it('(b) refuses the structural anyOf: parsed (any_of, new-api#766), but its branches keep additionalProperties, no field', async () => {
    // Continue strips additionalProperties along root -> properties -> items only; the branches keep theirs.
    expect(await rejection(id, ANY_OF_VERB)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "additionalProperties" at ${at(0)}.properties[0].value.any_of[0]': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "additionalProperties" at ${at(0)}.properties[0].value.any_of[1]': Cannot find field.`,
    );
  });

  it('parses anyOf and checks its branches by the same rules: type "null" is no Type value then (new-api#766)', async () => {
    const nullable: Json = { type: 'object', properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] } } };
    expect(await rejection(id, nullable)).toBe(
      `400 INVALID_ARGUMENT: Invalid value at ${at(0)}.properties[0].value.any_of[1].type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "null"`,
    );
  });

  it('refuses title and default where Continue leaves them (inside a union), in document order, as new-api#766 lists them', async () => {
    // A Pydantic-shaped Optional[Model] = None: Continue deletes the property's own default, not the ones inside anyOf.
    const pydantic: Json = {
      type: 'object',
      properties: {
        p: {
          anyOf: [{ type: 'object', properties: { a: { type: 'string', default: 'x', title: 'A' } }, title: 'M' }, { type: 'null' }],
          default: null,
          title: 'P',
        },
      },
    };
    const u = (name: string, where: string) => `Invalid JSON payload received. Unknown name "${name}" at ${at(0)}.properties[0].value${where}': Cannot find field.`;
    expect(await rejection(id, pydantic)).toBe(
      '400 INVALID_ARGUMENT: ' +
        [
          u('default', '.any_of[0].properties[0].value'),
          u('title', '.any_of[0].properties[0].value'),
          u('title', '.any_of[0]'),
          `Invalid value at ${at(0)}.properties[0].value.any_of[1].type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "null"`,
          u('title', ''),
        ].join('\n'),
    );
  });

  it('refuses examples, $defs and a vendor key: no field of the message', async () => {
    const extra: Json = { type: 'object', $defs: {}, properties: { verb: { type: 'string', examples: ['eat'], 'x-parameter-location': 'query' } } };
    expect(await rejection(id, extra)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "$defs" at ${at(0)}': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "examples" at ${at(0)}.properties[0].value': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "x-parameter-location" at ${at(0)}.properties[0].value': Cannot find field.`,
    );
  });

  it('lets through what is unknown for that date (minimum, pattern, ...) and a clean anyOf (served: not known either way)', async () => {
    const unknowns: Json = {
      type: 'object',
      properties: { count: { type: 'integer', minimum: 1, maximum: 9 }, code: { type: 'string', pattern: '^x', minLength: 1 }, either: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    };
    expect(await shown(id, unknowns)).toEqual([unknowns]);
  });

  it('(c) refuses the discriminated union at the oneOf, not at the const inside it', async () => {
    expect(await rejection(id, ONE_OF_VERB)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "oneOf" at ${at(0)}.properties[0].value': Cannot find field.`,
    );
  });

  it('(d) sends the empty root without parameters: the model sees a tool with none', async () => {
    expect(await shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('(e) refuses a type list: the proto field is not repeating', async () => {
    expect(await rejection(id, TYPE_LIST)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "type" at ${at(0)}.properties[1].value': Proto field is not repeating, cannot start list.`,
    );
  });

  it('names a const reached outside any union', async () => {
    const literal: Json = { type: 'object', properties: { tense: { type: 'string' }, kind: { type: 'string', const: 'name' } } };
    expect(await rejection(id, literal)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "const" at ${at(0)}.properties[1].value': Cannot find field.`,
    );
  });

  it('names a $ref and the root $defs, in document order', async () => {
    const referenced: Json = { type: 'object', properties: { verb: { $ref: '#/$defs/Verb' } }, $defs: { Verb: { type: 'string' } } };
    expect(await rejection(id, referenced)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "$ref" at ${at(0)}.properties[0].value': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "$defs" at ${at(0)}': Cannot find field.`,
    );
  });

  it('refuses the whole request for one bad tool, listing every bad declaration', async () => {
    expect(await rejection(id, BASELINE, NO_REQUIRED, ONE_OF_VERB, BASELINE)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "oneOf" at ${at(2)}.properties[0].value': Cannot find field.`,
    );
    expect(await rejection(id, ANY_OF_VERB, BASELINE, TYPE_LIST)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "additionalProperties" at ${at(0)}.properties[0].value.any_of[0]': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "additionalProperties" at ${at(0)}.properties[0].value.any_of[1]': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "type" at ${at(2)}.properties[1].value': Proto field is not repeating, cannot start list.`,
    );
  });

  it('refuses non-string enum values at the parse stage', async () => {
    const numbers: Json = { type: 'object', properties: { count: { type: 'integer', enum: [1, 2] } } };
    expect(await rejection(id, numbers)).toBe(
      `400 INVALID_ARGUMENT: Invalid value at ${at(0)}.properties[0].value.enum[0]' (TYPE_STRING), 1\n` +
        `Invalid value at ${at(0)}.properties[0].value.enum[1]' (TYPE_STRING), 2`,
    );
  });

  it('refuses every string format but enum, date-time included (goose#1044, 2025-02)', async () => {
    const formats: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri' }, when: { type: 'string', format: 'date-time' } } };
    expect(await rejection(id, formats)).toBe(
      "400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[url].format: only 'enum' is supported for STRING type\n" +
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[when].format: only 'enum' is supported for STRING type",
    );
  });

  it('refuses a nested empty object and an array without items', async () => {
    const nested: Json = { type: 'object', properties: { options: { type: 'object', properties: {} }, tags: { type: 'array' } } };
    expect(await rejection(id, nested)).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[options].properties: should be non-empty for OBJECT type\n' +
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.',
    );
  });

  it('removes default along properties and items', async () => {
    const defaults: Json = {
      type: 'object',
      properties: { tense: { type: 'string', default: 'simple past' }, tags: { type: 'array', items: { type: 'string', default: 'x' } } },
    };
    expect(await shown(id, defaults)).toEqual([{ type: 'object', properties: { tense: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } }]);
  });

  it('loses the server when the MCP SDK 1.0.3 refuses tools/list, and says the text is the kit\'s', async () => {
    expect(await rejection(id, BASELINE, {})).toBe(
      "(kit text: what Continue shows is not modelled) the MCP SDK 1.0.3 client refused tools/list: tool 'tool1' has an inputSchema " +
        'whose root is not "type": "object", so no tool of this server reaches the model',
    );
  });
});

// ---------------------------------------------------------------------------
// Goose v1.0.x + the legacy API before 2025-03-13. Goose keeps 10 keys at every level (names under `properties`
// kept), gives every node left without a type `type: "string"`, leaves `parameters` out for an empty root, and
// sorts every object's keys (serde_json BTreeMap). Its request has `tools` as one object: the parser says
// `tools.function_declarations[i]`. Goose's own framing: "Request failed: Request failed with status: 400 Bad Request. Message: ".

describe('goose-google-2025-02', () => {
  const id = 'goose-google-2025-02';
  const goose400 = 'Request failed: Request failed with status: 400 Bad Request. Message: ';

  it('(a) shows the baseline without $schema and additionalProperties, keys sorted', async () => {
    const [seen] = await shown(id, BASELINE);
    expect(seen).toEqual({
      properties: { person: { enum: ['1st singular', '3rd singular'], type: 'string' }, tense: { enum: ['simple past', 'present perfect'], type: 'string' }, verb: VERB },
      required: ['verb', 'tense', 'person'],
      type: 'object',
    });
    expect(Object.keys(seen!)).toEqual(['properties', 'required', 'type']);
    expect(Object.keys(seen!.properties as Json)).toEqual(['person', 'tense', 'verb']);
    expect(Object.keys((seen!.properties as Record<string, Json>).verb!)).toEqual(['description', 'enum', 'type']);
  });

  it('(b) shows the structural anyOf as a plain string, with no error', async () => {
    expect(await shown(id, ANY_OF_VERB)).toEqual([{ properties: { person: PERSON, tense: TENSE, verb: { type: 'string' } }, required: ['verb', 'tense', 'person'], type: 'object' }]);
  });

  it('(c) shows the discriminated union as a plain string too', async () => {
    expect(await shown(id, ONE_OF_VERB)).toEqual([{ properties: { tense: TENSE, verb: { type: 'string' } }, required: ['verb', 'tense'], type: 'object' }]);
  });

  it('(d) sends the empty root without parameters: the model sees a tool with none', async () => {
    expect(await shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
    expect(await shown(id, { type: 'object' })).toEqual([{ type: 'object', properties: {} }]);
  });

  it('(e) refuses a type list, numbering properties in sorted order (note before verb)', async () => {
    expect(await rejection(id, TYPE_LIST)).toBe(
      `${goose400}Invalid JSON payload received. Unknown name "type" at 'tools.function_declarations[0].parameters.properties[0].value': Proto field is not repeating, cannot start list.`,
    );
  });

  it('turns a $ref into a string and drops the root $defs', async () => {
    const referenced: Json = {
      type: 'object',
      properties: { verb: { $ref: '#/$defs/Verb' } },
      $defs: { Verb: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(await shown(id, referenced)).toEqual([{ properties: { verb: { type: 'string' } }, type: 'object' }]);
  });

  it('turns an untyped items union into a string, keeping the array', async () => {
    const list: Json = { type: 'object', properties: { tags: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, minItems: 1 } } };
    expect(await shown(id, list)).toEqual([{ properties: { tags: { items: { type: 'string' }, minItems: 1, type: 'array' } }, type: 'object' }]);
  });

  it('refuses a uri format, as the Fetch extension met it (goose#1044)', async () => {
    const fetch: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri', description: 'URL to fetch' } }, required: ['url'] };
    expect(await rejection(id, BASELINE, fetch)).toBe(
      `${goose400}* GenerateContentRequest.tools[0].function_declarations[1].parameters.properties[url].format: only 'enum' is supported for STRING type`,
    );
  });

  it('refuses non-string enums, empty nested objects and arrays without items, for every tool', async () => {
    const numbers: Json = { type: 'object', properties: { count: { type: 'integer', enum: [1] } } };
    expect(await rejection(id, BASELINE, numbers)).toBe(
      `${goose400}Invalid value at 'tools.function_declarations[1].parameters.properties[0].value.enum[0]' (TYPE_STRING), 1`,
    );
    const nested: Json = { type: 'object', properties: { tags: { type: 'array' }, options: { type: 'object', properties: {}, additionalProperties: true } } };
    expect(await rejection(id, nested)).toBe(
      `${goose400}* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[options].properties: should be non-empty for OBJECT type\n` +
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.',
    );
  });
});

// ---------------------------------------------------------------------------
// gemini-cli v0.1.1 (@google/genai 1.4.0 mcpToTool) + the legacy API, which takes anyOf since 2025-03-13. The SDK
// keeps 20 keys (recursing through items, anyOf, properties), uppercases types, throws on type + anyOf in one node
// and on a type that is not a string; gemini-cli then removes default next to anyOf. The seen schemas are written
// with lowercase types (the request carries uppercase ones).

describe('gemini-cli-2025-06', () => {
  const id = 'gemini-cli-2025-06';
  const lost = "Failed to list or register tools for MCP server '<server>': ";

  it('(a) shows the baseline without $schema and additionalProperties', async () => {
    expect(await shown(id, BASELINE)).toEqual([BASELINE_STRIPPED]);
  });

  it('(b) keeps the structural anyOf, its branches without additionalProperties', async () => {
    expect(await shown(id, ANY_OF_VERB)).toEqual([
      {
        type: 'object',
        properties: {
          verb: {
            anyOf: [
              { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
              {
                type: 'object',
                properties: { infinitive: { type: 'string' }, past: { type: 'string' }, pastParticiple: { type: 'string' } },
                required: ['infinitive', 'past', 'pastParticiple'],
              },
            ],
          },
          tense: TENSE,
          person: PERSON,
        },
        required: ['verb', 'tense', 'person'],
      },
    ]);
  });

  it('(c) drops the oneOf silently: verb is shown untyped, {}', async () => {
    expect(await shown(id, ONE_OF_VERB)).toEqual([{ type: 'object', properties: { verb: {}, tense: TENSE }, required: ['verb', 'tense'] }]);
  });

  it('(d) accepts the empty root as a tool with no parameters', async () => {
    expect(await shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('(e) loses the server on a type list: the SDK calls toUpperCase on it', async () => {
    expect(await rejection(id, BASELINE, TYPE_LIST)).toBe(`${lost}TypeError: fieldValue.toUpperCase is not a function`);
  });

  it('loses the server when one node has both type and anyOf (gemini-cli#4121)', async () => {
    const both: Json = {
      type: 'object',
      properties: { verb: { type: 'string', anyOf: [{ type: 'string' }, { type: 'object', properties: { infinitive: { type: 'string' } } }] } },
    };
    expect(await rejection(id, BASELINE, both)).toBe(`${lost}Error: type and anyOf cannot be both populated.`);
  });

  it('drops $ref, $defs and const without a word', async () => {
    const referenced: Json = {
      type: 'object',
      properties: { verb: { $ref: '#/$defs/Verb' }, kind: { type: 'string', const: 'name' } },
      $defs: { Verb: { type: 'string' } },
    };
    expect(await shown(id, referenced)).toEqual([{ type: 'object', properties: { verb: {}, kind: { type: 'string' } } }]);
  });

  it('removes default next to anyOf only', async () => {
    const defaults: Json = {
      type: 'object',
      properties: { verb: { anyOf: [{ type: 'string' }, { type: 'integer' }], default: 'eat' }, tense: { type: 'string', default: 'simple past' } },
    };
    expect(await shown(id, defaults)).toEqual([
      { type: 'object', properties: { verb: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, tense: { type: 'string', default: 'simple past' } } },
    ]);
  });

  it('keeps a null branch as a NULL type; shows an unknown type as no type', async () => {
    const odd: Json = { type: 'object', properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, any: { type: 'any', description: 'd' } } };
    expect(await shown(id, odd)).toEqual([{ type: 'object', properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, any: { description: 'd' } } }]);
  });

  it('refuses a uri format but takes date-time (gemini-cli#3178)', async () => {
    const formats: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri' }, when: { type: 'string', format: 'date-time' } } };
    expect(await rejection(id, formats)).toBe(
      "400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[url].format: only 'enum' and 'date-time' are supported for STRING type",
    );
  });

  it('refuses non-string enum values, at request.tools[0] (gemini-cli#2031)', async () => {
    const numbers: Json = { type: 'object', properties: { verb: { type: 'string' }, count: { type: 'integer', enum: [1, 2] } } };
    expect(await rejection(id, BASELINE, numbers)).toBe(
      "400 INVALID_ARGUMENT: Invalid value at 'request.tools[0].function_declarations[1].parameters.properties[1].value.enum[0]' (TYPE_STRING), 1\n" +
        "Invalid value at 'request.tools[0].function_declarations[1].parameters.properties[1].value.enum[1]' (TYPE_STRING), 2",
    );
  });

  it('refuses an empty enum value and an enum on a non-string', async () => {
    const enums: Json = { type: 'object', properties: { time: { type: 'string', enum: ['', 'day'] }, level: { enum: ['a', 'b'] } } };
    expect(await rejection(id, enums)).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[time].enum[0]: cannot be empty\n' +
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[level].enum: only allowed for STRING type',
    );
  });

  it('refuses an array without items', async () => {
    expect(await rejection(id, { type: 'object', properties: { tags: { type: 'array' } } })).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.',
    );
  });

  it('loses the server when the MCP SDK 1.12.1 refuses tools/list ("required": null)', async () => {
    expect(await rejection(id, { type: 'object', properties: { verb: { type: 'string' } }, required: null })).toBe(
      `${lost}(kit text: a ZodError from the MCP SDK 1.12.1, its issue list not reproduced) tool 'conjugate' has "required" that is not an array of strings`,
    );
  });
});

// ---------------------------------------------------------------------------
// gemini-cli v0.17.0: the raw inputSchema in parametersJsonSchema, nothing stripped. The API takes JSON Schema
// (anyOf, $ref/$defs, additionalProperties, type null); it refuses a $ref that points nowhere. Before sending, the
// host checks the arguments with its own Ajv (the profile runs it; test/parity-gemini-cli-core.test.ts proves it).

describe('gemini-cli-2025-11', () => {
  const id = 'gemini-cli-2025-11';

  it('(a) to (e) show every schema exactly as published, $schema included', async () => {
    expect(await shown(id, BASELINE)).toEqual([BASELINE]);
    expect((await shown(id, BASELINE))[0]).toHaveProperty('$schema', 'http://json-schema.org/draft-07/schema#');
    expect(await shown(id, ANY_OF_VERB)).toEqual([ANY_OF_VERB]);
    expect(await shown(id, ONE_OF_VERB)).toEqual([ONE_OF_VERB]); // oneOf kept: "read as anyOf" is documented only for responseJsonSchema
    expect(await shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
    expect(await shown(id, TYPE_LIST)).toEqual([TYPE_LIST]);
  });

  it('refuses a $ref that points nowhere (agent-infra/sandbox#83)', async () => {
    expect(await rejection(id, BASELINE, { type: 'object', properties: { language: { $ref: '#/$defs/Language' } } })).toBe(
      '400 INVALID_ARGUMENT: reference to undefined schema at properties.language',
    );
  });

  it('accepts a $ref to the root $defs and a recursive $ref to the root', async () => {
    const referenced: Json = {
      type: 'object',
      properties: { language: { $ref: '#/$defs/Language' }, child: { $ref: '#' } },
      $defs: { Language: { type: 'string', enum: ['en', 'es'] } },
    };
    expect(await shown(id, referenced)).toEqual([referenced]);
  });

  // BaseDeclarativeTool.build() -> SchemaValidator.validate at v0.17.0 (079dfef2): one Ajv (draft-07, strictSchema
  // false, ajv-formats, allErrors off: the first error only), errorsText with dataVar "params": "params" + the
  // instance path + Ajv's message for the keyword (enum "must be equal to one of the allowed values", required
  // "must have required property '<key>'", additionalProperties "must NOT have additional properties", type
  // "must be <type>"; type is checked before enum).
  const seen = async (schema: Json, withDescription = true) => {
    const { description, ...bare } = published(schema)[0]!;
    const view = await profile(id).present([withDescription ? { ...bare, description } : bare]);
    if ('rejected' in view) throw new Error(view.rejected);
    return view.tools[0]!;
  };
  const valid = { verb: 'eat', tense: 'simple past', person: '1st singular' };

  it.each([
    ['a wrong enum value', { ...valid, tense: 'future' }, 'params/tense must be equal to one of the allowed values'],
    ['a missing required key', { verb: 'eat', tense: 'simple past' }, "params must have required property 'person'"],
    ['an extra key (additionalProperties: false)', { ...valid, mood: 'indicative' }, 'params must NOT have additional properties'],
    ['a wrong type', { ...valid, person: 3 }, 'params/person must be string'],
  ])('answers %s with Ajv\'s text, as the scheduler sends it (response.error); nothing is sent', async (_what, args, error) => {
    expect(await profile(id).validate(await seen(BASELINE), args)).toEqual({ ok: false, error });
  });

  it('sends a valid call unchanged', async () => {
    expect(await profile(id).validate(await seen(BASELINE), { ...valid })).toEqual({ ok: true, args: valid });
  });

  it('a $schema Ajv does not know fails the first call of a tool only (speakeasy-api/gram#863, gemini-cli#14970)', async () => {
    const draft2020 = { ...BASELINE, $schema: 'https://json-schema.org/draft/2020-12/schema' };
    const first = await seen(draft2020);
    const unknown = { ok: false, error: 'no schema with key or ref "https://json-schema.org/draft/2020-12/schema"' };
    expect(await profile(id).validate(first, { ...valid })).toEqual(unknown);
    // Ajv cached the schema object before its meta-schema check threw: the next call is checked, and passes.
    expect(await profile(id).validate(first, { ...valid })).toEqual({ ok: true, args: valid });
    expect(await profile(id).validate(first, { ...valid, tense: 'future' })).toEqual({ ok: false, error: 'params/tense must be equal to one of the allowed values' });
    // Another session (another presentation, another schema object): its first call fails again.
    expect(await profile(id).validate(await seen(draft2020), { ...valid })).toEqual(unknown);
  });

  it('sends a missing description as "" (discoverTools: toolDef.description ?? \'\')', async () => {
    expect((await seen(BASELINE, false)).description).toBe('');
  });

  it('loses the server when the MCP SDK 1.15.1 refuses tools/list', async () => {
    expect(await rejection(id, BASELINE, {})).toBe(
      "Error discovering tools from <server>: (kit text: a ZodError from the MCP SDK 1.15.1, its issue list not reproduced) tool 'tool1' " +
        'has an inputSchema whose root is not "type": "object"',
    );
  });
});
