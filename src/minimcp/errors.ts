/**
 * The one mapping from "what went wrong in tools/call" to "what the client
 * sees". Every error a learner measures in a lab is chosen here.
 *
 * Which error a client sees is decided by the server's framework and SDK
 * version, not by the MCP revision (docs/sources.md, "Server builds"). The
 * kit reproduces three real builds, measured from the published packages of
 * @modelcontextprotocol/sdk (`dist/esm/server/mcp.js`, `shared/protocol.js`)
 * and proved on the wire by test/build-parity.test.ts against real servers
 * built on each version:
 *
 * | build            | invalid arguments            | exception in the tool      | unknown tool |
 * |------------------|------------------------------|----------------------------|--------------|
 * | `low-level`      | JSON-RPC -32602 (McpError)   | JSON-RPC -32603 (escapes)  | -32602       |
 * | `mcpserver-1.20` | JSON-RPC -32602              | `isError` result           | -32602       |
 * | `mcpserver-1.32` | `isError` result             | `isError` result           | `isError`    |
 *
 * - `low-level`: the SDK's low-level `Server` with a `tools/call` handler
 *   that validates, throws `McpError(InvalidParams)` for bad arguments and
 *   lets the tool's own exceptions escape. The SDK's Protocol answers any
 *   thrown error without a numeric `code` with -32603 and the error's message,
 *   in every SDK version. This is the -32603 of the seed incident.
 * - `mcpserver-1.20`: `McpServer` in SDK 1.13 to 1.20. Validation throws
 *   `McpError(InvalidParams, "Invalid arguments for tool X: " + zodError.message)`
 *   before the tool runs; the tool's callback runs inside a try that turns any
 *   exception into `isError`. Those servers used zod 3, so the message is zod
 *   3's (zod3.ts writes it from zod 4's issues).
 * - `mcpserver-1.32`: `McpServer` in SDK 1.21 and later. The whole handler is
 *   inside a try whose catch returns `createToolError(error.message)`, so every
 *   failure, validation and unknown tool included, is an `isError` result.
 *
 * A `McpError` keeps its code only as words in its message ("MCP error -32602:
 * ..."): the SDK's McpError puts them there, and a client that wraps the reply
 * in its own McpError adds them a second time. Nothing here removes them.
 *
 * A call refused by read-only mode (the kit's own policy, readonly.ts) is an
 * `isError` result in every build: the tool declining to run.
 *
 * A result that does not fit the tool's outputSchema is caught by McpServer
 * only (`validateToolOutput`): -32602 under `mcpserver-1.20`, an `isError`
 * result under `mcpserver-1.32`; the low-level `Server` sends it as it is, and
 * the client decides (the SDK's `Client.callTool` refuses it: docs/sources.md,
 * "Labs from the field's incidents", `output-schema`).
 */
import { getParseErrorMessage } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { zod3Message } from './zod3.js';

export const SERVER_BUILDS = ['low-level', 'mcpserver-1.20', 'mcpserver-1.32'] as const;
export type ServerBuild = (typeof SERVER_BUILDS)[number];
/** Today's SDK, the one the kit pins. */
export const DEFAULT_BUILD: ServerBuild = 'mcpserver-1.32';

/** One line per build, for --help and the reports. */
export const BUILD_TITLES: Record<ServerBuild, string> = {
  'low-level': "SDK low-level Server, the tool's exceptions escape the handler (-32603)",
  'mcpserver-1.20': 'McpServer as in SDK 1.13 to 1.20: invalid arguments -32602, exceptions isError',
  'mcpserver-1.32': 'McpServer as in SDK 1.21 and later (1.32.2): every failure an isError result',
};

export function isServerBuild(value: string): value is ServerBuild {
  return (SERVER_BUILDS as readonly string[]).includes(value);
}

/** One thing wrong with the arguments, as a tool that checks its own arguments says it. */
export interface ArgumentProblem {
  parameter: string;
  problem: string;
}

export function describeProblem(p: ArgumentProblem): string {
  return `${p.parameter}: ${p.problem}`;
}

/**
 * Thrown by a tool that checks its own arguments (defence in depth): an
 * `McpError` with code -32602 (Invalid params), the SDK's own way for a tool
 * to say "your arguments are wrong". What the client then sees is the
 * build's: a -32602 under `low-level`, an `isError` result under McpServer.
 */
export class InvalidArgumentsError extends McpError {
  constructor(readonly problems: ArgumentProblem[]) {
    super(ErrorCode.InvalidParams, problems.map(describeProblem).join('; '));
    this.name = 'InvalidArgumentsError';
  }
}

/** What went wrong while handling one tools/call, before the build decides how the client sees it. */
export type CallFailure =
  | { kind: 'unknown-tool'; tool: string }
  /** `error` is zod's (a ZodError); `input` the arguments as they arrived. */
  | { kind: 'invalid-arguments'; tool: string; error: unknown; input: unknown }
  | { kind: 'tool-crashed'; tool: string; error: unknown }
  /** The tool's result does not fit its outputSchema: no `structuredContent` (`error` absent), or zod's error about it. */
  | { kind: 'invalid-output'; tool: string; error?: unknown; input?: unknown }
  | { kind: 'refused'; tool: string; reason: string };

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Turns a failure into what goes on the wire: a tool result with `isError`
 * (returned), or a JSON-RPC error (thrown; the SDK's Protocol sends
 * `error.code` when it is a number, else -32603, and `error.message`).
 */
export function toClient(failure: CallFailure, build: ServerBuild): CallToolResult {
  switch (failure.kind) {
    case 'unknown-tool': {
      // The words McpServer uses in every version; the low-level handler says the same.
      const error = new McpError(ErrorCode.InvalidParams, `Tool ${failure.tool} not found`);
      if (build === 'mcpserver-1.32') return toolError(error.message);
      throw error;
    }
    case 'invalid-arguments': {
      if (build === 'mcpserver-1.20') {
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${failure.tool}: ${zod3Message(failure.error, failure.input)}`);
      }
      const reason = getParseErrorMessage(failure.error);
      if (build === 'low-level') throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${failure.tool}: ${reason}`);
      return toolError(new McpError(ErrorCode.InvalidParams, `Input validation error: Invalid arguments for tool ${failure.tool}: ${reason}`).message);
    }
    case 'tool-crashed':
      // low-level: the exception escapes the handler as it is.
      if (build === 'low-level') throw failure.error;
      return toolError(messageOf(failure.error));
    case 'invalid-output': {
      // McpServer's output check (`validateToolOutput`; the low-level Server has none, protocol.ts). 1.13 to 1.20 ran it
      // after the callback's try, so its McpError is the reply (-32602) and the issues are zod 3's; 1.21 and later run
      // it inside the handler's try, which turns it into an isError result, with "Output validation error: " first.
      const missing = failure.error === undefined;
      if (build === 'mcpserver-1.20') {
        throw new McpError(
          ErrorCode.InvalidParams,
          missing ? `Tool ${failure.tool} has an output schema but no structured content was provided` : `Invalid structured content for tool ${failure.tool}: ${zod3Message(failure.error, failure.input)}`,
        );
      }
      const reason = missing
        ? `Tool ${failure.tool} has an output schema but no structured content was provided`
        : `Invalid structured content for tool ${failure.tool}: ${getParseErrorMessage(failure.error)}`;
      return toolError(new McpError(ErrorCode.InvalidParams, `Output validation error: ${reason}`).message);
    }
    case 'refused':
      return toolError(`Refused: ${failure.reason}`);
  }
}
