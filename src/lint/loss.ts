/**
 * What a host loses of a tool on the way to the model: the published schema
 * next to the one the host's profile shows the model (both from the same
 * profile code the labs run), compared keyword by keyword. Only what tells
 * the model something counts: annotations nobody reads ($schema, title,
 * $comment, examples, vendor x- keywords) and key order do not, and types
 * are compared without case (the legacy Gemini field spells them "STRING").
 */
import { atPointer, refUses } from './refs.js';
import { isObject, segment, type Loss } from './types.js';

/** Validation keywords compared as values: dropped or changed, each is a loss. */
const CONSTRAINTS = [
  'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
];
/** Read by the walk itself. */
const WALKED = new Set(['type', 'enum', 'const', 'properties', 'required', 'items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions', 'default', 'description', ...CONSTRAINTS]);
/** Nobody reads these, so dropping them costs nothing. */
const IGNORED = new Set(['$schema', '$id', 'title', '$comment', 'examples', '$anchor']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  // Gemini's OpenAPI subset writes "T or null" as {type: T, nullable: true}: the type ["T", "null"] says (issue 33).
  const nullable = schema.nullable === true ? ['null'] : [];
  if (typeof type === 'string') return type === 'TYPE_UNSPECIFIED' ? undefined : [...new Set([type.toLowerCase(), ...nullable])].sort().join('|');
  if (Array.isArray(type)) return [...new Set([...type.map((t) => String(t).toLowerCase()), ...nullable])].sort().join('|');
  return undefined;
}

/**
 * Whether `seen` tells the model the enum `values`: the same values, or Gemini's spelling of a number or boolean
 * enum, its values as strings under `format: "enum"` (what @ai-sdk/google sends since vercel/ai#18652, checked
 * end to end against the API there).
 */
function sameEnum(values: unknown[], seen: Record<string, unknown>): boolean {
  if (same(values, seen.enum)) return true;
  const primitive = values.every((v) => typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string');
  return primitive && seen.format === 'enum' && same(values.map(String), seen.enum);
}

/** The two schemas compared, for what their `$ref`s name; `open`, the published definitions being compared on this branch. */
interface Roots {
  published: unknown;
  seen: unknown;
  open: Set<string>;
}

/**
 * What a `$ref` node names in its own schema: the target's pointer (from the inputSchema) and the target with the
 * node's other keywords laid over it (as a host that inlines it lays them), following a chain of refs; null when
 * it names nothing here (another document, a missing pointer, a loop of refs).
 */
function throughRef(root: unknown, node: Record<string, unknown>): { pointer: string; schema: Record<string, unknown> } | null {
  const uses = refUses(root);
  const { $ref: _, ...siblings } = node;
  const followed = new Set<string>();
  let ref: unknown = node.$ref;
  let pointer = '';
  let target: unknown;
  while (typeof ref === 'string') {
    const use = uses.find((u) => u.ref === ref && u.target !== null);
    if (!use || followed.has(use.target!)) return null;
    followed.add((pointer = use.target!));
    target = atPointer(root, pointer);
    ref = isObject(target) ? target.$ref : undefined;
  }
  return { pointer, schema: { ...(isObject(target) ? target : {}), ...siblings } };
}

/** Keywords beside a `$ref` that say something of their own at that place (not a definitions map, not an annotation nobody reads). */
function ownKeywords(node: Record<string, unknown>): boolean {
  return Object.keys(node).some((k) => k !== '$ref' && k !== '$defs' && k !== 'definitions' && !IGNORED.has(k) && !k.startsWith('x-'));
}

/** A schema in a few words, for "shown as ...". */
export function short(schema: unknown): string {
  if (!isObject(schema)) return JSON.stringify(schema) ?? 'nothing';
  const type = typeOf(schema);
  if (type === undefined) return Object.keys(schema).length === 0 ? 'untyped (any value)' : 'untyped';
  if (type === 'object')
    return isObject(schema.properties) ? (Object.keys(schema.properties).length > 0 ? `an object of ${Object.keys(schema.properties).join(', ')}` : 'an object with no properties') : 'a free object';
  if (type === 'array') return 'a list';
  return `a plain ${type}`;
}

function collapse(key: string, branches: unknown[], seen: Record<string, unknown>): string {
  const n = branches.length;
  const first = branches.find((b) => !(isObject(b) && b.type === 'null'));
  const shownType = typeOf(seen);
  const nullable = n === 2 && branches.some((b) => isObject(b) && b.type === 'null');
  if (nullable && isObject(first) && typeOf(first) === shownType) return `nullable ${key}: shown as ${short(seen)} alone, so null cannot be sent`;
  if (shownType === undefined && !isObject(seen.properties)) return `${key} of ${n} branches dropped: shown ${short(seen)}`;
  if (isObject(first) && typeOf(first) === shownType && (shownType !== 'object' || same(Object.keys(isObject(first.properties) ? first.properties : {}).sort(), Object.keys(isObject(seen.properties) ? seen.properties : {}).sort())))
    return `${key} of ${n} branches reduced to its first: the others cannot be sent`;
  return `${key} of ${n} branches shown as ${short(seen)}`;
}

function walk(published: unknown, seen: unknown, path: string, out: Loss[], roots: Roots): void {
  if (!isObject(published)) {
    if (!same(published, seen)) out.push({ kind: 'changed', path, what: `shown as ${short(seen)}` });
    return;
  }
  if (!isObject(seen)) {
    out.push({ kind: 'parameter', path, what: 'dropped' });
    return;
  }
  const p = published;
  let s = seen;
  // A $ref the host keeps is read in the schema the host shows (its $defs): what the model can follow it to.
  if (typeof s.$ref === 'string' && s.$ref !== p.$ref) s = throughRef(roots.seen, s)?.schema ?? s;
  // Compared through the reference (issue 33): what a published $ref names, against what the host shows there. A
  // host that inlines the target whole (LangChain, the AI SDK) has lost nothing; what it drops inside is found, at
  // the definition where it is written (once, however many refs name it) or here when keywords beside the $ref make
  // this place its own.
  if (typeof p.$ref === 'string') {
    const target = throughRef(roots.published, p);
    if (target === null) {
      if (s.$ref !== p.$ref) out.push({ kind: 'ref', path: `${path}/$ref`, what: `$ref ${p.$ref} dropped: shown ${short(s)}` });
      return;
    }
    // A recursive definition is compared once, where it is first reached; further in, only whether the host still
    // shows a schema of its type there (the ref kept, or unrolled).
    if (roots.open.has(target.pointer)) {
      if (s.$ref !== p.$ref && typeOf(s) !== typeOf(target.schema)) out.push({ kind: 'ref', path: `${path}/$ref`, what: `recursive $ref ${p.$ref} shown as ${short(s)}` });
      return;
    }
    if (s.$ref === p.$ref) {
      const shown = throughRef(roots.seen, s);
      if (shown === null) {
        out.push({ kind: 'ref', path: `${path}/$ref`, what: `$ref ${p.$ref} shown, without what it names` });
        return;
      }
      s = shown.schema;
    }
    // Shown nothing in its place (no type, no keyword but a description): the reference itself is what was lost.
    if (s.$ref === undefined && Object.keys(s).every((k) => k === 'description' || IGNORED.has(k)) && ownKeywords(target.schema)) {
      out.push({ kind: 'ref', path: `${path}/$ref`, what: `$ref ${p.$ref} dropped: shown ${short(s)}` });
      return;
    }
    roots.open.add(target.pointer);
    walk(target.schema, s, ownKeywords(p) ? path : `/inputSchema${target.pointer}`, out, roots);
    roots.open.delete(target.pointer);
    return;
  }
  let collapsed = false;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = p[key];
    if (!Array.isArray(list)) continue;
    const shown = s[key];
    const nullIndex = list.findIndex((b) => isObject(b) && b.type === 'null');
    // Gemini's {T, nullable: true} for a union of T and null (issue 33): nothing of the union lost, T compared.
    if (!Array.isArray(shown) && key !== 'allOf' && list.length === 2 && nullIndex >= 0 && s.nullable === true) {
      const { nullable: _, ...other } = s;
      walk(list[1 - nullIndex], other, `${path}/${key}/${1 - nullIndex}`, out, roots);
      collapsed = true;
      continue;
    }
    if (!Array.isArray(shown)) {
      out.push({ kind: 'union', path: `${path}/${key}`, what: collapse(key, list, s) });
      collapsed = true;
      continue;
    }
    if (shown.length < list.length) out.push({ kind: 'union', path: `${path}/${key}`, what: `${list.length - shown.length} of the ${list.length} branches dropped` });
    list.forEach((branch, i) => {
      if (i < shown.length) walk(branch, shown[i], `${path}/${key}/${i}`, out, roots);
    });
  }
  if (collapsed) return;
  if ('type' in p) {
    const a = typeOf(p);
    const b = typeOf(s);
    if (b === undefined) out.push({ kind: 'type', path: `${path}/type`, what: `type ${a} dropped: shown untyped` });
    else if (a !== b) out.push({ kind: 'type', path: `${path}/type`, what: `type ${a} shown as ${b}` });
  }
  if (Array.isArray(p.enum) && !sameEnum(p.enum, s))
    out.push({ kind: 'enum', path: `${path}/enum`, what: Array.isArray(s.enum) ? 'enum changed' : `enum of ${p.enum.length} value${p.enum.length === 1 ? '' : 's'} dropped: the model is not told them` });
  if ('const' in p && !same(p.const, s.const) && !sameEnum([p.const], s)) out.push({ kind: 'const', path: `${path}/const`, what: 'const dropped' });
  if (isObject(p.properties)) {
    const shownProps = isObject(s.properties) ? s.properties : undefined;
    const names = Object.keys(p.properties);
    if (!shownProps && names.length > 0) out.push({ kind: 'parameter', path: `${path}/properties`, what: `its ${names.length} properties dropped: shown ${short(s)}` });
    else if (shownProps)
      for (const name of names) {
        const sub = `${path}/properties/${segment(name)}`;
        if (!Object.hasOwn(shownProps, name)) out.push({ kind: 'parameter', path: sub, what: `parameter ${name} dropped` });
        else walk(p.properties[name], shownProps[name], sub, out, roots);
      }
  }
  const wanted = Array.isArray(p.required) ? p.required.map(String) : [];
  const shownRequired = Array.isArray(s.required) ? s.required.map(String) : [];
  const notRequired = wanted.filter((n) => !shownRequired.includes(n) && (!isObject(s.properties) || Object.hasOwn(s.properties, n)));
  if (notRequired.length > 0 && isObject(s.properties)) out.push({ kind: 'required', path: `${path}/required`, what: `no longer required: ${notRequired.join(', ')}` });
  const added = shownRequired.filter((n) => !wanted.includes(n));
  if (added.length > 0) out.push({ kind: 'required', path: `${path}/required`, what: `shown as required: ${added.join(', ')}` });
  if ('items' in p && isObject(p.items)) {
    if (!isObject(s.items)) out.push({ kind: 'items', path: `${path}/items`, what: 'items dropped' });
    else walk(p.items, s.items, `${path}/items`, out, roots);
  }
  if (p.additionalProperties === false && s.additionalProperties !== false)
    out.push({ kind: 'additionalProperties', path: `${path}/additionalProperties`, what: 'additionalProperties: false dropped: the model is not told other keys are refused' });
  // `{}` permits what an absent additionalProperties (or `true`) permits: a host that drops it loses nothing (issue 33).
  else if (isObject(p.additionalProperties) && !(Object.keys(p.additionalProperties).length === 0 && (s.additionalProperties === undefined || s.additionalProperties === true))) {
    if (!isObject(s.additionalProperties)) out.push({ kind: 'additionalProperties', path: `${path}/additionalProperties`, what: 'additionalProperties schema dropped' });
    else walk(p.additionalProperties, s.additionalProperties, `${path}/additionalProperties`, out, roots);
  }
  const constraints = CONSTRAINTS.filter((k) => k in p && !same(p[k], s[k]));
  if (constraints.length > 0) out.push({ kind: 'constraint', path, what: `${constraints.join(', ')} ${constraints.every((k) => !(k in s)) ? 'dropped' : 'changed'}` });
  if ('default' in p && !same(p.default, s.default)) out.push({ kind: 'default', path: `${path}/default`, what: 'default dropped' });
  if (typeof p.description === 'string' && s.description !== p.description)
    out.push({ kind: 'description', path: `${path}/description`, what: typeof s.description === 'string' ? 'description changed' : 'description dropped' });
  const others = Object.keys(p).filter((k) => !WALKED.has(k) && !IGNORED.has(k) && !k.startsWith('x-') && !same(p[k], s[k]));
  if (others.length > 0) out.push({ kind: 'keyword', path, what: `${others.join(', ')} ${others.every((k) => !(k in s)) ? 'dropped' : 'changed'}` });
}

/** Every loss from the published inputSchema to the seen one, and of the tool's name and description. */
export function schemaLosses(published: { name: string; description?: unknown; inputSchema: unknown }, seen: { name: string; description?: string; inputSchema: unknown }): Loss[] {
  const out: Loss[] = [];
  if (seen.name !== published.name) out.push({ kind: 'name', path: '/name', what: `name shown as ${seen.name}` });
  if (typeof published.description === 'string' && seen.description !== published.description)
    out.push({ kind: 'description', path: '/description', what: seen.description === undefined ? 'the tool description dropped' : 'the tool description changed' });
  walk(published.inputSchema, seen.inputSchema, '/inputSchema', out, { published: published.inputSchema, seen: seen.inputSchema, open: new Set() });
  // A definition two refs name is compared at each: its losses are told once.
  const told = new Set<string>();
  return out.filter((l) => !told.has(`${l.kind}\u0000${l.path}\u0000${l.what}`) && told.add(`${l.kind}\u0000${l.path}\u0000${l.what}`));
}
