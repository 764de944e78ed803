/**
 * Client profiles against hand-written published schemas. Every input schema
 * and every expected output (what the model sees, the host's error text) is
 * written out by hand from each host's documented rules, as cited next to the
 * code in src/lab/profiles/; none is computed by the code under test.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { getProfile, PROFILE_IDS, PROFILES, type ClientProfile } from '../src/lab/profiles/index.js';

type Json = Record<string, unknown>;
type Published = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

function profile(id: string): ClientProfile {
  const p = getProfile(id);
  if (!p) throw new Error(`no profile ${id}`);
  return p;
}

/** Tools as tools/list gives them. Some of these schemas do not fit the SDK's Tool type on purpose. */
function published(...schemas: Json[]): Published[] {
  return schemas.map((inputSchema, i) => ({
    name: i === 0 ? 'conjugate' : `tool${i}`,
    description: 'Conjugates an English verb.',
    inputSchema,
  })) as unknown as Published[];
}

/** The tools a profile shows, or the test fails with the rejection. */
function shown(id: string, ...schemas: Json[]): Json[] {
  const view = profile(id).present(published(...schemas));
  if ('rejected' in view) throw new Error(`${id} rejected: ${view.rejected}`);
  return view.tools.map((t) => t.inputSchema);
}

function rejection(id: string, ...schemas: Json[]): string {
  const view = profile(id).present(published(...schemas));
  if (!('rejected' in view)) throw new Error(`${id} accepted: ${JSON.stringify(view.tools)}`);
  return view.rejected;
}

// ---------------------------------------------------------------------------
// The published schemas, by hand

/** The kit's baseline shape: a strict object of three string enums. */
const BASELINE: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
    person: { type: 'string', enum: ['1st singular', '3rd singular'] },
  },
  required: ['verb', 'tense', 'person'],
  additionalProperties: false,
};

/** The baseline with `required` removed. */
const NO_REQUIRED: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
    person: { type: 'string', enum: ['1st singular', '3rd singular'] },
  },
  additionalProperties: false,
};

const NAME_BRANCH: Json = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};
const PARTS_BRANCH: Json = {
  type: 'object',
  properties: { infinitive: { type: 'string' }, past: { type: 'string' }, pastParticiple: { type: 'string' } },
  required: ['infinitive', 'past', 'pastParticiple'],
  additionalProperties: false,
};

/** A structural union: `verb` is an anyOf of two objects. */
const ANY_OF_VERB: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: { anyOf: [NAME_BRANCH, PARTS_BRANCH] },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
    person: { type: 'string', enum: ['1st singular', '3rd singular'] },
  },
  required: ['verb', 'tense', 'person'],
  additionalProperties: false,
};

/** `verb` is a discriminated union (oneOf, const discriminator), as zod 4.6.7 publishes z.discriminatedUnion. */
const ONE_OF_VERB: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'name' }, name: { type: 'string' } },
          required: ['kind', 'name'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'parts' }, infinitive: { type: 'string' }, past: { type: 'string' } },
          required: ['kind', 'infinitive', 'past'],
          additionalProperties: false,
        },
      ],
    },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
  },
  required: ['verb', 'tense'],
  additionalProperties: false,
};

/** What the SDK publishes for a transformed root: no parameters. */
const EMPTY: Json = { type: 'object', properties: {} };

/** A union at the root. */
const ROOT_ANY_OF: Json = {
  type: 'object',
  anyOf: [
    { type: 'object', properties: { verb: { type: 'string' } }, required: ['verb'] },
    { type: 'object', properties: { infinitive: { type: 'string' } }, required: ['infinitive'] },
  ],
};

/** A nullable written as a type list. */
const TYPE_LIST: Json = {
  type: 'object',
  properties: {
    verb: { type: 'string' },
    note: { type: ['string', 'null'] },
  },
  required: ['verb'],
};

/** Read by hand: the three properties of BASELINE, as every profile that keeps them shows them. */
const VERB = { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' };
const TENSE = { type: 'string', enum: ['simple past', 'present perfect'] };
const PERSON = { type: 'string', enum: ['1st singular', '3rd singular'] };

/** BASELINE without $schema and additionalProperties. */
const BASELINE_STRIPPED: Json = { type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON }, required: ['verb', 'tense', 'person'] };

// ---------------------------------------------------------------------------

describe('the profile list', () => {
  it('has the eight profiles, in order, each with a source and one date', () => {
    expect(PROFILE_IDS).toEqual([
      'faithful',
      'continue-gemini-2025-02',
      'goose-google-2025-02',
      'gemini-cli-2025-06',
      'gemini-cli-2025-11',
      'openai-strict',
      'claude',
      'langflow',
    ]);
    expect(PROFILES.map((p) => p.id)).toEqual(PROFILE_IDS);
    for (const p of PROFILES) {
      expect(p.sources.length).toBeGreaterThan(0);
      expect(p.title).not.toContain('\n');
      expect(p.asOf).not.toBe('');
    }
    expect(getProfile('faithful')?.asOf).toBe('n/a');
    expect(getProfile('continue-gemini-2025-02')?.asOf).toBe('Continue v0.9.259, 2025-02-01, Gemini API before 2025-03-13');
    expect(getProfile('gemini-cli-2025-11')?.asOf).toBe('gemini-cli v0.17.0, 2025-11-20, Gemini API parametersJsonSchema');
    expect(getProfile('gemini')).toBeUndefined();
    expect(getProfile('gemini-2025-11')).toBeUndefined();
    expect(getProfile('nope')).toBeUndefined();
  });

  it('cites primary sources only', () => {
    for (const p of PROFILES) for (const source of p.sources) expect(source).not.toMatch(/facts\.md|design\.md/);
  });
});

// ---------------------------------------------------------------------------
// Continue v0.9.259 + the legacy API before 2025-03-13. Continue deletes $schema, additionalProperties and default
// along root -> properties -> items only, uppercases the root type, leaves `parameters` out for an empty root; the
// API then refuses the whole request, listing every problem (parse stage first, declaration stage only if it parsed).

describe('continue-gemini-2025-02', () => {
  const id = 'continue-gemini-2025-02';
  const at = (i: number) => `'tools[0].function_declarations[${i}].parameters`;

  it('(a) shows the baseline without $schema and additionalProperties', () => {
    expect(shown(id, BASELINE)).toEqual([BASELINE_STRIPPED]);
  });

  it('(b) refuses the structural anyOf: the API has no union field yet', () => {
    // The branches' additionalProperties survive Continue, but sit inside the unparsed anyOf: not named.
    expect(rejection(id, ANY_OF_VERB)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "anyOf" at ${at(0)}.properties[0].value': Cannot find field.`,
    );
  });

  it('(c) refuses the discriminated union at the oneOf, not at the const inside it', () => {
    expect(rejection(id, ONE_OF_VERB)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "oneOf" at ${at(0)}.properties[0].value': Cannot find field.`,
    );
  });

  it('(d) sends the empty root without parameters: the model sees a tool with none', () => {
    expect(shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('(e) refuses a type list: the proto field is not repeating', () => {
    expect(rejection(id, TYPE_LIST)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "type" at ${at(0)}.properties[1].value': Proto field is not repeating, cannot start list.`,
    );
  });

  it('names a const reached outside any union', () => {
    const literal: Json = { type: 'object', properties: { tense: { type: 'string' }, kind: { type: 'string', const: 'name' } } };
    expect(rejection(id, literal)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "const" at ${at(0)}.properties[1].value': Cannot find field.`,
    );
  });

  it('names a $ref and the root $defs, in document order', () => {
    const referenced: Json = { type: 'object', properties: { verb: { $ref: '#/$defs/Verb' } }, $defs: { Verb: { type: 'string' } } };
    expect(rejection(id, referenced)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "$ref" at ${at(0)}.properties[0].value': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "$defs" at ${at(0)}': Cannot find field.`,
    );
  });

  it('refuses the whole request for one bad tool, listing every bad declaration', () => {
    expect(rejection(id, BASELINE, NO_REQUIRED, ONE_OF_VERB, BASELINE)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "oneOf" at ${at(2)}.properties[0].value': Cannot find field.`,
    );
    expect(rejection(id, ANY_OF_VERB, BASELINE, TYPE_LIST)).toBe(
      `400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "anyOf" at ${at(0)}.properties[0].value': Cannot find field.\n` +
        `Invalid JSON payload received. Unknown name "type" at ${at(2)}.properties[1].value': Proto field is not repeating, cannot start list.`,
    );
  });

  it('refuses non-string enum values at the parse stage', () => {
    const numbers: Json = { type: 'object', properties: { count: { type: 'integer', enum: [1, 2] } } };
    expect(rejection(id, numbers)).toBe(
      `400 INVALID_ARGUMENT: Invalid value at ${at(0)}.properties[0].value.enum[0]' (TYPE_STRING), 1\n` +
        `Invalid value at ${at(0)}.properties[0].value.enum[1]' (TYPE_STRING), 2`,
    );
  });

  it('refuses every string format but enum, date-time included (goose#1044, 2025-02)', () => {
    const formats: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri' }, when: { type: 'string', format: 'date-time' } } };
    expect(rejection(id, formats)).toBe(
      "400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[url].format: only 'enum' is supported for STRING type\n" +
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[when].format: only 'enum' is supported for STRING type",
    );
  });

  it('refuses a nested empty object and an array without items', () => {
    const nested: Json = { type: 'object', properties: { options: { type: 'object', properties: {} }, tags: { type: 'array' } } };
    expect(rejection(id, nested)).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[options].properties: should be non-empty for OBJECT type\n' +
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.',
    );
  });

  it('removes default along properties and items', () => {
    const defaults: Json = {
      type: 'object',
      properties: { tense: { type: 'string', default: 'simple past' }, tags: { type: 'array', items: { type: 'string', default: 'x' } } },
    };
    expect(shown(id, defaults)).toEqual([{ type: 'object', properties: { tense: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } }]);
  });

  it('loses the server when the MCP SDK 1.0.3 refuses tools/list, and says the text is the kit\'s', () => {
    expect(rejection(id, BASELINE, {})).toBe(
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

  it('(a) shows the baseline without $schema and additionalProperties, keys sorted', () => {
    const [seen] = shown(id, BASELINE);
    expect(seen).toEqual({
      properties: { person: { enum: ['1st singular', '3rd singular'], type: 'string' }, tense: { enum: ['simple past', 'present perfect'], type: 'string' }, verb: VERB },
      required: ['verb', 'tense', 'person'],
      type: 'object',
    });
    expect(Object.keys(seen!)).toEqual(['properties', 'required', 'type']);
    expect(Object.keys(seen!.properties as Json)).toEqual(['person', 'tense', 'verb']);
    expect(Object.keys((seen!.properties as Record<string, Json>).verb!)).toEqual(['description', 'enum', 'type']);
  });

  it('(b) shows the structural anyOf as a plain string, with no error', () => {
    expect(shown(id, ANY_OF_VERB)).toEqual([{ properties: { person: PERSON, tense: TENSE, verb: { type: 'string' } }, required: ['verb', 'tense', 'person'], type: 'object' }]);
  });

  it('(c) shows the discriminated union as a plain string too', () => {
    expect(shown(id, ONE_OF_VERB)).toEqual([{ properties: { tense: TENSE, verb: { type: 'string' } }, required: ['verb', 'tense'], type: 'object' }]);
  });

  it('(d) sends the empty root without parameters: the model sees a tool with none', () => {
    expect(shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
    expect(shown(id, { type: 'object' })).toEqual([{ type: 'object', properties: {} }]);
  });

  it('(e) refuses a type list, numbering properties in sorted order (note before verb)', () => {
    expect(rejection(id, TYPE_LIST)).toBe(
      `${goose400}Invalid JSON payload received. Unknown name "type" at 'tools.function_declarations[0].parameters.properties[0].value': Proto field is not repeating, cannot start list.`,
    );
  });

  it('turns a $ref into a string and drops the root $defs', () => {
    const referenced: Json = {
      type: 'object',
      properties: { verb: { $ref: '#/$defs/Verb' } },
      $defs: { Verb: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(shown(id, referenced)).toEqual([{ properties: { verb: { type: 'string' } }, type: 'object' }]);
  });

  it('turns an untyped items union into a string, keeping the array', () => {
    const list: Json = { type: 'object', properties: { tags: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, minItems: 1 } } };
    expect(shown(id, list)).toEqual([{ properties: { tags: { items: { type: 'string' }, minItems: 1, type: 'array' } }, type: 'object' }]);
  });

  it('refuses a uri format, as the Fetch extension met it (goose#1044)', () => {
    const fetch: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri', description: 'URL to fetch' } }, required: ['url'] };
    expect(rejection(id, BASELINE, fetch)).toBe(
      `${goose400}* GenerateContentRequest.tools[0].function_declarations[1].parameters.properties[url].format: only 'enum' is supported for STRING type`,
    );
  });

  it('refuses non-string enums, empty nested objects and arrays without items, for every tool', () => {
    const numbers: Json = { type: 'object', properties: { count: { type: 'integer', enum: [1] } } };
    expect(rejection(id, BASELINE, numbers)).toBe(
      `${goose400}Invalid value at 'tools.function_declarations[1].parameters.properties[0].value.enum[0]' (TYPE_STRING), 1`,
    );
    const nested: Json = { type: 'object', properties: { tags: { type: 'array' }, options: { type: 'object', properties: {}, additionalProperties: true } } };
    expect(rejection(id, nested)).toBe(
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

  it('(a) shows the baseline without $schema and additionalProperties', () => {
    expect(shown(id, BASELINE)).toEqual([BASELINE_STRIPPED]);
  });

  it('(b) keeps the structural anyOf, its branches without additionalProperties', () => {
    expect(shown(id, ANY_OF_VERB)).toEqual([
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

  it('(c) drops the oneOf silently: verb is shown untyped, {}', () => {
    expect(shown(id, ONE_OF_VERB)).toEqual([{ type: 'object', properties: { verb: {}, tense: TENSE }, required: ['verb', 'tense'] }]);
  });

  it('(d) accepts the empty root as a tool with no parameters', () => {
    expect(shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('(e) loses the server on a type list: the SDK calls toUpperCase on it', () => {
    expect(rejection(id, BASELINE, TYPE_LIST)).toBe(`${lost}TypeError: fieldValue.toUpperCase is not a function`);
  });

  it('loses the server when one node has both type and anyOf (gemini-cli#4121)', () => {
    const both: Json = {
      type: 'object',
      properties: { verb: { type: 'string', anyOf: [{ type: 'string' }, { type: 'object', properties: { infinitive: { type: 'string' } } }] } },
    };
    expect(rejection(id, BASELINE, both)).toBe(`${lost}Error: type and anyOf cannot be both populated.`);
  });

  it('drops $ref, $defs and const without a word', () => {
    const referenced: Json = {
      type: 'object',
      properties: { verb: { $ref: '#/$defs/Verb' }, kind: { type: 'string', const: 'name' } },
      $defs: { Verb: { type: 'string' } },
    };
    expect(shown(id, referenced)).toEqual([{ type: 'object', properties: { verb: {}, kind: { type: 'string' } } }]);
  });

  it('removes default next to anyOf only', () => {
    const defaults: Json = {
      type: 'object',
      properties: { verb: { anyOf: [{ type: 'string' }, { type: 'integer' }], default: 'eat' }, tense: { type: 'string', default: 'simple past' } },
    };
    expect(shown(id, defaults)).toEqual([
      { type: 'object', properties: { verb: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, tense: { type: 'string', default: 'simple past' } } },
    ]);
  });

  it('keeps a null branch as a NULL type; shows an unknown type as no type', () => {
    const odd: Json = { type: 'object', properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, any: { type: 'any', description: 'd' } } };
    expect(shown(id, odd)).toEqual([{ type: 'object', properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, any: { description: 'd' } } }]);
  });

  it('refuses a uri format but takes date-time (gemini-cli#3178)', () => {
    const formats: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri' }, when: { type: 'string', format: 'date-time' } } };
    expect(rejection(id, formats)).toBe(
      "400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[url].format: only 'enum' and 'date-time' are supported for STRING type",
    );
  });

  it('refuses non-string enum values, at request.tools[0] (gemini-cli#2031)', () => {
    const numbers: Json = { type: 'object', properties: { verb: { type: 'string' }, count: { type: 'integer', enum: [1, 2] } } };
    expect(rejection(id, BASELINE, numbers)).toBe(
      "400 INVALID_ARGUMENT: Invalid value at 'request.tools[0].function_declarations[1].parameters.properties[1].value.enum[0]' (TYPE_STRING), 1\n" +
        "Invalid value at 'request.tools[0].function_declarations[1].parameters.properties[1].value.enum[1]' (TYPE_STRING), 2",
    );
  });

  it('refuses an empty enum value and an enum on a non-string', () => {
    const enums: Json = { type: 'object', properties: { time: { type: 'string', enum: ['', 'day'] }, level: { enum: ['a', 'b'] } } };
    expect(rejection(id, enums)).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[time].enum[0]: cannot be empty\n' +
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[level].enum: only allowed for STRING type',
    );
  });

  it('refuses an array without items', () => {
    expect(rejection(id, { type: 'object', properties: { tags: { type: 'array' } } })).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.',
    );
  });

  it('loses the server when the MCP SDK 1.12.1 refuses tools/list ("required": null)', () => {
    expect(rejection(id, { type: 'object', properties: { verb: { type: 'string' } }, required: null })).toBe(
      `${lost}(kit text: a ZodError from the MCP SDK 1.12.1, its issue list not reproduced) tool 'conjugate' has "required" that is not an array of strings`,
    );
  });
});

// ---------------------------------------------------------------------------
// gemini-cli v0.17.0: the raw inputSchema in parametersJsonSchema, nothing stripped. The API takes JSON Schema
// (anyOf, $ref/$defs, additionalProperties, type null); it refuses a $ref that points nowhere.

describe('gemini-cli-2025-11', () => {
  const id = 'gemini-cli-2025-11';

  it('(a) to (e) show every schema exactly as published, $schema included', () => {
    expect(shown(id, BASELINE)).toEqual([BASELINE]);
    expect(shown(id, BASELINE)[0]).toHaveProperty('$schema', 'http://json-schema.org/draft-07/schema#');
    expect(shown(id, ANY_OF_VERB)).toEqual([ANY_OF_VERB]);
    expect(shown(id, ONE_OF_VERB)).toEqual([ONE_OF_VERB]); // oneOf kept: "read as anyOf" is documented only for responseJsonSchema
    expect(shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
    expect(shown(id, TYPE_LIST)).toEqual([TYPE_LIST]);
  });

  it('refuses a $ref that points nowhere (agent-infra/sandbox#83)', () => {
    expect(rejection(id, BASELINE, { type: 'object', properties: { language: { $ref: '#/$defs/Language' } } })).toBe(
      '400 INVALID_ARGUMENT: reference to undefined schema at properties.language',
    );
  });

  it('accepts a $ref to the root $defs and a recursive $ref to the root', () => {
    const referenced: Json = {
      type: 'object',
      properties: { language: { $ref: '#/$defs/Language' }, child: { $ref: '#' } },
      $defs: { Language: { type: 'string', enum: ['en', 'es'] } },
    };
    expect(shown(id, referenced)).toEqual([referenced]);
  });

  it('loses the server when the MCP SDK 1.15.1 refuses tools/list', () => {
    expect(rejection(id, BASELINE, {})).toBe(
      "Error discovering tools from <server>: (kit text: a ZodError from the MCP SDK 1.15.1, its issue list not reproduced) tool 'tool1' " +
        'has an inputSchema whose root is not "type": "object"',
    );
  });
});

// ---------------------------------------------------------------------------
// The other hosts

describe('the baseline schema', () => {
  it('faithful, openai-strict and claude show it unchanged', () => {
    for (const id of ['faithful', 'openai-strict', 'claude']) expect(shown(id, BASELINE)).toEqual([BASELINE]);
  });

  it('langflow shows plain strings: no enums, no $schema, no additionalProperties', () => {
    expect(shown('langflow', BASELINE)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'string', description: 'The verb, in its base form.' },
          tense: { type: 'string' },
          person: { type: 'string' },
        },
        required: ['verb', 'tense', 'person'],
      },
    ]);
  });
});

describe('required removed', () => {
  it('faithful and claude show it unchanged', () => {
    expect(shown('faithful', NO_REQUIRED)).toEqual([NO_REQUIRED]);
    expect(shown('claude', NO_REQUIRED)).toEqual([NO_REQUIRED]);
  });

  it('the three legacy-field Gemini hosts accept it without $schema and additionalProperties', () => {
    const stripped = { type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON } };
    for (const id of ['continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06']) expect(shown(id, NO_REQUIRED)).toEqual([stripped]);
  });

  it('langflow shows three optional strings', () => {
    expect(shown('langflow', NO_REQUIRED)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'string', description: 'The verb, in its base form.' },
          tense: { type: 'string' },
          person: { type: 'string' },
        },
      },
    ]);
  });

  it('openai-strict refuses it: every property must be required', () => {
    expect(rejection('openai-strict', NO_REQUIRED)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=(), 'required' is required to be " +
        "supplied and to be an array including every key in properties. Missing 'verb'.",
    );
  });
});

describe('a property that is an anyOf of two objects', () => {
  it('faithful, openai-strict and claude show it unchanged', () => {
    for (const id of ['faithful', 'openai-strict', 'claude']) expect(shown(id, ANY_OF_VERB)).toEqual([ANY_OF_VERB]);
  });

  it('langflow keeps only the first branch', () => {
    expect(shown('langflow', ANY_OF_VERB)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          tense: { type: 'string' },
          person: { type: 'string' },
        },
        required: ['verb', 'tense', 'person'],
      },
    ]);
  });

  it('openai-strict refuses a branch object that is not strict, naming its context', () => {
    const loose: Json = {
      type: 'object',
      properties: { verb: { anyOf: [NAME_BRANCH, { type: 'object', properties: { infinitive: { type: 'string' } }, required: ['infinitive'] }] } },
      required: ['verb'],
      additionalProperties: false,
    };
    expect(rejection('openai-strict', loose)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=('properties', 'verb', 'anyOf', '1'), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });
});

describe('a discriminated union: oneOf with a const discriminator', () => {
  it('openai-strict refuses the oneOf', () => {
    expect(rejection('openai-strict', ONE_OF_VERB)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=('properties', 'verb'), 'oneOf' is not permitted.",
    );
  });

  it('langflow makes the field untyped', () => {
    expect(shown('langflow', ONE_OF_VERB)).toEqual([
      { type: 'object', properties: { verb: {}, tense: { type: 'string' } }, required: ['verb', 'tense'] },
    ]);
  });

  it('faithful and claude show it unchanged', () => {
    for (const id of ['faithful', 'claude']) expect(shown(id, ONE_OF_VERB)).toEqual([ONE_OF_VERB]);
  });
});

describe('the empty published schema {type: object, properties: {}}', () => {
  it('openai-strict refuses it for its missing additionalProperties', () => {
    expect(rejection('openai-strict', EMPTY)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=(), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it('faithful, claude and langflow accept it as a tool with no parameters', () => {
    for (const id of ['faithful', 'claude', 'langflow']) expect(shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('langflow then sends nothing the model wrote', () => {
    const p = profile('langflow');
    const view = p.present(published(EMPTY));
    if ('rejected' in view) throw new Error(view.rejected);
    expect(p.validate(view.tools[0]!, { verb: 'eat', tense: 'simple past' })).toEqual({ ok: true, args: {} });
  });
});

describe('a union at the root', () => {
  it('claude refuses the request (anthropics/claude-code#5319)', () => {
    expect(rejection('claude', ROOT_ANY_OF)).toBe(
      '400 invalid_request_error: tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
  });

  it('claude counts the offending tool among several', () => {
    expect(rejection('claude', BASELINE, EMPTY, ROOT_ANY_OF)).toBe(
      '400 invalid_request_error: tools.2.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
  });

  it('claude drops every tool when one inputSchema is {} (mastra#18255), and says the text is the kit\'s', () => {
    expect(rejection('claude', BASELINE, {})).toBe(
      "(kit text: Claude Code itself shows no error) every tool of this server was dropped: tool 'tool1' has an inputSchema " +
        'whose root is not "type": "object", so the MCP client discarded the whole tools/list and the model sees no tools',
    );
  });

  it('openai-strict refuses a root with no type', () => {
    expect(rejection('openai-strict', { anyOf: [NAME_BRANCH, PARTS_BRANCH] })).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.",
    );
  });

  it('langflow refuses a root that is not an object', () => {
    expect(rejection('langflow', { anyOf: [NAME_BRANCH, PARTS_BRANCH] })).toBe(
      "Failed to create tool 'conjugate' from server '<server>': Root schema must be type 'object'",
    );
  });

  it('the Gemini hosts: Continue sends it and is refused, Goose sends no parameters, the SDK of 2025-06 throws, 2025-11 takes it', () => {
    expect(rejection('continue-gemini-2025-02', ROOT_ANY_OF)).toBe(
      "400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name \"anyOf\" at 'tools[0].function_declarations[0].parameters': Cannot find field.",
    );
    expect(shown('goose-google-2025-02', ROOT_ANY_OF)).toEqual([{ type: 'object', properties: {} }]);
    expect(rejection('gemini-cli-2025-06', ROOT_ANY_OF)).toBe(
      "Failed to list or register tools for MCP server '<server>': Error: type and anyOf cannot be both populated.",
    );
    expect(shown('gemini-cli-2025-11', ROOT_ANY_OF)).toEqual([ROOT_ANY_OF]);
  });
});

describe('a type given as a list, and nested objects', () => {
  it('langflow turns an object-or-null into a bare dict, and an object two levels down into a dict', () => {
    const nested: Json = {
      type: 'object',
      properties: {
        maybe: { anyOf: [{ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, { type: 'null' }] },
        outer: {
          type: 'object',
          properties: { inner: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, count: { type: 'integer' } },
          required: ['inner'],
        },
      },
      required: ['maybe', 'outer'],
    };
    expect(shown('langflow', nested)).toEqual([
      {
        type: 'object',
        properties: {
          maybe: { type: 'object' },
          outer: { type: 'object', properties: { inner: { type: 'object' }, count: { type: 'integer' } }, required: ['inner'] },
        },
        required: ['maybe', 'outer'],
      },
    ]);
  });

  it('langflow keeps the first non-null type, nullable', () => {
    expect(shown('langflow', TYPE_LIST)).toEqual([
      { type: 'object', properties: { verb: { type: 'string' }, note: { type: ['string', 'null'] } }, required: ['verb'] },
    ]);
  });
});

describe('one bad tool breaks every tool', () => {
  it('openai-strict names the first bad function', () => {
    expect(rejection('openai-strict', BASELINE, EMPTY)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'tool1': In context=(), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });
});

describe('present is pure', () => {
  it('no profile mutates the published tools', () => {
    const inputs = [BASELINE, NO_REQUIRED, ANY_OF_VERB, ONE_OF_VERB, EMPTY, ROOT_ANY_OF, TYPE_LIST];
    const before = JSON.stringify(inputs);
    for (const p of PROFILES) {
      for (const schema of inputs) p.present(published(schema, BASELINE));
      p.present(published(...inputs));
    }
    expect(JSON.stringify(inputs)).toBe(before);
  });

  it('what the model sees is a copy, not the published object', () => {
    for (const p of PROFILES) {
      const tools = published(BASELINE);
      const view = p.present(tools);
      if ('rejected' in view) throw new Error(view.rejected);
      expect(view.tools[0]!.inputSchema).not.toBe(tools[0]!.inputSchema);
      const enums = (view.tools[0]!.inputSchema.properties as Record<string, Json>).verb!.enum;
      if (enums !== undefined) expect(enums).not.toBe(((tools[0]!.inputSchema as Json).properties as Record<string, Json>).verb!.enum);
      expect(view.tools[0]!.name).toBe('conjugate');
      expect(view.tools[0]!.description).toBe('Conjugates an English verb.');
    }
  });
});

describe('client-side checks', () => {
  const seenBy = (id: string, schema: Json) => {
    const view = profile(id).present(published(schema));
    if ('rejected' in view) throw new Error(view.rejected);
    return view.tools[0]!;
  };

  it('faithful, the four Gemini hosts and claude pass the arguments through untouched', () => {
    const args = { verb: 'eat', tense: 'simple past', extra: 1 };
    for (const id of ['faithful', 'continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06', 'gemini-cli-2025-11', 'claude'])
      expect(profile(id).validate(seenBy(id, NO_REQUIRED), args)).toEqual({ ok: true, args: { verb: 'eat', tense: 'simple past', extra: 1 } });
  });

  it('langflow drops unknown keys silently', () => {
    const tool = seenBy('langflow', BASELINE);
    expect(profile('langflow').validate(tool, { verb: 'eat', tense: 'simple past', person: '1st singular', mood: 'indicative' })).toEqual({
      ok: true,
      args: { verb: 'eat', tense: 'simple past', person: '1st singular' },
    });
  });

  it('langflow reports a missing required field the way Pydantic does', () => {
    const tool = seenBy('langflow', BASELINE);
    expect(profile('langflow').validate(tool, { tense: 'simple past', person: '1st singular' })).toEqual({
      ok: false,
      error:
        'Invalid input: 1 validation error for InputSchema\n' +
        'verb\n' +
        "  Field required [type=missing, input_value={'tense': 'simple past', 'person': '1st singular'}, input_type=dict]",
    });
  });

  it('langflow reports every error, a wrong basic type included', () => {
    const tool = seenBy('langflow', BASELINE);
    expect(profile('langflow').validate(tool, { verb: 5, person: '1st singular' })).toEqual({
      ok: false,
      error:
        'Invalid input: 2 validation errors for InputSchema\n' +
        'verb\n' +
        '  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n' +
        'tense\n' +
        "  Field required [type=missing, input_value={'verb': 5, 'person': '1st singular'}, input_type=dict]",
    });
  });

  it('langflow does not read enums, and sends left-out optional fields as null', () => {
    const tool = seenBy('langflow', NO_REQUIRED);
    expect(profile('langflow').validate(tool, { verb: 'fly' })).toEqual({ ok: true, args: { verb: 'fly', tense: null, person: null } });
  });

  it('langflow checks the kept anyOf branch only', () => {
    const tool = seenBy('langflow', ANY_OF_VERB);
    const parts = { verb: { infinitive: 'sew', past: 'sewed', pastParticiple: 'sewn' }, tense: 'simple past', person: '1st singular' };
    expect(profile('langflow').validate(tool, parts)).toEqual({
      ok: false,
      error:
        'Invalid input: 1 validation error for InputSchema\n' +
        'verb.name\n' +
        "  Field required [type=missing, input_value={'infinitive': 'sew', 'past': 'sewed', 'pastParticiple': 'sewn'}, input_type=dict]",
    });
  });

  it('openai-strict passes conforming arguments and refuses others', () => {
    const tool = seenBy('openai-strict', BASELINE);
    const args = { verb: 'eat', tense: 'simple past', person: '1st singular' };
    expect(profile('openai-strict').validate(tool, args)).toEqual({ ok: true, args: { verb: 'eat', tense: 'simple past', person: '1st singular' } });
    const checked = profile('openai-strict').validate(tool, { verb: 'eat', tense: 'simple past' });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain("must have required property 'person'");
  });
});
