/**
 * gemini-cli-2025-11: gemini-cli v0.17.0 (2025-11-20) sending MCP schemas
 * unchanged in the Gemini API's `parametersJsonSchema` field.
 *
 * The path dates from v0.1.13 (2025-07-19): google-gemini/gemini-cli PR #4176
 * (f6ee0d18, "switch to parametersJsonSchema for MCP related tools"). At
 * v0.17.0, packages/core/src/tools/mcp-client.ts `discoverTools` wraps each
 * tool of `mcpClient.listTools({})` as
 *   functionDeclarations: [{ name, description, parametersJsonSchema: this.toolDef.inputSchema }]
 * (reworked in 8c78fe4f, #13160, still the raw inputSchema). Nothing is
 * stripped, not even `$schema`. The `hasValidTypes` gate of v0.1.19 (b3cfaeb6)
 * was removed in v0.8.0 (11c995e9), before this release.
 */
import type { JsonSchema } from '../types.js';
import { mcpListProblem } from './mcp-sdk.js';
import { copy, droppedServer, isObject, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SINGLE_KEYWORDS = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Calls `visit` on every subschema, the root first, with its path as keyword
 * and name segments, following only the keywords that hold schemas (so a
 * property called "anyOf" is a name, not a keyword).
 */
function eachSubschema(node: unknown, path: string[], visit: (schema: Record<string, unknown>, path: string[]) => void): void {
  if (!isObject(node)) return;
  visit(node, path);
  for (const key of MAP_KEYWORDS) {
    const map = node[key];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) eachSubschema(sub, [...path, key, name], visit);
  }
  for (const key of SINGLE_KEYWORDS) {
    const sub = node[key];
    if (Array.isArray(sub)) sub.forEach((item, i) => eachSubschema(item, [...path, key, String(i)], visit));
    else eachSubschema(sub, [...path, key], visit);
  }
  for (const key of LIST_KEYWORDS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((item, i) => eachSubschema(item, [...path, key, String(i)], visit));
  }
}

/** Whether a `$ref` names something in this schema: `#`, a JSON pointer `#/...`, or a `$anchor` `#name`. */
function resolves(ref: string, root: JsonSchema, anchors: Set<string>): boolean {
  if (ref === '#' || ref === '') return true;
  if (!ref.startsWith('#')) return false; // another document, or an $id-relative ref: not resolved here (modelled)
  if (!ref.startsWith('#/')) return anchors.has(ref.slice(1));
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return false;
    }
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return false;
  }
  return isObject(node) || typeof node === 'boolean';
}

/**
 * The API's refusal of a `$ref` it cannot resolve:
 * `reference to undefined schema at properties.language` (agent-infra/sandbox#83,
 * 2025-11-21, gemini-cli with an MCP server). The path is the schema holding
 * the `$ref`, its segments joined by "."; beyond `properties.<name>` its form
 * is modelled, and the root is called "top-level" as in "schema at top-level
 * requires ..." (google-gemini/gemini-cli#23382). One problem is reported,
 * the first in document order.
 */
function undefinedReference(root: JsonSchema): string | null {
  const anchors = new Set<string>();
  eachSubschema(root, [], (node) => {
    if (typeof node.$anchor === 'string') anchors.add(node.$anchor);
  });
  let found: string | null = null;
  eachSubschema(root, [], (node, path) => {
    if (found === null && typeof node.$ref === 'string' && !resolves(node.$ref, root, anchors))
      found = `reference to undefined schema at ${path.length === 0 ? 'top-level' : path.join('.')}`;
  });
  return found;
}

export const geminiCli202511: ClientProfile = {
  id: 'gemini-cli-2025-11',
  title: 'gemini-cli v0.17.0 (2025-11): raw inputSchema in `parametersJsonSchema`; JSON Schema accepted, an unresolvable $ref refused',
  asOf: 'gemini-cli v0.17.0, 2025-11-20, Gemini API parametersJsonSchema',
  sources: [
    'google-gemini/gemini-cli PR #4176 (f6ee0d18, 2025-07-16, first in v0.1.13): MCP tools to parametersJsonSchema',
    'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts at v0.17.0 (079dfef2): discoverTools, McpCallableTool.tool(); 8c78fe4f (#13160)',
    'google-gemini/gemini-cli b3cfaeb6 (#5694, hasValidTypes, v0.1.19) and 11c995e9 (#9574, removed, v0.8.0)',
    'googleapis/js-genai src/types.ts FunctionDeclaration.parametersJsonSchema ("Describes the parameters to the function in JSON Schema format")',
    'googleapis/js-genai 7d53d578 (2025-06-13): responseJsonSchema keyword list, "oneOf (interpreted the same as anyOf)"',
    'Google blog "Improving Structured Outputs in the Gemini API" (2025-11-05): anyOf, $ref, minimum/maximum, additionalProperties, type: \'null\', prefixItems',
    'agent-infra/sandbox#83 (2025-11-21): "reference to undefined schema at properties.language"',
    'modelcontextprotocol/typescript-sdk src/types.ts ToolSchema at tag 1.15.1 (the SDK in gemini-cli v0.17.0\'s package-lock.json)',
  ],
  notes:
    'The model is shown every schema exactly as published, $schema included. The API takes anyOf, $ref/$defs, ' +
    'additionalProperties and type "null". oneOf is documented as "interpreted the same as anyOf" only for ' +
    'responseJsonSchema; for parametersJsonSchema that is unconfirmed, so oneOf is shown unchanged (the kit\'s ' +
    'stand-in model treats oneOf and anyOf alike anyway). A $ref that points nowhere in the schema refuses the whole ' +
    'request, with one message; refs to other documents count as unresolvable here (modelled). A tools/list the MCP ' +
    'SDK 1.15.1 refuses loses the server, logged as "Error discovering tools from <server>: ..." (the zod issue list is ' +
    'not reproduced). Tool names are shown unchanged. The "400 INVALID_ARGUMENT: " framing is the kit\'s.',
  present(tools) {
    const unfit = mcpListProblem(tools, { checksRequired: true });
    if (unfit)
      return droppedServer(`Error discovering tools from <server>: (kit text: a ZodError from the MCP SDK 1.15.1, its issue list not reproduced) ${unfit}`);
    for (const tool of tools) {
      const problem = undefinedReference(schemaOf(tool));
      if (problem) return refusedRequest(`400 INVALID_ARGUMENT: ${problem}`);
    }
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  // No client-side argument check beyond the schema the model is given.
  validate: (_tool, args) => passThrough(args),
};
