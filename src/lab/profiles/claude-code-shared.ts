/**
 * What every Claude Code build modelled here does with a tools/list: its MCP
 * client parses the list with the MCP SDK's `ListToolsResultSchema`, so one
 * tool whose inputSchema does not fit the Tool shape (root not
 * `"type": "object"`, `properties` not an object, `required` not a list of
 * strings) fails the parse, and the catch around it returns no tool for that
 * server. Read in `@anthropic-ai/claude-code` 1.0.63 (cli.js) and in
 * `@anthropic-ai/claude-code-linux-x64` 2.1.235 (the same zod shape, the same
 * `Failed to fetch tools: ...` log line and empty list). Reported from 2026
 * builds: anthropics/claude-code#88049 (2026-08-19, a root anyOf with no
 * "type": "object"), anthropics/claude-code#44364 (2026-04-06, "required": null).
 */
import { mcpToolShapeProblem } from './mcp-sdk.js';
import { droppedServer, type Presented, type PublishedTool } from './shared.js';

/** The server dropped, as a rejection the labs can show, or null when every tool fits the Tool shape. */
export function claudeCodeDropsServer(tools: PublishedTool[]): Presented | null {
  for (const tool of tools) {
    const problem = mcpToolShapeProblem(tool.inputSchema);
    if (problem)
      return droppedServer(
        `(kit text: the session shows no error; Claude Code logs "Failed to fetch tools: " and the ZodError to the server's MCP log) ` +
          `every tool of this server was dropped: tool '${tool.name}' ${problem}, so the MCP client discarded the whole tools/list and the model sees no tools`,
      );
  }
  return null;
}
