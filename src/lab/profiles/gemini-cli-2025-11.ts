/**
 * gemini-cli-2025-11: gemini-cli v0.17.0 (2025-11-20) sending MCP schemas
 * unchanged in the Gemini API's `parametersJsonSchema` field.
 *
 * The path dates from v0.1.13 (2025-07-19): google-gemini/gemini-cli PR #4176
 * (f6ee0d18, "switch to parametersJsonSchema for MCP related tools"). At
 * v0.17.0, packages/core/src/tools/mcp-client.ts `discoverTools` wraps each
 * tool of `mcpClient.listTools({})` as
 *   functionDeclarations: [{ name, description, parametersJsonSchema: this.toolDef.inputSchema }]
 * (reworked in 8c78fe4f, #13160, still the raw inputSchema), `name` being
 * mcp-tool.ts `generateValidName(toolDef.name)`, which the profile runs from
 * the package. Nothing of the schema is stripped, not even `$schema`. The `hasValidTypes` gate of v0.1.19 (b3cfaeb6)
 * was removed in v0.8.0 (11c995e9), before this release.
 *
 * The host checks the model's arguments before anything is sent, and this
 * profile runs its own code to do it (@google/gemini-cli-core 0.17.0, the
 * dependency gemini-cli-core-0-17). At v0.17.0 (079dfef2):
 * packages/core/src/tools/mcp-tool.ts `DiscoveredMCPTool extends
 * BaseDeclarativeTool`, given `toolDef.inputSchema` as its parameter schema;
 * packages/core/src/tools/tools.ts `BaseDeclarativeTool.build()` calls
 * `validateToolParams`, which is `SchemaValidator.validate(parametersJsonSchema,
 * params)` (packages/core/src/utils/schemaValidator.ts: one module-level Ajv,
 * `strictSchema: false`, ajv-formats, `errorsText(errors, { dataVar: 'params' })`),
 * and throws `new Error(<that text>)`; an error Ajv throws while compiling the
 * schema escapes the same way. packages/core/src/core/coreToolScheduler.ts
 * `buildInvocation` catches it and `createErrorResponse(..., INVALID_TOOL_PARAMS)`
 * answers the model with `functionResponse.response = { error: <message> }`;
 * the MCP server is never called.
 */
import type { JsonSchema } from '../types.js';
import { mcpListProblem } from './mcp-sdk.js';
import { copy, droppedServer, isObject, onFirstUse, passThrough, refusedRequest, schemaOf, seenTool, type Checked, type ClientProfile } from './shared.js';

type SchemaValidatorClass = { validate(schema: unknown, data: unknown): string | null };

/**
 * gemini-cli-core 0.17.0's own SchemaValidator, loaded on first use (the
 * package is large; only this file of it and its two imports, ajv and
 * ajv-formats, are loaded). Its one Ajv instance lives as long as this
 * process, as it lives as long as the gemini-cli process: a schema object it
 * compiled once is cached.
 */
const schemaValidator = onFirstUse('gemini-cli-2025-11', async (): Promise<SchemaValidatorClass> => (await import('gemini-cli-core-0-17/dist/src/utils/schemaValidator.js')).SchemaValidator);

/**
 * gemini-cli-core 0.17.0's `generateValidName` (packages/core/src/tools/mcp-tool.ts), the name a
 * `DiscoveredMCPTool` is declared under when no override is given, as mcp-client.ts `discoverTools` builds it:
 * every character outside [a-zA-Z0-9_.-] becomes "_", and a name over 63 characters keeps its first 28 and
 * last 32 around "___". Loaded on first use, with the module it lives in.
 */
const validName = onFirstUse('gemini-cli-2025-11', async (): Promise<(name: string) => string> => (await import('gemini-cli-core-0-17/dist/src/tools/mcp-tool.js')).generateValidName);

/**
 * `BaseDeclarativeTool.build()` at v0.17.0: the validator's text, or the
 * message of what Ajv threw, is the error the model is told (the scheduler's
 * `response.error`). Called with the very schema object the model was shown,
 * as the host calls it with the one it discovered: Ajv caches by object, so
 * a schema whose first compile threw (an unknown `$schema` such as draft
 * 2020-12: "no schema with key or ref ...", speakeasy-api/gram#863,
 * google-gemini/gemini-cli#14970) fails the first call only, as reported.
 */
export async function geminiCliBuild(schema: unknown, args: Record<string, unknown>): Promise<Checked> {
  const SchemaValidator = await schemaValidator();
  let error: string | null;
  // The host's Ajv logs its strict-mode notes (e.g. 'strict mode: "items" is 2-tuple ...', or an unknown format)
  // with console.warn, which gemini-cli's ConsolePatcher routes to its debug drawer, out of the user's view
  // (gemini-cli-core 0.17.0 utils/debugLogger.js says so); here they would land in the learner's terminal. The
  // call is synchronous, so the warning is held back for exactly its duration.
  const warn = console.warn;
  console.warn = () => {};
  try {
    error = SchemaValidator.validate(schema, args);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
  } finally {
    console.warn = warn;
  }
  return error === null ? passThrough(args) : { ok: false, error };
}

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SINGLE_KEYWORDS = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Calls `visit` on every subschema, the root first, with its path as keyword
 * and name segments, following only the keywords that hold schemas (so a
 * property called "anyOf" is a name, not a keyword).
 */
export function eachSubschema(node: unknown, path: string[], visit: (schema: Record<string, unknown>, path: string[]) => void): void {
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
export function undefinedReference(root: JsonSchema): string | null {
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
  title: 'gemini-cli v0.17.0 (2025-11): raw inputSchema in `parametersJsonSchema`, JSON Schema accepted, an unresolvable $ref refused; the arguments checked with Ajv before sending',
  asOf: 'gemini-cli v0.17.0, 2025-11-20, Gemini API parametersJsonSchema',
  released: '2025-11-20',
  evidence: { kind: 'package', date: '2025-11-20', source: '@google/gemini-cli-core 0.17.0 run (names, argument check); mcp-client.ts read at v0.17.0' },
  sources: [
    'google-gemini/gemini-cli PR #4176 (f6ee0d18, 2025-07-16, first in v0.1.13): MCP tools to parametersJsonSchema',
    'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts at v0.17.0 (079dfef2): discoverTools, McpCallableTool.tool(); 8c78fe4f (#13160)',
    'google-gemini/gemini-cli packages/core/src/tools/mcp-tool.ts at v0.17.0 (079dfef2): DiscoveredMCPTool, generateValidName: run as published, @google/gemini-cli-core 0.17.0',
    'google-gemini/gemini-cli b3cfaeb6 (#5694, hasValidTypes, v0.1.19) and 11c995e9 (#9574, removed, v0.8.0)',
    'googleapis/js-genai src/types.ts FunctionDeclaration.parametersJsonSchema ("Describes the parameters to the function in JSON Schema format")',
    'googleapis/js-genai 7d53d578 (2025-06-13): responseJsonSchema keyword list, "oneOf (interpreted the same as anyOf)"',
    'Google blog "Improving Structured Outputs in the Gemini API" (2025-11-05), about responseJsonSchema only: anyOf, $ref, minimum/maximum, additionalProperties, type: \'null\', prefixItems; that parametersJsonSchema takes the same is the kit\'s reading (gemini-cli sends MCP schemas there unchanged), not a documented rule',
    'agent-infra/sandbox#83 (2025-11-21): "reference to undefined schema at properties.language"',
    'modelcontextprotocol/typescript-sdk src/types.ts ToolSchema at tag 1.15.1 (the SDK in gemini-cli v0.17.0\'s package-lock.json)',
    'google-gemini/gemini-cli v0.17.0 (079dfef2) packages/core/src/tools/tools.ts BaseDeclarativeTool.build()/validateToolParams, packages/core/src/utils/schemaValidator.ts SchemaValidator.validate, packages/core/src/core/coreToolScheduler.ts createErrorResponse (INVALID_TOOL_PARAMS): run as published, @google/gemini-cli-core 0.17.0',
    'speakeasy-api/gram#863 (2025-11-17, gemini-cli 0.13.0) and google-gemini/gemini-cli#14970 (2025-12-12): "no schema with key or ref \"https://json-schema.org/draft/2020-12/schema\"" on a tool call, gone on the next',
  ],
  notes:
    'The model is shown every schema exactly as published, $schema included. The API takes anyOf, $ref/$defs, ' +
    'additionalProperties and type "null". oneOf is documented as "interpreted the same as anyOf" only for ' +
    'responseJsonSchema; for parametersJsonSchema that is unconfirmed, so oneOf is shown unchanged (the kit\'s ' +
    'stand-in model treats oneOf and anyOf alike anyway). A $ref that points nowhere in the schema refuses the whole ' +
    'request, with one message; refs to other documents count as unresolvable here (modelled). A tools/list the MCP ' +
    'SDK 1.15.1 refuses loses the server, logged as "Error discovering tools from <server>: ..." (the zod issue list is ' +
    'not reproduced). A tool name with a character outside [a-zA-Z0-9_.-] or longer than 63 is shown as the host\'s own ' +
    'generateValidName makes it (run as published: "notes/search" is "notes_search"); one that clashes with a built-in tool ' +
    'is renamed "<server>__<name>" by the host, not modelled. A missing description is ' +
    'sent as "". The "400 INVALID_ARGUMENT: " framing is the kit\'s. ' +
    'Before anything is sent, the host checks the arguments against the schema with its own Ajv (gemini-cli-core 0.17.0\'s ' +
    'SchemaValidator, run as published): a wrong enum value, a missing required key, an extra key where ' +
    'additionalProperties is false, a wrong type never reach the server, and the model is told Ajv\'s first error, e.g. ' +
    '"params/tense must be equal to one of the allowed values" (sent as the functionResponse\'s response.error). A schema ' +
    'Ajv cannot compile fails the call with what Ajv threw; Ajv caches by schema, so a $schema it does not know (draft ' +
    '2020-12) fails the first call of each tool only, and a $ref it cannot resolve every call.',
  load: () => Promise.all([schemaValidator(), validName()]),
  async present(tools) {
    const unfit = mcpListProblem(tools, { checksRequired: true });
    // Neither answer comes from the package the profile runs: the drop is the MCP SDK's Tool shape read at 1.15.1, the
    // refusal the API's, as reported with this very version.
    if (unfit)
      return droppedServer(`Error discovering tools from <server>: (kit text: a ZodError from the MCP SDK 1.15.1, its issue list not reproduced) ${unfit}`, {
        kind: 'code',
        date: '2025-11-20',
        source: 'MCP SDK 1.15.1 ToolSchema, the version in v0.17.0\'s package-lock.json',
      });
    for (const tool of tools) {
      const problem = undefinedReference(schemaOf(tool));
      if (problem) return refusedRequest(`400 INVALID_ARGUMENT: ${problem}`, { kind: 'report', date: '2025-11-21', source: 'agent-infra/sandbox#83 (gemini-cli 0.17)' });
    }
    // mcp-client.ts discoverTools: `toolDef.description ?? ''`, no name override; the declaration is DeclarativeTool's
    // `schema` getter, under the name the DiscoveredMCPTool constructor gave it.
    const named = await validName();
    return { tools: tools.map((tool) => seenTool({ ...tool, name: named(tool.name), description: tool.description ?? '' }, copy(schemaOf(tool)))) };
  },
  // BaseDeclarativeTool.build() at v0.17.0, on the schema the model was shown (the raw inputSchema).
  validate: (tool, args) => geminiCliBuild(tool.inputSchema, args),
};
