/**
 * The protocol core: the SDK's low-level `Server` with two handlers,
 * `tools/list` and `tools/call`. Read `handleCall` top to bottom: it is every
 * step between a client's call and the error (or answer) it gets back, in the
 * order McpServer takes them (`server/mcp.js`): find the tool, validate,
 * run. Which error each step gives is the build's (errors.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentsError, toClient, type ServerBuild } from './errors.js';
import { classify, refusal, type ToolClass } from './readonly.js';
import { registerTool, type RegisteredTool, type ToolDefinition } from './registry.js';

export interface MiniServerOptions {
  tools: ToolDefinition[];
  /** Which real server build to reproduce (errors.ts). */
  build: ServerBuild;
  /** Serve reads only: mutations are not listed, gated tools refuse their changing actions (readonly.ts). */
  readOnly?: boolean;
  /** Where the server's traces go. stdout is the protocol's alone. */
  log?: (line: string) => void;
}

export const SERVER_INFO = { name: 'minimcp', version: '0.2.0' };

export function createMiniServer({ tools, build, readOnly = false, log = () => {} }: MiniServerOptions): Server {
  const registry = new Map<string, RegisteredTool>(tools.map((t) => [t.name, registerTool(t)]));
  const classes = new Map<string, ToolClass>(tools.map((t) => [t.name, classify(t)]));
  if (readOnly) log(`read-only: ${[...classes].map(([name, c]) => `${name} ${c}`).join(', ')}`);
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });

  // In read-only mode a mutation is not even listed.
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...registry.values()].filter((tool) => !readOnly || classes.get(tool.definition.name) !== 'mutation').map((tool) => tool.published),
  }));

  async function handleCall(name: string, args: Record<string, unknown> | undefined, extra: unknown): Promise<CallToolResult> {
    const tool = registry.get(name);
    if (!tool) {
      log(`tools/call ${short(name)}: unknown tool`);
      return toClient({ kind: 'unknown-tool', tool: name }, build);
    }
    const checked = tool.check(args, build);
    if (!checked.ok) {
      log(`tools/call ${name} ${short(args)}: invalid arguments: ${paths(checked.error)}`);
      return toClient({ kind: 'invalid-arguments', tool: name, error: checked.error, input: checked.input }, build);
    }
    const given = 'args' in checked ? checked.args : undefined;
    const refused = readOnly ? refusal(tool.definition, classes.get(name)!, given) : undefined;
    if (refused) {
      log(`tools/call ${name} ${short(args)}: refused: ${refused}`);
      return toClient({ kind: 'refused', tool: name, reason: refused }, build);
    }
    let result: CallToolResult;
    try {
      // A tool with no schema is called with `extra` alone, as McpServer calls it.
      const output = await ('noSchema' in checked ? tool.definition.execute(extra) : tool.definition.execute(given, extra));
      result = typeof output === 'string' ? { content: [{ type: 'text', text: output }] } : output;
      log(`tools/call ${name} ${short(args)} -> ${short(textOf(result))}${result.structuredContent ? ` ${short(result.structuredContent)}` : ''}`);
    } catch (error) {
      if (error instanceof InvalidArgumentsError) log(`tools/call ${name} ${short(args)}: the tool rejected its arguments: ${error.message}`);
      else log(`tools/call ${name} ${short(args)}: the tool threw ${trace(error)}`);
      return toClient({ kind: 'tool-crashed', tool: name, error }, build);
    }
    // McpServer checks the result against the tool's outputSchema before sending it (validateToolOutput); the
    // low-level Server sends what the handler returned, and leaves that check to the client.
    if (build !== 'low-level') {
      const fits = tool.checkOutput(result);
      if (!fits.ok) {
        log(`tools/call ${name}: the result does not fit the outputSchema: ${'missing' in fits ? 'no structuredContent' : paths(fits.error)}`);
        return toClient({ kind: 'invalid-output', tool: name, ...('missing' in fits ? {} : { error: fits.error, input: fits.input }) }, build);
      }
    }
    return result;
  }

  // As every SDK server registers it: the SDK's Protocol parses the request
  // with CallToolRequestSchema before the handler runs, and answers a
  // malformed one (no `params.name`, `arguments` as an array) with -32603
  // and zod's issues as the message.
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => handleCall(request.params.name, request.params.arguments, extra));
  return server;
}

/** A result's text, for the trace. */
function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** The parameters zod's issues name, for the trace. */
function paths(error: unknown): string {
  const issues = (error as { issues?: { path: PropertyKey[] }[] } | null)?.issues ?? [];
  return issues.map((i) => i.path.map(String).join('.') || '(arguments)').join(', ');
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
