/**
 * The schema contract rules, checked on the published JSON Schema (what a
 * client got from `tools/list`), never on the zod source.
 *
 * 1. no-structural-union: no anyOf/oneOf with more than one structured branch,
 *    at any depth. Some hosts refuse such a schema outright (Gemini: HTTP 400
 *    before anything runs); others keep the first branch and silently lose the
 *    rest (Langflow). docs/sources.md, "Hosts".
 * 2. root-matches-contract: the root is `type: "object"` and its parameters are
 *    exactly the contract's, with the same types, in both directions.
 * 3. required-parameters: every parameter the contract needs is in `required`.
 * 4. taught-shapes: every schema the rules read has a shape the checker was
 *    taught (TAUGHT_SHAPES below). A shape it was not taught (allOf, $ref, a
 *    oneOf of scalars, `type: ["string","number"]`, ...) could hide what rules
 *    1 to 3 look for, so it fails and asks to be taught here, rather than
 *    passing unread.
 *
 * And one rule about the checker's own list of excused violations
 * (contract/known-violations.json, src/contract/known.ts):
 * 5. rejects-missing-arguments (judged on the live server, src/contract/check.ts):
 *    a call that leaves out every argument the contract requires is refused
 *    as invalid arguments, not run. A schema that promises nothing, or a tool
 *    registered without its schema, lets such a call reach the executor.
 * 6. known-violation-fixed: a listed violation that no longer occurs fails
 *    until its entry is removed, so that the list can only shrink.
 * And one rule about the dialect the schema says it is written in:
 * 7. schema-dialect: a `$schema` at the root names draft-07, or there is none.
 *    Hosts compile the published schema with their own validator, and a
 *    dialect it cannot load costs the tool: VS Code of January 2026 leaves out
 *    every tool that declares draft 2019-09 or 2020-12; gemini-cli 0.17's Ajv
 *    fails the first call of each such tool (docs/sources.md, "Hosts"). zod 4's
 *    own `z.toJSONSchema` writes 2020-12 unless told `target: "draft-7"`.
 *
 * And one rule about what a tool answers (judged on the live server,
 * src/contract/check.ts):
 * 8. structured-output: a tool that publishes an `outputSchema` answers the
 *    contract's example call with `structuredContent` that fits it. The call
 *    goes through the SDK's own `Client.callTool`, which checks it as a host
 *    on that client does; McpServer checks first and answers `isError`
 *    (docs/sources.md, "Labs from the field's incidents", `output-schema`).
 *
 * And one rule about what the hosts take of a tool's name and description:
 * 9. fits-host-limits: the tool's name and description fit what the hosts
 *    take, which MCP itself does not limit as tightly (hostLimitViolations).
 *
 * Each violation names its rule, the tool and a JSON Pointer into the tool's
 * published definition, e.g. `/inputSchema/properties/verb/anyOf`.
 */
import { t, type Values } from '../core/messages/index.js';
import { OPENAI_MAX_DESCRIPTION, OPENAI_MAX_NAME } from '../lab/profiles/openai-functions.js';
import { codePoints } from '../lab/profiles/shared.js';
import type { ContractMessageId } from '../core/messages/en-contract.js';

export type RuleId =
  | 'no-structural-union'
  | 'root-matches-contract'
  | 'required-parameters'
  | 'taught-shapes'
  | 'rejects-missing-arguments'
  | 'known-violation-fixed'
  | 'schema-dialect'
  | 'structured-output'
  | 'fits-host-limits';

export const RULES: Record<RuleId, string> = {
  'no-structural-union': 'no anyOf/oneOf with more than one structured (object or array) branch',
  'root-matches-contract': 'the root is type "object" with exactly the parameters of the contract, with matching types',
  'required-parameters': 'every parameter the contract needs is listed in "required"',
  'taught-shapes': 'every schema has a shape the contract checker was taught (src/contract/rules.ts, TAUGHT_SHAPES)',
  'rejects-missing-arguments': 'a call with none of the arguments the contract requires is refused as invalid arguments (-32602), not run',
  'known-violation-fixed': 'every entry of contract/known-violations.json still violates; a fixed one must be removed',
  'schema-dialect': 'a "$schema" at the root names draft-07 (the dialect every host\'s validator loads), or there is none',
  'structured-output': 'a tool that publishes an outputSchema answers the contract\'s example call with structuredContent that fits it',
  'fits-host-limits': 'the tool\'s name (with the prefix a host adds) and its description fit what the hosts take',
};

/** The rules a published schema is judged by: the ones an entry of contract/known-violations.json may name. */
export const SCHEMA_RULES: readonly RuleId[] = ['no-structural-union', 'root-matches-contract', 'required-parameters', 'taught-shapes', 'rejects-missing-arguments', 'schema-dialect', 'structured-output', 'fits-host-limits'];

/** The draft-07 meta-schema's id, as the SDK's converter writes it (a trailing `#` or none: the same dialect). */
const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

/** Rule 7: the root's `$schema`, when it names another dialect than draft-07. */
export function foreignDialect(schema: unknown): string | null {
  if (!isObject(schema) || !('$schema' in schema)) return null;
  const named = schema.$schema;
  return typeof named === 'string' && named.replace(/#$/, '') === DRAFT_07 ? null : JSON.stringify(named);
}

// --- Rule 9: what the hosts take of a tool's name and description ---------------

/**
 * The name the kit's sheets give the tutor server in a host's configuration
 * (`claude mcp add tutor ...`, `"mcpServers": {"tutor": ...}`): a host that
 * puts the server's name before each tool's counts it into the tool's name.
 */
export const SERVER_NAME_IN_HOSTS = 'tutor';

/**
 * The longest prefix a host modelled by the kit puts before a tool's name:
 * Claude Code's `mcp__<server>__` (`"mcp__" + server + "__" + tool.name`, read
 * in @anthropic-ai/claude-code 1.0.63 cli.js), whose sum the Anthropic API
 * held to 64 characters (anthropics/claude-code#955, #2485; docs/sources.md,
 * "Hosts").
 */
export const CLAUDE_CODE_PREFIX = `mcp__${SERVER_NAME_IN_HOSTS}__`;

/** The function name the OpenAI and Anthropic APIs take: ^[a-zA-Z0-9_-]{1,64}$ (openai-node FunctionDefinition.name; anthropics/claude-code#2485). */
export const HOST_NAME_MAX = OPENAI_MAX_NAME;
const HOST_NAME_CHARACTERS = /^[a-zA-Z0-9_-]+$/;

/** OpenAI function calling refuses the whole request for a description over 1,024 characters (getsentry/sentry-mcp#106), counted in code points. */
export const HOST_DESCRIPTION_MAX = OPENAI_MAX_DESCRIPTION;

/** Rule 9: a name a host's API refuses, once prefixed, or a description it refuses; each at its pointer (/name, /description). */
export function hostLimitViolations(tool: { name: string; description?: string | undefined }): Violation[] {
  const violations: Violation[] = [];
  const prefixed = `${CLAUDE_CODE_PREFIX}${tool.name}`;
  if (!HOST_NAME_CHARACTERS.test(tool.name)) {
    violations.push(violation('fits-host-limits', tool.name, '/name', 'contract.nameCharacters', { tool: tool.name }));
  } else if (codePoints(prefixed) > HOST_NAME_MAX) {
    violations.push(
      violation('fits-host-limits', tool.name, '/name', 'contract.nameTooLong', { tool: tool.name, prefixed, length: String(codePoints(prefixed)), max: String(HOST_NAME_MAX) }),
    );
  }
  const description = tool.description ?? '';
  if (codePoints(description) > HOST_DESCRIPTION_MAX) {
    violations.push(violation('fits-host-limits', tool.name, '/description', 'contract.descriptionTooLong', { length: String(codePoints(description)), max: String(HOST_DESCRIPTION_MAX) }));
  }
  return violations;
}

export interface Violation {
  rule: RuleId;
  tool: string;
  /** JSON Pointer into the tool's published definition. */
  path: string;
  /** In English: what `npm run lint`, the tests and the known-violations list read. */
  message: string;
  /** The message as the catalogues hold it (src/core/messages/en-contract.ts), for a learner's command in another language. */
  said: Said;
}

/** A message by its id and what fills it: `t(said.id, lang, said.values)`. */
export interface Said {
  id: ContractMessageId;
  values: Values;
}

/** A violation, its message written from the catalogue (in English in `message`, any language from `said`). */
export function violation(rule: RuleId, tool: string, path: string, id: ContractMessageId, values: Values): Violation {
  return { rule, tool, path, message: t(id, 'en', values), said: { id, values } };
}

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** RFC 6901 escaping of one pointer segment. */
function segment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A branch is structured when it is (or may be) an object or an array: by its
 * `type`, or, with no `type`, by carrying `properties`, `items` and the like.
 * A `$ref` is counted as structured: it usually names an object.
 */
export function isStructuredBranch(branch: unknown): boolean {
  if (!isObject(branch)) return false;
  const type = branch.type;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (types.some((t) => t === 'object' || t === 'array')) return true;
  if (types.length > 0) return false;
  const structuralKeys = ['properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', '$ref', 'anyOf', 'oneOf', 'allOf'];
  return structuralKeys.some((k) => k in branch);
}

/** Every sub-schema of a schema, with its pointer: where a union may hide. The linter (src/lint/rules.ts) walks schemas with it too. */
export function* children(schema: Schema, path: string): Generator<[unknown, string]> {
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']) {
    const map = schema[key];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) yield [sub, `${path}/${key}/${segment(name)}`];
  }
  for (const key of ['items', 'additionalProperties', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']) {
    const sub = schema[key];
    if (isObject(sub)) yield [sub, `${path}/${key}`];
    // draft-07 tuple form: items as an array of schemas
    if (Array.isArray(sub)) for (const [i, s] of sub.entries()) yield [s, `${path}/${key}/${i}`];
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) yield [sub, `${path}/${key}/${i}`];
  }
}

/** Rule 1: every anyOf/oneOf with more than one structured branch, at any depth. */
export function findStructuralUnions(schema: unknown, path = ''): { path: string; structured: number; branches: number }[] {
  if (!isObject(schema)) return [];
  const found: { path: string; structured: number; branches: number }[] = [];
  for (const key of ['anyOf', 'oneOf']) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const structured = list.filter(isStructuredBranch).length;
    if (structured > 1) found.push({ path: `${path}/${key}`, structured, branches: list.length });
  }
  for (const [sub, subPath] of children(schema, path)) found.push(...findStructuralUnions(sub, subPath));
  return found;
}

/**
 * The type of a parameter as one word, for comparing with the contract:
 * "string", "object", "null|string" (sorted), or "anyOf(object|object)" for a union.
 * A parameter with no type at all is "any".
 */
export function typeOf(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return [...schema.type].map(String).sort().join('|');
  if ('const' in schema) return schema.const === null ? 'null' : typeof schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))].sort().join('|');
  }
  for (const key of ['anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const types = [...new Set(list.map(typeOf))].sort();
      // A union of scalars of one type is that type; null joins as "|null".
      if (types.every((t) => !t.startsWith('anyOf(') && !t.startsWith('oneOf(')) && !list.some(isStructuredBranch)) {
        return [...new Set(types.flatMap((t) => t.split('|')))].sort().join('|');
      }
      return `${key}(${list.map(typeOf).join('|')})`;
    }
  }
  if (isObject(schema.properties)) return 'object';
  return 'any';
}

// --- Rule 4: the shapes the checker was taught ---------------------------------

/** The type names of JSON Schema; anything else in `type` is not a type. */
export const JSON_SCHEMA_TYPES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];

/** Keywords that only annotate: allowed beside every taught shape. */
const ANNOTATIONS = ['description', 'title', 'default', 'examples', '$comment', 'deprecated'] as const;

/**
 * The shapes the checker was taught, and the keywords each may carry. A schema
 * is read by its `type` (a scalar, "object", "array", or `[T, "null"]`: the
 * shape of T, nullable) or, when it has no `type`, by `anyOf`, `enum` or
 * `const`. Anything else fails rule 4, naming what was found and where.
 *
 * To teach the checker a shape: add it here, and make sure rules 1 to 3 read
 * it right (`typeOf`, `findStructuralUnions`, `checkToolSchema`), with tests.
 * A shape is not taught by listing its keyword alone: `allOf` or `$ref` would
 * then pass without anyone having said what type they publish.
 */
export const TAUGHT_SHAPES = {
  scalar: {
    writes: '{"type": "string"|"number"|"integer"|"boolean"|"null"} with enum, const, format, pattern, bounds',
    keywords: [...ANNOTATIONS, 'type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  },
  object: { writes: '{"type": "object", "properties", "required"?, "additionalProperties"?: true|false}', keywords: [...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties'] },
  array: { writes: '{"type": "array", "items": {one schema}}', keywords: [...ANNOTATIONS, 'type', 'items', 'minItems', 'maxItems', 'uniqueItems'] },
  nullable: { writes: '{"type": [T, "null"]} with the keywords of T', keywords: [] },
  anyOf: { writes: '{"anyOf": [...]} (rule 1 judges it)', keywords: [...ANNOTATIONS, 'anyOf'] },
  enum: { writes: '{"enum": [...]}', keywords: [...ANNOTATIONS, 'enum'] },
  const: { writes: '{"const": x}', keywords: [...ANNOTATIONS, 'const'] },
} as const satisfies Record<string, { writes: string; keywords: readonly string[] }>;

type Shape = Exclude<keyof typeof TAUGHT_SHAPES, 'nullable'>;

/** The root of an inputSchema may also say which draft it is written in, and need not list properties. */
const ROOT_KEYWORDS = ['$schema'];

/** A union rule 1 already condemns (more than one structured branch): rule 4 leaves it, and what is inside it, to rule 1. */
function condemnedUnion(value: unknown): boolean {
  return Array.isArray(value) && value.filter(isStructuredBranch).length > 1;
}

function describeKeyword(key: string, value: unknown, shape: Shape | undefined): string {
  const count = Array.isArray(value) ? value.length : 0;
  switch (key) {
    case 'oneOf':
      return `oneOf of ${count} branch${count === 1 ? '' : 'es'}, none or one of them structured (oneOf is not anyOf: a value that fits two branches is refused)`;
    case 'anyOf':
      return `anyOf beside "type"`;
    case 'allOf':
      return `allOf of ${count} schema${count === 1 ? '' : 's'}`;
    case '$ref':
      return `$ref ${JSON.stringify(value)}`;
    case 'not':
    case 'if':
    case 'then':
    case 'else':
      return `"${key}"`;
    default:
      return shape ? `keyword "${key}" on a ${shape} schema` : `keyword "${key}" with no type`;
  }
}

/**
 * Rule 4: every place under `schema` whose shape the checker was not taught,
 * with a pointer to the keyword at fault (or to the schema, when it has none).
 * `root` is the inputSchema itself, which may carry `$schema`.
 */
export function findUntaughtShapes(schema: unknown, path = '', root = false): { path: string; found: string }[] {
  const found: { path: string; found: string }[] = [];
  const untaught = (at: string, what: string) => found.push({ path: at, found: what });
  if (!isObject(schema)) {
    untaught(path, `the schema ${JSON.stringify(schema)} (not an object)`);
    return found;
  }

  let shape: Shape | undefined;
  if ('type' in schema) {
    const type = schema.type;
    let single: unknown = type;
    if (Array.isArray(type)) {
      const others = type.filter((t) => t !== 'null');
      if (type.length !== 2 || others.length !== 1) {
        untaught(`${path}/type`, `type ${JSON.stringify(type)}, a type union other than [T, "null"]`);
        return found;
      }
      single = others[0];
    }
    if (typeof single !== 'string' || !JSON_SCHEMA_TYPES.includes(single)) {
      untaught(`${path}/type`, `type ${JSON.stringify(type)}, which is not a JSON Schema type (${JSON_SCHEMA_TYPES.join(', ')})`);
      return found;
    }
    // string, number, integer, boolean, null: a scalar
    shape = single === 'object' ? 'object' : single === 'array' ? 'array' : 'scalar';
  } else if ('anyOf' in schema) shape = 'anyOf';
  else if ('enum' in schema) shape = 'enum';
  else if ('const' in schema) shape = 'const';

  const allowed = new Set<string>(shape ? TAUGHT_SHAPES[shape].keywords : ANNOTATIONS);
  if (root) for (const key of ROOT_KEYWORDS) allowed.add(key);
  let structural = false;
  for (const [key, value] of Object.entries(schema)) {
    if (allowed.has(key)) continue;
    structural = true;
    if ((key === 'anyOf' || key === 'oneOf') && condemnedUnion(value)) continue; // rule 1 reports it
    untaught(`${path}/${segment(key)}`, describeKeyword(key, value, shape));
  }
  if (!shape) {
    if (!structural) untaught(path, 'a schema with no type, anyOf, enum or const (it accepts any value)');
    return found;
  }

  if ('enum' in schema && !(Array.isArray(schema.enum) && schema.enum.length > 0)) {
    untaught(`${path}/enum`, `enum ${JSON.stringify(schema.enum)}, not a list of values`);
  }
  if (shape === 'object') {
    if (!('properties' in schema)) {
      if (!root) untaught(path, 'type "object" with no properties (a map of free keys)');
    } else if (!isObject(schema.properties)) {
      untaught(`${path}/properties`, `properties ${JSON.stringify(schema.properties)}, not an object`);
    } else {
      for (const [name, sub] of Object.entries(schema.properties)) found.push(...findUntaughtShapes(sub, `${path}/properties/${segment(name)}`));
    }
    if ('additionalProperties' in schema && typeof schema.additionalProperties !== 'boolean') {
      untaught(`${path}/additionalProperties`, 'additionalProperties as a schema (a map of free keys)');
    }
  } else if (shape === 'array') {
    if (!('items' in schema)) untaught(path, 'type "array" with no items');
    else if (Array.isArray(schema.items)) untaught(`${path}/items`, 'items as a list of schemas (a tuple)');
    else found.push(...findUntaughtShapes(schema.items, `${path}/items`));
  } else if (shape === 'anyOf') {
    const list = schema.anyOf;
    if (!Array.isArray(list) || list.length === 0) untaught(`${path}/anyOf`, `anyOf ${JSON.stringify(list)}, not a list of schemas`);
    else if (!condemnedUnion(list)) for (const [i, sub] of list.entries()) found.push(...findUntaughtShapes(sub, `${path}/anyOf/${i}`));
  }
  return found;
}

/** The taught shapes, in one line, for the messages of rule 4. */
export const TAUGHT_SHAPES_IN_WORDS = Object.values(TAUGHT_SHAPES)
  .map((s) => s.writes)
  .join('; ');

/** One operation of the contract: its parameters, their types, which are needed. */
export interface ContractOperation {
  operationId: string;
  parameters: Record<string, { type: string }>;
  required: string[];
  /** The request body's `example`: the arguments rule 8 calls a tool that publishes an outputSchema with. */
  example?: Record<string, unknown>;
}

/** Rules 1 to 4 for one tool. All violations are collected, not just the first. */
export function checkToolSchema(tool: { name: string; inputSchema: unknown }, operation: ContractOperation): Violation[] {
  const violations: Violation[] = [];
  const at = (rule: RuleId, path: string, id: ContractMessageId, values: Values) => violations.push(violation(rule, tool.name, path, id, values));
  const schema = tool.inputSchema;

  const dialect = foreignDialect(schema);
  if (dialect !== null) at('schema-dialect', '/inputSchema/$schema', 'contract.schemaDialect', { named: dialect });

  for (const union of findStructuralUnions(schema, '/inputSchema')) {
    at('no-structural-union', union.path, 'contract.structuralUnion', { keyword: union.path.endsWith('oneOf') ? 'oneOf' : 'anyOf', structured: union.structured, branches: union.branches });
  }

  if (!isObject(schema) || schema.type !== 'object') {
    at('root-matches-contract', '/inputSchema/type', 'contract.rootNotObject', { got: String(JSON.stringify(isObject(schema) ? schema.type : schema)) });
    return violations;
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const published = Object.keys(properties);
  const wanted = Object.keys(operation.parameters);
  if (published.length === 0 && wanted.length > 0) {
    at('root-matches-contract', '/inputSchema/properties', 'contract.noParameters', { wanted: wanted.join(', ') });
  } else {
    for (const name of wanted) {
      if (!(name in properties)) {
        at('root-matches-contract', `/inputSchema/properties/${segment(name)}`, 'contract.parameterNotPublished', { name });
        continue;
      }
      const want = operation.parameters[name]!.type;
      const got = typeOf(properties[name]);
      if (got !== want) at('root-matches-contract', `/inputSchema/properties/${segment(name)}`, 'contract.parameterType', { name, got, want });
    }
    for (const name of published) {
      if (!(name in operation.parameters)) {
        at('root-matches-contract', `/inputSchema/properties/${segment(name)}`, 'contract.parameterNotInContract', { name });
      }
    }
  }

  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  for (const name of operation.required) {
    if (!required.includes(name) && name in properties) {
      at('required-parameters', '/inputSchema/required', 'contract.parameterNotRequired', { name });
    }
  }

  for (const untaught of findUntaughtShapes(schema, '/inputSchema', true)) {
    at('taught-shapes', untaught.path, 'contract.untaughtShape', { found: untaught.found, path: untaught.path, shapes: TAUGHT_SHAPES_IN_WORDS });
  }
  return violations;
}
