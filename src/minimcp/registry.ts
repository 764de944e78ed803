/**
 * The tool registry: how a tool declared with zod becomes the JSON Schema a
 * client sees (its *published schema*), and how a call's arguments are checked
 * against it before the tool runs.
 *
 * Publishing copies what `McpServer.registerTool` does in the SDK
 * (@modelcontextprotocol/sdk 1.32.2, `server/mcp.js`, the `tools/list`
 * handler): a raw shape becomes an object, `normalizeObjectSchema` keeps only a
 * plain object at the root, `toJsonSchemaCompat(obj, {strictUnions: true,
 * pipeStrategy: 'input'})` converts it, and anything that is not a plain object
 * (a `.transform()`, a union at the root, no schema at all) is published as
 * `{"type":"object","properties":{}}`: a tool with no parameters.
 * test/publish-parity.test.ts proves the two agree.
 *
 * Validation copies McpServer too (`validateToolInput`): the arguments are
 * parsed with the declared zod schema, not the published JSON Schema, so a
 * transformed root still validates (SDK issue 2145) while clients were shown
 * no parameters. Every build publishes and validates the same way; the build
 * (errors.ts) decides how a failure reaches the client, plus the two details
 * of validation that differ in SDK 1.13 to 1.20 (`check` below).
 */
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  normalizeObjectSchema,
  objectFromShape,
  safeParse,
  type AnySchema,
  type ZodRawShapeCompat,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import type { ServerBuild } from './errors.js';

/** What a tool author writes. */
export interface ToolDefinition<Args = any> {
  name: string;
  title?: string;
  description: string;
  /**
   * A zod schema, a raw shape (`{verb: z.enum(...)}`), or `undefined`, which is
   * what the common idiom `schema.shape` yields once `schema` is no longer a
   * plain object (docs/sources.md, "Publishing and the `.shape` idiom").
   */
  inputSchema: AnySchema | ZodRawShapeCompat | undefined;
  annotations?: ToolAnnotations;
  /**
   * Runs the tool. Returns the text a client gets back. Called as McpServer
   * calls a tool's callback: `execute(args, extra)` when the tool has a
   * schema, and `execute(extra)` when it has none, so a tool registered
   * without a schema receives the request's `extra` (signal, requestId, ...)
   * where it expects its arguments.
   */
  execute(args: Args, extra?: unknown): string | Promise<string>;
}

/** Declares a tool; typed so that `execute` sees the schema's output type. */
export function defineTool<Args>(definition: ToolDefinition<Args>): ToolDefinition<Args> {
  return definition;
}

/**
 * The outcome of validation: the arguments the tool receives, a tool with no
 * schema (it is called with `extra` alone), or zod's error and the input it
 * was about.
 */
export type ArgumentCheck = { ok: true; args: unknown } | { ok: true; noSchema: true } | { ok: false; error: unknown; input: unknown };

export interface RegisteredTool {
  definition: ToolDefinition;
  /** Exactly what `tools/list` sends for this tool. */
  published: Tool;
  /** Checks a call's arguments as the build's McpServer does; on success gives what `execute` receives. */
  check(args: Record<string, unknown> | undefined, build: ServerBuild): ArgumentCheck;
}

/** `{"type":"object","properties":{}}`: the SDK's EMPTY_OBJECT_JSON_SCHEMA. */
export const EMPTY_OBJECT_JSON_SCHEMA = { type: 'object', properties: {} } as const;

/** A raw shape is a plain object of zod schemas; the SDK turns it into an object schema. */
function asZodSchema(input: ToolDefinition['inputSchema']): AnySchema | undefined {
  if (input === undefined) return undefined;
  const isSchema = '_zod' in input || '_def' in input;
  return isSchema ? (input as AnySchema) : objectFromShape(input as ZodRawShapeCompat);
}

/** The published JSON Schema of a declaration, computed as the SDK computes it. */
export function publishInputSchema(input: ToolDefinition['inputSchema']): Tool['inputSchema'] {
  const object = normalizeObjectSchema(asZodSchema(input));
  if (!object) return { ...EMPTY_OBJECT_JSON_SCHEMA, properties: {} };
  return toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'input' }) as Tool['inputSchema'];
}

export function registerTool(definition: ToolDefinition): RegisteredTool {
  const zodSchema = asZodSchema(definition.inputSchema);
  const inputSchema = publishInputSchema(definition.inputSchema);
  const published: Tool = {
    name: definition.name,
    ...(definition.title ? { title: definition.title } : {}),
    description: definition.description,
    inputSchema,
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
  };
  const parsed = zodSchema ? (normalizeObjectSchema(zodSchema) ?? zodSchema) : undefined;
  // SDK 1.13 to 1.20 wrapped the tool's raw shape in zod 3's `z.object(shape)`:
  // unknown keys at the root were stripped, not refused.
  const stripped = parsed && 'strip' in parsed && typeof parsed.strip === 'function' ? (parsed.strip() as AnySchema) : parsed;

  function check(args: Record<string, unknown> | undefined, build: ServerBuild): ArgumentCheck {
    // No schema at all: nothing is validated and the tool is called with
    // `extra` alone (McpServer calls `handler(extra)`; docs/sources.md, "Server builds").
    if (!parsed) return { ok: true, noSchema: true };
    // 1.13 to 1.20 parsed `request.params.arguments` as it came (absent is
    // "Required"); 1.21 and later parse `args ?? {}`. The low-level handler
    // does what today's McpServer does.
    const input = build === 'mcpserver-1.20' ? args : (args ?? {});
    const result = safeParse(build === 'mcpserver-1.20' ? stripped! : parsed, input);
    if (!result.success) return { ok: false, error: result.error, input };
    return { ok: true, args: result.data };
  }

  return { definition, published, check };
}
