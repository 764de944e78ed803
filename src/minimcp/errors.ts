/**
 * The one mapping from "what went wrong in tools/call" to "what the client sees".
 *
 * Every error a learner measures in a lab is chosen here. Two eras of the MCP
 * specification disagree on invalid arguments, so the mapping takes the era:
 *
 * - 2025-06-18 (spec "Tools > Error Handling"): invalid arguments are a protocol
 *   error, JSON-RPC -32602 (Invalid params). An exception inside the tool
 *   reaches the client as -32603 (Internal error), which is what the SDK's
 *   low-level `Server` does with any plain `Error` a handler throws
 *   (`shared/protocol.js`: a non-numeric `code` becomes `ErrorCode.InternalError`).
 * - 2025-11-25 (SEP-1303, "Input Validation Errors as Tool Execution Errors"):
 *   invalid arguments are a tool result with `isError: true`, so the model can
 *   read the text and correct itself. For an exception inside the tool we also
 *   answer `isError: true`: the spec keeps protocol errors for "unknown tools,
 *   malformed requests and server errors", a tool that fails while running is a
 *   tool execution error, and that is what the SDK's own `McpServer` does with
 *   any exception a tool handler throws (`server/mcp.js`, `createToolError`).
 *
 * A call refused by read-only mode is an `isError` result in both eras.
 * In both eras an unknown tool is -32602 (the spec's own example), and an
 * unknown method is -32601 (answered by the SDK's `Protocol` before we see it).
 */
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const SPEC_ERAS = ['2025-06-18', '2025-11-25'] as const;
export type SpecEra = (typeof SPEC_ERAS)[number];
/** The current rule. */
export const DEFAULT_SPEC: SpecEra = '2025-11-25';

/** One thing wrong with the arguments: which parameter (a dotted path) and what is wrong with it. */
export interface ArgumentProblem {
  parameter: string;
  problem: string;
}

/**
 * Thrown by a tool that checks its own arguments (defence in depth). The
 * mapping treats it exactly like a failure found at the boundary: invalid
 * params, never an internal error.
 */
export class InvalidArgumentsError extends Error {
  constructor(readonly problems: ArgumentProblem[]) {
    super(problems.map(describeProblem).join('; '));
    this.name = 'InvalidArgumentsError';
  }
}

/**
 * A JSON-RPC error to send as it is. The SDK's Protocol passes a numeric
 * `code` and the `message` through (shared/protocol.js); we do not use the
 * SDK's McpError because it prefixes its message with "MCP error <code>: ",
 * and a client that wraps the reply in its own McpError prefixes it again.
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/** What went wrong while handling one tools/call, before the era decides how the client sees it. */
export type CallFailure =
  | { kind: 'unknown-tool'; tool: string }
  | { kind: 'invalid-arguments'; tool: string; problems: ArgumentProblem[] }
  | { kind: 'tool-crashed'; tool: string; error: unknown }
  | { kind: 'refused'; tool: string; reason: string };

export function describeProblem(p: ArgumentProblem): string {
  return `${p.parameter}: ${p.problem}`;
}

/** The words a model reads. They name each parameter and what is wrong with it, so a model can correct itself. */
export function failureText(failure: CallFailure): string {
  switch (failure.kind) {
    case 'unknown-tool':
      return `Unknown tool: ${failure.tool}`;
    case 'invalid-arguments':
      return `Invalid arguments for tool ${failure.tool}: ${failure.problems.map(describeProblem).join('; ')}`;
    case 'tool-crashed': {
      const message = failure.error instanceof Error ? failure.error.message : String(failure.error);
      return `Tool ${failure.tool} failed: ${message}`;
    }
    case 'refused':
      return `Refused: ${failure.reason}`;
  }
}

/**
 * Turns a failure into what goes on the wire: a tool result with `isError`
 * (returned), or a JSON-RPC error (thrown as JsonRpcError; the SDK's
 * Protocol sends its code and message).
 */
export function toClient(failure: CallFailure, era: SpecEra): CallToolResult {
  const text = failureText(failure);
  switch (failure.kind) {
    case 'unknown-tool':
      throw new JsonRpcError(ErrorCode.InvalidParams, text);
    case 'invalid-arguments':
      if (era === '2025-06-18') throw new JsonRpcError(ErrorCode.InvalidParams, text);
      return { content: [{ type: 'text', text }], isError: true };
    case 'tool-crashed':
      if (era === '2025-06-18') throw new JsonRpcError(ErrorCode.InternalError, text);
      return { content: [{ type: 'text', text }], isError: true };
    case 'refused':
      // A policy refusal (read-only mode) is the tool declining to run, in both
      // eras a tool execution error: the model can read it and stop.
      return { content: [{ type: 'text', text }], isError: true };
  }
}
