/**
 * The Gemini API of today (v1beta generateContent), on each of its two fields
 * for a function's parameters, with each MCP tool's inputSchema sent there as
 * published. Two profiles, because a host picks one field and the two take
 * different schemas (FunctionDeclaration: `parameters` and
 * `parametersJsonSchema` "are mutually exclusive", @google-ai/generativelanguage
 * 4.1.0's content.proto, 2026-09-13):
 *  - gemini-parameters-2026-09: `parameters`, the OpenAPI-subset `Schema`
 *    message (gemini-api.ts CURRENT_2026_09): any keyword that is not a field
 *    of the message refuses the whole request;
 *  - gemini-json-schema-2026-11: `parametersJsonSchema` ("Describes the
 *    parameters to the function in JSON Schema format", @google/genai 3.3.0,
 *    2026-11-12), the field gemini-cli sends MCP schemas to since v0.1.13
 *    (gemini-cli-2025-11.ts), as hermes-agent and Zed moved to in 2026
 *    (NousResearch/hermes-agent#98928, after zed-industries/zed#63342).
 * Both answer a bad request with one 400 for every tool of every server.
 */
import { CURRENT_2026_09, INVALID_FUNCTION_NAME, legacyApiRefusal, type LegacyApiRules } from './gemini-api.js';
import { eachSubschema, undefinedReference } from './gemini-cli-2025-11.js';
import type { JsonSchema } from '../types.js';
import { copy, isObject, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile, type PublishedTool } from './shared.js';

const PARAMETERS: LegacyApiRules = { ...CURRENT_2026_09, parsePrefix: 'tools[0].function_declarations' };

const shownAsPublished = (tools: PublishedTool[]) => ({ tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)) as JsonSchema)) });

export const geminiParameters202609: ClientProfile = {
  id: 'gemini-parameters-2026-09',
  apiField: 'Gemini API `parameters`',
  title: 'Gemini API `parameters` (2026-09): the Schema message of 22 fields; any other keyword ($schema, additionalProperties, oneOf, const, $ref, propertyNames, ...) a 400 for every tool',
  asOf: 'Gemini API v1beta, FunctionDeclaration.parameters as published in @google-ai/generativelanguage 4.1.0, 2026-09-13',
  released: '2026-09-13',
  evidence: { kind: 'docs', date: '2026-09-13', source: 'content.proto in @google-ai/generativelanguage 4.1.0: the Schema message' },
  sources: [
    'google/ai/generativelanguage/v1beta/content.proto in @google-ai/generativelanguage 4.1.0 (2026-09-13): the fields of the Schema message, the Type enum with NULL, "format: Any value is allowed", FunctionDeclaration.name',
    'QuantumNous/new-api#2624 (2026-01-09) and router-for-me/CLIProxyAPI#4393 (2026-07-17): Unknown name "propertyNames" ... Cannot find field',
    'AstrBotDevs/AstrBot#7572 (examples), diegosouzapw/OmniRoute#1206 (vendor keys), router-for-me/CLIProxyAPI#97 ($schema), zed-industries/zed#44875 (2025-12-15: const inside any_of): Unknown name texts',
    'cline/cline#7926, #7339 (2025-11: items: missing field; Invalid function name, in declaration order)',
    'google-gemini/gemini-cli#2966 (Invalid function name. Must start with a letter or an underscore ...)',
  ],
  notes:
    'The schema is sent as published, so the request parses only if every keyword, at every level the parser reads ' +
    '(properties, items, anyOf), is a field of the Schema message: type, format, title, description, nullable, enum, ' +
    'items, minItems, maxItems, properties, required, minProperties, maxProperties, minimum, maximum, minLength, ' +
    'maxLength, pattern, example, anyOf, propertyOrdering, default. Any other ($schema, which every zod-published MCP ' +
    'schema carries, additionalProperties, oneOf, allOf, const, $ref, $defs, propertyNames, examples, x-...) is an ' +
    '"Unknown name" for the whole request, every problem listed. A type list is refused; type "null" is taken. Any ' +
    'format is taken. Then each declaration: a name outside [a-zA-Z_][a-zA-Z0-9_.:-]{0,63}, an array without items, ' +
    'an enum on a non-string. A host that cleans schemas first (Continue, Goose, gemini-cli 2025-06, the AI SDK) is its ' +
    'own profile. The "400 INVALID_ARGUMENT: " framing is the kit\'s.',
  present(tools) {
    const refusal = legacyApiRefusal(PARAMETERS, tools.map((tool) => schemaOf(tool)), tools.map((tool) => tool.name));
    return refusal ? refusedRequest(`400 INVALID_ARGUMENT: ${refusal}`) : shownAsPublished(tools);
  },
  // The API does not check the model's arguments.
  validate: (_tool, args) => passThrough(args),
};

/** Keys a node with `$ref` may keep beside it: description, default, and any `$` keyword. */
const refCompanion = (key: string) => key === '$ref' || key === 'description' || key === 'default' || key.startsWith('$');

/**
 * The API's refusal of a `$ref` with other keywords beside it: `$ref 'QuestionOption' was set alongside unsupported
 * fields. If a schema node has $ref set, then only description and default can be set alongside it`
 * (anomalyco/opencode#12295, 2026-02-05; the Code Assist path words it "Schema.ref ...; other fields they would be
 * replaced by the expanded reference", diegosouzapw/OmniRoute#461, 2026-03-18). The name is the ref's last segment.
 * `$`-keywords are let through, as the field's documentation says ("no other properties, except for than those
 * starting as a `$`", @google/genai 3.3.0, responseJsonSchema). The first such node in document order is reported.
 */
function refWithSiblings(root: JsonSchema): string | null {
  let found: string | null = null;
  eachSubschema(root, [], (node) => {
    if (found !== null || typeof node.$ref !== 'string') return;
    if (Object.keys(node).some((key) => !refCompanion(key))) {
      const name = node.$ref.split('/').pop() ?? node.$ref;
      found = `$ref '${name}' was set alongside unsupported fields. If a schema node has $ref set, then only description and default can be set alongside it`;
    }
  });
  return found;
}

const NAME = CURRENT_2026_09.functionName!;

export const geminiJsonSchema202611: ClientProfile = {
  id: 'gemini-json-schema-2026-11',
  apiField: 'Gemini API `parametersJsonSchema`',
  title: 'Gemini API `parametersJsonSchema` (2026-11): JSON Schema taken as published; a $ref that points nowhere or has other keywords beside it a 400 for every tool',
  asOf: 'Gemini API v1beta, FunctionDeclaration.parametersJsonSchema; @google/genai 3.3.0, 2026-11-12',
  released: '2026-11-12',
  evidence: { kind: 'docs', date: '2026-11-12', source: '@google/genai 3.3.0 types.ts: parametersJsonSchema, its keywords and $ref rule' },
  sources: [
    'googleapis/js-genai src/types.ts FunctionDeclaration.parametersJsonSchema and GenerationConfig.responseJsonSchema (the keyword list and the $ref rule) at v3.3.0 (2026-11-12)',
    'google/ai/generativelanguage/v1beta/content.proto in @google-ai/generativelanguage 4.1.0 (2026-09-13): parameters_json_schema, mutually exclusive with parameters',
    'anomalyco/opencode#12295 (2026-02-05), diegosouzapw/OmniRoute#461 (2026-03-18): $ref set alongside unsupported fields',
    'agent-infra/sandbox#83 (2025-11-21): reference to undefined schema at properties.language',
    'NousResearch/hermes-agent#98928 (2026-08-30) and zed-industries/zed#63342: hosts moving MCP schemas to parametersJsonSchema',
    'google-gemini/gemini-cli#2966 (function names)',
  ],
  notes:
    'The schema is sent and shown as published: anyOf, oneOf, $ref/$defs, additionalProperties, type lists and "null", ' +
    '$schema of any draft are taken (no validator compiles it: the API reads it, and no report of a dialect refused ' +
    'was found). The whole request is refused for a $ref that points nowhere in its schema (one message, the first in ' +
    'document order) and for a $ref with a keyword beside it other than description, default or a $-keyword (as ' +
    'a {"$ref": ..., "description": ...} passes; {"$ref": ..., "type": ...} does not). The ' +
    'documented keyword list is for the response schema; what the model is told of keywords outside it (minLength, ' +
    'pattern, propertyNames, ...) is not documented for parameters, and they are counted as shown. Function names as ' +
    'in gemini-parameters-2026-09. The API does not check the model\'s arguments; a host may (gemini-cli-2025-11). The ' +
    '"400 INVALID_ARGUMENT: " framing is the kit\'s.',
  present(tools) {
    for (const [i, tool] of tools.entries()) {
      if (!NAME.test(tool.name))
        return refusedRequest(`400 INVALID_ARGUMENT: * GenerateContentRequest.tools[0].function_declarations[${i}].name: ${INVALID_FUNCTION_NAME}`);
      const schema = schemaOf(tool);
      const problem = isObject(schema) ? (undefinedReference(schema) ?? refWithSiblings(schema)) : null;
      // A ref that points nowhere: reported with gemini-cli 0.17 in 2025-11, a year before the field modelled here.
      if (problem)
        return refusedRequest(
          `400 INVALID_ARGUMENT: ${problem}`,
          problem.startsWith('reference to undefined schema') ? { kind: 'report', date: '2025-11-21', source: 'agent-infra/sandbox#83 (gemini-cli 0.17)', unconfirmed: true } : undefined,
        );
    }
    return shownAsPublished(tools);
  },
  validate: (_tool, args) => passThrough(args),
};
