/**
 * Client profiles against hand-written published schemas. Every input schema
 * and every expected output (what the model sees, the host's error text) is
 * written out by hand from the sources cited in src/lab/profiles.ts; none is
 * computed by the code under test.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { getProfile, PROFILE_IDS, PROFILES, type ClientProfile } from '../src/lab/profiles.js';

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

/** (a) The kit's baseline shape: a strict object of three string enums. */
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

/** (b) The same with `required` removed. */
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

/** (c) `verb` is an anyOf of two objects. */
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

/** (d) `verb` is a discriminated union (oneOf, const discriminator), as zod 4.6.7 publishes z.discriminatedUnion. */
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

/** (e) What the SDK publishes for a transformed root: no parameters. */
const EMPTY: Json = { type: 'object', properties: {} };

/** (f) A union at the root. */
const ROOT_ANY_OF: Json = {
  type: 'object',
  anyOf: [
    { type: 'object', properties: { verb: { type: 'string' } }, required: ['verb'] },
    { type: 'object', properties: { infinitive: { type: 'string' } }, required: ['infinitive'] },
  ],
};

/** (g) A nullable written as a type list. */
const TYPE_LIST: Json = {
  type: 'object',
  properties: {
    verb: { type: 'string' },
    note: { type: ['string', 'null'] },
  },
  required: ['verb'],
};

// ---------------------------------------------------------------------------

describe('the profile list', () => {
  it('has the six profiles, in order, each with a source', () => {
    expect(PROFILE_IDS).toEqual(['faithful', 'gemini', 'gemini-2025-11', 'openai-strict', 'claude', 'langflow']);
    expect(PROFILES.map((p) => p.id)).toEqual(PROFILE_IDS);
    for (const p of PROFILES) {
      expect(p.sources.length).toBeGreaterThan(0);
      expect(p.title).not.toContain('\n');
      expect(p.asOf).not.toBe('');
    }
    expect(getProfile('faithful')?.asOf).toBe('n/a');
    expect(getProfile('nope')).toBeUndefined();
  });
});

describe('(a) the baseline schema', () => {
  it('faithful, openai-strict and claude show it unchanged', () => {
    for (const id of ['faithful', 'openai-strict', 'claude']) expect(shown(id, BASELINE)).toEqual([BASELINE]);
  });

  it('gemini (legacy) shows it without $schema and additionalProperties', () => {
    expect(shown('gemini', BASELINE)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
          tense: { type: 'string', enum: ['simple past', 'present perfect'] },
          person: { type: 'string', enum: ['1st singular', '3rd singular'] },
        },
        required: ['verb', 'tense', 'person'],
      },
    ]);
  });

  it('gemini-2025-11 shows it without $schema, keeping additionalProperties', () => {
    expect(shown('gemini-2025-11', BASELINE)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
          tense: { type: 'string', enum: ['simple past', 'present perfect'] },
          person: { type: 'string', enum: ['1st singular', '3rd singular'] },
        },
        required: ['verb', 'tense', 'person'],
        additionalProperties: false,
      },
    ]);
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

describe('(b) required removed', () => {
  it('faithful and claude show it unchanged; gemini-2025-11 drops $schema only', () => {
    expect(shown('faithful', NO_REQUIRED)).toEqual([NO_REQUIRED]);
    expect(shown('claude', NO_REQUIRED)).toEqual([NO_REQUIRED]);
    expect(shown('gemini-2025-11', NO_REQUIRED)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
          tense: { type: 'string', enum: ['simple past', 'present perfect'] },
          person: { type: 'string', enum: ['1st singular', '3rd singular'] },
        },
        additionalProperties: false,
      },
    ]);
  });

  it('gemini accepts it, sanitized', () => {
    expect(shown('gemini', NO_REQUIRED)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
          tense: { type: 'string', enum: ['simple past', 'present perfect'] },
          person: { type: 'string', enum: ['1st singular', '3rd singular'] },
        },
      },
    ]);
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

describe('(c) a property that is an anyOf of two objects', () => {
  it('gemini (legacy) refuses the whole request at the anyOf', () => {
    expect(rejection('gemini', ANY_OF_VERB)).toBe(
      '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "anyOf" at ' +
        "'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
    );
  });

  it('faithful, openai-strict and claude show it unchanged', () => {
    for (const id of ['faithful', 'openai-strict', 'claude']) expect(shown(id, ANY_OF_VERB)).toEqual([ANY_OF_VERB]);
  });

  it('gemini-2025-11 shows it without $schema', () => {
    expect(shown('gemini-2025-11', ANY_OF_VERB)).toEqual([
      {
        type: 'object',
        properties: {
          verb: {
            anyOf: [
              { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
              {
                type: 'object',
                properties: { infinitive: { type: 'string' }, past: { type: 'string' }, pastParticiple: { type: 'string' } },
                required: ['infinitive', 'past', 'pastParticiple'],
                additionalProperties: false,
              },
            ],
          },
          tense: { type: 'string', enum: ['simple past', 'present perfect'] },
          person: { type: 'string', enum: ['1st singular', '3rd singular'] },
        },
        required: ['verb', 'tense', 'person'],
        additionalProperties: false,
      },
    ]);
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

describe('(d) a discriminated union: oneOf with a const discriminator', () => {
  it('gemini (legacy) refuses at the oneOf, which it does not parse into', () => {
    expect(rejection('gemini', ONE_OF_VERB)).toBe(
      '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "oneOf" at ' +
        "'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
    );
  });

  it('openai-strict refuses the oneOf', () => {
    expect(rejection('openai-strict', ONE_OF_VERB)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=('properties', 'verb'), 'oneOf' is not permitted.",
    );
  });

  it('gemini-2025-11 shows the oneOf as an anyOf', () => {
    expect(shown('gemini-2025-11', ONE_OF_VERB)).toEqual([
      {
        type: 'object',
        properties: {
          verb: {
            anyOf: [
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
      },
    ]);
  });

  it('langflow makes the field untyped', () => {
    expect(shown('langflow', ONE_OF_VERB)).toEqual([
      { type: 'object', properties: { verb: {}, tense: { type: 'string' } }, required: ['verb', 'tense'] },
    ]);
  });

  it('faithful and claude show it unchanged', () => {
    for (const id of ['faithful', 'claude']) expect(shown(id, ONE_OF_VERB)).toEqual([ONE_OF_VERB]);
  });

  it('gemini (legacy) names a const where one is reached outside any union', () => {
    const literal: Json = { type: 'object', properties: { tense: { type: 'string' }, kind: { type: 'string', const: 'name' } } };
    expect(rejection('gemini', literal)).toBe(
      '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "const" at ' +
        "'tools[0].function_declarations[0].parameters.properties[1].value': Cannot find field.",
    );
  });
});

describe('(e) the empty published schema {type: object, properties: {}}', () => {
  it('openai-strict refuses it for its missing additionalProperties', () => {
    expect(rejection('openai-strict', EMPTY)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=(), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it('gemini (legacy) refuses it too: an OBJECT needs properties (vercel/ai#3371, inspect_ai#918)', () => {
    expect(rejection('gemini', EMPTY)).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type',
    );
  });

  it('faithful, gemini-2025-11, claude and langflow accept it as a tool with no parameters', () => {
    for (const id of ['faithful', 'gemini-2025-11', 'claude']) expect(shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
    expect(shown('langflow', EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('langflow then sends nothing the model wrote', () => {
    const p = profile('langflow');
    const view = p.present(published(EMPTY));
    if ('rejected' in view) throw new Error(view.rejected);
    expect(p.validate(view.tools[0]!, { verb: 'eat', tense: 'simple past' })).toEqual({ ok: true, args: {} });
  });
});

describe('(f) a union at the root', () => {
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
});

describe('(g) a type given as a list', () => {
  it('gemini (legacy) refuses it: the proto field is not repeating', () => {
    expect(rejection('gemini', TYPE_LIST)).toBe(
      '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "type" at ' +
        "'tools[0].function_declarations[0].parameters.properties[1].value': Proto field is not repeating, cannot start list.",
    );
  });

  it('gemini (legacy) refuses an array without items', () => {
    const noItems: Json = { type: 'object', properties: { verb: { type: 'string' }, tags: { type: 'array' } } };
    expect(rejection('gemini', noItems)).toBe(
      '400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.',
    );
  });

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
  it('gemini (legacy) refuses the whole request, naming the bad declaration by its index', () => {
    expect(rejection('gemini', BASELINE, NO_REQUIRED, ONE_OF_VERB, BASELINE)).toBe(
      '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "oneOf" at ' +
        "'tools[0].function_declarations[2].parameters.properties[0].value': Cannot find field.",
    );
  });

  it('gemini (legacy) lists every bad declaration, one per line', () => {
    expect(rejection('gemini', ANY_OF_VERB, BASELINE, TYPE_LIST)).toBe(
      '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "anyOf" at ' +
        "'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.\n" +
        'Invalid JSON payload received. Unknown name "type" at ' +
        "'tools[0].function_declarations[2].parameters.properties[1].value': Proto field is not repeating, cannot start list.",
    );
  });

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

  it('faithful, gemini, gemini-2025-11 and claude pass the arguments through untouched', () => {
    const args = { verb: 'eat', tense: 'simple past', extra: 1 };
    for (const id of ['faithful', 'gemini', 'gemini-2025-11', 'claude'])
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
