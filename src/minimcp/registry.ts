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
import type { ArgumentProblem } from './errors.js';
import { compileArgumentCheck, zodProblems } from './validate.js';

/** What a tool author writes. */
export interface ToolDefinition<Args = any> {
  name: string;
  title?: string;
  description: string;
  /**
   * A zod schema, a raw shape (`{verb: z.enum(...)}`), or `undefined`, which is
   * what the common idiom `schema.shape` yields once `schema` is no longer a
   * plain object (facts.md section 1).
   */
  inputSchema: AnySchema | ZodRawShapeCompat | undefined;
  annotations?: ToolAnnotations;
  /** Runs the tool. Returns the text a client gets back. */
  execute(args: Args): string | Promise<string>;
}

/** Declares a tool; typed so that `execute` sees the schema's output type. */
export function defineTool<Args>(definition: ToolDefinition<Args>): ToolDefinition<Args> {
  return definition;
}

export type ArgumentCheck = { ok: true; args: unknown } | { ok: false; problems: ArgumentProblem[] };

export interface RegisteredTool {
  definition: ToolDefinition;
  /** Exactly what `tools/list` sends for this tool. */
  published: Tool;
  /** Checks a call's arguments; on success gives what `execute` receives. */
  check(args: Record<string, unknown> | undefined): ArgumentCheck;
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

/**
 * Some hosts send `null` for every optional parameter the model left out:
 * Langflow's MCP client validates the call with a Pydantic model and sends
 * `model_dump()`, defaults included (langflow#12616, changed in PR 12622,
 * 2026-04). Read as "absent", that null is what the host meant. Only a
 * top-level optional parameter whose schema does not itself allow null is
 * treated so; a required one still fails validation.
 */
function withoutNullOptionals(args: Record<string, unknown>, schema: Tool['inputSchema']): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const allowsNull = declared?.type === 'null' || (Array.isArray(declared?.type) && declared.type.includes('null'));
    if (value === null && declared && !required.has(key) && !allowsNull) {
      copy ??= { ...args };
      delete copy[key];
    }
  }
  return copy ?? args;
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
  const checkPublished = compileArgumentCheck(inputSchema);

  function check(args: Record<string, unknown> | undefined): ArgumentCheck {
    // No schema at all: like the SDK, nothing is validated and the tool gets
    // no arguments (McpServer calls `handler(extra)`; facts.md section 1).
    if (!zodSchema) return { ok: true, args: undefined };
    const given = withoutNullOptionals(args ?? {}, inputSchema);
    // 1. The boundary: the very schema clients were shown.
    const published = checkPublished(given);
    if (published.length > 0) return { ok: false, problems: published };
    // 2. The declaration itself, as McpServer.validateToolInput does: this runs
    //    refinements and transforms, and still validates when the published
    //    schema lost its parameters (a root `.transform()`, SDK issue 2145).
    const parsed = safeParse(zodSchema, given);
    if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
    return { ok: true, args: parsed.data };
  }

  return { definition, published, check };
}
