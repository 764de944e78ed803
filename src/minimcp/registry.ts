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
 *
 * A tool may also declare an `outputSchema` (MCP 2025-06-18 on): published as
 * McpServer publishes it (`toJsonSchemaCompat` with `pipeStrategy: 'output'`),
 * and each result checked against it as McpServer's `validateToolOutput` does
 * (`checkOutput` below; which builds run that check is protocol.ts's).
 */
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  normalizeObjectSchema,
  objectFromShape,
  safeParse,
  type AnySchema,
  type ZodRawShapeCompat,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import type { ServerBuild } from './errors.js';

/**
 * What a tool's `execute` gives back: its text, or a whole result as McpServer's callbacks return it (`content`, and
 * `structuredContent` when the tool declares an `outputSchema`).
 */
export type ToolOutput = string | CallToolResult;

/** What a tool author writes. */
export interface ToolDefinition<Args = any, Output extends ToolOutput = ToolOutput> {
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
   * What the tool's results carry as data, besides their text (MCP 2025-06-18, `outputSchema`): a zod object or a raw
   * shape. A tool that declares one must return `structuredContent` that fits it (MCP: "Servers MUST provide
   * structured results that conform to this schema").
   */
  outputSchema?: AnySchema | ZodRawShapeCompat;
  /**
   * Runs the tool. Returns the text a client gets back, or the whole result. Called as McpServer
   * calls a tool's callback: `execute(args, extra)` when the tool has a
   * schema, and `execute(extra)` when it has none, so a tool registered
   * without a schema receives the request's `extra` (signal, requestId, ...)
   * where it expects its arguments.
   */
  execute(args: Args, extra?: unknown): Output | Promise<Output>;
}

/** Declares a tool; typed so that `execute` sees the schema's output type. */
export function defineTool<Args, Output extends ToolOutput = string>(definition: ToolDefinition<Args, Output>): ToolDefinition<Args, Output> {
  return definition;
}

/** The outcome of checking a result against the tool's outputSchema: fine, no `structuredContent` at all, or zod's error and what it was about. */
export type OutputCheck = { ok: true } | { ok: false; missing: true } | { ok: false; error: unknown; input: unknown };

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
  /**
   * Checks a result against the tool's outputSchema as McpServer's `validateToolOutput` does (1.32.2; 1.20.2 the same
   * steps): no outputSchema, or an `isError` result, passes; a result without `structuredContent` fails; else
   * `structuredContent` is parsed with the declared zod schema.
   */
  checkOutput(result: CallToolResult): OutputCheck;
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

/** The published outputSchema, as McpServer's `tools/list` computes it (1.32.2: only a plain object is published). */
export function publishOutputSchema(output: ToolDefinition['outputSchema']): Tool['outputSchema'] {
  const object = normalizeObjectSchema(asZodSchema(output));
  return object ? (toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'output' }) as Tool['outputSchema']) : undefined;
}

export function registerTool(definition: ToolDefinition): RegisteredTool {
  const zodSchema = asZodSchema(definition.inputSchema);
  const inputSchema = publishInputSchema(definition.inputSchema);
  const outputSchema = publishOutputSchema(definition.outputSchema);
  const outputObject = normalizeObjectSchema(asZodSchema(definition.outputSchema));
  const published: Tool = {
    name: definition.name,
    ...(definition.title ? { title: definition.title } : {}),
    description: definition.description,
    inputSchema,
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
    ...(outputSchema ? { outputSchema } : {}),
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

  function checkOutput(result: CallToolResult): OutputCheck {
    if (!outputObject || result.isError) return { ok: true };
    if (!result.structuredContent) return { ok: false, missing: true };
    const parsed = safeParse(outputObject, result.structuredContent);
    return parsed.success ? { ok: true } : { ok: false, error: parsed.error, input: result.structuredContent };
  }

  return { definition, published, check, checkOutput };
}
