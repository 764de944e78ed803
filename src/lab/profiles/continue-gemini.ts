/**
 * continue-gemini-2025-02: Continue (VS Code v0.9.259, 2025-02-01) with its
 * Gemini provider, in front of the Gemini API's legacy `parameters` field as
 * it was before 2025-03-13 (gemini-api.ts LEGACY_2025_02: every keyword that is
 * not a field of the Schema message is refused; `anyOf` is parsed).
 *
 * MCP tools reach the provider unchanged: continuedev/continue
 * core/context/mcp/index.ts at 7220b49a has `parameters: tool.inputSchema`,
 * after the MCP SDK 1.0.3 client's `listTools()` (core/package-lock.json at
 * 7220b49a). The provider (core/llm/llms/Gemini.ts, commit 9ca4ad4a "fix:
 * gemini tool calls with MCP", merged in PR #3851 as 7220b49a on 2025-01-31,
 * first released in v0.9.259-vscode; unchanged at dc948576, 2025-03-11) posts
 * to `v1beta/models/<model>:streamGenerateContent` with
 * `tools: [{ functionDeclarations }]`.
 */
import type { JsonSchema } from '../types.js';
import { LEGACY_2025_02, legacyApiRefusal, type LegacyApiRules } from './gemini-api.js';
import { mcpListProblem } from './mcp-sdk.js';
import { copy, droppedServer, isObject, noParameters, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

const API: LegacyApiRules = { ...LEGACY_2025_02, parsePrefix: 'tools[0].function_declarations' };

/**
 * Gemini.ts `cleanJsonSchema`, as written at 7220b49a:
 *   const { $schema, additionalProperties, default: defaultValue, ...rest } = schema;
 *   if (rest.properties) rest.properties = <each value cleaned>;
 *   if (rest.items) rest.items = cleanJsonSchema(rest.items);
 * So `$schema`, `additionalProperties` and `default` go only along the
 * root -> properties -> items chain; nothing inside anyOf/oneOf/allOf/$defs is
 * touched, and everything else (anyOf, const, $ref, title, format, type
 * lists, non-string enums) is sent as published. An array is cleaned item by
 * item (`schema.map(cleanJsonSchema)`), as for a tuple-style `items`.
 */
function cleanJsonSchema(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(cleanJsonSchema);
  const { $schema: _s, additionalProperties: _a, default: _d, ...rest } = schema as Record<string, unknown>;
  if (rest.properties) {
    rest.properties = isObject(rest.properties)
      ? Object.fromEntries(Object.entries(rest.properties).map(([key, value]) => [key, cleanJsonSchema(value)]))
      : rest.properties;
  }
  if (rest.items) rest.items = cleanJsonSchema(rest.items);
  return rest;
}

/**
 * One declaration's `parameters`, or undefined when Continue leaves it out:
 *   if (tool.function.parameters.type === "object") {
 *     // Gemini can't take an empty object
 *     if (JSON.stringify(tool.function.parameters.properties) === "{}") { functions.push(fn); return; }
 *   }
 *   fn.parameters = { ...cleanedParams, type: tool.function.parameters.type.toUpperCase() };
 * The root `type` is always "object" here (the MCP SDK refused any other), so
 * the request carries "OBJECT"; nested types stay as published.
 */
function continueParameters(schema: JsonSchema): JsonSchema | undefined {
  if (schema.type === 'object' && JSON.stringify(schema.properties) === '{}') return undefined;
  return { ...(cleanJsonSchema(copy(schema)) as JsonSchema), type: String(schema.type).toUpperCase() };
}

/** What the API's refusals rest on (the sources below): reports of its 400s at the time. */
const API_REPORTS = { kind: 'report', date: '2025-02-25', source: 'Gemini API 400s reported 2025-01/02 (new-api#766, langchainjs#7758, goose#1029)' } as const;

export const continueGemini: ClientProfile = {
  id: 'continue-gemini-2025-02',
  title: 'Continue + Gemini legacy `parameters` (2025-02): $schema/additionalProperties/default stripped on the outside, any other non-field keyword (title, oneOf, const, inside a union too) a 400 for every tool',
  asOf: 'Continue v0.9.259, 2025-02-01, Gemini API before 2025-03-13',
  released: '2025-02-01',
  evidence: { kind: 'code', date: '2025-01-31', source: 'continuedev/continue Gemini.ts and core/context/mcp read at 7220b49a (v0.9.259)' },
  sources: [
    'continuedev/continue core/llm/llms/Gemini.ts cleanJsonSchema, commit 9ca4ad4a (merged in PR #3851, 7220b49a, 2025-01-31; tag v0.9.259-vscode)',
    'continuedev/continue core/context/mcp/index.ts at 7220b49a (parameters: tool.inputSchema)',
    'modelcontextprotocol/typescript-sdk src/types.ts ToolSchema at tag 1.0.3 (the SDK version in Continue\'s core/package-lock.json at 7220b49a)',
    'google/ai/generativelanguage/v1beta/content.proto in @google-ai/generativelanguage 2.9.1 (2025-02-12): the fields of the Schema message',
    'QuantumNous/new-api#766 (2025-02-18: any_of parsed, type "null" an Invalid value, title and default Unknown names), langchain-ai/langchainjs#7758 (2025-02-25: $defs), aaif-goose/goose#703 (2025-01-23: default), lobehub/lobehub#4994 (2024-12-12: examples)',
    'googleapis/python-genai#447 and commit 891d736d (unions in that SDK for Gemini API users from 2025-03-13; what the API then did with a clean union is unknown)',
    'router-for-me/CLIProxyAPI#97, zed-industries/zed#43231, zed-extensions/mcp-server-brave-search#12, aaif-goose/goose#5242 (Unknown name texts)',
    'WordPress/ai-provider-for-google#33, zed-industries/zed#53919 (type as a list)',
    'microsoft/azure-devops-mcp#145 (non-string enum values)',
    'aaif-goose/goose#1029, #1044, #1184 (2025-02: only \'enum\' is supported for STRING type)',
    'vercel/ai#3371, browser-use/browser-use#7, CherryHQ/cherry-studio#3270 (properties: should be non-empty for OBJECT type)',
    'cline/cline#7926 (items: missing field)',
  ],
  notes:
    'Continue strips $schema, additionalProperties and default only along root, properties and items, so what is ' +
    'inside a union is sent as published. The API of that date refuses the whole request, listing every problem one ' +
    'per line, for every keyword that is not a field of its Schema message: title and default (new-api#766, goose#703), ' +
    '$defs (langchainjs#7758), examples, const, $ref, oneOf, allOf, additionalProperties left inside a union, vendor keys ' +
    'such as x-parameter-location. It parses anyOf, and checks each branch by the same rules: a branch {type: "null"} ' +
    'is an Invalid value (the Type enum had no NULL). Unknown, and so let through: minimum, maximum, pattern, ' +
    'minLength, maxLength, minProperties, maxProperties, example, propertyOrdering (fields of the message by 2025-05/08, ' +
    'no answer of the API of 2025-02 found), and what the API did with a clean union once the request parsed (served here, ' +
    'no text invented). A tool whose root has empty properties is sent without parameters and shown as taking none. The ' +
    'request carries the root type as "OBJECT"; the schema shown here keeps it lowercase, which does not change what the ' +
    'model is told. A tools/list the MCP SDK 1.0.3 refuses loses the whole server; what Continue then shows is not ' +
    'modelled (kit text). Tool names are shown unchanged. The "400 INVALID_ARGUMENT: " framing is the kit\'s.',
  present(tools) {
    const unfit = mcpListProblem(tools, { checksRequired: false });
    if (unfit)
      return droppedServer(
        `(kit text: what Continue shows is not modelled) the MCP SDK 1.0.3 client refused tools/list: ${unfit}, so no tool of this server reaches the model`,
      );
    const declarations = tools.map((tool) => continueParameters(schemaOf(tool)));
    const refusal = legacyApiRefusal(API, declarations);
    // The API's answer rests on the 400s reported in 2025-01/02, not on Continue's code.
    if (refusal) return refusedRequest(`400 INVALID_ARGUMENT: ${refusal}`, API_REPORTS);
    return {
      tools: tools.map((tool, i) => {
        const sent = declarations[i];
        return seenTool(tool, sent === undefined ? noParameters() : { ...sent, type: 'object' });
      }),
    };
  },
  // No client-side argument check beyond the schema the model is given.
  validate: (_tool, args) => passThrough(args),
};
