/**
 * The kit's rewrites of a tool, one cause at a time: what the linter asks a
 * host about to learn whether that cause is what it refuses (src/lint/hurt.ts),
 * and what --fix-schema starts from (src/lint/fix.ts, which keeps its own
 * rewrite wherever one of these would narrow what the tool accepts: a probe
 * may narrow, a fix may not without saying so).
 */
import { OPENAI_MAX_DESCRIPTION } from '../lab/profiles/openai-functions.js';
import { atPointer, followRef, pointerParts, reach } from './refs.js';
import { isObject, type Finding, type ListedTool } from './types.js';

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The object branches of a union merged into one object, every property optional; else its first branch that is not null. */
export function mergedBranches(branches: unknown[], schema: unknown): Record<string, unknown> {
  const read = branches.map((b) => (isObject(b) && typeof b.$ref === 'string' ? (followRef(schema, b) ?? b) : b)).filter((b) => !(isObject(b) && b.type === 'null'));
  const objects = read.filter((b): b is Record<string, unknown> => isObject(b) && (b.type === 'object' || isObject(b.properties)));
  if (objects.length > 0 && objects.length === read.length) {
    const properties: Record<string, unknown> = {};
    // A copy: the merged properties go into a schema that may be rewritten further, in place (withoutAll).
    for (const o of objects) if (isObject(o.properties)) for (const [k, v] of Object.entries(o.properties)) if (!(k in properties)) properties[k] = clone(v);
    return { type: 'object', properties };
  }
  const first = read[0];
  return isObject(first) ? clone(first) : {};
}

/** Every $ref of a schema replaced by what it points at (up to a depth: a recursive schema keeps its refs there), its definition maps removed. */
export function inlined(schema: Record<string, unknown>): Record<string, unknown> | null {
  const expand = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => expand(n, depth));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      if (depth > 12) throw new Error('recursive');
      const target = followRef(schema, node);
      if (target === null || target === undefined) throw new Error('unresolved');
      const { $ref: _, ...rest } = node;
      return expand({ ...(isObject(target) ? target : {}), ...rest }, depth + 1);
    }
    return Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$defs' && k !== 'definitions').map(([k, v]) => [k, expand(v, depth)]));
  };
  try {
    return expand(schema, 0) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * The inputSchema with one finding's cause taken away, as the kit would fix
 * it; null when the kit has no such rewrite (then no host is asked).
 */
export function withoutCause(schema: Record<string, unknown>, finding: Finding, inPlace = false): Record<string, unknown> | null {
  if (!finding.path.startsWith('/inputSchema')) return null;
  const pointer = finding.path.slice('/inputSchema'.length);
  const at = pointer.lastIndexOf('/');
  const key = pointer.slice(at + 1);
  // Inlining builds a new tree of its own.
  if (finding.rule === 'ref') return inlined(schema);
  // In place only on a copy of the caller's (withoutAll): a copy per cause made linting a server with big schemas and
  // many findings quadratic (@softeria/ms-365-mcp-server, 1.8 MB: minutes in structuredClone).
  const out = inPlace ? schema : clone(schema);
  const parentOf = (p: string) => atPointer(out, p);
  switch (finding.rule) {
    case 'unused-defs': {
      const container = parentOf(pointer);
      if (!isObject(container)) return null;
      const unused = new Set(reach(schema).defs.find((d) => d.pointer === pointer)?.unused.map((u) => u.name) ?? []);
      for (const name of unused) delete container[name];
      if (Object.keys(container).length === 0) delete (parentOf(pointer.slice(0, at)) as Record<string, unknown>)[key];
      return out;
    }
    case 'no-structural-union':
    case 'one-of':
    case 'all-of': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node) || !Array.isArray(node[key])) return null;
      const merged = mergedBranches(node[key] as unknown[], schema);
      delete node[key];
      for (const [k, v] of Object.entries(merged)) if (!(k in node)) node[k] = v;
      return out;
    }
    case 'const': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node)) return null;
      if (!('enum' in node)) node.enum = [node.const];
      delete node.const;
      return out;
    }
    case 'type-list': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node) || !Array.isArray(node.type)) return null;
      node.type = node.type.find((t) => t !== 'null') ?? 'string';
      return out;
    }
    case 'ref-unresolved':
    case 'untaught':
    case 'format':
    case 'examples':
    case 'schema-dialect':
    case 'open-root': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node)) return null;
      delete node[key];
      return out;
    }
    case 'required-undefined': {
      // The path names one entry of the list: /properties/x/required/2.
      const list = parentOf(pointer.slice(0, at));
      const owner = parentOf(pointer.slice(0, pointer.lastIndexOf('/', at - 1)));
      const index = Number(key);
      if (!Array.isArray(list) || !isObject(owner) || !Number.isInteger(index) || index >= list.length) return null;
      list.splice(index, 1);
      if (list.length === 0) delete owner.required;
      return out;
    }
    case 'array-items': {
      const node = parentOf(pointer);
      if (!isObject(node)) return null;
      node.items = { type: 'string' };
      return out;
    }
    case 'untyped': {
      const node = parentOf(pointer);
      if (!isObject(node)) return null;
      node.type = 'string';
      return out;
    }
    default:
      return null;
  }
}

/**
 * The rules whose cause is one keyword of one schema, named by the finding's
 * path. Not a union: its branches are schemas with keywords of their own (an
 * `additionalProperties` a host refuses), and a refusal of the union asked
 * about alone would be theirs as often as its own.
 */
const KEYWORD_RULES: ReadonlySet<string> = new Set(['untaught', 'const', 'type-list']);

/**
 * A finding's keyword alone (`probe`), on the path to it from the root, and
 * the same without it (`control`): every schema on the way cut down to its
 * type and the one step down (a property, `items` or `additionalProperties`),
 * the schema that holds the keyword to its type and the keyword. Null for a
 * rule whose cause is not one keyword, a path through anything else (a
 * union's branch, a definition), or a keyword whose value refers elsewhere.
 */
export function keywordAlone(schema: Record<string, unknown>, finding: Finding): { probe: Record<string, unknown>; control: Record<string, unknown> } | null {
  if (!KEYWORD_RULES.has(finding.rule) || !finding.path.startsWith('/inputSchema')) return null;
  const parts = pointerParts(finding.path.slice('/inputSchema'.length));
  if (parts === null || parts.length === 0) return null;
  const key = parts.at(-1)!;
  /** The schemas on the way down, each with the step taken from it. */
  const path: { node: Record<string, unknown>; step: 'properties' | 'items' | 'additionalProperties'; name?: string }[] = [];
  let owner: unknown = schema;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isObject(owner)) return null;
    const part = parts[i]!;
    if (part === 'properties' && i + 1 < parts.length - 1 && isObject(owner.properties)) {
      const name = parts[++i]!;
      path.push({ node: owner, step: part, name });
      owner = owner.properties[name];
    } else if (part === 'items' || part === 'additionalProperties') {
      path.push({ node: owner, step: part });
      owner = owner[part];
    } else return null;
  }
  if (!isObject(owner) || !Object.hasOwn(owner, key) || JSON.stringify(owner[key]).includes('"$ref"')) return null;
  const holder = owner;
  const typeOf = (node: Record<string, unknown>, fallback?: string) => (typeof node.type === 'string' ? { type: node.type } : fallback ? { type: fallback } : {});
  // The root of an inputSchema is an object (MCP); a type list is the keyword itself, not kept beside it.
  const holderType = key === 'type' ? {} : typeOf(holder, path.length === 0 ? 'object' : undefined);
  const build = (withKeyword: boolean) => {
    let node: Record<string, unknown> = { ...holderType, ...(withKeyword ? { [key]: clone(holder[key]) } : {}) };
    for (const { node: here, step, name } of [...path].reverse()) {
      node = step === 'properties' ? { ...typeOf(here, 'object'), properties: { [name!]: node } } : step === 'items' ? { ...typeOf(here, 'array'), items: node } : { ...typeOf(here, 'object'), additionalProperties: node };
    }
    return node;
  };
  return { probe: build(true), control: build(false) };
}


/**
 * A name every host of the matrix takes: characters outside [A-Za-z0-9_-] as "_" (what VS Code, the OpenAI Agents
 * SDK and Mastra's Agent do themselves), a first character that is a letter or "_" (Gemini), at most 64 (OpenAI,
 * Gemini).
 */
export function hostSafeName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return (/^[A-Za-z_]/.test(safe) ? safe : `_${safe}`).slice(0, 64) || '_';
}

/** The tool with one finding's cause taken away (its name, its description, or its inputSchema as withoutCause does); null when the kit has no such rewrite. */
export function toolWithoutCause(tool: ListedTool, finding: Finding, inPlace = false): ListedTool | null {
  if (finding.rule === 'description-length')
    return typeof tool.description === 'string' ? { ...tool, description: [...tool.description].slice(0, OPENAI_MAX_DESCRIPTION).join('') } : null;
  if (finding.rule === 'tool-name') return { ...tool, name: hostSafeName(tool.name) };
  if (!isObject(tool.inputSchema)) return null;
  const inputSchema = withoutCause(tool.inputSchema, finding, inPlace);
  return inputSchema === null ? null : { ...tool, inputSchema };
}

/** The index a required-undefined finding names (its path's last step), else -1. */
const requiredIndex = (f: Finding) => (f.rule === 'required-undefined' ? Number(f.path.slice(f.path.lastIndexOf('/') + 1)) : -1);

/**
 * The tool with every one of `findings` taken away that can be: each in turn on what the ones before left, in an
 * order that keeps their paths true (entries of a "required" list from the last, so the others keep their index;
 * definitions last, since inlining moves what is under them). One whose path no longer leads anywhere is skipped.
 */
export function withoutAll(tool: ListedTool, findings: Finding[]): ListedTool {
  const rank = (f: Finding) => (f.rule === 'ref' ? 2 : f.rule === 'unused-defs' ? 1 : 0);
  const ordered = [...findings].sort((a, b) => rank(a) - rank(b) || requiredIndex(b) - requiredIndex(a));
  // One copy, each cause then taken away from it in place (a null rewrite leaves it as it was).
  let out: ListedTool = isObject(tool.inputSchema) ? { ...tool, inputSchema: clone(tool.inputSchema) } : tool;
  for (const f of ordered) out = toolWithoutCause(out, f, true) ?? out;
  return out;
}
