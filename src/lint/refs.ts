/**
 * `$ref` inside one published inputSchema, resolved locally: a JSON Pointer
 * (`#/$defs/Verb`), the root (`#`) or an `$anchor` (`#verb`). Nothing is
 * ever fetched, as no host fetches either: a ref to another document does not
 * resolve here. Recursion (a definition that reaches itself again through
 * its refs, the root included) is found, and so is a chain of refs that never
 * reaches a schema.
 */
import { children } from '../contract/rules.js';
import { isObject, segment } from './types.js';

export interface RefUse {
  /** Pointer of the schema that holds the $ref, from the tool: "/inputSchema/properties/verb". */
  at: string;
  ref: string;
  /** Pointer of the target inside the inputSchema ("" for the root), or null when it does not resolve. */
  target: string | null;
  /** Why it does not resolve. */
  why?: string;
}

/** RFC 6901 unescaping of one segment, after the URI fragment's percent-decoding. */
function unescape(raw: string): string | null {
  try {
    return decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return null;
  }
}

/** A JSON Pointer's reference tokens, unescaped; null when one cannot be read. */
export function pointerParts(pointer: string): string[] | null {
  if (pointer === '') return [];
  const parts = pointer.slice(1).split('/').map(unescape);
  return parts.includes(null) ? null : (parts as string[]);
}

/** The node a pointer names inside `root`, or undefined. */
export function atPointer(root: unknown, pointer: string): unknown {
  const parts = pointerParts(pointer);
  if (parts === null) return undefined;
  let node: unknown = root;
  for (const part of parts) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

/** Calls `visit` on every subschema of `schema` with its pointer relative to the inputSchema. */
export function eachSchema(schema: unknown, visit: (node: unknown, pointer: string) => void, pointer = ''): void {
  visit(schema, pointer);
  if (!isObject(schema)) return;
  for (const [sub, subPointer] of children(schema, pointer)) eachSchema(sub, visit, subPointer);
}

/** Where a ref points inside this schema, or why it points nowhere. */
function resolve(ref: string, root: unknown, anchors: Map<string, string>): { target: string } | { why: string } {
  if (ref === '#' || ref === '') return { target: '' };
  if (!ref.startsWith('#')) return { why: 'it names another document, and hosts do not fetch one' };
  if (ref.startsWith('#/')) {
    const pointer = ref.slice(1);
    const node = atPointer(root, pointer);
    // One spelling per target (a fragment may percent-encode what a pointer writes plainly).
    if (isObject(node) || typeof node === 'boolean') return { target: pointer.split('/').map((p) => segment(unescape(p) ?? p)).join('/') };
    return { why: node === undefined ? 'nothing in this schema is at that pointer' : 'what is at that pointer is not a schema' };
  }
  const anchor = anchors.get(ref.slice(1));
  return anchor !== undefined ? { target: anchor } : { why: 'no $anchor of that name in this schema' };
}

const usesOf = new WeakMap<object, Map<string, RefUse[]>>();

/** Every $ref of a published schema with its target (read once per schema object); `base` is where the schema sits in the tool. */
export function refUses(inputSchema: unknown, base = '/inputSchema'): RefUse[] {
  if (!isObject(inputSchema)) return [];
  let byBase = usesOf.get(inputSchema);
  if (!byBase) usesOf.set(inputSchema, (byBase = new Map()));
  let uses = byBase.get(base);
  if (!uses) byBase.set(base, (uses = findRefUses(inputSchema, base)));
  return uses;
}

function findRefUses(inputSchema: Record<string, unknown>, base: string): RefUse[] {
  const anchors = new Map<string, string>();
  eachSchema(inputSchema, (node, pointer) => {
    if (isObject(node) && typeof node.$anchor === 'string') anchors.set(node.$anchor, pointer);
  });
  const uses: RefUse[] = [];
  eachSchema(inputSchema, (node, pointer) => {
    if (!isObject(node) || !('$ref' in node)) return;
    const ref = node.$ref;
    if (typeof ref !== 'string') {
      uses.push({ at: `${base}${pointer}`, ref: JSON.stringify(ref), target: null, why: '$ref is not a string' });
      return;
    }
    const resolved = resolve(ref, inputSchema, anchors);
    uses.push('target' in resolved ? { at: `${base}${pointer}`, ref, target: resolved.target } : { at: `${base}${pointer}`, ref, target: null, why: resolved.why });
  });
  return uses;
}

/** The schema a $ref-only chain ends at, following refs; null when it resolves nowhere or loops without content. */
export function followRef(inputSchema: unknown, node: unknown): unknown {
  const seen = new Set<string>();
  let current = node;
  const uses = refUses(inputSchema);
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    const use = uses.find((u) => u.ref === ref && u.target !== null);
    if (!use || seen.has(use.target!)) return null;
    seen.add(use.target!);
    current = atPointer(inputSchema, use.target!);
  }
  return current;
}

/**
 * The recursive definitions: targets that reach themselves again through
 * the refs in their subtree. Each is given with the ref that closes the loop.
 */
export function recursion(inputSchema: unknown, uses = refUses(inputSchema), base = '/inputSchema'): { target: string; closedAt: string }[] {
  const resolved = uses.filter((u): u is RefUse & { target: string } => u.target !== null);
  /** The refs inside a target's subtree (the pointer of each use is below the target's). */
  const inside = (target: string) => resolved.filter((u) => u.at === `${base}${target}` || u.at.startsWith(`${base}${target}/`));
  const found: { target: string; closedAt: string }[] = [];
  for (const start of new Set(resolved.map((u) => u.target))) {
    const stack: string[] = [start];
    const visited = new Set<string>();
    let closedAt: string | undefined;
    while (stack.length > 0 && closedAt === undefined) {
      const target = stack.pop()!;
      if (visited.has(target)) continue;
      visited.add(target);
      for (const use of inside(target)) {
        if (use.target === start) {
          closedAt = use.at;
          break;
        }
        stack.push(use.target);
      }
    }
    if (closedAt !== undefined) found.push({ target: start, closedAt });
  }
  return found;
}

/** A `$defs` or `definitions` map in the part of a schema a tool can reach, and its entries nothing reaches. */
export interface DefsContainer {
  /** Pointer of the map inside the schema: "/$defs". */
  pointer: string;
  entries: number;
  unused: { name: string; bytes: number }[];
}

/** What a tool can reach of one schema: its subschemas, and the definition maps among them. */
export interface Reach {
  /** Pointers (inside the schema) of every subschema the root reaches, through its own keywords and through refs. */
  live: Set<string>;
  defs: DefsContainer[];
}

const DEF_MAPS = ['$defs', 'definitions'];

/**
 * What one schema can reach: from the root, every subschema but the entries
 * of `$defs`/`definitions`, which are reached only through a `$ref` (JSON
 * Schema 2020-12, 8.2.4: "$defs ... do not directly affect the validation
 * result"). A definition nothing refers to is sent to every host all the same,
 * and validates nothing.
 */
export function reach(schema: unknown): Reach {
  const live = new Set<string>();
  const containers = new Map<string, Record<string, unknown>>();
  const uses = refUses(schema, '');
  const walk = (node: unknown, pointer: string): void => {
    if (live.has(pointer)) return;
    live.add(pointer);
    if (!isObject(node)) return;
    for (const key of DEF_MAPS) if (isObject(node[key])) containers.set(`${pointer}/${key}`, node[key] as Record<string, unknown>);
    for (const [sub, subPointer] of children(node, pointer)) {
      const step = subPointer.slice(pointer.length + 1).split('/')[0]!;
      if (!DEF_MAPS.includes(step)) walk(sub, subPointer);
    }
  };
  walk(schema, '');
  for (let grew = true; grew; ) {
    grew = false;
    for (const use of uses)
      if (use.target !== null && live.has(use.at) && !live.has(use.target)) {
        walk(atPointer(schema, use.target), use.target);
        grew = true;
      }
  }
  const defs = [...containers]
    .filter(([pointer]) => live.has(pointer.slice(0, pointer.lastIndexOf('/'))))
    .map(([pointer, map]) => {
      const reached = (name: string) => {
        const at = `${pointer}/${segment(name)}`;
        return [...live].some((p) => p === at || p.startsWith(`${at}/`));
      };
      const unused = Object.keys(map)
        .filter((name) => !reached(name))
        .map((name) => ({ name, bytes: Buffer.byteLength(`${JSON.stringify(name)}:${JSON.stringify(map[name])}`) }));
      return { pointer, entries: Object.keys(map).length, unused };
    });
  return { live, defs };
}
