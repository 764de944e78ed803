/**
 * gemini-cli-2025-06: gemini-cli v0.1.1 (the first public release,
 * 2025-06-25; the same path to v0.1.9) sending MCP tools to the Gemini API's
 * legacy `parameters` field, which parsed `anyOf` (since 2025-02 at least:
 * gemini-api.ts) and knew title and default by then (LEGACY_2025_06).
 *
 * google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts at 6991ba13
 * ("Version 0 1 1 (#1426)"):
 *   const mcpCallableTool = mcpToTool(mcpClient);
 *   const discoveredToolFunctions = await mcpCallableTool.tool();   // @google/genai 1.4.0, genai-mcp.ts
 *   ... sanatizeParameters(funcDecl.parameters); ... registerTool(new DiscoveredMCPTool(..., parameterSchema, ...))
 *   } catch (error) { console.error(`Failed to list or register tools for MCP server '${mcpServerName}': ${error}`); ... }
 * and packages/core/src/core/client.ts sends `tools: [{ functionDeclarations }]`.
 */
import type { JsonSchema } from '../types.js';
import { LEGACY_2025_06, legacyApiRefusal, type LegacyApiRules } from './gemini-api.js';
import { GenaiError, lowercaseTypes, mcpToolParameters } from './genai-mcp.js';
import { mcpListProblem } from './mcp-sdk.js';
import { copy, droppedServer, isObject, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

/**
 * The parse stage names the declarations `request.tools[0]...` for gemini-cli
 * (google-gemini/gemini-cli#2031, 2025-06-26; microsoft/azure-devops-mcp#145,
 * 2025-06-27): the request travels wrapped, as with the Code Assist login;
 * with an API key the path would start at `tools[0]`.
 */
const API: LegacyApiRules = { ...LEGACY_2025_06, parsePrefix: 'request.tools[0].function_declarations' };

/**
 * gemini-cli `sanatizeParameters` (mcp-client.ts at 6991ba13, added in
 * 07880d43 "Sanitize MCP FunctionDeclarations to workaround Vertex bug
 * (#1330)", 2025-06-23): "Vertex AI gets confused if both anyOf and default
 * are set", so `default` goes wherever `anyOf` is; it recurses through anyOf,
 * items and properties. (Its format rule came in b564d4a0, first in v0.1.10:
 * not in this profile.)
 */
function sanatizeParameters(schema: unknown): void {
  if (!isObject(schema)) return;
  if (Array.isArray(schema.anyOf)) {
    delete schema.default;
    for (const item of schema.anyOf) sanatizeParameters(item);
  }
  if (schema.items) sanatizeParameters(schema.items);
  if (isObject(schema.properties)) for (const item of Object.values(schema.properties)) sanatizeParameters(item);
}

const lost = (server: string, text: string) => `Failed to list or register tools for MCP server '${server}': ${text}`;

export const geminiCli202506: ClientProfile = {
  id: 'gemini-cli-2025-06',
  title: 'gemini-cli v0.1.1 (2025-06): @google/genai drops oneOf/const/$ref silently, "type and anyOf" loses the server, format/enum 400s',
  asOf: 'gemini-cli v0.1.1, 2025-06-25, @google/genai 1.4.0, Gemini API legacy parameters',
  released: '2025-06-25',
  evidence: { kind: 'code', date: '2025-06-25', source: 'gemini-cli mcp-client.ts read at 6991ba13 (v0.1.1); @google/genai 1.4.0 transcribed, held to the package' },
  sources: [
    'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts at 6991ba13 (v0.1.1): mcpToTool, sanatizeParameters (07880d43), the "Failed to list or register tools" catch',
    'googleapis/js-genai src/_transformers.ts at tag v1.4.0 (6077e53f): mcpToGeminiTool, filterToJsonSchema, processJsonSchema; src/types.ts Type; src/mcp/_mcp.ts McpCallableTool.initialize (duplicate names) and tool(); proved against the npm package 1.4.0 by test/parity-genai.test.ts',
    'modelcontextprotocol/typescript-sdk src/types.ts ToolSchema at tag 1.12.1 (the SDK in gemini-cli v0.1.1\'s package-lock.json)',
    'google-gemini/gemini-cli#4121 (2025-07-14), evcc-io/evcc#22400 (2025-07-16), DzAvril/MoviePilot-Plugins#23 (2025-07-03): "type and anyOf cannot be both populated."',
    'googleapis/python-genai#447 and commit 891d736d (unions in that SDK for Gemini API users from 2025-03-13); QuantumNous/new-api#766 (any_of parsed by 2025-02)',
    'google-gemini/gemini-cli#3178 (2025-07-03, CLI 0.1.7), aaif-goose/goose#2792 (2025-06-05): only \'enum\' and \'date-time\' are supported for STRING type',
    'google-gemini/gemini-cli#2031 (2025-06-26), microsoft/azure-devops-mcp#145 (2025-06-27): non-string enum values',
    'nanbingxyz/5ire#218, makenotion/notion-mcp-server#42 (2025-05: enum only allowed for STRING type); google-gemini/gemini-cli#3401 (2025-07-06: enum[0] cannot be empty)',
    'cline/cline#7926 (items: missing field)',
  ],
  notes:
    'The SDK keeps 20 keys and drops the rest without a word: a oneOf or a $ref parameter becomes {} (no type), a ' +
    'const disappears, additionalProperties and $schema go; anyOf is kept, and the API of this date takes it. When one ' +
    'node has both type and anyOf, the SDK throws and gemini-cli loses every tool of that server; it logs the ' +
    'message quoted here and then "No tools registered from MCP server \'<server>\'. Closing connection." (evcc#22400). ' +
    'Two tools of one name, or a tool named after a property of Object.prototype ("constructor", "toString"), make the ' +
    'SDK throw "Duplicate function name ..." and lose the server the same way (reproduced by running 1.4.0). ' +
    'A type given as a list makes the SDK throw "TypeError: fieldValue.toUpperCase is not a function" (read from the ' +
    'code and reproduced by running 1.4.0; its effect in the field is unconfirmed) and is modelled as the same loss. ' +
    'The profile does not know the server\'s name and writes <server>. default is removed next to anyOf. The API then ' +
    'refuses, for every tool, string formats other than enum/date-time, non-string or empty enum values, enums on ' +
    'non-strings and arrays without items; an empty object is accepted (unconfirmed). The request carries uppercase ' +
    'types ("STRING", "OBJECT"); the schema shown here has them lowercase, which does not change what the model is told. ' +
    'In real gemini-cli the declaration index counts the built-in tools first; here it counts the server\'s. Tool names ' +
    'are shown unchanged (the rename of invalid characters is not modelled). The "400 INVALID_ARGUMENT: " framing is the kit\'s.',
  present(tools) {
    const unfit = mcpListProblem(tools, { checksRequired: true });
    if (unfit) return droppedServer(lost('<server>', `(kit text: a ZodError from the MCP SDK 1.12.1, its issue list not reproduced) ${unfit}`));
    let declarations: JsonSchema[];
    try {
      declarations = mcpToolParameters(tools.map((tool) => ({ name: tool.name, inputSchema: copy(schemaOf(tool)) })));
    } catch (error) {
      // A type list: the SDK's throw is reproduced by running 1.4.0, its effect in gemini-cli is unconfirmed (notes).
      if (error instanceof GenaiError)
        return droppedServer(
          lost('<server>', error.text),
          error.text.includes('toUpperCase') ? { kind: 'package', date: '2025-06-04', source: '@google/genai 1.4.0 run; its effect in gemini-cli not reported', unconfirmed: true } : undefined,
        );
      throw error;
    }
    for (const parameters of declarations) sanatizeParameters(parameters);
    const refusal = legacyApiRefusal(API, declarations);
    // The API's answer rests on the 400s reported with gemini-cli 0.1.x, not on its code.
    if (refusal) return refusedRequest(`400 INVALID_ARGUMENT: ${refusal}`, { kind: 'report', date: '2025-07-03', source: 'Gemini API 400s reported with gemini-cli 0.1.x (gemini-cli#2031, #3178)' });
    return { tools: tools.map((tool, i) => seenTool(tool, lowercaseTypes(declarations[i]) as JsonSchema)) };
  },
  // No client-side argument check beyond the schema the model is given.
  validate: (_tool, args) => passThrough(args),
};
