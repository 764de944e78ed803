/** claude-code-2025-07: Claude Code 1.0.63 over the Anthropic Messages API. */
import { claudeCodeDropsServer } from './claude-code-shared.js';
import { copy, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

/**
 * Two rules, each dated by a 2025 build.
 *
 * 1. The whole server is dropped when one tool does not fit the MCP SDK's Tool
 *    shape: in `@anthropic-ai/claude-code` 1.0.63 (npm, cli.js) the MCP tool
 *    list is read with `client.request({method:"tools/list"}, ListToolsResultSchema)`,
 *    whose Tool's inputSchema is `{type: literal("object"), properties?: object,
 *    required?: string[]}`; a parse error is caught, logged as
 *    `Failed to fetch tools: <the ZodError>` in the server's MCP log, and the
 *    server contributes no tool (`return []`). See claude-code-shared.ts.
 * 2. Every tool reaches the API as published (`inputJSONSchema: tool.inputSchema`
 *    in the same cli.js), and the Messages API refuses the whole request for a
 *    top-level anyOf/oneOf/allOf: anthropics/claude-code#4753 (1.0.63,
 *    2025-07-30), #4886 (1.0.65, 2025-07-31), #5319 (1.0.70, 2025-08-07),
 *    #5973 (1.0.83, 2025-08-17), #657 (0.2.56, 2025-03-30).
 */
export const claudeCode202507: ClientProfile = {
  id: 'claude-code-2025-07',
  title: 'Claude Code 1.0.63 on the Anthropic API: a top-level oneOf/allOf/anyOf fails every request; a root that is not an object drops the server',
  asOf: 'Claude Code 1.0.63, 2025-07-30, Anthropic Messages API',
  released: '2025-07-30',
  evidence: { kind: 'code', date: '2025-07-30', source: '@anthropic-ai/claude-code 1.0.63 cli.js read' },
  sources: [
    'anthropics/claude-code#4753 (Claude Code 1.0.63, 2025-07-30), also #4886 (1.0.65), #5319 (1.0.70), #5973 (1.0.83): tools.N.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    '@anthropic-ai/claude-code 1.0.63 (npm) cli.js: tools/list parsed with the MCP SDK ListToolsResultSchema (inputSchema type literal "object", properties object, required string[]); on a parse error "Failed to fetch tools: ..." and no tool of that server',
  ],
  notes:
    'The API message is quoted from the sources; the "400 invalid_request_error: " framing is the kit\'s. In real ' +
    'Claude Code the index N counts its built-in tools first (tools.106 in #5319); here it counts the server\'s tools. ' +
    'The server drop shows nothing in the session; Claude Code logs "Failed to fetch tools: " and the ZodError to the ' +
    'server\'s MCP log, whose text the kit does not reproduce (its rejection text says so). A root that is not an object ' +
    'never reaches the API this way, so the API\'s own "input_schema.type" errors are not modelled.',
  present(tools) {
    const dropped = claudeCodeDropsServer(tools);
    if (dropped) return dropped;
    // The API refuses the first offending tool of the request (anthropics/claude-code#4753, #5319).
    const index = tools.findIndex((tool) => ['oneOf', 'allOf', 'anyOf'].some((k) => k in schemaOf(tool)));
    if (index >= 0)
      return refusedRequest(`400 invalid_request_error: tools.${index}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`, {
        kind: 'report',
        date: '2025-07-30',
        source: 'anthropics/claude-code#4753 (1.0.63), #4886, #5319',
      });
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate: (_tool, args) => passThrough(args),
};
