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
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CONTRACT, loadContract } from './contract.js';
import { applyKnownViolations, knownFileFor, loadKnownViolations, type KnownEntry, type KnownViolation } from './known.js';
import { RULES, checkToolSchema, type ContractOperation, type Violation } from './rules.js';

export interface ServerCommand {
  command: string;
  args: string[];
  cwd?: string;
}

/** tools/list, as a client sees it. */
export async function listTools(server: ServerCommand, timeoutMs = 10_000): Promise<Tool[]> {
  const transport = new StdioClientTransport({ ...server, stderr: 'pipe' });
  const client = new Client({ name: 'schema-breaks-contract', version: '0.1.0' });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const { tools } = await client.listTools(undefined, { timeout: timeoutMs });
    return tools;
  } finally {
    await client.close().catch(() => {});
  }
}

/** Every published tool against its contract operation; all violations, collected. */
export function checkTools(tools: Pick<Tool, 'name' | 'inputSchema'>[], operations: ContractOperation[]): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      violations.push({ rule: 'root-matches-contract', tool: tool.name, path: '', message: `tool "${tool.name}" is published more than once: a client keeps one of them, and which one is not said` });
      continue;
    }
    seen.add(tool.name);
    const operation = operations.find((op) => op.operationId === tool.name);
    if (!operation) {
      violations.push({ rule: 'root-matches-contract', tool: tool.name, path: '', message: `tool "${tool.name}" is not in the contract` });
      continue;
    }
    violations.push(...checkToolSchema(tool, operation));
  }
  for (const op of operations) {
    if (!tools.some((t) => t.name === op.operationId)) {
      violations.push({ rule: 'root-matches-contract', tool: op.operationId, path: '', message: `the contract has "${op.operationId}" but the server does not publish it` });
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
export function checkPublished(tools: Pick<Tool, 'name' | 'inputSchema'>[], operations: ContractOperation[], entries: KnownEntry[] = []): CheckResult {
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
  const tools = await listTools(server);
  return { tools, ...checkPublished(tools, operations, entries) };
}

/** One line a violation: "rule  tool  path  message". */
export function formatViolation(v: Violation): string {
  return `✗ ${v.rule} (${RULES[v.rule]})\n    tool ${v.tool} at ${v.path || '(tool)'}: ${v.message}`;
}
