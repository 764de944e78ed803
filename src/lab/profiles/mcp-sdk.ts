/**
 * The MCP TypeScript SDK's own check of a `tools/list` result. Its client
 * parses the result with `ListToolsResultSchema` (zod), so one tool whose
 * inputSchema does not fit the Tool shape makes `listTools()` throw a ZodError
 * and the host gets no tool of that server at all.
 *
 * modelcontextprotocol/typescript-sdk src/types.ts `ToolSchema`:
 *  - 1.0.3 (tag 1.0.3; Continue v0.9.259's core/package-lock.json):
 *    inputSchema `{ type: z.literal("object"), properties: z.optional(z.object({}).passthrough()) }.passthrough()`
 *  - 1.12.1 and 1.15.1 (tags 1.12.1, 1.15.1; gemini-cli v0.1.1 and v0.17.0
 *    package-lock.json) add `required: z.optional(z.array(z.string()))`.
 * The ZodError's text (a JSON list of issues) is not reproduced: callers say
 * so in their rejection text.
 */
import { isObject } from './shared.js';

export interface McpSdkShape {
  /** Whether `required` must be an array of strings (SDK 1.12 and later). */
  checksRequired: boolean;
}

/** The first reason the SDK's zod schema refuses this inputSchema, or null. */
export function mcpToolShapeProblem(schema: unknown, sdk: McpSdkShape = { checksRequired: true }): string | null {
  if (!isObject(schema) || schema.type !== 'object') return 'has an inputSchema whose root is not "type": "object"';
  if ('properties' in schema && !isObject(schema.properties)) return 'has "properties" that is not an object';
  if (sdk.checksRequired && 'required' in schema && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string')))
    return 'has "required" that is not an array of strings';
  return null;
}

/** The first tool of the list the SDK refuses, with the reason: `tool 'x' has ...`. */
export function mcpListProblem(tools: { name: string; inputSchema: unknown }[], sdk: McpSdkShape): string | null {
  for (const tool of tools) {
    const problem = mcpToolShapeProblem(tool.inputSchema, sdk);
    if (problem) return `tool '${tool.name}' ${problem}`;
  }
  return null;
}
