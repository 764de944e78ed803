/**
 * ai-sdk-google-2026-11: an app built on the Vercel AI SDK, its MCP tools sent
 * to Gemini with `@ai-sdk/google`: ai 6.0.325 (2026-11-07), @ai-sdk/google
 * 3.0.141 (2026-11-03) and @ai-sdk/mcp 1.0.102 (2026-11-07), the newest
 * releases that declare Node 20 (`engines: >=18`; ai 7, @ai-sdk/google 4 and
 * @ai-sdk/mcp 2 want Node 22).
 *
 * The profile runs the packages themselves (npm aliases ai-sdk-6,
 * ai-sdk-google-3, ai-sdk-mcp-1), loaded on first use; nothing of their logic
 * is transcribed here. The app's code is the documented one:
 *   const client = await createMCPClient({ transport });
 *   const tools = await client.tools();
 *   await generateText({ model: google('gemini-2.5-flash'), tools, prompt });
 * with an in-memory MCP transport that answers `tools/list` with the
 * published tools and records `tools/call`, and a `fetch` that stands in for
 * the Gemini API. What runs, in vercel/ai at those tags:
 *  - packages/mcp/src/tool/types.ts `ListToolsResultSchema` (zod): a tool whose
 *    inputSchema root is not `type: "object"` (or whose `properties` is not an
 *    object) makes `listTools()` throw `MCPClientError: Failed to parse server
 *    response`, so `tools()` gives the app no tool of that server.
 *  - packages/mcp/src/tool/mcp-client.ts `toolsFromDefinitions`: each tool is
 *    `dynamicTool({ inputSchema: jsonSchema({ ...inputSchema, properties:
 *    inputSchema.properties ?? {}, additionalProperties: false }) })`, and
 *    `jsonSchema()` is given no `validate`.
 *  - packages/google/src/google-prepare-tools.ts `prepareFunctionDeclaration`
 *    and convert-json-schema-to-openapi-schema.ts: each tool becomes
 *    `{ name, description, parameters: convertJSONSchemaToOpenAPISchema(inputSchema) }`,
 *    all in one `tools: [{ functionDeclarations }]` of a v1beta generateContent
 *    request (the legacy OpenAPI-subset field); a recursive `$ref` falls back to
 *    `parametersJsonSchema`; an enum it cannot express or an unresolvable
 *    `$ref` throws UnsupportedFunctionalityError and the request never goes.
 *  - packages/ai/src/generate-text/parse-tool-call.ts `doParseToolCall`: the
 *    model's input is parsed as JSON and passed to the schema's `validate`,
 *    which MCP tools do not have, so any JSON object reaches the server.
 *  - packages/mcp/src/tool/mcp-client.ts `callTool` and `toolsFromDefinitions`:
 *    `tools()` (schemas "automatic") takes no outputSchema from the server, so a
 *    tool's execute returns the tools/call result as CallToolResultSchema
 *    parsed it; only an outputSchema the app passes itself (`schemas: {...}`)
 *    makes it read `structuredContent` (extractStructuredContent). So the
 *    published outputSchema is never checked (`checksOutputSchema: false`;
 *    `validate` below runs that execute on a result with no structuredContent).
 *
 * What the Gemini API then refuses is the kit's model of the legacy field
 * (gemini-api.ts), see API below.
 */
import type { JsonSchema } from '../types.js';
import { CURRENT_2026_09, LEGACY_2025_06, legacyApiRefusal, type LegacyApiRules } from './gemini-api.js';
import { copy, droppedServer, isObject, keptForShown, noParameters, onFirstUse, refusedRequest, seenTool, type Checked, type ClientProfile, type Evidence, type PublishedTool } from './shared.js';

/**
 * The Gemini API's answer to the legacy `parameters` field: the kit's rules
 * of 2025-06 (LEGACY_2025_06, the newest it has), with the enum check off.
 * 2026 reports show the parse stage unchanged: `Unknown name "..." ...
 * Cannot find field.` for keywords the Schema message lacks
 * (www-zaq-ai/zaq#555, 2026-07-04; zed-industries/zed#62539, 2026-08-12;
 * openswarm-ai/openswarm#24, 2026-05-06) and `Proto field is not repeating`
 * for a type list (WordPress/ai-provider-for-google#33, 2026-07-27). Of what
 * this converter sends, only `oneOf` and `allOf` can meet that stage (it
 * resolves `$ref`, turns `const` into `enum`, type lists into `nullable` or
 * `anyOf`, and drops `additionalProperties`, `$schema`, `$defs`); their
 * refusal is the kit's modelled text (no report found).
 * The enum check is off: @ai-sdk/google sends numeric and boolean enums as
 * `{type: "number", format: "enum", enum: ["1", "2"]}` since vercel/ai#18652
 * (da78d58e, 2026-08-10), checked end to end against gemini-2.5-flash there,
 * which the 2025-06 rule ("enum: only allowed for STRING type") would refuse;
 * whether an empty enum value is still refused in 2026 is unknown.
 * The string-format rule (only "enum" and "date-time") and "items: missing
 * field" are 2025 evidence applied to 2026-11: unconfirmed at that date.
 * With an API key the parse stage names declarations `tools[0].function_declarations[i]`.
 */
const API: LegacyApiRules = { ...LEGACY_2025_06, checksEnums: false, parsePrefix: 'tools[0].function_declarations' };

/**
 * What a refusal by the API (above) rests on, weaker than the package run the rest of the profile is. An Unknown-name
 * refusal of a keyword the 2026-09 Schema message has no field for (oneOf, $schema, const, ...) rests on that message
 * itself (content.proto in @google-ai/generativelanguage 4.1.0, gemini-api.ts CURRENT_2026_09) and on the parse stage's
 * Unknown-name refusals reported in 2026: confirmed. Any other refusal (the format and items rules) is the 2025 reports
 * applied to 2026-11, when the proto says of `format` "Any value is allowed": unconfirmed.
 */
function apiEvidence(refusal: string): Evidence {
  const unknown = /Unknown name "([^"]+)"/.exec(refusal)?.[1];
  if (unknown !== undefined && CURRENT_2026_09.unknownName(unknown))
    return { kind: 'code', date: '2026-09-13', source: `no "${unknown}" field in the Schema message (content.proto, @google-ai/generativelanguage 4.1.0); Unknown-name refusals reported in 2026 (zed#62539, zaq#555)` };
  return { kind: 'report', date: '2025-07-03', source: "the kit's 2025-06 rules of Gemini's legacy field (gemini-cli#3178), applied to 2026-11", unconfirmed: true };
}

type Ai = typeof import('ai-sdk-6');
type Google = typeof import('ai-sdk-google-3');
type Mcp = typeof import('ai-sdk-mcp-1');
interface Packages {
  ai: Ai;
  google: Google;
  mcp: Mcp;
}

type McpToolSet = Awaited<ReturnType<Awaited<ReturnType<Mcp['createMCPClient']>>['tools']>>;

/** The three packages, imported once, on first use. */
const packages = onFirstUse('ai-sdk-google-2026-11', async (): Promise<Packages> => {
  // The AI SDK prints its warnings on the console unless told not to (packages/ai/src/logger/log-warnings.ts).
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const [ai, google, mcp] = await Promise.all([import('ai-sdk-6'), import('ai-sdk-google-3'), import('ai-sdk-mcp-1')]);
  return { ai, google, mcp };
});

type Message = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, unknown> };

/**
 * An MCP server in memory, as `createMCPClient({ transport })` takes one: it
 * answers `initialize` and `tools/list` (the published tools, one page) and
 * records the arguments of every `tools/call`.
 */
function memoryTransport(tools: PublishedTool[], calls: Record<string, unknown>[]) {
  const transport = {
    onmessage: undefined as ((message: unknown) => void) | undefined,
    async start() {},
    async close() {},
    async send(message: Message) {
      if (message.id === undefined) return; // notifications/initialized
      let result: unknown;
      if (message.method === 'initialize') result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'kit-server', version: '1.0.0' } };
      else if (message.method === 'tools/list') result = { tools: copy(tools) };
      else if (message.method === 'tools/call') {
        calls.push(copy((message.params?.arguments ?? {}) as Record<string, unknown>));
        result = { content: [{ type: 'text', text: 'ok' }] };
      } else result = {};
      queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id: message.id, result }));
    },
  };
  return transport;
}

/**
 * The app's `await createMCPClient({ transport })` and `client.tools()`, or the
 * error they throw; `use` runs while the client is open (a tool's execute
 * sends tools/call through it).
 */
async function withMcpTools<T>(p: Packages, tools: PublishedTool[], calls: Record<string, unknown>[], use: (tools: McpToolSet) => Promise<T>): Promise<T> {
  const client = await p.mcp.createMCPClient({ transport: memoryTransport(tools, calls) as never });
  try {
    return await use(await client.tools());
  } finally {
    await client.close();
  }
}

type Declaration = { name: string; description?: string; parameters?: JsonSchema; parametersJsonSchema?: JsonSchema };

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A model API that answers with `parts`: a text, or a function call. */
const answer = (parts: unknown[]) => json(200, { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } });

/** The text of an error the SDK throws, as the app would log it: `AI_APICallError: ...`. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  // A ZodError's issues, in one line each: where and what (the MCP client's "Failed to parse server response" says neither).
  const issues = isObject(cause) && Array.isArray(cause.issues) ? (cause.issues as { path: unknown[]; message: string }[]) : [];
  const detail = issues.map((i) => `${i.message} at ${i.path.map(String).join('.')}`).join('; ');
  return `${error.name}: ${error.message}${detail ? ` (${detail})` : ''}`;
}

/** The published tool behind each shown one: what the app's MCP client built the tool from (validate). */
const publishedOf = keptForShown<PublishedTool>();

/** Every error the AI SDK packages throw carries this marker (packages/provider/src/errors/ai-sdk-error.ts). */
const isSdkError = (error: unknown) => error instanceof Error && Symbol.for('vercel.ai.error') in error;

export const aiSdkGoogle: ClientProfile = {
  id: 'ai-sdk-google-2026-11',
  title: 'Vercel AI SDK 6 + @ai-sdk/google 3 (2026-11): JSON Schema converted to Gemini\'s OpenAPI subset, no argument check (the real packages)',
  asOf: 'ai 6.0.325 (2026-11-07), @ai-sdk/google 3.0.141 (2026-11-03), @ai-sdk/mcp 1.0.102 (2026-11-07); Gemini API legacy parameters as of the kit\'s 2025-06 rules',
  released: '2026-11-07',
  evidence: { kind: 'package', date: '2026-11-07', source: 'ai 6.0.325, @ai-sdk/google 3.0.141, @ai-sdk/mcp 1.0.102 run' },
  checksOutputSchema: false,
  sources: [
    'vercel/ai packages/mcp/src/tool/mcp-client.ts and src/tool/types.ts at tag @ai-sdk/mcp@1.0.102: tools(), toolsFromDefinitions, ListToolsResultSchema',
    'vercel/ai packages/google/src/convert-json-schema-to-openapi-schema.ts and google-prepare-tools.ts at tag @ai-sdk/google@3.0.141',
    'vercel/ai packages/ai/src/generate-text/parse-tool-call.ts at tag ai@6.0.325; packages/provider-utils/src/schema.ts jsonSchema() (no validate)',
    'vercel/ai#18652 (da78d58e, 2026-08-10): non-string enums as format "enum"; vercel/ai#19141 (6c5a1ed9, 2026-08-20): local $ref inlined',
    'www-zaq-ai/zaq#555 (2026-07), zed-industries/zed#62539 (2026-08), openswarm-ai/openswarm#24 (2026-05): Unknown name ... Cannot find field; WordPress/ai-provider-for-google#33 (2026-07): type list',
    'the kit\'s 2025-06 rules of the legacy field (gemini-api.ts LEGACY_2025_06) for formats and items',
  ],
  notes:
    'Runs the published packages. The MCP client (@ai-sdk/mcp) refuses a tools/list with a tool whose root is not an ' +
    'object: the app gets no tool of that server (MCPClientError, quoted with its zod issues). @ai-sdk/google keeps ' +
    'description, required, format, type, enum, properties, items, anyOf, oneOf, allOf and minLength; it drops ' +
    'additionalProperties, default, title, minimum, maximum, maxLength, pattern, minItems, maxItems and the rest ' +
    'without a word; const becomes a one-value enum, a local $ref is inlined, a type list becomes nullable or an anyOf ' +
    'of the types, anyOf with null becomes nullable. The model is shown these parameters as sent (with Gemini\'s ' +
    '"nullable" and "format": "enum" as they are). The API\'s answer is the kit\'s 2025-06 rules of the legacy field ' +
    'without its enum check (2026 evidence for the Unknown-name stage; formats and items unconfirmed at this date); the ' +
    'refusal text is what @ai-sdk/google makes of the modelled 400. The AI SDK does not validate the model\'s arguments ' +
    'for MCP tools (jsonSchema() without validate): every call reaches the server as the model wrote it. Tool names ' +
    'are sent and shown unchanged (whether the API refuses a name is not modelled).',

  load: packages,
  async present(tools) {
    const p = await packages();
    let declarations: Declaration[] = [];
    let apiRefusal: string | undefined;
    const google = p.google.createGoogleGenerativeAI({
      apiKey: 'kit',
      fetch: (async (_url: unknown, init?: { body?: unknown }) => {
        const body = JSON.parse(String(init?.body)) as { tools?: { functionDeclarations?: Declaration[] }[] };
        declarations = body.tools?.flatMap((t) => t.functionDeclarations ?? []) ?? [];
        const refusal = legacyApiRefusal(API, declarations.map((d) => d.parameters));
        if (refusal) {
          apiRefusal = refusal;
          return json(400, { error: { code: 400, message: refusal, status: 'INVALID_ARGUMENT' } });
        }
        return answer([{ text: 'ok' }]);
      }) as typeof fetch,
    });
    let listed = false;
    try {
      await withMcpTools(p, tools, [], async (aiTools) => {
        listed = true;
        await p.ai.generateText({ model: google('gemini-2.5-flash'), tools: aiTools, prompt: 'Hello.', maxRetries: 0 });
      });
    } catch (error) {
      if (!isSdkError(error)) throw error;
      // The MCP client refused tools/list: the app has no tool of this server.
      if (!listed) return droppedServer(errorText(error));
      // Thrown before the request (UnsupportedFunctionalityError) or the API's 400 (APICallError): the request fails, every tool with it.
      return refusedRequest(errorText(error), apiRefusal === undefined ? undefined : apiEvidence(apiRefusal));
    }
    const byName = new Map(declarations.map((d) => [d.name, d]));
    return {
      tools: tools.map((tool) => {
        const sent = byName.get(tool.name);
        const seen = seenTool(tool, copy(sent?.parameters ?? sent?.parametersJsonSchema ?? noParameters()));
        publishedOf.keep(seen, copy(tool));
        return seen;
      }),
    };
  },

  /**
   * The model calls the tool with `args`: its answer goes through
   * @ai-sdk/google's response parsing and the AI SDK's tool-call parsing to
   * the MCP tool's `execute`, and on to the in-memory server. What the server
   * receives is what the host sends; a `tool-error` is what the model is told.
   * The tool is built from the published schema `present` was given, as the
   * app's MCP client built it (the shown one is @ai-sdk/google's conversion,
   * which it would not take back: a numeric enum shown as strings under
   * `format: "enum"` is refused by the converter as a schema of its own);
   * else, for a tool `present` did not show, from the shown schema (the check
   * does not read it: there is none).
   */
  async validate(tool, args): Promise<Checked> {
    const p = await packages();
    const calls: Record<string, unknown>[] = [];
    const google = p.google.createGoogleGenerativeAI({ apiKey: 'kit', fetch: (async () => answer([{ functionCall: { name: tool.name, args } }])) as typeof fetch });
    const built = [publishedOf.find(tool) ?? { name: tool.name, description: tool.description, inputSchema: tool.inputSchema as PublishedTool['inputSchema'] }];
    const result = await withMcpTools(p, built, calls, (aiTools) => p.ai.generateText({ model: google('gemini-2.5-flash'), tools: aiTools, prompt: 'Call the tool.', maxRetries: 0 }));
    const failed = result.content.find((part) => part.type === 'tool-error');
    if (failed) return { ok: false, error: failed.error instanceof Error ? failed.error.message : String(failed.error) };
    if (calls.length !== 1) throw new Error(`the AI SDK made ${calls.length} tools/call for one function call`);
    return { ok: true, args: calls[0]! };
  },
};
