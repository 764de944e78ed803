/**
 * @google/genai 1.4.0's `mcpToTool(client).tool()`: how gemini-cli v0.1.1 to
 * v0.1.12 turned MCP tools into legacy `parameters` declarations.
 *
 * googleapis/js-genai src/_transformers.ts at tag v1.4.0 (6077e53f,
 * 2025-06-04; unchanged in v1.6.0 and v1.8.0, the versions in gemini-cli's
 * package-lock.json up to v0.1.12):
 *   mcpToolsToGeminiTool: for each tool in order,
 *     parameters: processJsonSchema(filterToJsonSchema(mcpToolSchema['inputSchema']))
 * Thrown errors propagate out of `tool()`, so one tool loses the whole server.
 * The types this produces are the SDK's uppercase `Type` values.
 *
 * Proved against the package itself (npm alias genai-1-4, the dist's
 * `mcpToolsToGeminiTool`, `filterToJsonSchema`, `processJsonSchema` and
 * `McpCallableTool.initialize` in dist/node/index.mjs) by
 * test/parity-genai.test.ts, on every kit server, every recorded real server,
 * hand-made lists for each error and generated schemas. That test found the
 * string `anyOf` and `properties` and the duplicate names below, which an
 * earlier transcription missed. Transcribed rather than run: the linter's
 * published bin bundles every profile, and this keeps @google/genai (and
 * google-auth-library, ws) out of it.
 */
import type { JsonSchema } from '../types.js';
import { isObject } from './shared.js';

/** `supportedJsonSchemaFields` at v1.4.0. */
const SUPPORTED = new Set([
  'type', 'format', 'title', 'description', 'default', 'items', 'minItems', 'maxItems', 'enum', 'properties',
  'required', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'propertyOrdering',
]);

/** `types.Type` at v1.4.0 (src/types.ts). */
const TYPE_VALUES = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/** An error the SDK throws, with the text `${error}` gives (gemini-cli logs it that way). */
export class GenaiError extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

/**
 * `Object.entries(x)` as JS runs it: null and undefined throw; a number or a
 * boolean has no own entries; a string's are its characters ('0': 'a', ...),
 * so `properties: "ab"` becomes `{0: {}, 1: {}}` (each character is filtered
 * like a schema and keeps nothing).
 */
function entries(value: unknown): [string, unknown][] {
  if (value === null || value === undefined) throw new GenaiError('TypeError: Cannot convert undefined or null to object');
  return Object.entries(value);
}

/**
 * `for (const listFieldValue of fieldValue)` in `filterListSchemaField`: an
 * array by its items, a string by its characters (code points, as for..of
 * goes); anything else is not iterable and throws.
 */
function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  throw new GenaiError('TypeError: fieldValue is not iterable');
}

/**
 * `filterToJsonSchema`: keeps only the supported fields, recursing through
 * `items`, `anyOf` and `properties` ("'one_of', 'all_of', 'not' to come",
 * "'defs' to come"); `type` goes through `(fieldValue as string).toUpperCase()`
 * and becomes TYPE_UNSPECIFIED when it is not a Type value. So `$schema`,
 * `additionalProperties`, `oneOf`, `allOf`, `not`, `const`, `$ref`, `$defs`
 * vanish without a word: `{oneOf: [...]}` becomes `{}`. A `type` that is not
 * a string throws: `TypeError: fieldValue.toUpperCase is not a function` for a
 * list (read from the code and reproduced by running 1.4.0 on such a schema;
 * no report of it from the field was found).
 */
function filterToJsonSchema(schema: unknown): Record<string, unknown> {
  const filtered: Record<string, unknown> = {};
  for (const [name, value] of entries(schema)) {
    if (name === 'items') filtered[name] = filterToJsonSchema(value);
    else if (name === 'anyOf') filtered[name] = iterate(value).map(filterToJsonSchema);
    else if (name === 'properties') filtered[name] = Object.fromEntries(entries(value).map(([key, sub]) => [key, filterToJsonSchema(sub)]));
    else if (name === 'type') {
      if (value === null || value === undefined) throw new GenaiError(`TypeError: Cannot read properties of ${String(value)} (reading 'toUpperCase')`);
      if (typeof value !== 'string') throw new GenaiError('TypeError: fieldValue.toUpperCase is not a function');
      const upper = value.toUpperCase();
      filtered[name] = TYPE_VALUES.has(upper) ? upper : 'TYPE_UNSPECIFIED';
    } else if (SUPPORTED.has(name)) filtered[name] = value;
  }
  return filtered;
}

/**
 * `processJsonSchema`, run on the filtered schema:
 *   if (_jsonSchema['type'] && _jsonSchema['anyOf']) throw new Error('type and anyOf cannot be both populated.');
 * then recursing through `items`, `anyOf` and `properties`, skipping fields
 * whose value is null or undefined (`default: null` is dropped). Its
 * nullable shortcuts compare with lowercase 'null', which the filter has
 * already uppercased, so they never fire here: `{anyOf: [{type: 'string'},
 * {type: 'null'}]}` stays an anyOf with a "NULL" branch; a type list never
 * reaches it (the filter threw).
 */
function processJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.type && schema.anyOf) throw new GenaiError('Error: type and anyOf cannot be both populated.');
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (value === null || value === undefined) continue;
    if (name === 'items') out[name] = processJsonSchema(value as Record<string, unknown>);
    else if (name === 'anyOf') out[name] = (value as Record<string, unknown>[]).map(processJsonSchema);
    else if (name === 'properties')
      out[name] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, sub]) => [key, processJsonSchema(sub as Record<string, unknown>)]));
    else out[name] = value;
  }
  return out;
}

/**
 * `McpCallableTool.initialize` lists every tool first and throws on a name it
 * has seen, before any schema is converted:
 *   if (functionMap[mcpToolName]) { throw new Error(`Duplicate function name ${mcpToolName} found in MCP tools. Please ensure function names are unique.`); }
 * `functionMap` is a plain `{}`, so a name Object.prototype already holds
 * ("constructor", "toString", "__proto__", ...) is found there and draws the
 * same error on its first use (src/mcp/_mcp.ts at v1.4.0; reproduced by
 * running 1.4.0).
 */
function duplicateName(tools: { name: unknown }[]): string | undefined {
  const seen = new Set<string>();
  for (const { name } of tools) {
    const key = String(name);
    if (seen.has(key) || key in Object.prototype) return key;
    seen.add(key);
  }
  return undefined;
}

/** `parameters` of each tool, in order, as `tool()` gives them, or the first error thrown. */
export function mcpToolParameters(tools: { name: unknown; inputSchema: unknown }[]): JsonSchema[] {
  const duplicate = duplicateName(tools);
  if (duplicate !== undefined) throw new GenaiError(`Error: Duplicate function name ${duplicate} found in MCP tools. Please ensure function names are unique.`);
  return tools.map((tool) => processJsonSchema(filterToJsonSchema(tool.inputSchema)));
}

/**
 * The filtered schema with JSON Schema's lowercase types, for the kit's
 * stand-in model, which compares `type === 'object'`. The real request
 * carries "STRING", "OBJECT", ...; case does not change what the model is
 * told. TYPE_UNSPECIFIED ("not specified") is shown as no `type` at all.
 */
export function lowercaseTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowercaseTypes);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (name === 'type' && typeof value === 'string') {
      if (value !== 'TYPE_UNSPECIFIED') out[name] = value.toLowerCase();
    } else if (name === 'items' || name === 'anyOf') out[name] = lowercaseTypes(value);
    else if (name === 'properties' && isObject(value))
      out[name] = Object.fromEntries(Object.entries(value).map(([key, sub]) => [key, lowercaseTypes(sub)]));
    else out[name] = value;
  }
  return out;
}
