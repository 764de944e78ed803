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
  /** Keywords the Schema message has no field for: `Unknown name "<k>" ...: Cannot find field.` */
  unknownNames: ReadonlySet<string>;
  /** Type enum values accepted (compared lowercased: the JSON wire takes "string" and "STRING" alike). */
  types: ReadonlySet<string>;
  /** Whether `anyOf` is a field of the Schema message (from 2025-03-13): the parser then reads into it. */
  anyOf: boolean;
  /** String formats accepted, and the message for any other. */
  stringFormats: ReadonlySet<string>;
  formatMessage: string;
  /** `* <path>.properties: should be non-empty for OBJECT type`. */
  refusesEmptyObjects: boolean;
  /** `* <path>.enum: only allowed for STRING type` and `* <path>.enum[i]: cannot be empty`. */
  checksEnums: boolean;
  /** Where the parse stage says the declarations are: 'tools[0].function_declarations' when `tools` is a list. */
  parsePrefix: string;
}

/**
 * JSON Schema keywords the legacy Schema message never had a field for. Still
 * refused after 2025-03 with the Unknown-name text, so certainly before:
 * `$schema` (router-for-me/CLIProxyAPI#97), `additionalProperties`
 * (zed-industries/zed#43231; inside any_of: musistudio/claude-code-router#187),
 * `const` (zed-extensions/mcp-server-brave-search#12), `$ref`
 * (aaif-goose/goose#5242). `oneOf`, `allOf`, `$defs`: no field in the message
 * (python-genai `_Schema_to_mldev` at 26a6001d lists the fields passed
 * through: type, description, enum, format, items, properties, required,
 * property_ordering); no Unknown-name report for them was found, so their
 * texts apply the same documented form (modelled). `definitions` and `not`
 * are added as the draft-07 spellings of the same missing features
 * (unverified). Other keywords (title, default, pattern, minLength, ...) pass
 * without complaint here: whether the API knew them then is not confirmed.
 */
const NEVER_IN_SCHEMA = ['oneOf', 'allOf', 'const', '$ref', '$defs', 'definitions', 'not', 'additionalProperties', '$schema'];

/** The Type enum of the Schema message before 2025-03. */
const TYPES_2025_02 = ['string', 'number', 'integer', 'boolean', 'array', 'object'];

/**
 * The API as Continue and Goose met it in 2025-02: no union field at all.
 * `anyOf` was refused until 2025-03-13: googleapis/python-genai#447
 * (maintainer, 2025-03-05: "union type in schema is supported for Vertex AI
 * users, but not yet for Gemini API users"; 2025-03-13: "1.6.0 version should
 * support union for Gemini API now") and python-genai 891d736d (2025-03-12,
 * "feat: enable union type for Schema when calling Gemini API"). No raw 400
 * for it from before that date was found: its text applies the Unknown-name
 * form (modelled).
 * Format: "only 'enum' is supported for STRING type", so date-time too was
 * refused then: aaif-goose/goose#1029 (2025-02-02, Goose v1.0.4),
 * aaif-goose/goose#1044 (2025-02-03), aaif-goose/goose#1184 (2025-02-11).
 * Empty objects: vercel/ai#3371 (2024-10, again with Gemini 2.0 on
 * 2025-02-09), browser-use/browser-use#7 (2024-11/12), CherryHQ/cherry-studio#3270
 * (2025-03-13, the root of an MCP tool).
 */
export const LEGACY_2025_02: Omit<LegacyApiRules, 'parsePrefix'> = {
  unknownNames: new Set(['anyOf', ...NEVER_IN_SCHEMA]),
  types: new Set(TYPES_2025_02),
  anyOf: false,
  stringFormats: new Set(['enum']),
  formatMessage: "only 'enum' is supported for STRING type",
  refusesEmptyObjects: true,
  checksEnums: false,
};

/**
 * The API as gemini-cli v0.1.1 to v0.1.9 met it (2025-06-25 to 2025-07-10):
 * `anyOf` a field since 2025-03-13 (above), parsed into as `any_of[i]`
 * (musistudio/claude-code-router#187, 2025-07-15).
 * Format: "only 'enum' and 'date-time' are supported for STRING type"
 * (aaif-goose/goose#2792, 2025-06-05; google-gemini/gemini-cli#3178,
 * 2025-07-03, CLI 0.1.7).
 * Enums: `* ...enum: only allowed for STRING type` (nanbingxyz/5ire#218,
 * 2025-05-06; makenotion/notion-mcp-server#42, 2025-05-08) and
 * `* ...enum[0]: cannot be empty` (google-gemini/gemini-cli#3401, 2025-07-06,
 * CLI 0.1.3).
 * "NULL" is taken as a type: @google/genai 1.4.0's Type enum has NULL (src/types.ts
 * at v1.4.0); whether the API accepted it then is unconfirmed.
 * Empty objects are not refused: the last report found is from 2025-03
 * (CherryHQ/cherry-studio#3270, MarkusPfundstein/mcp-obsidian#21) and none
 * for gemini-cli 0.1.x, which sends `{type: OBJECT, properties: {}}` for every
 * MCP tool without arguments (unconfirmed either way).
 */
export const LEGACY_2025_06: Omit<LegacyApiRules, 'parsePrefix'> = {
  unknownNames: new Set(NEVER_IN_SCHEMA),
  types: new Set([...TYPES_2025_02, 'null']),
  anyOf: true,
  stringFormats: new Set(['enum', 'date-time']),
  formatMessage: "only 'enum' and 'date-time' are supported for STRING type",
  refusesEmptyObjects: false,
  checksEnums: true,
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
    if (rules.unknownNames.has(key)) {
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
    } else if (key === 'anyOf' && rules.anyOf && Array.isArray(value)) {
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
  if (type === 'string' && typeof node.format === 'string' && !rules.stringFormats.has(node.format)) out.push(`* ${path}.format: ${rules.formatMessage}`);
  if (rules.checksEnums && Array.isArray(node.enum)) {
    if (type !== 'string') out.push(`* ${path}.enum: only allowed for STRING type`);
    node.enum.forEach((v, i) => {
      if (v === '') out.push(`* ${path}.enum[${i}]: cannot be empty`);
    });
  }
  if (type === 'array' && !('items' in node)) out.push(`* ${path}.items: missing field.`);
  if (rules.refusesEmptyObjects && type === 'object' && isObject(node.properties) && Object.keys(node.properties).length === 0)
    out.push(`* ${path}.properties: should be non-empty for OBJECT type`);
  if (isObject(node.properties)) for (const [name, sub] of Object.entries(node.properties)) declarationProblems(rules, sub, `${path}.properties[${name}]`, out);
  if (isObject(node.items)) declarationProblems(rules, node.items, `${path}.items`, out);
  if (rules.anyOf && Array.isArray(node.anyOf)) node.anyOf.forEach((sub, i) => declarationProblems(rules, sub, `${path}.any_of[${i}]`, out));
}

/**
 * The API's answer to one request, as the message of its 400, or null when it
 * is accepted. `declarations[i]` is the `parameters` of the i-th declaration
 * as sent, or undefined for a declaration sent without `parameters`. All MCP
 * tools of a host go into one Tool object, hence tools[0].
 */
export function legacyApiRefusal(rules: LegacyApiRules, declarations: (JsonSchema | undefined)[]): string | null {
  const parse: string[] = [];
  declarations.forEach((schema, i) => {
    if (schema) parseProblems(rules, schema, `${rules.parsePrefix}[${i}].parameters`, parse);
  });
  if (parse.length > 0) return parse.join('\n');
  const checked: string[] = [];
  declarations.forEach((schema, i) => {
    if (schema) declarationProblems(rules, schema, `GenerateContentRequest.tools[0].function_declarations[${i}].parameters`, checked);
  });
  return checked.length > 0 ? checked.join('\n') : null;
}
