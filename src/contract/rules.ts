/**
 * The schema contract rules, checked on the published JSON Schema (what a
 * client got from `tools/list`), never on the zod source.
 *
 * 1. no-structural-union: no anyOf/oneOf with more than one structured branch,
 *    at any depth. Some hosts refuse such a schema outright (Gemini: HTTP 400
 *    before anything runs); others keep the first branch and silently lose the
 *    rest (Langflow). facts.md section 2.
 * 2. root-matches-contract: the root is `type: "object"` and its parameters are
 *    exactly the contract's, with the same types, in both directions.
 * 3. required-parameters: every parameter the contract needs is in `required`.
 *
 * Each violation names its rule, the tool and a JSON Pointer into the tool's
 * published definition, e.g. `/inputSchema/properties/verb/anyOf`.
 */

export type RuleId = 'no-structural-union' | 'root-matches-contract' | 'required-parameters';

export const RULES: Record<RuleId, string> = {
  'no-structural-union': 'no anyOf/oneOf with more than one structured (object or array) branch',
  'root-matches-contract': 'the root is type "object" with exactly the parameters of the contract, with matching types',
  'required-parameters': 'every parameter the contract needs is listed in "required"',
};

export interface Violation {
  rule: RuleId;
  tool: string;
  /** JSON Pointer into the tool's published definition. */
  path: string;
  message: string;
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

/** Every sub-schema of a schema, with its pointer: where a union may hide. */
function* children(schema: Schema, path: string): Generator<[unknown, string]> {
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

/** One operation of the contract: its parameters, their types, which are needed. */
export interface ContractOperation {
  operationId: string;
  parameters: Record<string, { type: string }>;
  required: string[];
}

/** Rules 1 to 3 for one tool. All violations are collected, not just the first. */
export function checkToolSchema(tool: { name: string; inputSchema: unknown }, operation: ContractOperation): Violation[] {
  const violations: Violation[] = [];
  const at = (rule: RuleId, path: string, message: string) => violations.push({ rule, tool: tool.name, path, message });
  const schema = tool.inputSchema;

  for (const union of findStructuralUnions(schema, '/inputSchema')) {
    at(
      'no-structural-union',
      union.path,
      `${union.path.endsWith('oneOf') ? 'oneOf' : 'anyOf'} with ${union.structured} structured branches (of ${union.branches}); ` +
        'hosts either refuse it (Gemini) or keep only the first branch (Langflow). Use one object with optional fields, separate parameters, or a permissive schema with server-side dispatch.',
    );
  }

  if (!isObject(schema) || schema.type !== 'object') {
    at('root-matches-contract', '/inputSchema/type', `the root must be type "object" (got ${JSON.stringify(isObject(schema) ? schema.type : schema)})`);
    return violations;
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const published = Object.keys(properties);
  const wanted = Object.keys(operation.parameters);
  if (published.length === 0 && wanted.length > 0) {
    at(
      'root-matches-contract',
      '/inputSchema/properties',
      `publishes no parameters, but the contract has ${wanted.join(', ')}: clients cannot see what the tool needs (a root transform, pipe or union publishes {"type":"object","properties":{}})`,
    );
  } else {
    for (const name of wanted) {
      if (!(name in properties)) {
        at('root-matches-contract', `/inputSchema/properties/${segment(name)}`, `parameter "${name}" of the contract is not published`);
        continue;
      }
      const want = operation.parameters[name]!.type;
      const got = typeOf(properties[name]);
      if (got !== want) at('root-matches-contract', `/inputSchema/properties/${segment(name)}`, `parameter "${name}" is published as ${got}, the contract says ${want}`);
    }
    for (const name of published) {
      if (!(name in operation.parameters)) {
        at('root-matches-contract', `/inputSchema/properties/${segment(name)}`, `parameter "${name}" is published but is not in the contract`);
      }
    }
  }

  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  for (const name of operation.required) {
    if (!required.includes(name) && name in properties) {
      at('required-parameters', '/inputSchema/required', `parameter "${name}" is needed by the contract but missing from "required": a call without it passes validation and fails inside the tool`);
    }
  }
  return violations;
}
