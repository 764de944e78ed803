/**
 * Client profiles against hand-written published schemas: the profile list, then each schema across the hosts
 * (faithful, openai-strict, the two Claude Code builds, langflow, and the Gemini hosts where a case names them), purity, and the
 * client-side checks. Every input schema and every expected output (what the model sees, the host's error
 * text) is written out by hand from each host's documented rules, as cited next to the code in
 * src/lab/profiles/; none is computed by the code under test. The schemas and the helpers are in
 * test/helpers/profiles.ts; each Gemini host on its own is in test/profiles-gemini.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { getProfile, HISTORIC_HOSTS, PROFILE_IDS, PROFILES, TODAY_SINCE, TODAYS_API_FIELDS, TODAYS_HOSTS } from '../src/lab/profiles/index.js';
import {
  ANY_OF_VERB,
  BASELINE,
  BASELINE_STRIPPED,
  EMPTY,
  NAME_BRANCH,
  NO_REQUIRED,
  ONE_OF_VERB,
  PARTS_BRANCH,
  PERSON,
  ROOT_ANY_OF,
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

describe('the profile list', () => {
  it('has the seventeen profiles, in order, each with a source and one date', () => {
    expect(PROFILE_IDS).toEqual([
      'faithful',
      'continue-gemini-2025-02',
      'goose-google-2025-02',
      'gemini-cli-2025-06',
      'gemini-cli-2025-11',
      'openai-strict',
      'claude-code-2025-07',
      'claude-code-2026-08',
      'langflow',
      // The TypeScript host frameworks, each running its own published package.
      'openai-agents-2025-10',
      'mastra-google-2025-12',
      'langchain-mcp-2026-01',
      'ai-sdk-google-2026-11',
      // Today's model APIs and VS Code (issue 22).
      'openai-functions-2026-11',
      'gemini-parameters-2026-09',
      'gemini-json-schema-2026-11',
      'vscode-copilot-2026-01',
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
    expect(getProfile('claude-code-2025-07')?.asOf).toBe('Claude Code 1.0.63, 2025-07-30, Anthropic Messages API');
    expect(getProfile('claude-code-2026-08')?.asOf).toBe('Claude Code 2.1.235, 2026-08-18, Anthropic Messages API');
    expect(getProfile('claude')).toBeUndefined();
    expect(getProfile('gemini')).toBeUndefined();
    expect(getProfile('gemini-2025-11')).toBeUndefined();
    expect(getProfile('nope')).toBeUndefined();
  });

  it('dates every host by the day its version came out, and splits today\'s from the historic by that date', () => {
    // Each date read by hand from the profile's own asOf and sources (the release the profile models).
    const released = Object.fromEntries(PROFILES.map((p) => [p.id, p.released]));
    expect(released).toEqual({
      faithful: undefined,
      'continue-gemini-2025-02': '2025-02-01',
      'goose-google-2025-02': '2025-02-26',
      'gemini-cli-2025-06': '2025-06-25',
      'gemini-cli-2025-11': '2025-11-20',
      'openai-strict': '2024-08-06',
      'claude-code-2025-07': '2025-07-30',
      'claude-code-2026-08': '2026-08-18',
      langflow: '2026-03-27',
      'openai-agents-2025-10': '2025-10-25',
      'mastra-google-2025-12': '2025-12-08',
      'langchain-mcp-2026-01': '2026-01-22',
      'ai-sdk-google-2026-11': '2026-11-07',
      'openai-functions-2026-11': '2026-11-18',
      'gemini-parameters-2026-09': '2026-09-13',
      'gemini-json-schema-2026-11': '2026-11-12',
      'vscode-copilot-2026-01': '2026-01-23',
    });
    for (const p of PROFILES) if (p.released) expect(p.asOf, p.id).toMatch(/\d{4}-\d{2}/);
    // Today's: released on or after 2025-10-01 (the 14 months before the kit's date, 2026-12); the model APIs' own
    // fields (OpenAI function calling, Gemini's parameters and parametersJsonSchema) apart from the hosts (issue 33).
    expect(TODAY_SINCE).toBe('2025-10-01');
    expect(TODAYS_HOSTS).toEqual([
      'gemini-cli-2025-11', 'claude-code-2026-08', 'langflow', 'openai-agents-2025-10', 'mastra-google-2025-12', 'langchain-mcp-2026-01',
      'ai-sdk-google-2026-11', 'vscode-copilot-2026-01',
    ]);
    expect(TODAYS_API_FIELDS).toEqual(['openai-functions-2026-11', 'gemini-parameters-2026-09', 'gemini-json-schema-2026-11']);
    expect(HISTORIC_HOSTS).toEqual(['faithful', 'continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06', 'openai-strict', 'claude-code-2025-07']);
  });

  it('cites primary sources only', () => {
    for (const p of PROFILES) for (const source of p.sources) expect(source).not.toMatch(/facts\.md|design\.md/);
  });
});

// ---------------------------------------------------------------------------
// The other hosts

describe('the baseline schema', () => {
  it('faithful, openai-strict and both Claude Code builds show it unchanged', async () => {
    for (const id of ['faithful', 'openai-strict', 'claude-code-2025-07', 'claude-code-2026-08']) expect(await shown(id, BASELINE)).toEqual([BASELINE]);
  });

  it('langflow shows plain strings: no enums, no $schema, no additionalProperties', async () => {
    expect(await shown('langflow', BASELINE)).toEqual([
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
  it('faithful and both Claude Code builds show it unchanged', async () => {
    expect(await shown('faithful', NO_REQUIRED)).toEqual([NO_REQUIRED]);
    expect(await shown('claude-code-2025-07', NO_REQUIRED)).toEqual([NO_REQUIRED]);
    expect(await shown('claude-code-2026-08', NO_REQUIRED)).toEqual([NO_REQUIRED]);
  });

  it('the three legacy-field Gemini hosts accept it without $schema and additionalProperties', async () => {
    const stripped = { type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON } };
    for (const id of ['continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06']) expect(await shown(id, NO_REQUIRED)).toEqual([stripped]);
  });

  it('langflow shows three optional strings', async () => {
    expect(await shown('langflow', NO_REQUIRED)).toEqual([
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

  it('openai-strict refuses it: every property must be required', async () => {
    expect(await rejection('openai-strict', NO_REQUIRED)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=(), 'required' is required to be " +
        "supplied and to be an array including every key in properties. Missing 'verb'.",
    );
  });
});

describe('a property that is an anyOf of two objects', () => {
  it('faithful, openai-strict and both Claude Code builds show it unchanged', async () => {
    for (const id of ['faithful', 'openai-strict', 'claude-code-2025-07', 'claude-code-2026-08']) expect(await shown(id, ANY_OF_VERB)).toEqual([ANY_OF_VERB]);
  });

  it('langflow keeps only the first branch', async () => {
    expect(await shown('langflow', ANY_OF_VERB)).toEqual([
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

  it('openai-strict refuses a branch object that is not strict, naming its context', async () => {
    const loose: Json = {
      type: 'object',
      properties: { verb: { anyOf: [NAME_BRANCH, { type: 'object', properties: { infinitive: { type: 'string' } }, required: ['infinitive'] }] } },
      required: ['verb'],
      additionalProperties: false,
    };
    expect(await rejection('openai-strict', loose)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=('properties', 'verb', 'anyOf', '1'), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });
});

describe('a discriminated union: oneOf with a const discriminator', () => {
  it('openai-strict refuses the oneOf', async () => {
    expect(await rejection('openai-strict', ONE_OF_VERB)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=('properties', 'verb'), 'oneOf' is not permitted.",
    );
  });

  it('langflow makes the field untyped', async () => {
    expect(await shown('langflow', ONE_OF_VERB)).toEqual([
      { type: 'object', properties: { verb: {}, tense: { type: 'string' } }, required: ['verb', 'tense'] },
    ]);
  });

  it('faithful and both Claude Code builds show it unchanged', async () => {
    for (const id of ['faithful', 'claude-code-2025-07', 'claude-code-2026-08']) expect(await shown(id, ONE_OF_VERB)).toEqual([ONE_OF_VERB]);
  });
});

describe('the empty published schema {type: object, properties: {}}', () => {
  it('openai-strict refuses it for its missing additionalProperties', async () => {
    expect(await rejection('openai-strict', EMPTY)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': In context=(), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it('faithful, both Claude Code builds and langflow accept it as a tool with no parameters', async () => {
    for (const id of ['faithful', 'claude-code-2025-07', 'claude-code-2026-08', 'langflow']) expect(await shown(id, EMPTY)).toEqual([{ type: 'object', properties: {} }]);
  });

  it('langflow then sends nothing the model wrote', async () => {
    const p = profile('langflow');
    const view = await p.present(published(EMPTY));
    if ('rejected' in view) throw new Error(view.rejected);
    expect((await p.validate(view.tools[0]!, { verb: 'eat', tense: 'simple past' }))).toEqual({ ok: true, args: {} });
  });
});

describe('a union at the root', () => {
  it('claude-code-2025-07 sends it on and the API refuses the request (anthropics/claude-code#4753, 1.0.63)', async () => {
    expect(await rejection('claude-code-2025-07', ROOT_ANY_OF)).toBe(
      '400 invalid_request_error: tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
  });

  it('claude-code-2025-07 counts the offending tool among several', async () => {
    expect(await rejection('claude-code-2025-07', BASELINE, EMPTY, ROOT_ANY_OF)).toBe(
      '400 invalid_request_error: tools.2.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
  });

  it('claude-code-2026-08 leaves that tool out alone and shows the others (Claude Code 2.1.235)', async () => {
    expect(await shown('claude-code-2026-08', BASELINE, EMPTY, ROOT_ANY_OF)).toEqual([BASELINE, EMPTY]);
    const view = await profile('claude-code-2026-08').present(published(BASELINE, ROOT_ANY_OF));
    expect(view).toMatchObject({
      skipped: [
        {
          name: 'tool1',
          reason: 'Skipping tool "tool1": its input schema uses top-level anyOf, which the Anthropic API does not accept. Other tools from this server remain available.',
        },
      ],
    });
    // A combinator that is not a list: the other reason of the same code.
    expect(await profile('claude-code-2026-08').present(published({ type: 'object', properties: {}, oneOf: {} }))).toEqual({
      tools: [],
      skipped: [{ name: 'conjugate', reason: 'Skipping tool "conjugate": input schema has top-level oneOf that is not an array. Other tools from this server remain available.' }],
    });
  });

  it('both Claude Code builds drop every tool when one inputSchema is {} (the MCP SDK Tool shape in 1.0.63 and 2.1.235), and say the text is the kit\'s', async () => {
    for (const id of ['claude-code-2025-07', 'claude-code-2026-08'])
      expect(await rejection(id, BASELINE, {})).toBe(
        '(kit text: the session shows no error; Claude Code logs "Failed to fetch tools: " and the ZodError to the server\'s MCP log) ' +
          "every tool of this server was dropped: tool 'tool1' has an inputSchema " +
          'whose root is not "type": "object", so the MCP client discarded the whole tools/list and the model sees no tools',
      );
  });

  it('both drop the server for "required": null (anthropics/claude-code#44364) before any rule on unions', async () => {
    for (const id of ['claude-code-2025-07', 'claude-code-2026-08']) {
      const view = await profile(id).present(published(ROOT_ANY_OF, { type: 'object', required: null }));
      expect(view, id).toMatchObject({ lost: 'server' });
    }
  });

  it('openai-strict refuses a root with no type', async () => {
    expect(await rejection('openai-strict', { anyOf: [NAME_BRANCH, PARTS_BRANCH] })).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'conjugate': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.",
    );
  });

  it('langflow refuses a root that is not an object', async () => {
    expect(await rejection('langflow', { anyOf: [NAME_BRANCH, PARTS_BRANCH] })).toBe(
      "Failed to create tool 'conjugate' from server '<server>': Root schema must be type 'object'",
    );
  });

  it('the Gemini hosts: Continue sends it and the API of 2025-02 parses it (served: refused or not, unknown), Goose sends no parameters, the SDK of 2025-06 throws, 2025-11 takes it', async () => {
    // Every key is a field of 2025-02 (type, anyOf, properties, required); what the API then did with a clean union is not known.
    expect(await shown('continue-gemini-2025-02', ROOT_ANY_OF)).toEqual([ROOT_ANY_OF]);
    expect(await shown('goose-google-2025-02', ROOT_ANY_OF)).toEqual([{ type: 'object', properties: {} }]);
    expect(await rejection('gemini-cli-2025-06', ROOT_ANY_OF)).toBe(
      "Failed to list or register tools for MCP server '<server>': Error: type and anyOf cannot be both populated.",
    );
    expect(await shown('gemini-cli-2025-11', ROOT_ANY_OF)).toEqual([ROOT_ANY_OF]);
  });
});

describe('a tool name with the prefix Claude Code puts before it', () => {
  // Claude Code 1.0.63 sends "mcp__" + server + "__" + name (cli.js); the Anthropic API of 2025 took at most 64
  // (anthropics/claude-code#955, #2485, #3102). With the server named tutor, 12 characters go to the prefix:
  // 52 are left, by hand: "mcp__tutor__" is m-c-p-_-_-t-u-t-o-r-_-_.
  const named = (name: string) => [{ name, inputSchema: BASELINE as never }];
  it('claude-code-2025-07 takes a name of 52 and refuses the request for one of 53, naming its position', async () => {
    expect('tools' in (await profile('claude-code-2025-07').present(named('a'.repeat(52))))).toBe(true);
    expect(await profile('claude-code-2025-07').present([...named('lessons'), ...named('b'.repeat(53))])).toMatchObject({
      rejected: '400 invalid_request_error: tools.1.custom.name: String should have at most 64 characters',
      lost: 'request',
    });
  });
  it('claude-code-2026-08 and openai-functions-2026-11 take the 53 (no prefix limit modelled; OpenAI counts the name alone, at most 64)', async () => {
    for (const id of ['claude-code-2026-08', 'openai-functions-2026-11']) expect('tools' in (await profile(id).present(named('b'.repeat(53)))), id).toBe(true);
  });
});

describe('a type given as a list, and nested objects', () => {
  it('langflow turns an object-or-null into a bare dict, and an object two levels down into a dict', async () => {
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
    expect(await shown('langflow', nested)).toEqual([
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

  it('langflow keeps the first non-null type, nullable', async () => {
    expect(await shown('langflow', TYPE_LIST)).toEqual([
      { type: 'object', properties: { verb: { type: 'string' }, note: { type: ['string', 'null'] } }, required: ['verb'] },
    ]);
  });
});

describe('one bad tool breaks every tool', () => {
  it('openai-strict names the first bad function', async () => {
    expect(await rejection('openai-strict', BASELINE, EMPTY)).toBe(
      "400 invalid_function_parameters: Invalid schema for function 'tool1': In context=(), " +
        "'additionalProperties' is required to be supplied and to be false.",
    );
  });
});

describe('present is pure', () => {
  it('no profile mutates the published tools', async () => {
    const inputs = [BASELINE, NO_REQUIRED, ANY_OF_VERB, ONE_OF_VERB, EMPTY, ROOT_ANY_OF, TYPE_LIST];
    const before = JSON.stringify(inputs);
    for (const p of PROFILES) {
      for (const schema of inputs) await p.present(published(schema, BASELINE));
      await p.present(published(...inputs));
    }
    expect(JSON.stringify(inputs)).toBe(before);
  });

  it('what the model sees is a copy, not the published object', async () => {
    for (const p of PROFILES) {
      // The Gemini API's `parameters` takes no $schema or additionalProperties: it is given the baseline without them.
      const tools = published(p.id === 'gemini-parameters-2026-09' ? BASELINE_STRIPPED : BASELINE);
      const view = await p.present(tools);
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
  const seenBy = async (id: string, schema: Json) => {
    const view = await profile(id).present(published(schema));
    if ('rejected' in view) throw new Error(view.rejected);
    return view.tools[0]!;
  };

  // gemini-cli-2025-11 checks the arguments with Ajv (test/profiles-gemini.test.ts): not among these.
  it('faithful, three of the Gemini hosts and both Claude Code builds pass the arguments through untouched', async () => {
    const args = { verb: 'eat', tense: 'simple past', extra: 1 };
    for (const id of ['faithful', 'continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06', 'claude-code-2025-07', 'claude-code-2026-08'])
      expect((await profile(id).validate((await seenBy(id, NO_REQUIRED)), args))).toEqual({ ok: true, args: { verb: 'eat', tense: 'simple past', extra: 1 } });
  });

  it('langflow drops unknown keys silently', async () => {
    const tool = await seenBy('langflow', BASELINE);
    expect((await profile('langflow').validate(tool, { verb: 'eat', tense: 'simple past', person: '1st singular', mood: 'indicative' }))).toEqual({
      ok: true,
      args: { verb: 'eat', tense: 'simple past', person: '1st singular' },
    });
  });

  it('langflow reports a missing required field the way Pydantic does', async () => {
    const tool = await seenBy('langflow', BASELINE);
    expect((await profile('langflow').validate(tool, { tense: 'simple past', person: '1st singular' }))).toEqual({
      ok: false,
      error:
        'Invalid input: 1 validation error for InputSchema\n' +
        'verb\n' +
        "  Field required [type=missing, input_value={'tense': 'simple past', 'person': '1st singular'}, input_type=dict]",
    });
  });

  it('langflow reports every error, a wrong basic type included', async () => {
    const tool = await seenBy('langflow', BASELINE);
    expect((await profile('langflow').validate(tool, { verb: 5, person: '1st singular' }))).toEqual({
      ok: false,
      error:
        'Invalid input: 2 validation errors for InputSchema\n' +
        'verb\n' +
        '  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n' +
        'tense\n' +
        "  Field required [type=missing, input_value={'verb': 5, 'person': '1st singular'}, input_type=dict]",
    });
  });

  it('langflow does not read enums, and sends left-out optional fields as null', async () => {
    const tool = await seenBy('langflow', NO_REQUIRED);
    expect((await profile('langflow').validate(tool, { verb: 'fly' }))).toEqual({ ok: true, args: { verb: 'fly', tense: null, person: null } });
  });

  it('langflow checks the kept anyOf branch only', async () => {
    const tool = await seenBy('langflow', ANY_OF_VERB);
    const parts = { verb: { infinitive: 'sew', past: 'sewed', pastParticiple: 'sewn' }, tense: 'simple past', person: '1st singular' };
    expect((await profile('langflow').validate(tool, parts))).toEqual({
      ok: false,
      error:
        'Invalid input: 1 validation error for InputSchema\n' +
        'verb.name\n' +
        "  Field required [type=missing, input_value={'infinitive': 'sew', 'past': 'sewed', 'pastParticiple': 'sewn'}, input_type=dict]",
    });
  });

  it('openai-strict passes conforming arguments and refuses others', async () => {
    const tool = await seenBy('openai-strict', BASELINE);
    const args = { verb: 'eat', tense: 'simple past', person: '1st singular' };
    expect((await profile('openai-strict').validate(tool, args))).toEqual({ ok: true, args: { verb: 'eat', tense: 'simple past', person: '1st singular' } });
    const checked = await profile('openai-strict').validate(tool, { verb: 'eat', tense: 'simple past' });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain("must have required property 'person'");
  });
});

describe('keptForShown (shared.ts): what present kept of a shown tool, for validate', () => {
  it('found by the shown object, or by a copy of it; by copy only the latest 4,096 are kept, by object every one', async () => {
    const { keptForShown } = await import('../src/lab/profiles/shared.js');
    const kept = keptForShown<number>();
    const shown = Array.from({ length: 4097 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object', properties: {} } }));
    shown.forEach((tool, i) => kept.keep(tool, i));
    expect(kept.find(shown[0]!)).toBe(0);
    expect(kept.find(structuredClone(shown[1]!))).toBe(1);
    expect(kept.find(structuredClone(shown[0]!))).toBeUndefined();
    expect(kept.find(structuredClone(shown[4096]!))).toBe(4096);
  });
});
