/**
 * The schema contract check against a live server: start it, do a real
 * `tools/list` as a client sees it, and apply the rules to what came back.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { loadContract } from './contract.js';
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
  for (const tool of tools) {
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

export async function checkServer(server: ServerCommand, contractFile?: string): Promise<{ tools: Tool[]; violations: Violation[] }> {
  const operations = loadContract(contractFile);
  const tools = await listTools(server);
  return { tools, violations: checkTools(tools, operations) };
}

/** One line a violation: "rule  tool  path  message". */
export function formatViolation(v: Violation): string {
  return `✗ ${v.rule} (${RULES[v.rule]})\n    tool ${v.tool} at ${v.path || '(tool)'}: ${v.message}`;
}
