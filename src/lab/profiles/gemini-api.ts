/**
 * The Gemini API's legacy `FunctionDeclaration.parameters` field (the
 * OpenAPI-subset `Schema` message, v1beta generateContent), as it checked a
 * request's function declarations. Shared by the profiles of the hosts that
 * sent MCP schemas there: Continue and Goose (2025-02) and gemini-cli
 * (2025-06). Each passes the rules of its date.
 *
 * The API refuses the whole request (every tool) and lists every problem,
 * one per line (zed-industries/zed#53919 and google-gemini/gemini-cli#3178
 * show several in one reply). There are two stages:
 *  1. parse: the request's JSON is read into the proto; if anything fails
 *     here, only these problems are reported;
 *  2. declarations: reached only when the request parsed.
 *
 * Error texts are rendered by the callers as `<framing><message>`; the
 * message part is the API's.
 */
import type { JsonSchema } from '../types.js';
import { isObject } from './shared.js';

export interface LegacyApiRules {
  /** Whether the Schema message has no field for this keyword: `Unknown name "<k>" ...: Cannot find field.` */
  unknownName(keyword: string): boolean;
  /** Type enum values accepted (compared lowercased: the JSON wire takes "string" and "STRING" alike). */
  types: ReadonlySet<string>;
  /** String formats accepted ('any': every value, the current message says "Any value is allowed"), and the message for any other. */
  stringFormats: ReadonlySet<string> | 'any';
  formatMessage: string;
  /** `* <path>.properties: should be non-empty for OBJECT type`. */
  refusesEmptyObjects: boolean;
  /** `* <path>.enum: only allowed for STRING type` and `* <path>.enum[i]: cannot be empty`. */
  checksEnums: boolean;
  /** Where the parse stage says the declarations are: 'tools[0].function_declarations' when `tools` is a list. */
  parsePrefix: string;
  /** The function names the API takes, when the rules check them (the declarations stage, before each declaration's parameters). */
  functionName?: RegExp;
  /** `* <path>.required[i]: property is not defined`, for a required name the object's `properties` lacks. */
  checksRequired?: boolean;
}

/**
 * JSON Schema keywords the legacy Schema message never had a field for (the
 * 2025-06 rules; the 2025-02 rules refuse every name that is not a field).
 * Refused after 2025-03 with the Unknown-name text: `$schema`
 * (router-for-me/CLIProxyAPI#97), `additionalProperties`
 * (zed-industries/zed#43231; inside any_of: musistudio/claude-code-router#187),
 * `const` (zed-extensions/mcp-server-brave-search#12), `$ref`
 * (aaif-goose/goose#5242), `$defs` (langchain-ai/langchainjs#7758, 2025-02).
 * `oneOf`, `allOf`: no field in the message (absent from the published
 * content.proto up to @google-ai/generativelanguage 3.4.0, 2025-08-27); no
 * Unknown-name report for them was found, so their texts apply the same
 * documented form (modelled). `definitions` and `not` are added as the
 * draft-07 spellings of the same missing features (unverified). Other
 * keywords (title, default, pattern, minLength, ...) pass here: fields of the
 * message by 2025-05/08 (3.2.0, 3.4.0), and @google/genai 1.4.0 sends only
 * its 20 keys anyway.
 */
const NEVER_IN_SCHEMA: ReadonlySet<string> = new Set(['oneOf', 'allOf', 'const', '$ref', '$defs', 'definitions', 'not', 'additionalProperties', '$schema']);

/** The Type enum of the Schema message before 2025-03. */
const TYPES_2025_02 = ['string', 'number', 'integer', 'boolean', 'array', 'object'];

/**
 * The fields of the v1beta `Schema` message as Google published it on
 * 2025-02-12 (google/ai/generativelanguage/v1beta/content.proto in the npm
 * package @google-ai/generativelanguage 2.9.1, whose CHANGELOG dates it):
 * type, format, description, nullable, enum, items, max_items, min_items,
 * properties, required. The JSON parser takes a field by its JSON name or its
 * proto name (maxItems, max_items).
 *
 * The API running then was ahead of that file in one respect: it parsed
 * `any_of`. QuantumNous/new-api#766 (request of 2025-02-18, the v1beta Type
 * in the text: the Gemini API, not Vertex) is answered at
 * '...properties[8].value.any_of[0]' and '...any_of[1].type', and
 * langchain-ai/langchainjs#7758 (2025-02-25, gemini-2.0-pro-exp-02-05 with an
 * API key) at '...properties[0].value.any_of[0].type'. python-genai#447
 * ("supported for Vertex AI users, but not yet for Gemini API users",
 * 2025-03-05; "1.6.0 version should support union for Gemini API now",
 * 2025-03-13) and 891d736d are about that SDK's own client-side check.
 */
const FIELDS_2025_02 = [
  'type', 'format', 'description', 'nullable', 'enum', 'items', 'maxItems', 'max_items', 'minItems', 'min_items', 'properties', 'required',
  'anyOf', 'any_of',
];

/**
 * Keywords added to the published message later (minimum, maximum and
 * property_ordering, with title, default and any_of, by
 * @google-ai/generativelanguage 3.2.0, 2025-05-09; min/max_length, pattern,
 * min/max_properties and example by 3.4.0, 2025-08-27) for which no answer of
 * the API before 2025-03-13 was found. Whether it knew them then is unknown:
 * they pass here, unrefused, rather than draw a guessed "Unknown name".
 * (`title` and `default` are not among them: answered "Unknown name" then,
 * see LEGACY_2025_02.)
 */
const STATUS_UNKNOWN_2025_02 = [
  'minimum', 'maximum', 'minLength', 'min_length', 'maxLength', 'max_length', 'pattern',
  'minProperties', 'min_properties', 'maxProperties', 'max_properties', 'example', 'propertyOrdering', 'property_ordering',
];

/**
 * The API as Continue and Goose met it in 2025-02. Every keyword that is not
 * a field draws "Unknown name": the JSON parser refuses any name it cannot
 * find in the message, and no keyword outside the two lists above was ever a
 * field of the published message, up to 3.4.0 (2025-08-27). The evidence of
 * that date:
 *  - `title`: QuantumNous/new-api#766 (2025-02-18), at '...any_of[0]' and
 *    inside it;
 *  - `default`: aaif-goose/goose#703 (2025-01-23, generativelanguage v1beta,
 *    gemini-1.5-flash) and new-api#766;
 *  - `$defs`: langchain-ai/langchainjs#7758 (2025-02-25, Gemini API);
 *  - `examples`: lobehub/lobehub#4994 (2024-12-12, generativelanguage v1beta)
 *    and still in 2026 (AstrBotDevs/AstrBot#7572); the same four with
 *    `title` in datastax/astra-assistants-api#73 (2024-09) come through
 *    LiteLLM's VertexAIException, possibly Vertex, and are not relied on;
 *  - `additionalProperties`: nanbingxyz/5ire#42 (2025-01-19);
 *  - a vendor key such as `x-parameter-location` cannot be a proto field name
 *    at all (refused as such in 2026: diegosouzapw/OmniRoute#1206).
 * `anyOf` is parsed, and its branches by the same rules: a branch
 * `{type: "null"}` is `Invalid value at '...any_of[1].type'
 * (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "null"`
 * (new-api#766; the Type enum had no NULL: 2.9.1's content.proto).
 * Unknown: whether a request that parsed, with a clean anyOf, was then
 * refused at the declarations stage or served (python-genai#447 says unions
 * were "not yet" supported for Gemini API users; no raw answer was found).
 * Modelled as served, with no text invented.
 * Format: "only 'enum' is supported for STRING type", so date-time too was
 * refused then: aaif-goose/goose#1029 (2025-02-02, Goose v1.0.4),
 * aaif-goose/goose#1044 (2025-02-03), aaif-goose/goose#1184 (2025-02-11).
 * Empty objects: vercel/ai#3371 (2024-10, again with Gemini 2.0 on
 * 2025-02-09), browser-use/browser-use#7 (2024-11/12), CherryHQ/cherry-studio#3270
 * (2025-03-13, the root of an MCP tool).
 */
const KNOWN_2025_02 = new Set([...FIELDS_2025_02, ...STATUS_UNKNOWN_2025_02]);

export const LEGACY_2025_02: Omit<LegacyApiRules, 'parsePrefix'> = {
  unknownName: (keyword) => !KNOWN_2025_02.has(keyword),
  types: new Set(TYPES_2025_02),
  stringFormats: new Set(['enum']),
  formatMessage: "only 'enum' is supported for STRING type",
  refusesEmptyObjects: true,
  checksEnums: false,
};

/**
 * The API as gemini-cli v0.1.1 to v0.1.9 met it (2025-06-25 to 2025-07-10):
 * `anyOf` parsed (since 2025-02 at least, above) into `any_of[i]`
 * (musistudio/claude-code-router#187, 2025-07-15).
 * Format: "only 'enum' and 'date-time' are supported for STRING type"
 * (aaif-goose/goose#2792, 2025-06-05; google-gemini/gemini-cli#3178,
 * 2025-07-03, CLI 0.1.7).
 * Enums: `* ...enum: only allowed for STRING type` (nanbingxyz/5ire#218,
 * 2025-05-06; makenotion/notion-mcp-server#42, 2025-05-08) and
 * `* ...enum[0]: cannot be empty` (google-gemini/gemini-cli#3401, 2025-07-06,
 * CLI 0.1.3).
 * "NULL" is taken as a type: @google/genai 1.4.0's Type enum has NULL (src/types.ts
 * at v1.4.0), and so has the API's published Type enum from
 * @google-ai/generativelanguage 3.2.0 (2025-05-09, v1beta content.proto).
 * Empty objects are not refused: the last report found is from 2025-03
 * (CherryHQ/cherry-studio#3270, MarkusPfundstein/mcp-obsidian#21) and none
 * for gemini-cli 0.1.x, which sends `{type: OBJECT, properties: {}}` for every
 * MCP tool without arguments (unconfirmed either way).
 */
export const LEGACY_2025_06: Omit<LegacyApiRules, 'parsePrefix'> = {
  unknownName: (keyword) => NEVER_IN_SCHEMA.has(keyword),
  types: new Set([...TYPES_2025_02, 'null']),
  stringFormats: new Set(['enum', 'date-time']),
  formatMessage: "only 'enum' and 'date-time' are supported for STRING type",
  refusesEmptyObjects: false,
  checksEnums: true,
};

/**
 * The fields of the v1beta `Schema` message as Google published it in
 * @google-ai/generativelanguage 4.1.0 (2026-09-13,
 * build/protos/google/ai/generativelanguage/v1beta/content.proto): type,
 * format, title, description, nullable, enum, items, max_items, min_items,
 * properties, required, min_properties, max_properties, minimum, maximum,
 * min_length, max_length, pattern, example, any_of, property_ordering,
 * default; each by its JSON name or its proto name. No `ref`/`defs` (the
 * Vertex AI message has them; this one does not), no `oneOf`, `allOf`,
 * `const`, `additionalProperties`, `propertyNames`, `$schema`, `examples`.
 */
const FIELDS_2026_09 = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'maxItems', 'max_items', 'minItems', 'min_items',
  'properties', 'required', 'minProperties', 'min_properties', 'maxProperties', 'max_properties', 'minimum', 'maximum',
  'minLength', 'min_length', 'maxLength', 'max_length', 'pattern', 'example', 'anyOf', 'any_of', 'propertyOrdering',
  'property_ordering', 'default',
]);

/**
 * The API's `parameters` field as of 2026-09: every name that is not a field of
 * the message above is refused, as in 2025-02 (LEGACY_2025_02) and still in 2026:
 * `propertyNames` (QuantumNous/new-api#2624, 2026-01-09;
 * router-for-me/CLIProxyAPI#4393, 2026-07-17: `Unknown name "propertyNames" at
 * '...properties[10].value': Cannot find field.`), `examples`
 * (AstrBotDevs/AstrBot#7572), vendor keys (diegosouzapw/OmniRoute#1206).
 * The Type enum has NULL (4.1.0). `format`: "Any value is allowed, but most do
 * not trigger any special functionality" (4.1.0's comment on the field), so no
 * format is refused. Enums on non-strings and arrays without items: the 2025-06/11
 * texts (LEGACY_2025_06, cline/cline#7926), assumed unchanged. Function names:
 * "a-z, A-Z, 0-9, or contain underscores, colons, dots, and dashes, with a
 * maximum length of 64" (4.1.0's FunctionDeclaration.name), starting with a
 * letter or an underscore (the API's text, gemini-cli#2966).
 */
export const CURRENT_2026_09: Omit<LegacyApiRules, 'parsePrefix'> = {
  unknownName: (keyword) => !FIELDS_2026_09.has(keyword),
  types: new Set([...TYPES_2025_02, 'null']),
  stringFormats: 'any',
  formatMessage: '',
  refusesEmptyObjects: false,
  checksEnums: true,
  functionName: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  // `* GenerateContentRequest.tools[0].function_declarations[18].parameters.required[0]: property is not defined`
  // (MarkusPfundstein/mcp-obsidian#105, 2026-01-18, Gemini 3 through OpenCode; moltis-org/moltis#747, 2026-04-16,
  // Gemini 3.1 through OpenRouter, nested under items too): a required name that `properties` does not define.
  checksRequired: true,
};

/**
 * First stage. Each problem is reported at the proto path of the schema that
 * holds it: `properties` is a map, so its i-th entry (in the order sent) is
 * `properties[i].value`; `items` is `items`; a union branch is `any_of[i]`.
 * An unknown field is not parsed, so nothing inside it is reported (an
 * `additionalProperties` inside a refused `anyOf` is never named).
 * Texts:
 *  - unknown keyword: `Invalid JSON payload received. Unknown name "const" at
 *    '...': Cannot find field.` (sources at NEVER_IN_SCHEMA).
 *  - `type` given as a list: `... Unknown name "type" at '...': Proto field is
 *    not repeating, cannot start list.` (WordPress/ai-provider-for-google#33,
 *    zed-industries/zed#53919, nanbingxyz/5ire#218).
 *  - a `type` value outside the enum: `Invalid value at '....type'
 *    (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "null"`
 *    (zereight/gitlab-mcp#166, QuantumNous/new-api#766).
 *  - a non-string enum value: `Invalid value at '....enum[2]' (TYPE_STRING), 4`
 *    (microsoft/azure-devops-mcp#145, google-gemini/gemini-cli#2031).
 */
function parseProblems(rules: LegacyApiRules, node: unknown, path: string, out: string[]): void {
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (rules.unknownName(key)) {
      out.push(`Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`);
      continue;
    }
    if (key === 'type') {
      if (Array.isArray(value)) out.push(`Invalid JSON payload received. Unknown name "type" at '${path}': Proto field is not repeating, cannot start list.`);
      else if (typeof value === 'string' && value !== 'TYPE_UNSPECIFIED' && !rules.types.has(value.toLowerCase()))
        out.push(`Invalid value at '${path}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "${value}"`);
    } else if (key === 'properties' && isObject(value)) {
      Object.values(value).forEach((sub, i) => parseProblems(rules, sub, `${path}.properties[${i}].value`, out));
    } else if (key === 'items' && isObject(value)) {
      parseProblems(rules, value, `${path}.items`, out);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      value.forEach((sub, i) => parseProblems(rules, sub, `${path}.any_of[${i}]`, out));
    } else if (key === 'enum' && Array.isArray(value)) {
      value.forEach((v, i) => {
        if (typeof v === 'number' || typeof v === 'boolean') out.push(`Invalid value at '${path}.enum[${i}]' (TYPE_STRING), ${String(v)}`);
      });
    }
  }
}

/**
 * Second stage. Paths name properties by key, and every problem is listed,
 * each line starting with "* ".
 *  - a string `format` the API does not take: `* ...properties[url].format: <formatMessage>`
 *    (sources at LEGACY_2025_02 and LEGACY_2025_06).
 *  - an array without items: `* GenerateContentRequest.tools[0].function_declarations[28].parameters.properties[time_ranges].items: missing field.`
 *    (cline/cline#7926 and cline/cline#7339, 2025-11, still the legacy field;
 *    assumed for the earlier dates too).
 *  - an object with an empty `properties` (when the rules refuse it):
 *    `* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type`.
 *    An object with no `properties` key at all is not flagged: the sources
 *    disagree about it across eras.
 * The path of a union branch here, `any_of[i]`, is modelled.
 */
function declarationProblems(rules: LegacyApiRules, node: unknown, path: string, out: string[]): void {
  if (!isObject(node)) return;
  const type = typeof node.type === 'string' ? node.type.toLowerCase() : undefined;
  if (type === 'string' && typeof node.format === 'string' && rules.stringFormats !== 'any' && !rules.stringFormats.has(node.format)) out.push(`* ${path}.format: ${rules.formatMessage}`);
  if (rules.checksEnums && Array.isArray(node.enum)) {
    if (type !== 'string') out.push(`* ${path}.enum: only allowed for STRING type`);
    node.enum.forEach((v, i) => {
      if (v === '') out.push(`* ${path}.enum[${i}]: cannot be empty`);
    });
  }
  if (type === 'array' && !('items' in node)) out.push(`* ${path}.items: missing field.`);
  if (rules.checksRequired && Array.isArray(node.required)) {
    const defined = isObject(node.properties) ? node.properties : {};
    node.required.forEach((name, i) => {
      if (typeof name === 'string' && !Object.hasOwn(defined, name)) out.push(`* ${path}.required[${i}]: property is not defined`);
    });
  }
  if (rules.refusesEmptyObjects && type === 'object' && isObject(node.properties) && Object.keys(node.properties).length === 0)
    out.push(`* ${path}.properties: should be non-empty for OBJECT type`);
  if (isObject(node.properties)) for (const [name, sub] of Object.entries(node.properties)) declarationProblems(rules, sub, `${path}.properties[${name}]`, out);
  if (isObject(node.items)) declarationProblems(rules, node.items, `${path}.items`, out);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((sub, i) => declarationProblems(rules, sub, `${path}.any_of[${i}]`, out));
}

/**
 * The API's text for a function name it does not take (google-gemini/gemini-cli#2966, 2025-07; cline/cline#7339,
 * 2025-11, listed in declaration order among the `items: missing field.` lines).
 */
export const INVALID_FUNCTION_NAME =
  'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.';

/**
 * The API's answer to one request, as the message of its 400, or null when it
 * is accepted. `declarations[i]` is the `parameters` of the i-th declaration
 * as sent, or undefined for a declaration sent without `parameters`. All MCP
 * tools of a host go into one Tool object, hence tools[0].
 */
export function legacyApiRefusal(rules: LegacyApiRules, declarations: (JsonSchema | undefined)[], names: string[] = []): string | null {
  const parse: string[] = [];
  declarations.forEach((schema, i) => {
    if (schema) parseProblems(rules, schema, `${rules.parsePrefix}[${i}].parameters`, parse);
  });
  if (parse.length > 0) return parse.join('\n');
  const checked: string[] = [];
  declarations.forEach((schema, i) => {
    const name = names[i];
    if (rules.functionName && name !== undefined && !rules.functionName.test(name)) checked.push(`* GenerateContentRequest.tools[0].function_declarations[${i}].name: ${INVALID_FUNCTION_NAME}`);
    if (schema) declarationProblems(rules, schema, `GenerateContentRequest.tools[0].function_declarations[${i}].parameters`, checked);
  });
  return checked.length > 0 ? checked.join('\n') : null;
}
