/** claude: Claude Code over the Anthropic Messages API. */
import { mcpToolShapeProblem } from './mcp-sdk.js';
import { copy, droppedServer, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

/**
 * Claude Code's MCP client reads tools/list through the MCP SDK's Tool shape
 * (inputSchema: { type: "object", properties?: object, required?: string[] };
 * see mcp-sdk.ts). When one tool does not fit it, every tool of that server
 * is dropped, with no error on either side: mastra#18255 (`{}` with no type),
 * anthropics/claude-code#88049 (a root anyOf with no type "object"),
 * anthropics/claude-code#44364 ("required": null),
 * tidepool-heavy-industries/exomonad#798 ("Capabilities: none", 0 tools).
 */
export const claude: ClientProfile = {
  id: 'claude',
  title: 'Claude Code on the Anthropic API: no oneOf/allOf/anyOf at the top level of input_schema, else every request fails',
  asOf: 'Claude Code 1.0.x and the Messages API, 2025',
  sources: [
    'anthropics/claude-code#5319 (also #5973, #657): tools.N.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    'mastra#18255, anthropics/claude-code#88049, anthropics/claude-code#44364, tidepool-heavy-industries/exomonad#798 (all tools of a server dropped silently)',
    'modelcontextprotocol/typescript-sdk src/types.ts ToolSchema (tags 1.12.1 to 1.15.1): the inputSchema shape an MCP SDK client enforces (which SDK version Claude Code bundled is not pinned here)',
  ],
  notes:
    'The API message is quoted from the sources; the "400 invalid_request_error: " framing is the kit\'s. In real ' +
    'Claude Code the index N counts its built-in tools first (tools.106 in #5319); here it counts the server\'s tools. ' +
    'The silent drop has no host text at all: the rejection text for it is written by the kit and says so. A root that ' +
    'is not an object never reaches the API this way, so the API\'s own "input_schema.type" errors are not modelled.',
  present(tools) {
    for (const tool of tools) {
      const problem = mcpToolShapeProblem(tool.inputSchema);
      if (problem)
        return droppedServer(
          `(kit text: Claude Code itself shows no error) every tool of this server was dropped: tool '${tool.name}' ${problem}, ` +
            'so the MCP client discarded the whole tools/list and the model sees no tools',
        );
    }
    // The API refuses the first offending tool of the request (anthropics/claude-code#5319).
    const index = tools.findIndex((tool) => ['oneOf', 'allOf', 'anyOf'].some((k) => k in schemaOf(tool)));
    if (index >= 0)
      return refusedRequest(`400 invalid_request_error: tools.${index}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`);
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate: (_tool, args) => passThrough(args),
};
