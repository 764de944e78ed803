/** openai-strict: OpenAI Structured Outputs, strict function calling. */
import { Ajv, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types.js';
import { pyStr, pyTuple } from './python-repr.js';
import { copy, isObject, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

const SUPPORTED_SCHEMAS = 'https://platform.openai.com/docs/guides/structured-outputs/supported-schemas';

/**
 * Keywords strict mode refuses wherever they appear, with the text
 * `In context=(...), 'oneOf' is not permitted.`
 *  - allOf, not, if/then/else: OpenAI "Supported schemas" guide (composition
 *    other than anyOf is not supported); the text form is the one seen for
 *    oneOf.
 *  - oneOf: from third-party logs, unverified in the docs (livekit/agents#5302
 *    quotes "In context=(), 'oneOf' is not permitted.").
 *  - default: from third-party logs ("In context=('properties', 'placeholder'),
 *    'default' is not permitted."), unverified in the docs.
 */
const OPENAI_NOT_PERMITTED = new Set(['oneOf', 'allOf', 'not', 'if', 'then', 'else', 'default']);

function isObjectTyped(node: Record<string, unknown>): boolean {
  return node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
}

/**
 * The first rule the schema breaks, in a pre-order walk (a node before its
 * children; properties in order, then items, anyOf branches, $defs), or null.
 * OpenAI answers with one problem at a time. Texts (OpenAI "Supported
 * schemas" guide for the rules; the issues for the wording):
 *  - `In context=(), 'additionalProperties' is required to be supplied and to
 *    be false.` (ravitemer/mcphub.nvim#124, camel-ai/camel#2574)
 *  - `In context=(), 'required' is required to be supplied and to be an array
 *    including every key in properties. Missing 'verb'.`
 *    (kevinwatt/mysql-mcp#5, 2025-05; langchain-ai/langmem#113, 2025-09). The
 *    "Extra required key 'x' supplied." variant is from third-party logs;
 *    dotnet/extensions#6302 (2025-04) words its first half differently
 *    ("'required' must be an array that includes every key in `properties`."),
 *    and the kit keeps one wording for both (modelled).
 *  - `In context=(), object schema missing properties.` for an object with no
 *    `properties` (evalstate/fast-agent#143, github/copilot-cli#1825)
 * The context is the path as a Python tuple of str, e.g.
 * ('properties', 'verb', 'anyOf', '0').
 */
export function openAiStrictProblem(root: JsonSchema): string | null {
  // "Root objects must not be anyOf and must be an object" (Supported schemas guide). A root with no type
  // reads as type None: "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'." (browserbase/stagehand#1159).
  if (root.type !== 'object') {
    const got = root.type === undefined ? 'None' : typeof root.type === 'string' ? root.type : JSON.stringify(root.type);
    return `schema must be a JSON Schema of 'type: "object"', got 'type: "${got}"'.`;
  }
  // Wording modelled on the not-permitted form: not in our sources for a root anyOf beside type "object".
  if ('anyOf' in root) return `In context=(), 'anyOf' is not permitted.`;
  return openAiNodeProblem(root, []);
}

function openAiNodeProblem(node: unknown, context: string[]): string | null {
  if (!isObject(node)) return null;
  const where = `In context=${pyTuple(context)}`;
  for (const key of Object.keys(node)) if (OPENAI_NOT_PERMITTED.has(key)) return `${where}, '${key}' is not permitted.`;
  if (isObjectTyped(node)) {
    if (!isObject(node.properties)) return `${where}, object schema missing properties.`;
    if (node.additionalProperties !== false) return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys(node.properties);
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = keys.find((k) => !required.includes(k));
    const rule = `${where}, 'required' is required to be supplied and to be an array including every key in properties.`;
    if (missing !== undefined) return `${rule} Missing ${pyStr(missing)}.`;
    const extra = required.find((k) => typeof k !== 'string' || !keys.includes(k));
    if (extra !== undefined) return `${rule} Extra required key ${pyStr(String(extra))} supplied.`;
  }
  if (isObject(node.properties)) {
    for (const [name, sub] of Object.entries(node.properties)) {
      const problem = openAiNodeProblem(sub, [...context, 'properties', name]);
      if (problem) return problem;
    }
  }
  if (isObject(node.items)) {
    const problem = openAiNodeProblem(node.items, [...context, 'items']);
    if (problem) return problem;
  }
  if (Array.isArray(node.anyOf)) {
    for (const [i, branch] of node.anyOf.entries()) {
      const problem = openAiNodeProblem(branch, [...context, 'anyOf', String(i)]);
      if (problem) return problem;
    }
  }
  for (const defs of ['$defs', 'definitions']) {
    const map = node[defs];
    if (!isObject(map)) continue;
    for (const [name, sub] of Object.entries(map)) {
      const problem = openAiNodeProblem(sub, [...context, defs, name]);
      if (problem) return problem;
    }
  }
  return null;
}

// strict: false: published schemas may carry keywords ajv does not know.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const compiledStrict = new Map<string, ValidateFunction>();

function strictCheck(schema: JsonSchema): ValidateFunction {
  // $schema is dropped before compiling: the host checks the shape, and ajv's default class has no 2020-12 meta-schema.
  const { $schema: _ignored, ...rest } = schema;
  const key = JSON.stringify(rest);
  let check = compiledStrict.get(key);
  if (!check) {
    check = ajv.compile(rest);
    compiledStrict.set(key, check);
  }
  return check;
}

export const openAiStrict: ClientProfile = {
  id: 'openai-strict',
  apiField: 'OpenAI function calling, strict: true',
  title: 'OpenAI strict function calling (Structured Outputs), opt-in: where a host sends tools with strict: true, the schema must fit the strict subset, or every tool fails with a 400',
  asOf: 'Structured Outputs strict mode, 2024-08 onwards',
  released: '2024-08-06',
  evidence: { kind: 'docs', date: '2024-08-06', source: 'OpenAI Structured Outputs guide, "Supported schemas"' },
  sources: [
    `OpenAI "Supported schemas" guide (Structured Outputs), ${SUPPORTED_SCHEMAS}`,
    'evalstate/fast-agent#143, github/copilot-cli#1825, janhq/jan#7017 (code invalid_function_parameters; object schema missing properties)',
    'ravitemer/mcphub.nvim#124, camel-ai/camel#2574 (additionalProperties text and context tuples)',
    'kevinwatt/mysql-mcp#5, langchain-ai/langmem#113 (required ... Missing), dotnet/extensions#6302 (Extra required key)',
    'browserbase/stagehand#1159 (got \'type: "None"\')',
    'livekit/agents#5302 (oneOf is not permitted: third-party logs)',
    'openai/openai-agents-python PR #414 (2025-04-01: convert_schemas_to_strict, off by default) and PR #3199 (2026-05-08: a failed strict conversion falls back to non-strict); posit-dev/chatlas#255 (MCP tools sent with strict: false)',
  ],
  notes:
    'Strict mode is opt-in: a host sends an MCP tool with strict: true only where it chooses to. The OpenAI Agents SDK ' +
    'does so in Python only with convert_schemas_to_strict (off by default, PR #414) and falls back to non-strict when ' +
    'the conversion fails (PR #3199); in JavaScript 0.2.1 only for a root that says additionalProperties: true ' +
    '(openai-agents-2025-10). So "every tool fails" holds for a host that forces strict mode; the same API without it ' +
    'is openai-functions-2026-11. ' +
    'One problem is reported at a time, the first in a pre-order walk. For function tools the error code in the ' +
    'sources is invalid_function_parameters (invalid_json_schema is what response_format schemas get). oneOf and ' +
    'default being refused comes from third-party logs, unverified in the docs. The text for a root anyOf beside ' +
    'type "object" is modelled. The rule that anyOf branch objects must not share identical first keys is not ' +
    'modelled. The client check (ajv against the unchanged schema) is the host\'s guarantee that strict decoding ' +
    'follows the schema; its error text is the kit\'s, since a real host never shows one.',
  present(tools) {
    for (const tool of tools) {
      const problem = openAiStrictProblem(schemaOf(tool));
      if (problem) return refusedRequest(`400 invalid_function_parameters: Invalid schema for function '${tool.name}': ${problem}`);
    }
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate(tool, args) {
    const check = strictCheck(tool.inputSchema);
    if (check(args)) return { ok: true, args };
    return { ok: false, error: `the strict-mode output for '${tool.name}' does not match its schema: ${ajv.errorsText(check.errors, { dataVar: 'arguments' })}` };
  },
};
