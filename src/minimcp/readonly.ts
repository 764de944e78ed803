/**
 * Read-only mode (`--read-only`, or MINIMCP_READ_ONLY=1): the server keeps
 * serving reads and refuses every change.
 *
 * Each tool is classified from what it declares:
 * - read: it only reads;
 * - gated: it has an `action` parameter whose options mix reads and changes
 *   (lessons: list, get, create, delete): listed, but its changing actions
 *   are refused;
 * - mutation: it changes data: not listed at all, and refused if called.
 * The action's options are read from the zod schema's shape, as such
 * classifiers usually are; without an `action` to read, the annotations
 * decide.
 */
import { getObjectShape, type AnyObjectSchema, type AnySchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { ToolDefinition } from './registry.js';

export type ToolClass = 'read' | 'gated' | 'mutation';

/** Actions that only read. Any other option of an `action` parameter changes something. */
export const READ_ACTIONS: ReadonlySet<string> = new Set(['list', 'get', 'read', 'search', 'show']);

export function readOnlyFromEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MINIMCP_READ_ONLY === '1' || env.MINIMCP_READ_ONLY === 'true';
}

/** The options of the tool's `action` enum, read from its zod shape; undefined when there is no shape to read. */
export function actionOptions(definition: ToolDefinition): string[] | undefined {
  const input = definition.inputSchema;
  if (input === undefined) return undefined;
  const isSchema = '_zod' in input || '_def' in input;
  const shape = isSchema ? getObjectShape(input as AnyObjectSchema) : (input as Record<string, AnySchema>);
  const action = shape?.action as { options?: unknown } | undefined;
  return Array.isArray(action?.options) ? action.options.map(String) : undefined;
}

export function classify(definition: ToolDefinition): ToolClass {
  const actions = actionOptions(definition);
  if (actions) return actions.every((a) => READ_ACTIONS.has(a)) ? 'read' : 'gated';
  // No action options to read: the annotations decide. A tool that does not
  // say it writes is taken as a read. (MCP says readOnlyHint defaults to
  // false, so a careful classifier would take it as a mutation: see the
  // readonly-gate lab for what this fallback costs.)
  return definition.annotations?.readOnlyHint === false ? 'mutation' : 'read';
}

/** Why a call is refused in read-only mode, or undefined when it may run. */
export function refusal(definition: ToolDefinition, toolClass: ToolClass, args: unknown): string | undefined {
  if (toolClass === 'mutation') return `${definition.name} changes data, and the server is read-only`;
  if (toolClass === 'gated') {
    const action = (args as { action?: unknown } | undefined)?.action;
    if (typeof action !== 'string' || !READ_ACTIONS.has(action)) return `action ${JSON.stringify(action)} of ${definition.name} changes data, and the server is read-only`;
  }
  return undefined;
}
