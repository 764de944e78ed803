/**
 * The protocol core: the SDK's low-level `Server` with two handlers,
 * `tools/list` and `tools/call`. Read `handleCall` top to bottom: it is every
 * step between a client's call and the error (or answer) it gets back.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { InvalidArgumentsError, JsonRpcError, toClient, type SpecEra } from './errors.js';
import { classify, refusal, type ToolClass } from './readonly.js';
import { registerTool, type RegisteredTool, type ToolDefinition } from './registry.js';

export interface MiniServerOptions {
  tools: ToolDefinition[];
  spec: SpecEra;
  /** Serve reads only: mutations are not listed, gated tools refuse their changing actions (readonly.ts). */
  readOnly?: boolean;
  /** Where the server's traces go. stdout is the protocol's alone. */
  log?: (line: string) => void;
}

/** Any request whose method is tools/call; its params are checked in the handler. */
const AnyToolsCall = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });

export const SERVER_INFO = { name: 'minimcp', version: '0.1.0' };

export function createMiniServer({ tools, spec, readOnly = false, log = () => {} }: MiniServerOptions): Server {
  const registry = new Map<string, RegisteredTool>(tools.map((t) => [t.name, registerTool(t)]));
  const classes = new Map<string, ToolClass>(tools.map((t) => [t.name, classify(t)]));
  if (readOnly) log(`read-only: ${[...classes].map(([name, c]) => `${name} ${c}`).join(', ')}`);
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });

  // In read-only mode a mutation is not even listed.
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...registry.values()].filter((tool) => !readOnly || classes.get(tool.definition.name) !== 'mutation').map((tool) => tool.published),
  }));

  async function handleCall(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const tool = registry.get(name);
    if (!tool) {
      log(`tools/call ${short(name)}: unknown tool`);
      return toClient({ kind: 'unknown-tool', tool: name }, spec);
    }
    const checked = tool.check(args);
    if (!checked.ok) {
      log(`tools/call ${name} ${short(args)}: invalid arguments: ${checked.problems.map((p) => p.parameter).join(', ')}`);
      return toClient({ kind: 'invalid-arguments', tool: name, problems: checked.problems }, spec);
    }
    const refused = readOnly ? refusal(tool.definition, classes.get(name)!, checked.args) : undefined;
    if (refused) {
      log(`tools/call ${name} ${short(args)}: refused: ${refused}`);
      return toClient({ kind: 'refused', tool: name, reason: refused }, spec);
    }
    try {
      const text = await tool.definition.execute(checked.args);
      log(`tools/call ${name} ${short(args)} -> ${short(text)}`);
      return { content: [{ type: 'text', text }] };
    } catch (error) {
      // A tool that checks its own arguments says so with InvalidArgumentsError:
      // that is invalid params, not a crash.
      if (error instanceof InvalidArgumentsError) {
        log(`tools/call ${name} ${short(args)}: the tool rejected its arguments: ${error.message}`);
        return toClient({ kind: 'invalid-arguments', tool: name, problems: error.problems }, spec);
      }
      log(`tools/call ${name} ${short(args)}: the tool threw ${trace(error)}`);
      return toClient({ kind: 'tool-crashed', tool: name, error }, spec);
    }
  }

  // Registered with a loose schema on purpose. With CallToolRequestSchema the
  // SDK's Protocol parses the request before any handler runs and answers a
  // malformed one (no `params.name`, `arguments` as an array) with -32603,
  // an internal error (facts.md section 1). With the loose schema, the
  // low-level Server's own tools/call check runs first and answers -32602
  // ("Invalid tools/call request"), which is what a malformed request is; the
  // check below says so in the open, and narrows the type.
  server.setRequestHandler(AnyToolsCall, (request) => {
    const parsed = CallToolRequestSchema.safeParse(request);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(request)'}: ${i.message}`).join('; ');
      throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid tools/call request: ${where}`);
    }
    // The arguments as they arrived, not zod's copy: z.record leaves a
    // `__proto__` key out of the object it builds, and the boundary must see
    // every key the client sent (additionalProperties: false).
    const raw = (request.params as { arguments?: Record<string, unknown> }).arguments;
    return handleCall(parsed.data.params.name, raw);
  });
  return server;
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value.replace(/\n/g, ' ⏎ ') : (JSON.stringify(value) ?? 'undefined');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * The error and the functions it came through: where in the executor it
 * broke. File positions are left out: they differ between the source and the
 * bundle, and between machines.
 */
function trace(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frames = (error.stack ?? '')
    .split('\n')
    .slice(1, 4)
    .map((l) => /^\s*at (\S+)/.exec(l)?.[1])
    .filter((name): name is string => name !== undefined && !name.startsWith('file:') && !name.startsWith('node:'));
  return `${error.name}: ${error.message}${frames.length ? ` (in ${frames.join(' < ')})` : ''}`;
}
