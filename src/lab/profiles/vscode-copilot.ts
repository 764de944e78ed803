/**
 * vscode-copilot-2026-01: VS Code's own MCP client with GitHub Copilot Chat
 * 0.37.0 (microsoft/vscode-copilot-chat at 2aad04ce, 2026-01-23) in agent
 * mode, on a GPT-4.1 model. Two layers, each with its own code:
 *
 * 1. VS Code's MCP client (microsoft/vscode
 *    src/vs/workbench/contrib/mcp/common/mcpServer.ts `_normalizeTool` and
 *    `_getValidatedTools`, since PR #244908 "mcp: gracefully validate and fail
 *    invalid tool json schemas"), on every tools/list:
 *    - a tool without a description gets `'<empty>'`;
 *    - a name with a character outside `toolInvalidCharRe = /[^a-z0-9_-]/gi`
 *      has it replaced by `_` (logged "Tools names may only contain [a-z0-9_-]");
 *    - the inputSchema is checked with the JSON language service
 *      (`json.validate` against https://json-schema.org/draft-07/schema); a
 *      tool with any diagnostic is left out, the others stay: "N tools have
 *      invalid JSON schemas and will be omitted" and a notification
 *      (sooperset/mcp-atlassian#426, github/github-mcp-server#404). A schema
 *      that declares `$schema` draft 2019-09 or 2020-12 is one: the language
 *      service (vscode-json-languageservice 5.6 and before) loads that
 *      meta-schema and answers "The schema uses meta-schema features
 *      ($dynamicRef) that are not yet supported by the validator."
 *      (jsonSchemaService.js `resolveSchemaContent`; firecrawl/firecrawl-mcp-server#107,
 *      2025-09-18; microsoft/playwright-mcp#1357, 2026-01-29: "22 tools have
 *      invalid JSON schemas and will be omitted" for @playwright/mcp 0.0.57).
 *      vscode-json-languageservice 5.7.0 (2026-01-12) bundles flattened
 *      2019-09 and 2020-12 meta-schemas; the report of 2026-01-29 shows the
 *      stable VS Code of that day did not have it yet.
 *      The language service's other diagnostics are modelled with Ajv and the
 *      same draft-07 meta-schema (the kit's choice of validator, not VS Code's).
 * 2. Copilot Chat, before each request to the model
 *    (src/extension/tools/common/toolSchemaNormalizer.ts `normalizeToolSchema`
 *    at 2aad04ce, family 'gpt-4.1'): a root that is not an object becomes
 *    `{type: 'object', properties: {}}`; an array without `items` anywhere
 *    throws "tool parameters array type must have items", which fails the
 *    whole chat request ("Failed to validate tool ..."; microsoft/vscode#248810,
 *    DeusData/codebase-memory-mcp#79); for GPT-4 models the schema's own
 *    descriptions are cut to 1,024 characters and 20 keywords are deleted at
 *    every level (minLength, pattern, default, format, minimum, minItems,
 *    propertyNames, ...); `oneOf`, `anyOf`, `allOf`, `not`, `if`, `then`,
 *    `else` are deleted at the root; `required` keeps only defined properties;
 *    a tuple `items: [...]` becomes `items: {anyOf: [...]}`.
 * 3. A call's result (VS Code's own MCP client, not the SDK's): McpTool
 *    `_callWithProgress` (mcpServer.ts) sends `tools/call` through its
 *    McpServerRequestHandler and returns the result as it came, and
 *    McpToolImplementation `invoke` (mcpLanguageModelToolContribution.ts) gives
 *    the model the text content, or `structuredContent` as JSON when there is
 *    some; nothing reads the tool's outputSchema (read at 0052d689 and
 *    027907cb; WordPress/mcp-adapter#37, 2025-09-01: "VS Code did not have this
 *    error", the SDK client's -32600 that Cursor gave). So `checksOutputSchema: false`.
 * The model family is a choice: Copilot runs the same code for every model,
 * and GPT-4 family models get the most rules; a Claude model would keep the
 * 20 keywords, a Gemini model gets `type: [T, "null"]` rewritten to `nullable`.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types.js';
import { copy, isObject, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile, type PublishedTool } from './shared.js';


const TOOL_INVALID_CHAR = /[^a-z0-9_-]/gi;

/** Dialects whose meta-schema the language service of 2026-01 could not load, and the keyword it names for each. */
const UNSUPPORTED_DIALECTS: Record<string, string> = {
  'https://json-schema.org/draft/2020-12/schema': '$dynamicRef',
  'https://json-schema.org/draft/2019-09/schema': '$recursiveRef',
};

/**
 * The draft-07 meta-schema as a plain schema (its `$id`/`$schema` taken off, so Ajv compiles it as one more schema).
 * Formats as Copilot's own copy registers them: `uri` must parse as a URL, `regex` any string; `uri-reference`, which
 * Ajv's copy has and Copilot's does not, any string.
 */
let checkDraft07: ValidateFunction | undefined;
function draft07Problems(schema: unknown): string[] {
  if (!checkDraft07) {
    // Ajv's own copy of the draft-07 meta-schema, as every Ajv instance carries it: read from an instance rather than
    // imported as a JSON module, which a bundle that keeps ajv outside (the linter's mutation builds) cannot load on
    // Node 20, and a bundle that takes ajv in (the published bin) has no file for. Read on first use: getSchema
    // compiles it (tens of ms), which a lint answered from the verdict cache (src/lint/verdicts.ts) never needs.
    const draft07: unknown = new Ajv().getSchema('http://json-schema.org/draft-07/schema')!.schema;
    const { $id: _id, $schema: _schema, ...meta } = draft07 as Record<string, unknown>;
    const ajv = new Ajv({ coerceTypes: true, strictTypes: true, allowUnionTypes: true, strict: false });
    ajv.addFormat('uri', (value: string) => URL.canParse(value));
    ajv.addFormat('regex', (value: unknown) => typeof value === 'string');
    ajv.addFormat('uri-reference', () => true);
    checkDraft07 = ajv.compile(meta);
  }
  // Ajv's coerceTypes rewrites the data it checks: a copy.
  if (checkDraft07(copy(schema))) return [];
  return (checkDraft07.errors ?? []).map((e) => `${e.message ?? 'invalid'} (at ${e.instancePath || '/'})`);
}

/** VS Code's reason to leave a tool out, as its notification's text lists it, or null. */
function omitted(tool: PublishedTool): string | null {
  const schema: unknown = tool.inputSchema;
  const dialect = isObject(schema) && typeof schema.$schema === 'string' ? UNSUPPORTED_DIALECTS[schema.$schema.replace(/#$/, '')] : undefined;
  const problems = dialect ? [`The schema uses meta-schema features (${dialect}) that are not yet supported by the validator.`] : draft07Problems(schema);
  return problems.length === 0 ? null : `Tool \`${tool.name}\` has invalid JSON parameters: ${problems.join('; ')} (the tool is omitted; the server's other tools stay)`;
}

/** Keywords toolSchemaNormalizer.ts deletes at every level for GPT-4 family models (`gpt4oUnsupportedSchemaKeywords`). */
const GPT4_UNSUPPORTED = new Set([
  'minLength', 'maxLength', 'pattern', 'default', 'format', 'minimum', 'maximum', 'multipleOf', 'patternProperties',
  'unevaluatedProperties', 'propertyNames', 'minProperties', 'maxProperties', 'unevaluatedItems', 'contains',
  'minContains', 'maxContains', 'minItems', 'maxItems', 'uniqueItems',
]);
const GPT4_MAX_DESCRIPTION = 1024;
const ROOT_UNSUPPORTED = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else'];

/** `forEachSchemaNode`: the node, then properties, items, dependencies, patternProperties, additionalProperties, unions, not, if/then/else, contains. */
function forEachSchemaNode(node: unknown, fn: (n: Record<string, unknown>) => void): void {
  if (!isObject(node)) return;
  fn(node);
  const children: unknown[] = [];
  if ('properties' in node && isObject(node.properties)) children.push(...Object.values(node.properties));
  if ('items' in node) children.push(...(Array.isArray(node.items) ? node.items : [node.items]));
  if ('dependencies' in node && isObject(node.dependencies)) children.push(...Object.values(node.dependencies));
  if ('patternProperties' in node && isObject(node.patternProperties)) children.push(...Object.values(node.patternProperties));
  if ('additionalProperties' in node) children.push(node.additionalProperties);
  for (const key of ['anyOf', 'allOf', 'oneOf']) if (Array.isArray(node[key])) children.push(...(node[key] as unknown[]));
  for (const key of ['not', 'if', 'then', 'else', 'contains']) if (key in node) children.push(node[key]);
  for (const child of children) forEachSchemaNode(child, fn);
}

/** `normalizeToolSchema('gpt-4.1', ...)` on one tool's parameters: the schema sent, or the text of what it throws. */
export function copilotNormalize(name: string, published: unknown): { schema: JsonSchema } | { thrown: string } {
  let schema = copy(published) as Record<string, unknown>;
  if (!isObject(schema) || schema.type !== 'object') schema = { type: 'object', properties: {} };
  if (!schema.properties) schema.properties = {};
  let thrown: string | null = null;
  forEachSchemaNode(schema, (n) => {
    if (thrown === null && n.type === 'array' && !n.items) thrown = 'tool parameters array type must have items';
  });
  if (thrown !== null) return { thrown: `Failed to validate tool ${name}: Error: ${thrown}. Please open an issue for the MCP server or extension which provides this tool` };
  forEachSchemaNode(schema, (n) => {
    if (typeof n.description === 'string' && n.description.length > GPT4_MAX_DESCRIPTION) n.description = n.description.substring(0, GPT4_MAX_DESCRIPTION);
  });
  forEachSchemaNode(schema, (n) => {
    for (const key of Object.keys(n)) if (GPT4_UNSUPPORTED.has(key)) delete n[key];
  });
  for (const key of ROOT_UNSUPPORTED) delete schema[key];
  forEachSchemaNode(schema, (n) => {
    if (n.type === 'object' && isObject(n.properties) && Array.isArray(n.required)) {
      const properties = n.properties;
      n.required = n.required.filter((key) => properties[key as string] !== undefined);
    }
  });
  // isDraft2020_12Schema('gpt-4.1'): a tuple's items become one anyOf.
  forEachSchemaNode(schema, (n) => {
    if (n.type === 'array' && Array.isArray(n.items)) n.items = { anyOf: n.items };
  });
  return { schema: schema as JsonSchema };
}

export const vscodeCopilot202601: ClientProfile = {
  id: 'vscode-copilot-2026-01',
  title: 'VS Code + Copilot Chat 0.37 on GPT-4.1 (2026-01): a schema draft-07 rejects, or declaring draft 2019-09/2020-12, omits the tool; an array without items fails the request; 20 keywords and root unions deleted',
  asOf: 'VS Code stable of January 2026 with GitHub Copilot Chat 0.37.0 (vscode-copilot-chat 2aad04ce, 2026-01-23), model family gpt-4.1',
  released: '2026-01-23',
  evidence: { kind: 'code', date: '2026-01-23', source: 'vscode-copilot-chat toolSchemaNormalizer.ts read at 2aad04ce; vscode mcpServer.ts' },
  checksOutputSchema: false,
  sources: [
    'microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpServer.ts _normalizeTool, _getValidatedTools, toolInvalidCharRe (PR #244908: validate tool JSON schemas, omit the invalid ones)',
    'microsoft/vscode-json-languageservice src/services/jsonSchemaService.ts resolveSchemaContent ("The schema uses meta-schema features ... not yet supported by the validator"); 5.7.0 (2026-01-12) adds flattened 2019-09/2020-12 meta-schemas',
    'firecrawl/firecrawl-mcp-server#107 (2025-09-18), microsoft/playwright-mcp#1357 (2026-01-29): tools declaring 2020-12 omitted',
    'sooperset/mcp-atlassian#426, github/github-mcp-server#404: "N tools have invalid JSON schemas and will be omitted"',
    'microsoft/vscode-copilot-chat src/extension/tools/common/toolSchemaNormalizer.ts normalizeToolSchema at 2aad04ce (2026-01-23, package 0.37.0)',
    'microsoft/vscode#248810, DeusData/codebase-memory-mcp#79 (2026-03-20): "Failed to validate tool ...: Error: tool parameters array type must have items"',
    'microsoft/vscode mcpServer.ts McpTool._callWithProgress and mcpLanguageModelToolContribution.ts McpToolImplementation.invoke: a result is used as it came, no outputSchema check; WordPress/mcp-adapter#37 (2025-09-01): "VS Code did not have this error"',
  ],
  notes:
    'VS Code leaves out, one by one, the tools whose inputSchema its JSON validator faults against draft-07 (checked here ' +
    'with Ajv and the draft-07 meta-schema, modelled) or that declare $schema draft 2019-09 or 2020-12 (the validator ' +
    'of January 2026 could not load those meta-schemas); the server\'s other tools stay. Names keep only [a-zA-Z0-9_-], ' +
    'the rest becoming "_"; the "mcp_<server>_" prefix VS Code adds to the name the model sees is not modelled. Copilot ' +
    'Chat then rewrites each schema for the model family (GPT-4.1 here): minLength, maxLength, pattern, default, format, ' +
    'minimum, maximum, multipleOf, min/maxItems, uniqueItems, min/maxProperties, propertyNames, patternProperties and ' +
    'the unevaluated/contains keywords are deleted everywhere, descriptions inside the schema cut to 1,024 characters, ' +
    'oneOf/anyOf/allOf/not/if/then/else deleted at the root, required kept to defined properties, tuple items made one ' +
    'anyOf. An array without items anywhere makes Copilot throw before sending: the whole chat request fails. Copilot ' +
    'does not check the model\'s arguments against the schema (VS Code shows them, microsoft/vscode#276029).',
  present(tools) {
    const kept: PublishedTool[] = [];
    const skipped: { name: string; reason: string }[] = [];
    for (const tool of tools) {
      const reason = omitted(tool);
      if (reason) skipped.push({ name: tool.name, reason });
      else kept.push({ ...tool, name: tool.name.replace(TOOL_INVALID_CHAR, '_'), description: tool.description || '<empty>' });
    }
    const shown = [];
    for (const tool of kept) {
      const sent = copilotNormalize(tool.name, schemaOf(tool));
      if ('thrown' in sent) return refusedRequest(sent.thrown);
      shown.push(seenTool(tool, sent.schema));
    }
    return skipped.length > 0 ? { tools: shown, skipped } : { tools: shown };
  },
  validate: (_tool, args) => passThrough(args),
};
