/**
 * openai-agents-2025-10: the OpenAI Agents SDK for JavaScript,
 * `@openai/agents-core` 0.2.1 (tag v0.2.1, cf1ec3fe, 2025-10-25), an `Agent`
 * with MCP servers, on the OpenAI API. The profile runs the package itself
 * (loaded on first use); only the API's answer to a strict tool is the kit's
 * transcription (openai-strict.ts).
 *
 * What the real code does, read in openai/openai-agents-js at v0.2.1:
 *  - packages/agents-core/src/shims/mcp-server/node.ts `listTools()`:
 *    `ListToolsResultSchema.parse(response).tools` with the MCP SDK (an
 *    optional dependency, ^1.17.2; the kit runs 1.20.2, the `sdk-1-20` alias).
 *    A tool whose inputSchema is not `type: "object"` throws a ZodError, and
 *    `getAllMcpTools` (mcp.ts) does not catch it: `Agent.getAllTools` throws,
 *    the run fails before the model is called, every tool of every server is
 *    lost (`lost: 'request'`).
 *  - agent.ts `getMcpTools()` calls `getAllMcpTools({..., convertSchemasToStrict: false})`:
 *    an Agent has no option to change it at this version.
 *  - mcp.ts `mcpToFunctionTool()`: the schema is `{...inputSchema, type ?? 'object',
 *    properties ?? {}, required ?? [], additionalProperties ?? false}`. Only when
 *    `convertSchemasToStrict` or the published root says `additionalProperties: true`
 *    does it go strict: `ensureStrictJsonSchema` sets the ROOT's
 *    `additionalProperties: false` and `required ?? []`, nothing else (it neither
 *    lists every key in `required` nor walks nested objects, and cannot throw, so
 *    the catch that would fall back to non-strict is never reached), and the tool
 *    is sent with `strict: true`. Every other tool is sent with `strict: false` and
 *    the root's `additionalProperties: true`, whatever the server published.
 *  - tool.ts `tool()`: the name through utils/tools.ts `toFunctionToolName`
 *    (every character outside a-z A-Z 0-9 becomes "_"), the description
 *    `description || ''`. For a JSON-schema tool the parser is `JSON.parse` and
 *    nothing else (utils/tools.ts `getSchemaAndParserFromInputType`): no schema
 *    validation. Bad JSON is answered through `defaultToolErrorFunction`:
 *    "An error occurred while running the tool. Please try again. Error: Error: Invalid JSON input for tool".
 *  - agents-openai openaiResponsesModel.ts `converTool` sends
 *    `{type: 'function', name, description, parameters, strict}` unchanged.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SeenTool } from '../types.js';
import { openAiStrict, openAiStrictProblem } from './openai-strict.js';
import { onFirstUse, refusedRequest, type Checked, type ClientProfile, type PublishedTool } from './shared.js';

type AgentsCore = typeof import('@openai/agents-core');
type ListToolsParse = (value: unknown) => { tools: Tool[] };

interface Loaded {
  core: AgentsCore;
  parseList: ListToolsParse;
}

/** The real packages, imported once, on first use. */
const load = onFirstUse('openai-agents-2025-10', async (): Promise<Loaded> => {
  const core = await import('@openai/agents-core');
  const { ListToolsResultSchema } = await import('sdk-1-20/types.js');
  // The default trace exporter prints every span on stdout; the kit's runs are not traced.
  core.setTracingDisabled(true);
  return { core, parseList: (value) => ListToolsResultSchema.parse(value) as { tools: Tool[] } };
});

/** A fake MCPServer (mcp.ts `MCPServer`): tools/list as the real stdio server class parses it, and a callTool that records what it is sent. */
function fakeServer(parseList: ListToolsParse, tools: PublishedTool[], sent: { args?: Record<string, unknown> }) {
  return {
    name: 'kit',
    cacheToolsList: false,
    async connect() {},
    async close() {},
    async invalidateToolsCache() {},
    async listTools() {
      return parseList({ tools }).tools;
    },
    async callTool(_name: string, args: Record<string, unknown> | null) {
      sent.args = args ?? {};
      return [];
    },
  };
}

/** One line for the ZodError's issue list (the real message is the list, pretty-printed). */
function oneLine(error: unknown): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  try {
    return `${name}: ${JSON.stringify(JSON.parse(message))}`;
  } catch {
    return `${name}: ${message}`;
  }
}

export const openAiAgents202510: ClientProfile = {
  id: 'openai-agents-2025-10',
  title: 'OpenAI Agents SDK for JS 0.2.1 (2025-10): MCP tools sent non-strict with additionalProperties: true, unless the root allows extra keys; no argument check',
  asOf: '@openai/agents-core 0.2.1, 2025-10-25, OpenAI API',
  released: '2025-10-25',
  evidence: { kind: 'package', date: '2025-10-25', source: '@openai/agents-core 0.2.1 run' },
  sources: [
    'openai/openai-agents-js packages/agents-core/src/mcp.ts at v0.2.1 (cf1ec3fe): getAllMcpTools, mcpToFunctionTool, ensureStrictJsonSchema',
    'openai/openai-agents-js packages/agents-core/src/agent.ts at v0.2.1: getMcpTools passes convertSchemasToStrict: false',
    'openai/openai-agents-js packages/agents-core/src/shims/mcp-server/node.ts at v0.2.1: ListToolsResultSchema.parse(response).tools',
    'openai/openai-agents-js packages/agents-core/src/tool.ts and src/utils/tools.ts at v0.2.1: tool(), toFunctionToolName, JSON.parse as the only check, defaultToolErrorFunction',
    'openai/openai-agents-js packages/agents-openai/src/openaiResponsesModel.ts at v0.2.1: converTool sends parameters and strict unchanged',
    'vercel/ai#17581 (2026-07-21): a live OpenAI request with strict: false and optional parameters succeeds; strict: true gives "Missing \'limit\'"',
    'posit-dev/chatlas#255 (2026-01-02): strict: false makes OpenAI accept format: "uri", which strict mode refuses',
    'openai/openai-agents-python#449 (2025-04-07): a root object without properties is refused even for a non-strict MCP tool (this SDK always adds properties: {})',
  ],
  notes:
    'Runs @openai/agents-core 0.2.1 itself: an Agent with a fake MCP server whose listTools parses the list with the MCP ' +
    'SDK 1.20.2, as the SDK\'s stdio server class does. A strict tool is then judged by the kit\'s openai-strict rules (the ' +
    'API\'s 400). For strict: false the OpenAI API is modelled as accepting the schema as sent (vercel/ai#17581 for optional ' +
    'parameters, posit-dev/chatlas#255 for formats); the one non-strict refusal the kit knows, a root object without ' +
    'properties (openai-agents-python#449), never happens here, and whether a NESTED object without properties is refused ' +
    'under strict: false is unknown, not modelled. The ZodError that ends the run is given on one ' +
    'line. The argument check is the real FunctionTool.invoke: JSON.parse, then the call; arguments the kit hands over as an ' +
    'object always parse, so every call goes through.',
  load,
  async present(tools) {
    const { core, parseList } = await load();
    const agent = new core.Agent({ name: 'kit', mcpServers: [fakeServer(parseList, tools, {})] });
    let functionTools: Awaited<ReturnType<typeof agent.getMcpTools>>;
    try {
      functionTools = await core.withTrace('kit', () => agent.getMcpTools(new core.RunContext()));
    } catch (error) {
      return refusedRequest(`the run fails before the model is called (Agent.getAllTools): ${oneLine(error)}`);
    }
    const shown: SeenTool[] = [];
    for (const t of functionTools) {
      if (t.type !== 'function') continue;
      const parameters = structuredClone(t.parameters) as Record<string, unknown>;
      if (t.strict) {
        const problem = openAiStrictProblem(parameters);
        // The API's answer to a strict tool is the kit's openai-strict rules, on their own evidence.
        if (problem) return refusedRequest(`400 invalid_function_parameters: Invalid schema for function '${t.name}': ${problem}`, openAiStrict.evidence);
      }
      shown.push({ name: t.name, description: t.description, inputSchema: parameters });
    }
    return { tools: shown };
  },
  async validate(tool, args): Promise<Checked> {
    const { core, parseList } = await load();
    const sent: { args?: Record<string, unknown> } = {};
    const published = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema } as PublishedTool;
    const server = fakeServer(parseList, [published], sent);
    const functionTool = core.mcpToFunctionTool(published as never, server, false);
    const answer = await functionTool.invoke(new core.RunContext(), JSON.stringify(args));
    if (sent.args) return { ok: true, args: sent.args };
    return { ok: false, error: typeof answer === 'string' ? answer : JSON.stringify(answer) };
  },
};
