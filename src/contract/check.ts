/**
 * The schema contract check against a live server: start it, do a real
 * `tools/list` as a client sees it, and apply the rules to what came back,
 * then the list of known violations (src/contract/known.ts).
 *
 * Nothing passes by default: the set of tools is pinned by name to the
 * contract's operations (a tool too many, too few, or published twice fails);
 * a contract that cannot be read is an error, not an empty comparison; a
 * malformed known-violations list is an error; a schema shape the rules were
 * not taught fails (rule taught-shapes).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CONTRACT, loadContract } from './contract.js';
import { applyKnownViolations, knownFileFor, loadKnownViolations, type KnownEntry, type KnownViolation } from './known.js';
import { RULES, checkToolSchema, hostLimitViolations, violation, type ContractOperation, type Violation } from './rules.js';

export interface ServerCommand {
  command: string;
  args: string[];
  cwd?: string;
}

/** What a server answered to a call with no arguments: the JSON-RPC code, or the result. */
export type EmptyCallReply = { code: number; message: string } | { isError: boolean; text: string };

/** What a tool that publishes an outputSchema answered its example call, through `Client.callTool`: the McpError, or the result. */
export type ExampleReply = { code: number; message: string } | { isError: boolean; text: string; structured: boolean };

/**
 * tools/list, as a client sees it; with `probe`, also each of those tools called with `{}`; with `examples`, each
 * tool that publishes an outputSchema called once with its example (`exampleCalls`; a tool without one is left out).
 */
export async function listTools(
  server: ServerCommand,
  timeoutMs = 10_000,
  probe: string[] = [],
  examples: Record<string, Record<string, unknown>> = {},
): Promise<Tool[] & { emptyCalls?: Map<string, EmptyCallReply>; exampleCalls?: Map<string, ExampleReply> }> {
  const transport = new StdioClientTransport({ ...server, stderr: 'pipe' });
  const client = new Client({ name: 'schema-breaks-contract', version: '0.1.0' });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const { tools } = await client.listTools(undefined, { timeout: timeoutMs });
    const emptyCalls = new Map<string, EmptyCallReply>();
    for (const name of probe.filter((n) => tools.some((t) => t.name === n))) {
      try {
        const result = await client.callTool({ name, arguments: {} }, undefined, { timeout: timeoutMs });
        const content = Array.isArray(result.content) ? result.content : [];
        emptyCalls.set(name, { isError: result.isError === true, text: content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') });
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        emptyCalls.set(name, { code: error.code, message: error.message });
      }
    }
    const exampleCalls = new Map<string, ExampleReply>();
    for (const tool of tools.filter((t) => t.outputSchema && Object.hasOwn(examples, t.name))) {
      try {
        // callTool checks structuredContent against the outputSchema tools/list gave, as a host on the SDK's client does.
        const result = await client.callTool({ name: tool.name, arguments: examples[tool.name] }, undefined, { timeout: timeoutMs });
        const content = Array.isArray(result.content) ? result.content : [];
        exampleCalls.set(tool.name, { isError: result.isError === true, text: content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), structured: result.structuredContent !== undefined });
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        exampleCalls.set(tool.name, { code: error.code, message: error.message });
      }
    }
    return Object.assign(tools, { emptyCalls, exampleCalls });
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * Rule rejects-missing-arguments: a call with none of the required arguments
 * must be refused as invalid arguments. Invalid arguments read the same in
 * every real server build (docs/sources.md, "Server builds"): JSON-RPC
 * -32602, or an isError result whose text is an McpError of code -32602
 * ("MCP error -32602: ..."). Anything else means the tool ran.
 */
export function emptyCallViolations(replies: Map<string, EmptyCallReply>, operations: ContractOperation[]): Violation[] {
  const violations: Violation[] = [];
  for (const op of operations) {
    const required = op.required;
    const reply = replies.get(op.operationId);
    if (!reply || required.length === 0) continue;
    const refused = 'code' in reply ? reply.code === ErrorCode.InvalidParams : reply.isError && /^MCP error -32602: /.test(reply.text);
    if (refused) continue;
    // What the server answered, cut so that the answer as English says it stays within 200 characters.
    const [id, lead, text] =
      'code' in reply
        ? (['contract.ranTheToolRpc', `JSON-RPC ${reply.code}: `, reply.message] as const)
        : reply.isError
          ? (['contract.ranTheToolIsError', 'an isError result: ', reply.text] as const)
          : (['contract.ranTheToolResult', 'a result: ', reply.text] as const);
    const room = 200 - lead.length;
    const answer = text.length > room ? `${text.slice(0, room - 3)}...` : text;
    violations.push(violation('rejects-missing-arguments', op.operationId, '/inputSchema', id, { required: required.join(', '), ...('code' in reply ? { code: String(reply.code) } : {}), answer }));
  }
  return violations;
}

/**
 * Rule structured-output: each tool that publishes an outputSchema answered its contract example with a result the
 * SDK's client accepted, carrying structuredContent. A tool whose operation has no example cannot be judged: that is a
 * violation too, never a pass.
 */
export function exampleCallViolations(tools: Pick<Tool, 'name' | 'outputSchema'>[], replies: Map<string, ExampleReply>, operations: ContractOperation[]): Violation[] {
  const violations: Violation[] = [];
  for (const tool of tools.filter((t) => t.outputSchema)) {
    const op = operations.find((o) => o.operationId === tool.name);
    if (!op) continue; // root-matches-contract reports a tool the contract lacks
    if (!op.example) {
      violations.push(violation('structured-output', tool.name, '/outputSchema', 'contract.outputNoExample', { tool: tool.name }));
      continue;
    }
    const reply = replies.get(tool.name);
    if (!reply) continue;
    const answer = 'code' in reply ? reply.message : reply.text;
    const cut = answer.length > 200 ? `${answer.slice(0, 197)}...` : answer;
    if ('code' in reply) violations.push(violation('structured-output', tool.name, '/outputSchema', 'contract.outputRefused', { code: String(reply.code), answer: cut }));
    else if (reply.isError) violations.push(violation('structured-output', tool.name, '/outputSchema', 'contract.outputIsError', { answer: cut }));
    else if (!reply.structured) violations.push(violation('structured-output', tool.name, '/outputSchema', 'contract.outputMissing', {}));
  }
  return violations;
}

/** Every published tool against its contract operation; all violations, collected. */
export function checkTools(tools: Pick<Tool, 'name' | 'inputSchema' | 'description'>[], operations: ContractOperation[]): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      violations.push(violation('root-matches-contract', tool.name, '', 'contract.toolTwice', { tool: tool.name }));
      continue;
    }
    seen.add(tool.name);
    // Rule 7 before the contract's: a name a host refuses is the host's problem whether or not the contract knows it.
    violations.push(...hostLimitViolations(tool));
    const operation = operations.find((op) => op.operationId === tool.name);
    if (!operation) {
      violations.push(violation('root-matches-contract', tool.name, '', 'contract.toolNotInContract', { tool: tool.name }));
      continue;
    }
    violations.push(...checkToolSchema(tool, operation));
  }
  for (const op of operations) {
    if (!tools.some((t) => t.name === op.operationId)) {
      violations.push(violation('root-matches-contract', op.operationId, '', 'contract.toolNotPublished', { tool: op.operationId }));
    }
  }
  return violations;
}

export interface CheckResult {
  /** Every failure: the violations no entry of the list covers, then the entries that no longer violate (rule known-violation-fixed). Green is `violations.length === 0`. */
  violations: Violation[];
  /** The violations an entry of the list covers, with its issue: reported, not failures. */
  known: KnownViolation[];
  /** The list's entries that cover no violation any more (also in `violations`). */
  stale: Violation[];
}

/** The published tools against the contract and the known-violations list. */
export function checkPublished(tools: Pick<Tool, 'name' | 'inputSchema' | 'description'>[], operations: ContractOperation[], entries: KnownEntry[] = []): CheckResult {
  return applyKnownViolations(checkTools(tools, operations), entries);
}

/**
 * The whole check. The known-violations list defaults to the file beside the
 * contract (contract/known-violations.json); both are read before the server
 * is started, and either one unreadable rejects (ContractError,
 * KnownViolationsError) instead of passing.
 */
export async function checkServer(server: ServerCommand, contractFile = DEFAULT_CONTRACT, knownFile = knownFileFor(contractFile)): Promise<CheckResult & { tools: Tool[] }> {
  const operations = loadContract(contractFile);
  const entries = loadKnownViolations(knownFile);
  const examples = Object.fromEntries(operations.filter((op) => op.example).map((op) => [op.operationId, op.example!]));
  const tools = await listTools(server, 10_000, operations.map((op) => op.operationId), examples);
  return {
    tools,
    ...applyKnownViolations(
      [...checkTools(tools, operations), ...emptyCallViolations(tools.emptyCalls ?? new Map(), operations), ...exampleCallViolations(tools, tools.exampleCalls ?? new Map(), operations)],
      entries,
    ),
  };
}

/** One line a violation: "rule  tool  path  message". */
export function formatViolation(v: Violation): string {
  return `✗ ${v.rule} (${RULES[v.rule]})\n    tool ${v.tool} at ${v.path || '(tool)'}: ${v.message}`;
}
