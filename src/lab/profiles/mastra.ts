/**
 * mastra-google-2025-12: a Mastra 0.x agent (`@mastra/core` 0.24.9) with the
 * tools of an MCP server (`@mastra/mcp` 0.14.5 `MCPClient`) and a Gemini model
 * through Mastra's model router (`'google/gemini-2.5-flash'`), so its schema
 * compatibility layer is `GoogleSchemaCompatLayer` of `@mastra/schema-compat`
 * 0.11.9. Released between 2025-12-08 (mastra-ai/mastra#10993, in @mastra/mcp
 * 0.14.5) and 2026-01-05 (mastra-ai/mastra#11599 bumps to ^0.24.9 / ^0.14.5);
 * the last 0.x line, and the last that runs on Node 20 (schema-compat 1.x
 * needs Node >=22.13). The profile runs these packages themselves, loaded on
 * first use; nothing below is transcribed except two one-line hand-overs
 * (marked).
 *
 * What the real code does (mastra-ai/mastra at the package tags):
 *  - packages/mcp/src/client/client.ts @ @mastra/mcp@0.14.5, `tools()`: lists
 *    the tools, then for each: `convertInputSchema` (json-schema-ref-parser's
 *    `dereference`, then `convertJsonSchemaToZod` of zod-from-json-schema when
 *    the app's zod is v4) and `createTool`. A tool whose conversion throws is
 *    logged and left out; the others stay. A `tools/list` that does not parse
 *    (the MCP SDK's ListToolsResultSchema) throws out of `tools()`, and
 *    configuration.ts `getTools()`/`getToolsets()` rethrow it
 *    (MCP_CLIENT_GET_TOOLSETS_FAILED): the app gets no MCP tools at all.
 *  - packages/core/src/agent/agent.ts @ @mastra/core@0.24.9: the app hands the
 *    agent the MCP tools (`toolsets` from `getToolsets()`, or `tools` from
 *    `getTools()`), and each call's prepare-tools step runs `convertTools`:
 *    each tool goes through `makeCoreTool(tool, {name, model, ...})`, then
 *    `formatTools` renames every name with a character outside
 *    `[a-zA-Z0-9_-]` (each one to `_`), not starting with a letter or `_`
 *    (`_` put first) or longer than 63 (cut), and a renamed name that meets
 *    another tool's throws MastraError AGENT_TOOL_NAME_COLLISION (`Two or
 *    more tools resolve to the same name "<name>". ...`): the agent's call
 *    fails before the model is asked (`generate` rethrows it as
 *    AGENT_STREAM_FAILED), every tool of every server with it. The profile
 *    builds a real `Agent` and runs that very `convertTools`. `makeCoreTool`
 *    is
 *    src/tools/tool-builder/builder.ts `CoreToolBuilder.build()`: the first
 *    compat layer whose `shouldApply()` holds (Google's, for a provider id
 *    containing "google") rewrites the zod schema (`processZodType`), and
 *    `applyCompatLayer` turns it into the AI SDK schema sent
 *    (schema-compat src/utils.ts, src/zod-to-json.ts: `z.toJSONSchema(...,
 *    {unrepresentable: 'any'})`). A throw here ends the agent's call before
 *    the model is asked.
 *  - packages/core/src/stream/aisdk/v5/compat/prepare-tools.ts: the tool is
 *    handed to the model, under its formatted name, as
 *    `asSchema(inputSchema).jsonSchema` (transcribed: `parameters.jsonSchema`
 *    below; the rest of `generate`, a workflow that logs a failed step on the
 *    console whatever the agent's logger, is not run).
 *  - packages/core/src/llm/model/gateway-resolver.ts: `google/...` is
 *    `createGoogleGenerativeAI({apiKey}).chat(modelId)` of `@ai-sdk/google-v5`
 *    (@ai-sdk/google 2.0.40, pinned by core): vercel/ai
 *    packages/google/src/google-prepare-tools.ts and
 *    convert-json-schema-to-openapi-schema.ts @ @ai-sdk/google@2.0.40 write
 *    the `functionDeclarations` actually sent. The profile hands the agent that
 *    provider's model (as an app may, in place of the router's string; the
 *    router builds the same object) and runs its `doGenerate` against a fetch
 *    that only records the request body.
 *  - The argument check: builder.ts `createExecute` runs core
 *    src/tools/validation.ts `validateToolInput` on the Google-processed zod
 *    schema; on failure the tool RETURNS `{error: true, message, validationErrors}`
 *    (the model gets it as the tool's result; the text below is its `message`).
 *    Then src/tools/tool.ts `Tool.execute` checks again with the converted
 *    (unprocessed) schema, and @mastra/mcp's execute sends `context` to
 *    `callTool`: the parsed data, so defaults are filled in, and a key that
 *    an `additionalProperties: false` root does not list is dropped, not
 *    refused (zod-from-json-schema 0.5.2 makes that root a plain
 *    `z.object(shape)`, which strips unknown keys). The profile runs that execute with a fake MCP client whose
 *    `callTool` hands back what it was sent.
 *
 * Not modelled: what the Gemini API then answers to the request (the
 * gemini-api.ts rules are the kit's transcription for other dates); here the
 * request is shown as sent.
 */
import type { SeenTool } from '../types.js';
import { droppedServer, keptForShown, noParameters, onFirstUse, refusedRequest, type Checked, type ClientProfile, type Presented, type PublishedTool } from './shared.js';

/** What a CoreTool of @mastra/core 0.24.9 carries that the profile reads. */
interface CoreTool {
  description?: string;
  parameters: { jsonSchema: Record<string, unknown> };
  execute?: (args: unknown, options: { toolCallId: string; messages: unknown[] }) => Promise<unknown>;
}

/** The part of a @mastra/core 0.24.9 `Agent` the profile runs (`convertTools` is marked private in its types, not in its code). */
interface MastraAgent {
  __setLogger(logger: unknown): void;
  convertTools(options: { toolsets: Record<string, Record<string, unknown>> }): Promise<Record<string, CoreTool>>;
}

interface Loaded {
  /** `InternalMastraMCPClient` (not exported: the parent class of the deprecated `MastraMCPClient`). */
  McpClient: new (options: { name: string; server: Record<string, unknown> }) => {
    client: unknown;
    __setLogger(logger: unknown): void;
    tools(): Promise<Record<string, unknown>>;
  };
  agent: (model: unknown) => MastraAgent;
  google: (fetch: typeof globalThis.fetch) => { provider: string; doGenerate(options: unknown): Promise<unknown> };
  parseList: (value: unknown) => { tools: unknown[] };
}

const MODEL_ID = 'gemini-2.5-flash';

/** Mastra logs through a logger of its own; the kit's runs print nothing of it, and keep its error lines (why a tool was left out). */
function logger(errors: string[] = []) {
  return { debug() {}, info() {}, warn() {}, error: (message: unknown) => void errors.push(String(message)), trackException() {}, getTransports: () => new Map() };
}
const SILENT = logger();

/** The real packages, imported once, on first use. */
const load = onFirstUse('mastra-google-2025-12', async (): Promise<Loaded> => {
  const [{ MastraMCPClient }, { Agent }, { createGoogleGenerativeAI }, { ListToolsResultSchema }] = await Promise.all([
    import('@mastra/mcp'),
    import('@mastra/core/agent'),
    import('@ai-sdk/google-v5'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    McpClient: Object.getPrototypeOf(MastraMCPClient) as Loaded['McpClient'],
    agent: (model) => new Agent({ name: 'kit', instructions: 'kit', model: model as never }) as unknown as MastraAgent,
    google: (fetch) => createGoogleGenerativeAI({ apiKey: 'kit', fetch }).chat(MODEL_ID) as unknown as ReturnType<Loaded['google']>,
    parseList: (value) => ListToolsResultSchema.parse(value),
  };
});

/** The mark on what the fake `callTool` returns: the arguments Mastra sent to the server. */
const SENT = Symbol('sent');

/** A fake MCP SDK client under the real Mastra client: tools/list parsed as the SDK's Client parses it, and a callTool that returns what it was sent. */
function fakeSdkClient(loaded: Loaded, tools: PublishedTool[]) {
  return {
    async listTools() {
      return loaded.parseList({ tools: structuredClone(tools) });
    },
    async callTool(params: { arguments?: Record<string, unknown> }) {
      return { content: [], [SENT]: params.arguments ?? {} };
    },
  };
}

/** Why a call failed, on one line (a ZodError's message is its issue list, pretty-printed JSON). */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  try {
    return `${error instanceof Error ? error.name : 'Error'}: ${JSON.stringify(JSON.parse(message))}`;
  } catch {
    return message.split('\n')[0]!;
  }
}

/** The name the app gives the server in its MCPClient's `servers` (the toolset's key; `getTools()` would prefix it to each tool name). */
const SERVER = 'kit';

/**
 * Where in the agent a conversion failed: `formatTools`' name collision (MastraError AGENT_TOOL_NAME_COLLISION), else
 * the compat layer in `CoreToolBuilder.build` (an unsupported zod type).
 */
function agentLayer(error: unknown): string {
  return (error as { id?: unknown } | null)?.id === 'AGENT_TOOL_NAME_COLLISION' ? 'Agent.formatTools, AGENT_TOOL_NAME_COLLISION' : 'CoreToolBuilder.build';
}

/** Each shown tool's CoreTool, for `validate`. */
const coreOf = keptForShown<CoreTool>();

/**
 * Runs Mastra's tool conversion with no network. Its `convertInputSchema` calls
 * `$RefParser.dereference`, whose http resolver fetches a remote `$ref` with the
 * global fetch under a 60-second abort timer (@apidevtools/json-schema-ref-parser
 * 14.2.1, `lib/resolvers/http.ts` `get`). A lab or a lint run must not reach the
 * network. Here every such fetch is answered at once with a 404 whose status text
 * says why: the resolver clears its timer and throws "HTTP ERROR 404", and Mastra
 * logs the tool and leaves it out, as it does in an app when the URL answers no
 * schema. (A fetch that threw instead would skip the resolver's clearTimeout and
 * keep the process alive for the full minute; a URL that answers a schema would be
 * inlined by a real app: not modelled.) The MCP transport is faked and the model's
 * fetch is the profile's own, so the global fetch is held only around this call;
 * overlapping calls share one hold.
 */
let holds = 0;
let networkFetch: typeof globalThis.fetch | undefined;
async function offline<T>(run: () => Promise<T>): Promise<T> {
  if (holds++ === 0) {
    networkFetch = globalThis.fetch;
    globalThis.fetch = (async () => new Response(null, { status: 404, statusText: 'not fetched: the kit has no network in a lab' })) as typeof globalThis.fetch;
  }
  try {
    return await run();
  } finally {
    if (--holds === 0) globalThis.fetch = networkFetch!;
  }
}

async function present(tools: PublishedTool[]): Promise<Presented> {
  const loaded = await load();
  const client = new loaded.McpClient({ name: 'kit', server: { command: 'kit', enableServerLogs: false } });
  const logged: string[] = [];
  client.__setLogger(logger(logged));
  client.client = fakeSdkClient(loaded, tools);
  let mastraTools: Record<string, unknown>;
  try {
    mastraTools = await offline(() => client.tools());
  } catch (error) {
    // configuration.ts getTools(): MastraError MCP_CLIENT_GET_TOOLSETS_FAILED around this; the agent gets no MCP tools.
    return refusedRequest(`MCPClient.getTools() throws (MCP_CLIENT_GET_TOOLSETS_FAILED): ${reason(error)}`);
  }
  const names = Object.keys(mastraTools);
  if (names.length === 0 && tools.length > 0)
    return droppedServer(`every tool left out, each logged: ${logged.filter((l) => l.includes('Failed to create Mastra tool wrapper')).join('; ')}`);
  let body: { tools?: { functionDeclarations?: { name: string; description?: string; parameters?: Record<string, unknown> }[] } } | undefined;
  const fetch = (async (_url: unknown, init?: { body?: unknown }) => {
    body = JSON.parse(String(init?.body));
    return new Response(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  const model = loaded.google(fetch);
  const agent = loaded.agent(model);
  agent.__setLogger(SILENT);
  let formatted: Record<string, CoreTool>;
  try {
    // The app's `agent.generate(prompt, { toolsets: await mcp.getToolsets() })`: one toolset, this server's.
    formatted = await agent.convertTools({ toolsets: { [SERVER]: mastraTools } });
  } catch (error) {
    return refusedRequest(`the agent's call fails before the model is asked (${agentLayer(error)}): ${reason(error)}`);
  }
  const core = Object.values(formatted);
  // prepare-tools.ts (transcribed): { type: 'function', name, description, inputSchema: asSchema(parameters).jsonSchema }.
  const functionTools = Object.entries(formatted).map(([name, t]) => ({ type: 'function', name, description: t.description, inputSchema: t.parameters.jsonSchema }));
  try {
    await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'kit' }] }], tools: functionTools });
  } catch (error) {
    return refusedRequest(`@ai-sdk/google 2.0.40 refuses the tools before sending: ${reason(error)}`);
  }
  const declarations = body?.tools?.functionDeclarations ?? [];
  const shown: SeenTool[] = declarations.map((d, i) => {
    const seen: SeenTool = { name: d.name, ...(d.description === undefined ? {} : { description: d.description }), inputSchema: d.parameters ?? noParameters() };
    coreOf.keep(seen, core[i]!);
    return seen;
  });
  return { tools: shown };
}

async function validate(tool: SeenTool, args: Record<string, unknown>): Promise<Checked> {
  const core = coreOf.find(tool);
  if (!core?.execute) throw new Error(`mastra-google-2025-12: validate was given a tool its present did not show (${tool.name})`);
  const answer = await core.execute(structuredClone(args), { toolCallId: 'kit', messages: [] });
  if (answer !== null && typeof answer === 'object') {
    if (SENT in answer) return { ok: true, args: (answer as { [SENT]: Record<string, unknown> })[SENT] };
    const { error, message } = answer as { error?: unknown; message?: unknown };
    if (error === true && typeof message === 'string') return { ok: false, error: message };
  }
  throw new Error(`mastra-google-2025-12: the tool's execute answered neither a call nor a validation error: ${String(answer)}`);
}

export const mastraGoogle202512: ClientProfile = {
  id: 'mastra-google-2025-12',
  title: 'Mastra 0.24.9 agent, MCP tools to Gemini (2025-12): JSON Schema to zod and back, Google compat layer, @ai-sdk/google 2.0.40; zod check before the call',
  asOf: '@mastra/core 0.24.9, @mastra/mcp 0.14.5, @mastra/schema-compat 0.11.9, 2025-12; Gemini via the model router',
  released: '2025-12-08', // the earliest day this set of versions was out (above)
  evidence: { kind: 'package', date: '2025-12-08', source: '@mastra/core 0.24.9, @mastra/mcp 0.14.5, @ai-sdk/google 2.0.40 run' },
  sources: [
    'mastra-ai/mastra packages/mcp/src/client/client.ts at @mastra/mcp@0.14.5: tools(), convertInputSchema (dereference, convertJsonSchemaToZod)',
    'mastra-ai/mastra packages/mcp/src/client/configuration.ts at @mastra/mcp@0.14.5: getTools/getToolsets rethrow MCP_CLIENT_GET_TOOLSETS_FAILED',
    'mastra-ai/mastra packages/core/src/agent/agent.ts at @mastra/core@0.24.9: convertTools, formatTools (names outside [a-zA-Z0-9_-] renamed; AGENT_TOOL_NAME_COLLISION)',
    'mastra-ai/mastra packages/core/src/tools/tool-builder/builder.ts at @mastra/core@0.24.9: CoreToolBuilder.build, createExecute',
    'mastra-ai/mastra packages/core/src/tools/validation.ts and src/tools/tool.ts at @mastra/core@0.24.9: validateToolInput, Tool.execute',
    'mastra-ai/mastra packages/core/src/stream/aisdk/v5/compat/prepare-tools.ts and src/llm/model/gateway-resolver.ts at @mastra/core@0.24.9',
    'mastra-ai/mastra packages/schema-compat/src/provider-compats/google.ts, src/schema-compatibility-v4.ts, src/utils.ts, src/zod-to-json.ts at @mastra/schema-compat@0.11.9',
    'vercel/ai packages/google/src/google-prepare-tools.ts and convert-json-schema-to-openapi-schema.ts at @ai-sdk/google@2.0.40',
  ],
  notes:
    'Runs the packages themselves: the real Mastra MCP client over a fake MCP SDK client (tools/list parsed with the kit\'s ' +
    'MCP SDK 1.32.2, which @mastra/mcp resolves here; ^1.17.5 at the time), a real Agent whose convertTools (makeCoreTool, then formatTools: ' +
    'names renamed, a collision the agent\'s error) has an @ai-sdk/google 2.0.40 model whose fetch only records the request, and the real tool execute for the argument check. The app\'s zod is ' +
    'the kit\'s 4.6.7 (`mastra create` 0.18.9 installs zod@^4; a 2025-12 app had an earlier 4.x, whose toJSONSchema and ' +
    'messages may differ in detail). The model is shown the request\'s `parameters` (lowercase types, OpenAPI `nullable`); ' +
    'a declaration without parameters is shown as an object with no properties. A validation failure is returned to the ' +
    'model as the tool result {error: true, message, validationErrors}; its message is the text here. The Gemini API\'s own ' +
    'answer to the request is not modelled.',
  load,
  present,
  validate,
};
