/**
 * `--fix-schema`'s rewrites of one finding's cause (src/lint/fix.ts chooses
 * among them): for each rule, the ways the kit can write the cause away, the
 * most faithful first, each saying whether it narrows the tool (refuses a
 * value the original accepted) and in what.
 *
 * rewrite.ts's `withoutCause` rewrites a cause to ASK a host whether the cause
 * is what it refuses; narrowing is fine there. Where it narrows, the fix has
 * its own rewrite here: a type list as an anyOf of its types (withoutCause
 * keeps the first type), an array without items given `"items": {}` (where
 * withoutCause invents string items: Bright Data's `search_after` cursor), an
 * untyped node left untyped (withoutCause invents the string type: HubSpot's
 * `value: 1000` was refused after, issue 33), unions merged
 * with every branch's schema of a shared property and with `null` kept
 * (withoutCause keeps the first branch's and drops null), oneOf read as anyOf,
 * a union removed. The first non-null branch (withoutCause's choice for a union
 * of not only objects) is offered last, marked as narrowing.
 */
import { withoutCause } from './rewrite.js';
import { atPointer, followRef } from './refs.js';
import { isObject, type Finding } from './types.js';

/** One way to write a cause away. */
export interface Rewrite {
  /** The inputSchema after. */
  schema: Record<string, unknown>;
  /** In words, for the change's `what`. */
  what: string;
  /** What a value valid before may now fail on, in words; absent when the rewrite accepts whatever the original did. */
  narrows?: string;
  /**
   * The model is shown what the original tells it, in a form more hosts read (a ref inlined, const as a one-value
   * enum, a union of objects as one object of their properties): worth making where a host only loses something
   * without it. Any other rewrite removes or narrows something, so it is made only where a host refuses or drops
   * the tool without it (a keyword removed because a host drops it is lost on every host instead of one).
   */
  shows?: true;
}

/** The rules --fix-schema writes away, in the order it takes them: definitions first (inlining changes every path under them). */
export const FIXED_RULES = ['unused-defs', 'ref', 'no-structural-union', 'one-of', 'all-of', 'const', 'type-list', 'untaught', 'ref-unresolved', 'array-items', 'untyped', 'format', 'examples', 'schema-dialect', 'open-root', 'required-undefined'];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The node a finding's path names, or its parent node and the keyword, in a copy of the schema. */
function located(schema: Record<string, unknown>, finding: Finding, parent: boolean): { out: Record<string, unknown>; node: Record<string, unknown>; key: string } | null {
  const pointer = finding.path.slice('/inputSchema'.length);
  const at = pointer.lastIndexOf('/');
  const out = structuredClone(schema);
  const node = atPointer(out, parent ? pointer.slice(0, at) : pointer);
  return isObject(node) ? { out, node, key: pointer.slice(at + 1) } : null;
}

/**
 * A union's object branches (refs read through) merged into one object of
 * every branch's properties, none required. For anyOf/oneOf a property that
 * branches define differently takes an anyOf of their schemas, and a null
 * branch keeps null accepted (the object written as an anyOf with null), so
 * that nothing the union accepted is refused; for allOf every branch held at
 * once, so any one branch's schema of a property accepts at least as much.
 * "type": "object" only where every branch says it (a branch of properties
 * alone accepts a string too). Null when a branch is not an object.
 */
function mergedObjects(branches: unknown[], schema: Record<string, unknown>, allOf: boolean): Record<string, unknown> | null {
  const read = branches.map((b) => (isObject(b) && typeof b.$ref === 'string' ? followRef(schema, b) : b));
  const nullable = !allOf && read.some((b) => isObject(b) && b.type === 'null');
  const objects = read.filter((b) => !(isObject(b) && b.type === 'null'));
  if (objects.length === 0 || !objects.every((b) => isObject(b) && (b.type === 'object' || (b.type === undefined && isObject(b.properties))))) return null;
  const seen = new Map<string, unknown[]>();
  for (const o of objects as Record<string, unknown>[])
    for (const [k, v] of Object.entries(isObject(o.properties) ? o.properties : {})) {
      const list = seen.get(k) ?? [];
      if (!list.some((s) => same(s, v))) list.push(v);
      seen.set(k, list);
    }
  const properties = Object.fromEntries([...seen].map(([k, list]) => [k, allOf || list.length === 1 ? list[0] : { anyOf: list }]));
  const typed = (allOf ? objects.some((o) => (o as Record<string, unknown>).type === 'object') : objects.every((o) => (o as Record<string, unknown>).type === 'object'));
  const merged = { ...(typed ? { type: 'object' } : {}), properties };
  return nullable ? { anyOf: [merged, { type: 'null' }] } : merged;
}

/** The rewrites of a union (anyOf/oneOf/allOf at the finding's path), the most faithful first. */
function unionRewrites(schema: Record<string, unknown>, finding: Finding): Rewrite[] {
  const here = located(schema, finding, true);
  if (!here || !Array.isArray(here.node[here.key])) return [];
  const key = here.key;
  const branches = here.node[key] as unknown[];
  const out: Rewrite[] = [];
  /**
   * The node without the union, `extra` merged in. The node's own keywords held beside the union and still hold, so
   * where it says one the merged branches say too, its own is kept (a property's schema too); an anyOf of its own
   * leaves no room for one more (null).
   */
  const rewritten = (extra: Record<string, unknown>) => {
    const copy = structuredClone(here);
    delete copy.node[key];
    for (const [k, v] of Object.entries(extra)) {
      if (k === 'properties' && isObject(copy.node.properties)) copy.node.properties = { ...(v as object), ...copy.node.properties };
      else if (!(k in copy.node)) copy.node[k] = v;
      else if (k === 'anyOf') return null;
    }
    return copy.out;
  };
  const add = (r: Rewrite | null) => {
    if (r && !out.some((o) => same(o.schema, r.schema))) out.push(r);
  };
  const n = branches.length;
  if (key === 'oneOf' && !('anyOf' in here.node)) {
    const schemaAfter = rewritten({ anyOf: branches });
    if (schemaAfter) add({ schema: schemaAfter, what: `oneOf written as anyOf (a value that matches several of its ${n} branches passes too)`, shows: true });
  }
  const merged = mergedObjects(branches, schema, key === 'allOf');
  if (merged) {
    const schemaAfter = rewritten(merged);
    if (schemaAfter) add({ schema: schemaAfter, what: `${key} of ${n} objects merged into one object of every branch's properties, none required${key === 'allOf' ? '' : ' (a property the branches define differently is an anyOf of their schemas)'}`, shows: true });
  }
  if (key === 'allOf') {
    // Every branch held at once: any one of them alone accepts at least as much.
    const first = branches.find((b) => isObject(b));
    const read = isObject(first) && typeof first.$ref === 'string' ? followRef(schema, first) : first;
    const schemaAfter = isObject(read) ? rewritten(read) : null;
    if (schemaAfter) add({ schema: schemaAfter, what: `allOf of ${n} replaced by its first branch (every branch held at once, so the first alone accepts at least as much)` });
  }
  add({ schema: rewritten({})!, what: `${key} of ${n} branches removed: any value its node's other keywords allow passes (the model is told none of the branches)` });
  if (key !== 'allOf') {
    // withoutCause's rewrite: objects merged with the first branch's schema of a shared property, null dropped; else the first branch.
    const first = withoutCause(schema, finding);
    const objects = merged !== null;
    if (first) add({
      schema: first,
      what: objects ? `${key} of ${n} objects merged into one object, a shared property given its first branch's schema` : `${key} of ${n} branches replaced by its first that is not null`,
      narrows: objects ? 'a property the branches define differently, or null, may be refused' : `only what its first non-null branch accepts passes`,
    });
  }
  return out;
}

/** The ways to write one finding's cause away, the most faithful first; empty when the kit has none. */
export function rewritesOf(schema: Record<string, unknown>, finding: Finding): Rewrite[] {
  if (!finding.path.startsWith('/inputSchema')) return [];
  const tail = finding.path.slice(finding.path.lastIndexOf('/') + 1);
  switch (finding.rule) {
    case 'unused-defs':
    case 'ref':
    case 'const': {
      // Definitions nothing references removed; refs inlined; const as a one-value enum: the same values pass.
      const out = withoutCause(schema, finding);
      if (!out) return [];
      const what = finding.rule === 'ref' ? 'inlined every $ref and removed "$defs"/"definitions"' : finding.rule === 'const' ? '"const" written as an enum of its one value' : 'removed the definitions nothing references';
      return [{ schema: out, what, shows: true }];
    }
    case 'untaught':
    case 'ref-unresolved':
    case 'format':
    case 'examples':
    case 'schema-dialect':
    case 'open-root': {
      // A keyword removed accepts at least as much (a root without additionalProperties allows any other key, as true
      // did; without $schema a validator reads its own dialect); not an array's element (withoutCause would leave a hole).
      const here = located(schema, finding, true);
      if (!here || /^\d+$/.test(tail)) return [];
      const out = withoutCause(schema, finding);
      return out ? [{ schema: out, what: `removed "${tail}"` }] : [];
    }
    case 'required-undefined': {
      // A name "properties" does not define, out of "required": an object without that key passes too.
      const out = withoutCause(schema, finding);
      return out ? [{ schema: out, what: `took "${String(atPointer(schema, finding.path.slice('/inputSchema'.length)))}" out of "required" (no property of that name is defined)` }] : [];
    }
    case 'type-list': {
      const here = located(schema, finding, true);
      if (!here || !Array.isArray(here.node.type) || 'anyOf' in here.node) return [];
      const types = here.node.type;
      delete here.node.type;
      here.node.anyOf = types.map((type) => ({ type }));
      return [{ schema: here.out, what: 'the type list written as an anyOf of one type each', shows: true }];
    }
    case 'array-items': {
      const here = located(schema, finding, false);
      if (!here || 'items' in here.node) return [];
      here.node.items = {};
      return [{ schema: here.out, what: 'added "items": {} (any item, as before)', shows: true }];
    }
    case 'untyped':
      // Any type given would narrow (HubSpot's `value: 1000`, refused once "type": "string" was added), an anyOf of
      // every type nests without end (its array branch's items are untyped again), and no host of the matrix refuses
      // or drops a tool for an untyped node (every profile, asked about {} and {"description": ...}): left as it is.
      return [];
    case 'no-structural-union':
    case 'one-of':
    case 'all-of':
      return unionRewrites(schema, finding);
    default:
      return [];
  }
}
