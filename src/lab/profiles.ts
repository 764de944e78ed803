/**
 * Client profiles: how a real host presents a server's published tool schemas
 * to its model, and what it checks before it sends the model's arguments.
 *
 * A profile sees only what a real client sees: the tool list as `tools/list`
 * returned it. `present` either refuses the whole request (the host's own
 * error text, before anything runs) or returns the tools as the model is shown
 * them, degraded where the host degrades them. `validate` is the host's own
 * check of the model's arguments for one tool, before anything is sent.
 *
 * Every behaviour cites its source next to the code that models it
 * (../shared/docs/facts.md section 2, an issue, a file at a commit). Where a
 * wording or a rule is modelled rather than quoted from a source, the comment
 * and the profile's `notes` say so.
 *
 * Error texts are rendered as `<HTTP status> <error code>: <message>`; the
 * message part is the provider's, the framing around it is the kit's.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, SeenTool } from './types.js';

export interface ClientProfile {
  id: string; // 'faithful' | 'gemini' | 'gemini-2025-11' | 'openai-strict' | 'claude' | 'langflow'
  title: string; // one line for the terminal
  /** When the modelled behaviour held, e.g. 'legacy parameters field, before 2025-03'; 'n/a' for faithful. */
  asOf: string;
  sources: string[];
  notes?: string;
  /** The host presents the published tools: a whole-request rejection, or what the model sees. Pure; never mutates its input. */
  present(tools: Pick<Tool, 'name' | 'description' | 'inputSchema'>[]): { rejected: string } | { tools: SeenTool[] };
  /** The host's own check of the model's arguments for one seen tool, before sending: null when it passes, else the error text the host gives the model. May also return `{ args }` rewritten (e.g. Pydantic dropping unknown keys). */
  validate(tool: SeenTool, args: Record<string, unknown>): { ok: true; args: Record<string, unknown> } | { ok: false; error: string };
}

type PublishedTool = Pick<Tool, 'name' | 'description' | 'inputSchema'>;
type Presented = { rejected: string } | { tools: SeenTool[] };
type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

// ---------------------------------------------------------------------------
// Shared helpers

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A deep copy: every profile works on copies, so `present` never mutates what it was given. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

function schemaOf(tool: PublishedTool): JsonSchema {
  return tool.inputSchema as JsonSchema;
}

function seenTool(tool: PublishedTool, inputSchema: JsonSchema): SeenTool {
  return tool.description === undefined ? { name: tool.name, inputSchema } : { name: tool.name, description: tool.description, inputSchema };
}

function passThrough(args: Record<string, unknown>): Checked {
  return { ok: true, args };
}

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SINGLE_KEYWORDS = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Calls `visit` on every subschema of a JSON Schema, the root first, following
 * only the keywords that hold schemas (so a property that happens to be
 * called "oneOf" is a name, not a keyword). `visit` runs before the walk goes
 * deeper, so it may rename keywords (oneOf -> anyOf) and the walk follows the
 * new name.
 */
function eachSubschema(node: unknown, visit: (schema: Record<string, unknown>) => void): void {
  if (!isObject(node)) return;
  visit(node);
  for (const key of MAP_KEYWORDS) {
    const map = node[key];
    if (isObject(map)) for (const sub of Object.values(map)) eachSubschema(sub, visit);
  }
  for (const key of SINGLE_KEYWORDS) {
    const sub = node[key];
    if (Array.isArray(sub)) for (const item of sub) eachSubschema(item, visit);
    else eachSubschema(sub, visit);
  }
  for (const key of LIST_KEYWORDS) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) eachSubschema(item, visit);
  }
}

/** Python's repr() of a str, as Python prints it inside a tuple, a dict or an error. */
function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (quote === "'") body = body.replace(/'/g, "\\'");
  return `${quote}${body}${quote}`;
}

/** Python's repr() of a JSON value parsed by json.loads. */
function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${pyStr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  return pyStr(String(value));
}

/** The name of the Python type json.loads gives for a JSON value. */
function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** Python's repr() of a tuple of str: (), ('a',), ('a', 'b'). */
function pyTuple(parts: string[]): string {
  if (parts.length === 0) return '()';
  if (parts.length === 1) return `(${pyStr(parts[0]!)},)`;
  return `(${parts.map(pyStr).join(', ')})`;
}

// ---------------------------------------------------------------------------
// faithful

const faithful: ClientProfile = {
  id: 'faithful',
  title: 'faithful: every schema shown as published, no client-side checks (the server validates)',
  asOf: 'n/a',
  sources: ['none: the reference point the real hosts are compared with'],
  present(tools) {
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate: (_tool, args) => passThrough(args),
};

// ---------------------------------------------------------------------------
// gemini: the legacy `parameters` field (OpenAPI 3.0 subset), early 2025

/**
 * gemini-cli's early MCP discovery (packages/core/src/tools/tool-registry.ts,
 * 2025, `removeSchemaProps`): "Recursively remove additionalProperties and
 * $schema from the inputSchema". It walks every value of every object, so it
 * would also delete a property that is *named* additionalProperties; modelled
 * as written. facts.md section 2, row "Gemini CLI as an MCP host".
 */
function removeSchemaProps(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(removeSchemaProps);
  } else if (isObject(node)) {
    delete node.additionalProperties;
    delete node.$schema;
    Object.values(node).forEach(removeSchemaProps);
  }
}

/**
 * gemini-cli `sanitizeParameters` (tool-registry.ts): "Vertex AI gets confused
 * if both anyOf and default are set", so `default` goes wherever `anyOf` is;
 * it recurses through anyOf, items and properties. Its other rule (drop a
 * string `format` other than enum/date-time) compares `schema.type` with the
 * genai enum value 'STRING', which a lowercase JSON Schema `type: "string"`
 * never equals, so for MCP schemas it does nothing and is not modelled.
 */
function sanitizeParameters(schema: unknown, visited = new Set<unknown>()): void {
  if (!isObject(schema) || visited.has(schema)) return;
  visited.add(schema);
  if (Array.isArray(schema.anyOf)) {
    delete schema.default;
    for (const item of schema.anyOf) sanitizeParameters(item, visited);
  }
  if (isObject(schema.items)) sanitizeParameters(schema.items, visited);
  if (isObject(schema.properties)) for (const item of Object.values(schema.properties)) sanitizeParameters(item, visited);
}

function geminiCliSanitize(schema: JsonSchema): JsonSchema {
  const sanitized = copy(schema);
  removeSchemaProps(sanitized);
  sanitizeParameters(sanitized);
  return sanitized;
}

/**
 * JSON Schema keywords the legacy `parameters` Schema message had no field for
 * before 2025-03: facts.md section 2 row "Gemini, legacy parameters field"
 * (no oneOf, allOf, const, $ref, $defs) and row "Gemini SDK before mid-2025"
 * (unions refused outright before 2025-03: googleapis/python-genai#447,
 * gemini-cli#4121, colinhacks/zod#5807). `definitions` and `not` are added as
 * the draft-07 spellings of the same missing features (unverified).
 * Other keywords (title, default, pattern, minLength, ...) are passed without
 * complaint here: whether the early-2025 API knew them is not in our sources.
 */
const GEMINI_UNKNOWN_NAMES = new Set(['anyOf', 'oneOf', 'allOf', 'const', '$ref', '$defs', 'definitions', 'not']);
/** The Type enum of the Schema message (lowercase accepted on the JSON wire). */
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/**
 * First stage: the request's JSON is parsed into the proto. Each problem is
 * reported at the proto path of the schema that holds it: `properties` is a
 * map, so its i-th entry is `properties[i].value`; `items` is `items`. An
 * unknown field is not parsed, so nothing inside it is reported. The parser
 * lists every problem of the request, one per line, in document order
 * (zed-industries/zed#53919 shows several in one reply).
 * Texts:
 *  - unknown keyword: `Invalid JSON payload received. Unknown name "const" at
 *    '...': Cannot find field.` (facts.md; zereight/gitlab-mcp#166,
 *    backstage#34038). Its wording for "anyOf"/"oneOf" is this same
 *    documented form applied to those names (modelled).
 *  - `type` given as a list: `... Unknown name "type" at '...': Proto field is
 *    not repeating, cannot start list.` (WordPress/ai-provider-for-google#33,
 *    zed-industries/zed#53919).
 *  - a `type` value outside the enum: `Invalid value at '....type'
 *    (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "null"`
 *    (form from zereight/gitlab-mcp#166; the quoted value is modelled).
 *  - a non-string enum value: `Invalid value at '....enum[2]' (TYPE_STRING), 4`
 *    (microsoft/azure-devops-mcp#145).
 */
function geminiParseProblems(node: unknown, path: string, out: string[]): void {
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (GEMINI_UNKNOWN_NAMES.has(key)) {
      out.push(`Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`);
      continue;
    }
    if (key === 'type') {
      if (Array.isArray(value)) out.push(`Invalid JSON payload received. Unknown name "type" at '${path}': Proto field is not repeating, cannot start list.`);
      else if (typeof value === 'string' && !GEMINI_TYPES.has(value.toLowerCase()))
        out.push(`Invalid value at '${path}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "${value}"`);
    } else if (key === 'properties' && isObject(value)) {
      Object.values(value).forEach((sub, i) => geminiParseProblems(sub, `${path}.properties[${i}].value`, out));
    } else if (key === 'items' && isObject(value)) {
      geminiParseProblems(value, `${path}.items`, out);
    } else if (key === 'enum' && Array.isArray(value)) {
      value.forEach((v, i) => {
        if (typeof v === 'number' || typeof v === 'boolean') out.push(`Invalid value at '${path}.enum[${i}]' (TYPE_STRING), ${String(v)}`);
      });
    }
  }
}

/**
 * Second stage, reached only when the request parsed: the declarations are
 * checked. Paths name properties by key, and every problem is listed, each
 * line starting with "* ".
 *  - an array without items: `* GenerateContentRequest.tools[0].function_declarations[28].parameters.properties[time_ranges].items: missing field.`
 *    (facts.md; cline/cline#7926).
 *  - an object with an empty `properties`: `* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type`
 *    (vercel/ai#3371, 2024-10 and again with Gemini 2.0 in 2025-02;
 *    UKGovernmentBEIS/inspect_ai#918, 2024-11; browser-use/browser-use#7,
 *    2024-12). An object with no `properties` key at all is not flagged: the
 *    sources disagree about it across eras.
 */
function geminiDeclarationProblems(node: unknown, path: string, out: string[]): void {
  if (!isObject(node)) return;
  const type = typeof node.type === 'string' ? node.type.toLowerCase() : undefined;
  if (type === 'array' && !('items' in node)) out.push(`* ${path}.items: missing field.`);
  if (type === 'object' && isObject(node.properties) && Object.keys(node.properties).length === 0)
    out.push(`* ${path}.properties: should be non-empty for OBJECT type`);
  if (isObject(node.properties)) for (const [name, sub] of Object.entries(node.properties)) geminiDeclarationProblems(sub, `${path}.properties[${name}]`, out);
  if (isObject(node.items)) geminiDeclarationProblems(node.items, `${path}.items`, out);
}

const gemini: ClientProfile = {
  id: 'gemini',
  title: 'Gemini, legacy `parameters` (OpenAPI subset) behind gemini-cli sanitizing: one bad tool fails every tool with a 400',
  asOf: 'legacy parameters field, before 2025-03',
  sources: [
    'facts.md section 2: rows "Gemini, legacy parameters field", "Gemini CLI as an MCP host", "Gemini SDK before mid-2025"',
    'Gemini API FunctionDeclaration reference (parameters: OpenAPI 3.0 Schema subset)',
    'gemini-cli packages/core/src/tools/tool-registry.ts: removeSchemaProps (2025) and sanitizeParameters',
    'googleapis/python-genai#447 (anyOf refused for the Gemini API until 2025-03-13)',
    'google-gemini/gemini-cli#4121',
    'colinhacks/zod#5807 (toJSONSchema anyOf incompatibility with Gemini API Function Calling)',
    'zereight/gitlab-mcp#166, zed-extensions/mcp-server-brave-search#12, Laisky/one-api#60, backstage#34038 (whole-request 400s)',
    'WordPress/ai-provider-for-google#33, zed-industries/zed#53919 (type as a list)',
    'cline/cline#7926 (items: missing field)',
    'vercel/ai#3371, UKGovernmentBEIS/inspect_ai#918, browser-use/browser-use#7 (properties: should be non-empty for OBJECT type)',
    'microsoft/azure-devops-mcp#145 (non-string enum values)',
  ],
  notes:
    'A composite, as facts.md describes it: gemini-cli\'s sanitizer (removes $schema and additionalProperties everywhere, ' +
    'drops default next to anyOf) in front of the API as it was before 2025-03, when it had no union field. gemini-cli ' +
    'itself shipped in 2025-06, when the API already took anyOf but the JS SDK refused "type and anyOf cannot be both ' +
    'populated" on the client. Every problem in the request is listed, one per line, as the API does; the texts for ' +
    '"anyOf"/"oneOf" apply the documented Unknown-name form to those keywords (modelled). An empty object schema ' +
    '(`properties: {}`, what the SDK publishes for a transformed root) is refused too: "should be non-empty for OBJECT ' +
    'type". Tool names are shown unchanged (gemini-cli\'s name normalisation is not modelled: the kit calls by the ' +
    'published name). The "400 INVALID_ARGUMENT: " framing is the kit\'s.',
  present(tools) {
    const sanitized = tools.map((tool) => ({ tool, schema: geminiCliSanitize(schemaOf(tool)) }));
    // All MCP tools go into one Tool object, hence tools[0]; the i-th declaration is the i-th published tool.
    const parse: string[] = [];
    sanitized.forEach(({ schema }, i) => geminiParseProblems(schema, `tools[0].function_declarations[${i}].parameters`, parse));
    if (parse.length > 0) return { rejected: `400 INVALID_ARGUMENT: ${parse.join('\n')}` };
    const declarations: string[] = [];
    sanitized.forEach(({ schema }, i) => geminiDeclarationProblems(schema, `GenerateContentRequest.tools[0].function_declarations[${i}].parameters`, declarations));
    if (declarations.length > 0) return { rejected: `400 INVALID_ARGUMENT: ${declarations.join('\n')}` };
    return { tools: sanitized.map(({ tool, schema }) => seenTool(tool, schema)) };
  },
  // No client-side argument check beyond the schema the model is given.
  validate: (_tool, args) => passThrough(args),
};

// ---------------------------------------------------------------------------
// gemini-2025-11: `parametersJsonSchema`

/**
 * gemini-cli sends MCP schemas as `parametersJsonSchema` (gemini-cli PR 4176
 * and 5330, 2025-07): JSON Schema with anyOf, $ref and additionalProperties is
 * accepted; since 2025-11 `oneOf` is read as `anyOf` (Google blog "Improving
 * Structured Outputs in the Gemini API", 2025-11-05). facts.md section 2 row
 * "Gemini parametersJsonSchema". `$schema` is still removed: carried over from
 * removeSchemaProps above, not re-verified for this code path.
 */
function geminiJsonSchemaView(schema: JsonSchema): JsonSchema {
  const view = copy(schema);
  eachSubschema(view, (node) => {
    delete node.$schema;
    // A node with both oneOf and anyOf keeps its oneOf as published (what the API makes of it is not in our sources).
    if ('oneOf' in node && !('anyOf' in node)) {
      node.anyOf = node.oneOf;
      delete node.oneOf;
    }
  });
  return view;
}

const gemini202511: ClientProfile = {
  id: 'gemini-2025-11',
  title: 'Gemini `parametersJsonSchema` (gemini-cli, late 2025): JSON Schema accepted, oneOf read as anyOf',
  asOf: 'parametersJsonSchema, gemini-cli since 2025-07, oneOf-as-anyOf since 2025-11',
  sources: [
    'facts.md section 2: row "Gemini parametersJsonSchema (gemini-cli since 2025-07)"',
    'google-gemini/gemini-cli PR 4176 and PR 5330',
    'Google blog "Improving Structured Outputs in the Gemini API" (2025-11-05)',
  ],
  notes:
    'No rejection is modelled for the kit\'s shapes (anyOf, oneOf, $ref, additionalProperties, const). The model sees ' +
    'oneOf renamed to anyOf, i.e. "at least one branch" instead of "exactly one". $schema removal is carried over from ' +
    'the earlier gemini-cli code and is not re-verified for this path.',
  present(tools) {
    return { tools: tools.map((tool) => seenTool(tool, geminiJsonSchemaView(schemaOf(tool)))) };
  },
  validate: (_tool, args) => passThrough(args),
};

// ---------------------------------------------------------------------------
// openai-strict: Structured Outputs, strict function calling

/**
 * Keywords strict mode refuses wherever they appear, with the text
 * `In context=(...), 'oneOf' is not permitted.`
 *  - allOf, not, if/then/else: OpenAI "Supported schemas" guide (composition
 *    other than anyOf is not supported); the text form is the one seen for
 *    oneOf.
 *  - oneOf: from third-party logs, unverified in the docs (facts.md;
 *    livekit/agents#5302 quotes "In context=(), 'oneOf' is not permitted.").
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
 * OpenAI answers with one problem at a time. Texts (facts.md; OpenAI
 * "Supported schemas" guide):
 *  - `In context=(), 'additionalProperties' is required to be supplied and to
 *    be false.` (ravitemer/mcphub.nvim#124, camel-ai/camel#2574)
 *  - `In context=(), 'required' is required to be supplied and to be an array
 *    including every key in properties. Missing 'verb'.` (many logs; the
 *    "Extra required key 'x' supplied." variant is from third-party logs)
 *  - `In context=(), object schema missing properties.` for an object with no
 *    `properties` (evalstate/fast-agent#143, github/copilot-cli#1825)
 * The context is the path as a Python tuple of str, e.g.
 * ('properties', 'verb', 'anyOf', '0').
 */
function openAiStrictProblem(root: JsonSchema): string | null {
  // "Root objects must not be anyOf and must be an object" (Supported schemas guide). A root with no type
  // reads as type None: "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'." (many logs).
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

const openAiStrict: ClientProfile = {
  id: 'openai-strict',
  title: 'OpenAI strict function calling (Structured Outputs): the schema must fit the strict subset, or every tool fails with a 400',
  asOf: 'Structured Outputs strict mode, 2024-08 onwards',
  sources: [
    'facts.md section 2: row "OpenAI strict mode (Structured Outputs)"',
    'OpenAI "Supported schemas" guide (Structured Outputs)',
    'evalstate/fast-agent#143, github/copilot-cli#1825, janhq/jan#7017 (code invalid_function_parameters; object schema missing properties)',
    'ravitemer/mcphub.nvim#124, camel-ai/camel#2574 (additionalProperties text and context tuples)',
    'livekit/agents#5302 (oneOf is not permitted: third-party logs)',
  ],
  notes:
    'One problem is reported at a time, the first in a pre-order walk. For function tools the error code in the ' +
    'sources is invalid_function_parameters (invalid_json_schema is what response_format schemas get). oneOf and ' +
    'default being refused comes from third-party logs, unverified in the docs. The text for a root anyOf beside ' +
    'type "object" is modelled. The rule that anyOf branch objects must not share identical first keys is not ' +
    'modelled. The client check (ajv against the unchanged schema) is the host\'s guarantee that strict decoding ' +
    'follows the schema; its error text is the kit\'s, since a real host never shows one.',
  present(tools) {
    for (const tool of tools) {
      const problem = openAiStrictProblem(schemaOf(tool));
      if (problem) return { rejected: `400 invalid_function_parameters: Invalid schema for function '${tool.name}': ${problem}` };
    }
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate(tool, args) {
    const check = strictCheck(tool.inputSchema);
    if (check(args)) return { ok: true, args };
    return { ok: false, error: `the strict-mode output for '${tool.name}' does not match its schema: ${ajv.errorsText(check.errors, { dataVar: 'arguments' })}` };
  },
};

// ---------------------------------------------------------------------------
// claude: Claude Code over the Anthropic Messages API

/**
 * Claude Code's MCP client reads tools/list through the MCP SDK's Tool shape
 * (inputSchema: { type: "object", properties?: object, required?: string[] }).
 * When one tool does not fit it, every tool of that server is dropped, with no
 * error on either side: mastra#18255 (`{}` with no type, facts.md),
 * anthropics/claude-code#88049 (a root anyOf with no type "object"),
 * anthropics/claude-code#44364 ("required": null),
 * tidepool-heavy-industries/exomonad#798 ("Capabilities: none", 0 tools).
 */
function mcpToolShapeProblem(schema: unknown): string | null {
  if (!isObject(schema) || schema.type !== 'object') return 'has an inputSchema whose root is not "type": "object"';
  if ('properties' in schema && !isObject(schema.properties)) return 'has "properties" that is not an object';
  if ('required' in schema && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string')))
    return 'has "required" that is not an array of strings';
  return null;
}

const claude: ClientProfile = {
  id: 'claude',
  title: 'Claude Code on the Anthropic API: no oneOf/allOf/anyOf at the top level of input_schema, else every request fails',
  asOf: 'Claude Code 1.0.x and the Messages API, 2025',
  sources: [
    'facts.md section 2: rows "Anthropic Claude", "Claude Code"',
    'anthropics/claude-code#5319 (also #5973, #657): tools.N.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    'mastra#18255, anthropics/claude-code#88049, anthropics/claude-code#44364, tidepool-heavy-industries/exomonad#798 (all tools of a server dropped silently)',
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
        return {
          rejected:
            `(kit text: Claude Code itself shows no error) every tool of this server was dropped: tool '${tool.name}' ${problem}, ` +
            'so the MCP client discarded the whole tools/list and the model sees no tools',
        };
    }
    // The API refuses the first offending tool of the request (anthropics/claude-code#5319).
    const index = tools.findIndex((tool) => ['oneOf', 'allOf', 'anyOf'].some((k) => k in schemaOf(tool)));
    if (index >= 0)
      return { rejected: `400 invalid_request_error: tools.${index}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level` };
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate: (_tool, args) => passThrough(args),
};

// ---------------------------------------------------------------------------
// langflow: MCP tools turned into Pydantic models

/** A Python type as langflow's create_input_schema_from_json_schema builds it. */
type PyType =
  | { kind: 'str' | 'int' | 'float' | 'bool' | 'any' | 'dict' }
  | { kind: 'list'; item: PyType }
  | { kind: 'nullable'; inner: PyType }
  | PyModel;
interface PyModel {
  kind: 'model';
  name: string;
  fields: PyField[];
}
interface PyField {
  name: string;
  type: PyType;
  required: boolean;
  /** What Field(default) holds for an optional field: the schema's `default`, else None. */
  default: unknown;
  description?: string;
}

const ANY: PyType = { kind: 'any' };
const DICT: PyType = { kind: 'dict' };

/** The primitive map of parse_type: {"string": str, ..., "object": dict, "array": list}.get(t, Any). */
function primitive(type: unknown): PyType {
  switch (type) {
    case 'string':
      return { kind: 'str' };
    case 'integer':
      return { kind: 'int' };
    case 'number':
      return { kind: 'float' };
    case 'boolean':
      return { kind: 'bool' };
    case 'object':
      return DICT;
    case 'array':
      return { kind: 'list', item: ANY };
    default:
      return ANY;
  }
}

class RootNotObject extends Error {}

/**
 * A transcription of langflow `create_input_schema_from_json_schema`
 * (src/lfx/src/lfx/schema/json_schema.py, read at commit 07cdd0a4; the anyOf
 * logic is PR 7941, 2025-05-07; facts.md section 2 row "Langflow"):
 *  - root `type` not "object": ValueError("Root schema must be type 'object'").
 *  - `$ref` is followed through the root's `$defs` only (a `definitions`
 *    target is "not found" and becomes str; a circular chain becomes str).
 *  - anyOf whose branches that have a `type` are exactly two, one of them
 *    "null": the other branch's type name mapped to a bare Python type (so an
 *    object branch becomes a plain dict and loses its properties).
 *  - any other anyOf: every branch is parsed, the first is kept.
 *  - no `type` (oneOf, allOf, a bare const): Any, i.e. untyped. `enum` and
 *    `const` are never read: `{type:"string", const:"x"}` is plain str.
 *  - `type` as a list: its first non-null type, `| None` when "null" is in it.
 *  - an object with no or empty `properties`: dict[str, Any].
 *  - an object with properties: a nested model named AnonModel{len(cache)}.
 *    While a model is being built its name is in `building`, and a nested
 *    object computes the same name (the cache has not grown), so an object
 *    two levels down becomes dict ("Self-referential model detected").
 *  - a field not in `required` is `X | None` with default schema `default` or None.
 * Not modelled: snake_case field names also accepting a camelCase alias.
 */
function langflowModel(root: JsonSchema): PyModel {
  if (root.type !== 'object') throw new RootNotObject("Root schema must be type 'object'");
  const defs = isObject(root.$defs) ? root.$defs : {};
  let cacheSize = 0;
  const building = new Set<string>();

  const resolveRef = (s: unknown): Record<string, unknown> => {
    if (!isObject(s)) return {};
    const visited = new Set<string>();
    let node = s;
    while ('$ref' in node) {
      const name = String(node.$ref).split('/').pop() ?? '';
      if (visited.has(name)) return { type: 'string' };
      visited.add(name);
      const target = defs[name];
      if (!isObject(target)) return { type: 'string' };
      node = target;
    }
    return node;
  };

  const parseType = (raw: unknown, depth: number): PyType => {
    if (depth > 50) return ANY; // Python would hit its recursion limit; the kit stops early
    const s = resolveRef(raw);
    if (Array.isArray(s.anyOf)) {
      const branchTypes = s.anyOf.filter((b) => isObject(b) && 'type' in b).map((b) => (b as Record<string, unknown>).type);
      if (branchTypes.length === 2 && branchTypes.includes('null')) {
        const other = branchTypes.find((t) => t !== 'null');
        return typeof other === 'string' ? primitive(other) : ANY;
      }
      const parsed = s.anyOf.map((b) => parseType(b, depth + 1));
      return parsed[0] ?? { kind: 'str' };
    }
    const type = 'type' in s ? s.type : 'any';
    if (Array.isArray(type)) {
      const nonNull = type.filter((t) => t !== 'null' && typeof t === 'string');
      if (nonNull.length === 0) return ANY;
      const prim = primitive(nonNull[0]);
      return type.includes('null') ? { kind: 'nullable', inner: prim } : prim;
    }
    if (type === 'array') return { kind: 'list', item: parseType(isObject(s.items) ? s.items : {}, depth + 1) };
    if (type === 'object') {
      if (!isObject(s.properties) || Object.keys(s.properties).length === 0) return DICT;
      return buildModel(`AnonModel${cacheSize}`, s, depth + 1);
    }
    return primitive(type);
  };

  const fieldsOf = (s: Record<string, unknown>, depth: number): PyField[] => {
    const props = isObject(s.properties) ? s.properties : {};
    const required = new Set((Array.isArray(s.required) ? s.required : []).filter((r): r is string => typeof r === 'string'));
    return Object.entries(props).map(([name, prop]) => {
      const field: PyField = {
        name,
        type: parseType(prop, depth),
        required: required.has(name),
        default: !required.has(name) && isObject(prop) && 'default' in prop ? prop.default : null,
      };
      if (isObject(prop) && typeof prop.description === 'string') field.description = prop.description;
      return field;
    });
  };

  const buildModel = (name: string, s: Record<string, unknown>, depth: number): PyType => {
    if (building.has(name)) return DICT;
    building.add(name);
    let fields: PyField[];
    try {
      fields = fieldsOf(s, depth);
    } finally {
      building.delete(name);
    }
    cacheSize += 1;
    return { kind: 'model', name, fields };
  };

  return { kind: 'model', name: 'InputSchema', fields: fieldsOf(root, 0) };
}

/** The degraded schema written back as JSON Schema: what the model is shown. */
function renderPy(type: PyType): JsonSchema {
  switch (type.kind) {
    case 'str':
      return { type: 'string' };
    case 'int':
      return { type: 'integer' };
    case 'float':
      return { type: 'number' };
    case 'bool':
      return { type: 'boolean' };
    case 'dict':
      return { type: 'object' };
    case 'any':
      return {};
    case 'list':
      return { type: 'array', items: renderPy(type.item) };
    case 'nullable': {
      const inner = renderPy(type.inner);
      return typeof inner.type === 'string' ? { ...inner, type: [inner.type, 'null'] } : inner;
    }
    case 'model': {
      const properties: Record<string, JsonSchema> = {};
      for (const field of type.fields) {
        const prop = renderPy(field.type);
        if (field.description !== undefined) prop.description = field.description;
        if (!field.required && field.default !== null && field.default !== undefined) prop.default = copy(field.default);
        properties[field.name] = prop;
      }
      const required = type.fields.filter((f) => f.required).map((f) => f.name);
      return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
    }
  }
}

interface PyError {
  loc: (string | number)[];
  message: string;
  type: string;
  input: unknown;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/**
 * Pydantic v2 validation in its default (lax) mode for the types above, with
 * pydantic-core's message texts. Coercions modelled: numeric strings to
 * int/float, an integral float to int, bool words and 0/1 to bool. Others are
 * errors. Returns the validated (possibly coerced) value.
 */
function pyValidate(type: PyType, value: unknown, loc: (string | number)[], errors: PyError[]): unknown {
  const fail = (errorType: string, message: string): unknown => {
    errors.push({ loc, message, type: errorType, input: value });
    return undefined;
  };
  switch (type.kind) {
    case 'any':
      return copy(value);
    case 'nullable':
      return value === null ? null : pyValidate(type.inner, value, loc, errors);
    case 'str':
      return typeof value === 'string' ? value : fail('string_type', 'Input should be a valid string');
    case 'int':
      if (typeof value === 'number' && Number.isFinite(value))
        return Number.isInteger(value) ? value : fail('int_from_float', 'Input should be a valid integer, got a number with a fractional part');
      if (typeof value === 'string')
        return /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : fail('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
      return fail('int_type', 'Input should be a valid integer');
    case 'float':
      if (typeof value === 'number') return value;
      if (typeof value === 'string')
        return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : fail('float_parsing', 'Input should be a valid number, unable to parse string as a number');
      return fail('float_type', 'Input should be a valid number');
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 0 || value === 1) return value === 1;
      if (typeof value === 'string') {
        const word = value.trim().toLowerCase();
        if (TRUE_WORDS.has(word)) return true;
        if (FALSE_WORDS.has(word)) return false;
        return fail('bool_parsing', 'Input should be a valid boolean, unable to interpret input');
      }
      return fail('bool_type', 'Input should be a valid boolean');
    case 'dict':
      return isObject(value) ? copy(value) : fail('dict_type', 'Input should be a valid dictionary');
    case 'list':
      return Array.isArray(value) ? value.map((item, i) => pyValidate(type.item, item, [...loc, i], errors)) : fail('list_type', 'Input should be a valid list');
    case 'model':
      return isObject(value) ? validateModel(type, value, loc, errors) : fail('model_type', `Input should be a valid dictionary or instance of ${type.name}`);
  }
}

/**
 * A model's fields in order. A missing required field: "Field required
 * [type=missing, input_value=<the dict>, input_type=dict]". Unknown keys are
 * ignored (create_model's default extra="ignore"). The result is what
 * `model_dump()` gives: every field, optional ones that were left out set to
 * their default (None unless the schema gave one).
 */
function validateModel(model: PyModel, value: Record<string, unknown>, loc: (string | number)[], errors: PyError[]): Record<string, unknown> {
  const dumped: Record<string, unknown> = {};
  for (const field of model.fields) {
    const present = Object.hasOwn(value, field.name) && value[field.name] !== undefined;
    if (!present) {
      if (field.required) errors.push({ loc: [...loc, field.name], message: 'Field required', type: 'missing', input: value });
      else dumped[field.name] = copy(field.default ?? null);
      continue;
    }
    const given = value[field.name];
    dumped[field.name] = !field.required && given === null ? null : pyValidate(field.type, given, [...loc, field.name], errors);
  }
  return dumped;
}

/** str(ValidationError), without the "For further information visit https://errors.pydantic.dev/..." lines. */
function pydanticText(modelName: string, errors: PyError[]): string {
  const head = `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${modelName}`;
  const lines = errors.map(
    (e) => `${e.loc.join('.')}\n  ${e.message} [type=${e.type}, input_value=${pyRepr(e.input)}, input_type=${pyTypeName(e.input)}]`,
  );
  return [head, ...lines].join('\n');
}

/** The Pydantic model behind each seen schema this profile produced; a seen schema from elsewhere is re-read. */
const langflowModels = new WeakMap<object, PyModel>();

const langflow: ClientProfile = {
  id: 'langflow',
  title: 'Langflow MCP tools: schema rebuilt as a Pydantic model (enum/const dropped, first anyOf branch kept, oneOf untyped)',
  asOf: 'langflow after PR 7941 (2025-05), before the argument clean-up of PR 12622 (2026-04)',
  sources: [
    'facts.md section 2: row "Langflow (MCP tools to Pydantic)"',
    'langflow src/lfx/src/lfx/schema/json_schema.py create_input_schema_from_json_schema (read at commit 07cdd0a4)',
    'langflow-ai/langflow PR 7941 "fix: mcp anyOf support" (2025-05-07)',
    'langflow src/backend/base/langflow/base/mcp/util.py (PR 7941 era): update_tools raises "Failed to create tool ..."; create_tool_coroutine: model_validate, then run_tool(arguments=validated.model_dump())',
    'langflow-ai/langflow#12616 and PR 12622 (2026-04: later versions stop forwarding blank/None optional values)',
  ],
  notes:
    'Rejection: update_tools re-raises the ValueError for one bad tool, so the whole server fails to load, as ' +
    '"Failed to create tool \'<name>\' from server \'<server>\': Root schema must be type \'object\'"; the profile does not ' +
    'know the server\'s name and writes <server>. The seen schema is the Pydantic model\'s field types written back as ' +
    'plain JSON Schema (not Pydantic\'s model_json_schema, which would add titles and anyOf-null for optional fields). ' +
    'Client check: Pydantic v2 lax validation of that model, error texts as pydantic-core words them, prefixed ' +
    '"Invalid input: " as create_tool_coroutine does, model name InputSchema as langflow names it, without the ' +
    '"For further information visit" lines and without pydantic\'s truncation of long input values. Unknown keys are ' +
    'dropped, and, as model_dump() does in this era, every optional field the model left out is sent as null (or its ' +
    'schema default): the server receives keys the model never wrote. Coercions are a subset (numeric strings, bool words).',
  present(tools) {
    const seen: SeenTool[] = [];
    for (const tool of tools) {
      let model: PyModel;
      try {
        model = langflowModel(schemaOf(tool));
      } catch (error) {
        if (error instanceof RootNotObject)
          return { rejected: `Failed to create tool '${tool.name}' from server '<server>': ${error.message}` };
        throw error;
      }
      const inputSchema = renderPy(model);
      langflowModels.set(inputSchema, model);
      seen.push(seenTool(tool, inputSchema));
    }
    return { tools: seen };
  },
  validate(tool, args) {
    let model = langflowModels.get(tool.inputSchema);
    if (!model) {
      try {
        model = langflowModel(tool.inputSchema);
      } catch (error) {
        if (error instanceof RootNotObject) return { ok: false, error: error.message };
        throw error;
      }
    }
    const errors: PyError[] = [];
    const dumped = validateModel(model, args, [], errors);
    if (errors.length > 0) return { ok: false, error: `Invalid input: ${pydanticText(model.name, errors)}` };
    return { ok: true, args: dumped };
  },
};

// ---------------------------------------------------------------------------

export const PROFILES: readonly ClientProfile[] = [faithful, gemini, gemini202511, openAiStrict, claude, langflow];

export const PROFILE_IDS: readonly string[] = PROFILES.map((p) => p.id);

export function getProfile(id: string): ClientProfile | undefined {
  return PROFILES.find((p) => p.id === id);
}
