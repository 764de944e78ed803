/**
 * openai-functions-2026-11: OpenAI function calling, not strict (Chat
 * Completions, `tools: [{type: 'function', function: {name, description,
 * parameters, strict: false}}]`), as documented in openai-node 7.60.0
 * (2026-11-18), with each MCP tool sent as published. This is what a host does
 * that hands MCP tools to an OpenAI model without strict mode: the OpenAI Agents
 * SDK does for every tool whose root does not say `additionalProperties: true`
 * (openai-agents.ts), and so do the clients in the issues cited below.
 *
 * The API refuses the whole request (HTTP 400, `invalid_request_error`, one
 * error, every tool lost) when a request is over one of its limits:
 *  - more than 128 tools: `Invalid 'tools': array too long. Expected an array
 *    with maximum length 128, but got an array with length 133 instead.`
 *    (zed-industries/zed#42393, 2025-11-10, GPT-5; anomalyco/opencode#4909,
 *    2025-11-29; code `array_above_max_length`, julep-ai/julep#330);
 *  - a function name outside `^[a-zA-Z0-9_-]+$`: `Invalid
 *    'tools[0].function.name': string does not match pattern. Expected a string
 *    that matches the pattern '^[a-zA-Z0-9_-]+$'.` (brekkylab/ailoy#109,
 *    2025-06; hackers365/xiaozhi-esp32-server-golang#268, 2026-05-24); more
 *    than 64 characters: openai-node 7.60.0 src/resources/shared.ts
 *    `FunctionDefinition.name` ("Must be a-z, A-Z, 0-9, or contain underscores
 *    and dashes, with a maximum length of 64"), the text in the API's
 *    `string_above_max_length` form (modelled);
 *  - a description over 1,024 characters: `Invalid
 *    'tools[13].function.description': string too long. Expected a string with
 *    maximum length 1024, but got a string with length 1103 instead.`
 *    (getsentry/sentry-mcp#106, 2025-04-25, gpt-4o; code
 *    `string_above_max_length`; still so in 2026, gptme/gptme#1697);
 *  - a `parameters` schema it cannot use even without strict mode: a root that
 *    is not an object, `Invalid schema for function 'json': schema must be a
 *    JSON Schema of 'type: "object"', got 'type: "None"'.`
 *    (browserbase/stagehand#1159, 2025-10-22); an array without `items`,
 *    `Invalid schema for function 'read_multiple_files': In context=('properties',
 *    'paths'), array schema missing items.` (mark3labs/mcp-filesystem-server#23,
 *    2025-05-16; sigoden/aichat#1049; tidewave-ai/tidewave_phoenix#224, 2026-02-02).
 * Which limit the API checks first when a request breaks several is not
 * documented; the order here (tool count, then each tool in order: name,
 * description, schema) is modelled. Lengths are counted in Unicode code points
 * (the API's texts are Python's: `In context=(...)` is a tuple's repr).
 * Everything else in `parameters` is taken without strict mode and shown to
 * the model as published; the API does not check the model's arguments.
 */
import type { JsonSchema } from '../types.js';
import { pyTuple } from './python-repr.js';
import { codePoints, copy, isObject, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile, type PublishedTool } from './shared.js';

export const OPENAI_MAX_TOOLS = 128;
export const OPENAI_MAX_NAME = 64;
export const OPENAI_MAX_DESCRIPTION = 1024;
const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;


/** The first array without `items`, as the context tuple the API prints, walking properties, items and unions in order. */
function arrayWithoutItems(node: unknown, context: string[]): string[] | null {
  if (!isObject(node)) return null;
  if (node.type === 'array' && !('items' in node)) return context;
  if (isObject(node.properties))
    for (const [name, sub] of Object.entries(node.properties)) {
      const found = arrayWithoutItems(sub, [...context, 'properties', name]);
      if (found) return found;
    }
  if (isObject(node.items)) {
    const found = arrayWithoutItems(node.items, [...context, 'items']);
    if (found) return found;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[key];
    if (Array.isArray(list))
      for (const [i, sub] of list.entries()) {
        const found = arrayWithoutItems(sub, [...context, key, String(i)]);
        if (found) return found;
      }
  }
  return null;
}

/** The API's one error for this request, or null. */
export function openAiFunctionsProblem(tools: PublishedTool[]): string | null {
  if (tools.length > OPENAI_MAX_TOOLS)
    return `Invalid 'tools': array too long. Expected an array with maximum length ${OPENAI_MAX_TOOLS}, but got an array with length ${tools.length} instead.`;
  for (const [i, tool] of tools.entries()) {
    if (!NAME_PATTERN.test(tool.name))
      return `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
    if (codePoints(tool.name) > OPENAI_MAX_NAME)
      return `Invalid 'tools[${i}].function.name': string too long. Expected a string with maximum length ${OPENAI_MAX_NAME}, but got a string with length ${codePoints(tool.name)} instead.`;
    if (typeof tool.description === 'string' && codePoints(tool.description) > OPENAI_MAX_DESCRIPTION)
      return `Invalid 'tools[${i}].function.description': string too long. Expected a string with maximum length ${OPENAI_MAX_DESCRIPTION}, but got a string with length ${codePoints(tool.description)} instead.`;
    const schema: unknown = tool.inputSchema;
    if (!isObject(schema) || schema.type !== 'object') {
      const type = isObject(schema) && typeof schema.type === 'string' ? schema.type : 'None';
      return `Invalid schema for function '${tool.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${type}"'.`;
    }
    const context = arrayWithoutItems(schema, []);
    if (context) return `Invalid schema for function '${tool.name}': In context=${pyTuple(context)}, array schema missing items.`;
  }
  return null;
}

export const openAiFunctions202611: ClientProfile = {
  id: 'openai-functions-2026-11',
  apiField: 'OpenAI function calling, strict: false',
  title: 'OpenAI function calling, not strict (2026-11): the schema shown as published, but over 128 tools, a name outside [a-zA-Z0-9_-] or over 64, a description over 1,024 characters, a root that is not an object or an array without items: a 400 for every tool',
  asOf: 'OpenAI Chat Completions function calling, strict: false; openai-node 7.60.0, 2026-11-18',
  released: '2026-11-18',
  evidence: { kind: 'report', date: '2026-05-24', source: 'API 400s reported 2025-04 to 2026-05 (sentry-mcp#106, zed#42393, ailoy#109); openai-node 7.60.0 FunctionDefinition' },
  sources: [
    'openai/openai-node src/resources/shared.ts FunctionDefinition (name: a-z, A-Z, 0-9, underscores and dashes, at most 64; strict optional) at v7.60.0 (2026-11-18)',
    'getsentry/sentry-mcp#106 (2025-04-25): Invalid \'tools[13].function.description\': string too long. Expected a string with maximum length 1024; gptme/gptme#1697 (2026-03-18)',
    'zed-industries/zed#42393 (2025-11-10), anomalyco/opencode#4909 (2025-11-29), julep-ai/julep#330: Invalid \'tools\': array too long. Expected an array with maximum length 128',
    'brekkylab/ailoy#109 (2025-06-09), hackers365/xiaozhi-esp32-server-golang#268 (2026-05-24): string does not match pattern \'^[a-zA-Z0-9_-]+$\'',
    'browserbase/stagehand#1159 (2025-10-22): schema must be a JSON Schema of \'type: "object"\'',
    'mark3labs/mcp-filesystem-server#23 (2025-05-16), sigoden/aichat#1049, tidewave-ai/tidewave_phoenix#224 (2026-02-02): array schema missing items',
  ],
  notes:
    'Every tool is sent as published with strict: false, and the model is shown its schema unchanged: no keyword is ' +
    'dropped, and the API does not check the model\'s arguments. The request fails whole (a 400, every tool of every ' +
    'server lost) on the first limit broken: more than 128 tools, a name outside ^[a-zA-Z0-9_-]+$ or longer than 64, a ' +
    'description longer than 1,024 characters, a root that is not type "object", an array without items. Which of ' +
    'several the API reports first is modelled (count, then each tool: name, description, schema), and so is the text ' +
    'for a name over 64 characters. A host that renames tools (the OpenAI Agents SDK turns "-" and "." into "_") or ' +
    'cuts descriptions (VS Code\'s Copilot for GPT-4 models cuts only the schema\'s own descriptions) is another profile. ' +
    'The "400 " framing is the kit\'s.',
  present(tools) {
    const problem = openAiFunctionsProblem(tools);
    if (problem) return refusedRequest(`400 ${problem}`);
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)) as JsonSchema)) };
  },
  // Not strict: the API does not check the arguments the model writes.
  validate: (_tool, args) => passThrough(args),
};
