/**
 * A Pydantic v2 emulator for langflow's MCP tools: the JSON Schema turned into
 * a Pydantic model as langflow builds it, that model written back as the
 * schema the model is shown, and Pydantic's lax validation of arguments with
 * pydantic-core's error texts. Used by langflow.ts.
 */
import type { JsonSchema } from '../types.js';
import { pyRepr, pyTypeName } from './python-repr.js';
import { copy, isObject } from './shared.js';

/** A Python type as langflow's create_input_schema_from_json_schema builds it. */
export type PyType =
  | { kind: 'str' | 'int' | 'float' | 'bool' | 'any' | 'dict' }
  | { kind: 'list'; item: PyType }
  | { kind: 'nullable'; inner: PyType }
  | PyModel;
export interface PyModel {
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

export class RootNotObject extends Error {}

/**
 * A transcription of langflow `create_input_schema_from_json_schema`
 * (src/lfx/src/lfx/schema/json_schema.py at commit 07cdd0a4, which has the
 * `building` guard of langflow-ai/langflow PR #12359, opened 2026-03-27; the
 * earlier f650516d lacks it, makes an object without properties an empty model
 * and raises TypeError on a type list; the anyOf logic is PR 7941, 2025-05-07):
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
export function langflowModel(root: JsonSchema): PyModel {
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
export function renderPy(type: PyType): JsonSchema {
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

export interface PyError {
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
export function validateModel(model: PyModel, value: Record<string, unknown>, loc: (string | number)[], errors: PyError[]): Record<string, unknown> {
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
export function pydanticText(modelName: string, errors: PyError[]): string {
  const head = `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${modelName}`;
  const lines = errors.map(
    (e) => `${e.loc.join('.')}\n  ${e.message} [type=${e.type}, input_value=${pyRepr(e.input)}, input_type=${pyTypeName(e.input)}]`,
  );
  return [head, ...lines].join('\n');
}

