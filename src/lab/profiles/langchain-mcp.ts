/**
 * langchain-mcp-2026-01: a LangChain.js agent as @langchain/mcp-adapters'
 * README builds it (`MultiServerMCPClient` with its defaults, `client.getTools()`,
 * `createAgent({ llm: new ChatOpenAI({ model: "gpt-4o-mini" }), tools })`), at
 * the LangChain.js release of 2026-01-22: langchain-ai/langchainjs commit
 * ff8bf763, tag @langchain/mcp-adapters@1.1.2, which is also langchain 1.2.12
 * (whose peer is @langchain/core exactly 1.1.16) and carries @langchain/openai
 * 1.2.3; @langchain/langgraph and @langchain/langgraph-checkpoint 1.0.0 as the
 * repository's pnpm-lock.yaml at that tag resolves them. All pinned exactly,
 * all `engines` Node 20 (the adapter >=20.10.0).
 *
 * The profile runs those packages themselves, loaded on first use (external
 * to the command bundle, src/core/bundler.mjs); what runs, at that tag:
 *  - libs/langchain-mcp-adapters/src/tools.ts `loadMcpTools(serverName, client)`,
 *    the function `MultiServerMCPClient` calls for each server: it lists the
 *    tools, then for each one sets `properties: {}` where there is none, inlines
 *    `#/$defs/...` and `#/definitions/...` refs (`dereferenceJsonSchema`, PR
 *    #9525) and simplifies the schema "for LLM compatibility"
 *    (`simplifyJsonSchemaForLLM`, PR #9805, new in 1.1.2 and unchanged in 1.1.3
 *    and 1.1.4; written for langchain-ai/langchainjs#9804, OpenAI's 400 for a
 *    union at the top level): `$schema`, `not`, `if`/`then`/`else`, `unevaluatedProperties`
 *    are removed, `allOf` is merged into the node, and an `anyOf`/`oneOf` is
 *    replaced by its object branches merged: their properties side by side,
 *    `required` only what every branch requires, the branches' own
 *    `additionalProperties` and the non-object branches gone. The result is
 *    the `schema` of a `DynamicStructuredTool`. A throw there (default
 *    `throwOnLoadError: true`) fails the whole load.
 *  - The MCP client is the MCP TypeScript SDK's own `Client` (the kit's 1.32.2,
 *    in the adapter's ^1.24.0; its ToolSchema is the same as 1.25.1's, the
 *    version the lockfile at the tag resolves) over `InMemoryTransport`, to a
 *    low-level `Server` that answers `tools/list` with the published tools as
 *    they are and `tools/call` with its arguments. So the SDK's own check of a
 *    `tools/list` result runs too (a root that is not `type: "object"` fails
 *    `listTools()`).
 *  - What the model is shown: @langchain/openai 1.2.3 `ChatOpenAI.invocationParams({ tools })`,
 *    the `tools` of the Chat Completions request `bindTools` sends
 *    (libs/providers/langchain-openai/src/chat_models/base.ts
 *    `_convertChatOpenAIToolToCompletionsTool` -> core's
 *    `convertToOpenAITool`: `parameters` is the tool's JSON schema as is, no
 *    `strict` since ChatOpenAI sets none by default).
 *  - The check before the tool runs: @langchain/core 1.1.16
 *    src/tools/index.ts `StructuredTool.call`: a JSON-schema tool's input is
 *    checked with @cfworker/json-schema `validate` (draft 2019-09) against the
 *    simplified schema, and a failure throws `ToolInputParsingException("Received
 *    tool input did not match expected schema")`, without details
 *    (`verboseParsingErrors` is off). langchain 1.2.12
 *    src/agents/nodes/ToolNode.ts then wraps it in `ToolInvocationError`
 *    (src/agents/errors.ts: "Error invoking tool '<name>' with kwargs <args>
 *    with error: <stack>\n Please fix the error and try again.") and its
 *    default `handleToolErrors` returns that as the ToolMessage the model
 *    reads; any other error of the tool becomes "<error>\n Please fix your
 *    mistakes.". The profile calls the tool as ToolNode does and builds the
 *    real `ToolInvocationError`; only those two lines of ToolNode's glue are
 *    transcribed (ToolNode is not exported), and the stack's "    at ..."
 *    lines, paths of the machine that ran it, are cut.
 *
 * A load that throws: `MultiServerMCPClient._loadToolsForServer` (src/client.ts)
 * rethrows `Failed to load tools from server "<name>": <error>`, and with the
 * default `onConnectionError: "throw"` `getTools()` rejects: the app gets no
 * tool of any server. That is `lost: 'request'` here (every tool lost, with an
 * error), though no model API is involved; with `onConnectionError: "ignore"`
 * it would be one server's tools, dropped with a debug log.
 *
 * Not modelled: what the OpenAI API itself then refuses of a non-strict
 * function (the kit models OpenAI only in strict mode, openai-strict.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, SeenTool } from '../types.js';
import { copy, onFirstUse, refusedRequest, type Checked, type ClientProfile, type Presented, type PublishedTool } from './shared.js';

type Adapters = typeof import('@langchain/mcp-adapters');
type OpenAi = typeof import('@langchain/openai');
type CoreTools = typeof import('@langchain/core/tools');
type LangChain = typeof import('langchain');
interface Packages {
  adapters: Adapters;
  openai: OpenAi;
  tools: CoreTools;
  langchain: LangChain;
}
type LcTool = Awaited<ReturnType<Adapters['loadMcpTools']>>[number];

/** The server's name in the host's config; it appears only in the load error. */
export const SERVER_NAME = '<server>';

/** The packages, imported once, on first use. */
const packages = onFirstUse('langchain-mcp-2026-01', async (): Promise<Packages> => {
  const [adapters, openai, tools, langchain] = await Promise.all([import('@langchain/mcp-adapters'), import('@langchain/openai'), import('@langchain/core/tools'), import('langchain')]);
  return { adapters, openai, tools, langchain };
});

/**
 * A server that lists the tools as published and answers a call with the arguments it got, as JSON text. Without
 * their outputSchema: this server's answers are not the tool's, and the SDK client under the adapter would refuse
 * them for it; the real answer's check against the outputSchema is the runner's own call, through the same
 * `Client.callTool` the adapter uses (src/lab/connection.ts).
 */
async function connectedClient(tools: PublishedTool[]): Promise<Client> {
  const server = new Server({ name: 'published', version: '0' }, { capabilities: { tools: {} } });
  const listed = (copy(tools) as Record<string, unknown>[]).map(({ outputSchema: _answersAreNotTheTools, ...tool }) => tool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }) as never);
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'langchain-mcp-profile', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** The LangChain tool behind each tool shown, for `validate` (the shown schema is the tool's own schema). */
const behind = new Map<string, LcTool>();
const key = (tool: SeenTool) => JSON.stringify([tool.name, tool.inputSchema]);

/** README's model: `new ChatOpenAI({ model: "gpt-4o-mini", temperature: 0 })`; never called, only asked what it would send. */
function shownTools({ openai }: Packages, tools: LcTool[]): SeenTool[] {
  const model = new openai.ChatOpenAI({ model: 'gpt-4o-mini', temperature: 0, apiKey: 'not-used' });
  const params = model.invocationParams({ tools } as never) as { tools?: { function: { name: string; description?: string; parameters?: unknown } }[] };
  return (params.tools ?? []).map((t) => {
    const inputSchema = copy(t.function.parameters) as JsonSchema;
    return t.function.description === undefined ? { name: t.function.name, inputSchema } : { name: t.function.name, description: t.function.description, inputSchema };
  });
}

async function present(published: PublishedTool[]): Promise<Presented> {
  const p = await packages();
  const client = await connectedClient(published);
  let tools: LcTool[];
  try {
    // The kit's MCP SDK and the one installed with the host frameworks (hosts/) are the same version, 1.32.2, in
    // two installs: the same class at run time, two types to TypeScript (its private members make them distinct).
    tools = await p.adapters.loadMcpTools(SERVER_NAME, client as unknown as Parameters<Adapters['loadMcpTools']>[1]);
  } catch (error) {
    // libs/langchain-mcp-adapters/src/client.ts `_loadToolsForServer`.
    return refusedRequest(`Failed to load tools from server "${SERVER_NAME}": ${String(error)}`);
  }
  const seen = shownTools(p, tools);
  seen.forEach((s, i) => behind.set(key(s), tools[i]!));
  return { tools: seen };
}

/** The tool behind a shown one; a tool never presented here is loaded from its shown schema (the simplification is idempotent). */
async function toolFor(seen: SeenTool): Promise<LcTool> {
  const known = behind.get(key(seen));
  if (known) return known;
  const view = await present([seen as PublishedTool]);
  if ('rejected' in view) throw new Error(view.rejected);
  return behind.get(key(view.tools[0]!))!;
}

/** A stack without its frames: the machine's paths are no part of what the kit reproduces. */
function withoutFrames(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n');
}

async function validate(seen: SeenTool, args: Record<string, unknown>): Promise<Checked> {
  const p = await packages();
  const tool = await toolFor(seen);
  const toolCall = { name: seen.name, args, id: 'call_0' };
  try {
    // ToolNode's baseHandler: tool.invoke({ ...toolCall, type: "tool_call" }); the server echoes what it was sent.
    const message = (await tool.invoke({ ...toolCall, type: 'tool_call' })) as { content: unknown };
    return { ok: true, args: JSON.parse(String(message.content)) as Record<string, unknown> };
  } catch (error) {
    // ToolNode: a ToolInputParsingException becomes a ToolInvocationError, whose message the default handler returns;
    // anything else is returned as `${error}\n Please fix your mistakes.`
    if (error instanceof p.tools.ToolInputParsingException) return { ok: false, error: withoutFrames(new p.langchain.ToolInvocationError(error, toolCall).message) };
    return { ok: false, error: `${String(error)}\n Please fix your mistakes.` };
  }
}

export const langchainMcp: ClientProfile = {
  id: 'langchain-mcp-2026-01',
  title: 'LangChain.js createAgent + ChatOpenAI, @langchain/mcp-adapters 1.1.2 (real code)',
  asOf: '@langchain/mcp-adapters 1.1.2, langchain 1.2.12, @langchain/core 1.1.16, @langchain/openai 1.2.3, 2026-01-22',
  released: '2026-01-22',
  evidence: { kind: 'package', date: '2026-01-22', source: '@langchain/mcp-adapters 1.1.2, @langchain/core 1.1.16, @langchain/openai 1.2.3 run' },
  sources: [
    'https://github.com/langchain-ai/langchainjs/blob/%40langchain/mcp-adapters%401.1.2/libs/langchain-mcp-adapters/src/tools.ts',
    'https://github.com/langchain-ai/langchainjs/blob/%40langchain/mcp-adapters%401.1.2/libs/langchain-mcp-adapters/src/client.ts',
    'https://github.com/langchain-ai/langchainjs/blob/%40langchain/mcp-adapters%401.1.2/libs/langchain-core/src/tools/index.ts',
    'https://github.com/langchain-ai/langchainjs/blob/%40langchain/mcp-adapters%401.1.2/libs/langchain/src/agents/nodes/ToolNode.ts',
    'https://github.com/langchain-ai/langchainjs/blob/%40langchain/mcp-adapters%401.1.2/libs/providers/langchain-openai/src/chat_models/base.ts',
    'https://github.com/langchain-ai/langchainjs/pull/9805',
    'https://github.com/langchain-ai/langchainjs/issues/9804',
  ],
  notes:
    'Runs the published packages. An anyOf/oneOf is shown as its object branches merged (required: what every branch requires); ' +
    "the model's arguments are checked against that merged schema before the call (text without details). A tool the adapter cannot " +
    'load fails getTools() for every server. What the OpenAI API refuses of a non-strict function is not modelled.',
  load: packages,
  present,
  validate,
};
