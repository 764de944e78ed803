/** claude-code-2025-07: Claude Code 1.0.63 over the Anthropic Messages API. */
import { CLAUDE_CODE_PREFIX, HOST_NAME_MAX } from '../../contract/rules.js';
import { claudeCodeDropsServer } from './claude-code-shared.js';
import { codePoints, copy, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

/**
 * Three rules, each dated by a 2025 build.
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
 * 3. Every MCP tool reaches the API named `"mcp__" + server + "__" + tool.name`,
 *    the server's name with every character outside [a-zA-Z0-9_-] turned into
 *    "_" and the tool's name as published, neither cut (the same cli.js:
 *    `name:"mcp__"+yK1(A.name)+"__"+Z.name`, `yK1(A){return
 *    A.replace(/[^a-zA-Z0-9_-]/g,"_")}`); the Messages API refused the whole
 *    request when one name was over 64 characters: `API Error: 400
 *    tools.63.custom.name: String should have at most 64 characters`
 *    (anthropics/claude-code#955, 0.2.100, 2025-05-04; #2485, 1.0.31,
 *    2025-06-23, "now i can't use claude code ever"; #3102, 1.0.43,
 *    2025-07-07). The server's name is the one the kit's sheets configure,
 *    `tutor` (src/contract/rules.ts, SERVER_NAME_IN_HOSTS). A character the
 *    API's name pattern refuses (a dot) is not modelled: no report of this
 *    era quotes its text.
 */
export const claudeCode202507: ClientProfile = {
  id: 'claude-code-2025-07',
  title: 'Claude Code 1.0.63 on the Anthropic API: a top-level oneOf/allOf/anyOf, or a tool name past 64 characters with the mcp__server__ prefix, fails every request; a root that is not an object drops the server',
  asOf: 'Claude Code 1.0.63, 2025-07-30, Anthropic Messages API',
  released: '2025-07-30',
  evidence: { kind: 'code', date: '2025-07-30', source: '@anthropic-ai/claude-code 1.0.63 cli.js read' },
  sources: [
    'anthropics/claude-code#4753 (Claude Code 1.0.63, 2025-07-30), also #4886 (1.0.65), #5319 (1.0.70), #5973 (1.0.83): tools.N.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    '@anthropic-ai/claude-code 1.0.63 (npm) cli.js: tools/list parsed with the MCP SDK ListToolsResultSchema (inputSchema type literal "object", properties object, required string[]); on a parse error "Failed to fetch tools: ..." and no tool of that server',
    '@anthropic-ai/claude-code 1.0.63 (npm) cli.js: each MCP tool named "mcp__" + the server\'s name (characters outside [a-zA-Z0-9_-] as "_") + "__" + the tool\'s name, uncut',
    'anthropics/claude-code#955 (0.2.100, 2025-05-04), #2485 (1.0.31, 2025-06-23), #3102 (1.0.43, 2025-07-07): API Error: 400 tools.N.custom.name: String should have at most 64 characters',
  ],
  notes:
    'The API message is quoted from the sources; the "400 invalid_request_error: " framing is the kit\'s. In real ' +
    'Claude Code the index N counts its built-in tools first (tools.106 in #5319); here it counts the server\'s tools. ' +
    'The server drop shows nothing in the session; Claude Code logs "Failed to fetch tools: " and the ZodError to the ' +
    'server\'s MCP log, whose text the kit does not reproduce (its rejection text says so). A root that is not an object ' +
    'never reaches the API this way, so the API\'s own "input_schema.type" errors are not modelled. The name limit ' +
    'counts Claude Code\'s prefix with the server named "tutor", as the kit\'s sheets configure it; the latest report ' +
    'of that limit is from 1.0.43 (2025-07-07), three weeks before this build, and a refusal over it says so. Which ' +
    'of two refusals the API reports first is modelled (the name, then a top-level union).',
  present(tools) {
    const dropped = claudeCodeDropsServer(tools);
    if (dropped) return dropped;
    // Each tool under the name Claude Code gives it; the API refuses the request over the first one past 64 (anthropics/claude-code#955, #2485).
    const long = tools.findIndex((tool) => codePoints(`${CLAUDE_CODE_PREFIX}${tool.name}`) > HOST_NAME_MAX);
    if (long >= 0)
      return refusedRequest(`400 invalid_request_error: tools.${long}.custom.name: String should have at most ${HOST_NAME_MAX} characters`, {
        kind: 'report',
        date: '2025-07-07',
        source: 'anthropics/claude-code#955 (0.2.100), #2485 (1.0.31), #3102 (1.0.43)',
      });
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
