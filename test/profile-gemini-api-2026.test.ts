/**
 * The Gemini API of today on its two fields, and the legacy field of 2025-02. Every expected value is derived by hand:
 *  G1 `parameters` (gemini-parameters-2026-09): the v1beta Schema message of @google-ai/generativelanguage 4.1.0
 *     (content.proto, 2026-09-13) has 22 fields (type, format, title, description, nullable, enum, items, max_items,
 *     min_items, properties, required, min_properties, max_properties, minimum, maximum, min_length, max_length,
 *     pattern, example, any_of, property_ordering, default); any other name is `Invalid JSON payload received. Unknown
 *     name "<k>" at '<path>': Cannot find field.` for the whole request (propertyNames: QuantumNous/new-api#2624,
 *     router-for-me/CLIProxyAPI#4393), its path `properties[i].value` for the i-th property;
 *  G2 "format: Any value is allowed" (4.1.0), so a format never refuses; the Type enum has NULL;
 *  G3 function names: [a-zA-Z_] then [a-zA-Z0-9_.:-], at most 64 (4.1.0; the text of gemini-cli#2966);
 *  G4 `parametersJsonSchema` (gemini-json-schema-2026-11): JSON Schema as published; a $ref with a sibling other than
 *     description, default or a $-keyword is `$ref '<last segment>' was set alongside unsupported fields. If a schema
 *     node has $ref set, then only description and default can be set alongside it` (anomalyco/opencode#12295);
 *  G5 the legacy field of 2025-02 (continue-gemini-2025-02) refuses every name that is not a field of the message of
 *     then: propertyNames too (Firecrawl's firecrawl_extract, Playwright's browser_drop publish it).
 */
import { describe, expect, it } from 'vitest';
import { getProfile } from '../src/lab/profiles/index.js';
import { geminiJsonSchema202611 as jsonSchema, geminiParameters202609 as parameters } from '../src/lab/profiles/gemini-api-2026.js';
import type { PublishedTool } from '../src/lab/profiles/shared.js';
import { lintTools } from '../src/lint/lint.js';
import { withoutEvidence } from './helpers/lint.js';
import { BASELINE_STRIPPED, published, type Json } from './helpers/profiles.js';

const tool = (inputSchema: Json, name = 't'): PublishedTool => ({ name, description: 'A tool.', inputSchema: inputSchema as PublishedTool['inputSchema'] });
const UNKNOWN = (key: string, at: string) => `Invalid JSON payload received. Unknown name "${key}" at 'tools[0].function_declarations[0].parameters${at}': Cannot find field.`;

/** A map of string keys to strings, as zod's z.record(z.string(), z.string()) publishes it in 2020-12 (Firecrawl, Playwright). */
const RECORD_OF_STRINGS: Json = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } };

describe('gemini-parameters-2026-09', () => {
  it('G1: every field of the 2026-09 Schema message passes, at every level, and is shown as published', async () => {
    const all: Json = {
      type: 'object',
      title: 'T',
      description: 'd',
      nullable: false,
      properties: {
        s: { type: 'string', format: 'email', minLength: 1, maxLength: 9, pattern: '^a', enum: ['a'], default: 'a', example: 'a' },
        n: { type: 'number', minimum: 0, maximum: 9 },
        a: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        o: { type: 'object', properties: { x: { type: 'null' } }, minProperties: 0, maxProperties: 1, propertyOrdering: ['x'] },
        u: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      required: ['s'],
    };
    const view = await parameters.present(published(all));
    if ('rejected' in view) throw new Error(view.rejected);
    expect(view.tools[0]!.inputSchema).toEqual(all);
  });

  it('G1: propertyNames, $schema, additionalProperties, oneOf refuse the request, each named where it is', async () => {
    expect(await parameters.present(published({ type: 'object', properties: { headers: RECORD_OF_STRINGS } }))).toEqual({
      rejected: `400 INVALID_ARGUMENT: ${UNKNOWN('propertyNames', '.properties[0].value')}\n${UNKNOWN('additionalProperties', '.properties[0].value')}`,
      lost: 'request',
    });
    expect(await parameters.present(published({ $schema: 'http://json-schema.org/draft-07/schema#', ...(BASELINE_STRIPPED as object) }))).toEqual({
      rejected: `400 INVALID_ARGUMENT: ${UNKNOWN('$schema', '')}`,
      lost: 'request',
    });
    expect(await parameters.present(published({ type: 'object', properties: { a: { type: 'string' }, b: { oneOf: [{ type: 'string' }] } } }))).toEqual({
      rejected: `400 INVALID_ARGUMENT: ${UNKNOWN('oneOf', '.properties[1].value')}`,
      lost: 'request',
    });
  });

  it('G2: any string format passes (2025-06 refused all but enum and date-time)', async () => {
    const uri: Json = { type: 'object', properties: { url: { type: 'string', format: 'uri' } } };
    expect(await parameters.present(published(uri))).not.toHaveProperty('rejected');
    expect(await getProfile('gemini-cli-2025-06')!.present(published(uri))).toHaveProperty('rejected');
  });

  it('G3: a name with a slash, or starting with a digit, is an invalid function name; dots, colons and dashes pass', async () => {
    expect(await parameters.present([tool(BASELINE_STRIPPED, 'fs.read:v2-x')])).not.toHaveProperty('rejected');
    const text =
      'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.';
    expect(await parameters.present([tool(BASELINE_STRIPPED, 'ok'), tool(BASELINE_STRIPPED, '2fa/verify')])).toEqual({
      rejected: `400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[1].name: ${text}`,
      lost: 'request',
    });
    expect(await jsonSchema.present([tool(BASELINE_STRIPPED, '2fa')])).toEqual({
      rejected: `400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[0].name: ${text}`,
      lost: 'request',
    });
  });
});

describe('gemini-json-schema-2026-11', () => {
  it('G4: JSON Schema taken as published: propertyNames, oneOf, $defs, a 2020-12 $schema', async () => {
    const schema: Json = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { headers: RECORD_OF_STRINGS, pick: { oneOf: [{ type: 'string' }, { type: 'null' }] }, where: { $ref: '#/$defs/W', description: 'd' } },
      $defs: { W: { type: 'string' } },
    };
    const view = await jsonSchema.present(published(schema));
    if ('rejected' in view) throw new Error(view.rejected);
    expect(view.tools[0]!.inputSchema).toEqual(schema);
  });

  it('G4: a $ref with type beside it refuses the request; description, default and $comment beside it pass', async () => {
    const withSibling = (extra: Json): Json => ({ type: 'object', properties: { opt: { $ref: '#/$defs/QuestionOption', ...(extra as object) } }, $defs: { QuestionOption: { type: 'string' } } });
    expect(await jsonSchema.present(published(withSibling({ type: 'string' })))).toEqual({
      rejected: "400 INVALID_ARGUMENT: $ref 'QuestionOption' was set alongside unsupported fields. If a schema node has $ref set, then only description and default can be set alongside it",
      lost: 'request',
    });
    expect(await jsonSchema.present(published(withSibling({ description: 'd', default: 'x', $comment: 'c' })))).not.toHaveProperty('rejected');
  });
});

describe('G5: propertyNames on the legacy field of 2025-02 (issue 22: Continue was said to be only lossy)', () => {
  it("Continue 2025-02 refuses a record's propertyNames: the request fails, Firecrawl's and Playwright's shape", async () => {
    // firecrawl_extract and browser_drop publish a record of strings; Continue strips additionalProperties along root,
    // properties and items, so the request carries propertyNames alone, no field of the 2025-02 message.
    const report = await lintTools([tool({ type: 'object', properties: { headers: RECORD_OF_STRINGS } }, 'firecrawl_extract')], 'firecrawl-like', undefined, ['continue-gemini-2025-02']);
    expect(withoutEvidence(report.tools[0]!.hosts['continue-gemini-2025-02'])).toEqual({
      verdict: 'refused',
      detail: `400 INVALID_ARGUMENT: ${UNKNOWN('propertyNames', '.properties[0].value')}`,
      takesDown: 'request',
    });
  });
});
